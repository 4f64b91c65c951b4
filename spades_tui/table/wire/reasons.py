"""A refusal's reason: sent in English, shown in the reader's language (docs/table-protocol.md, docs/languages.md).

The protocol never changes with the language: a server and its clients may speak different ones, so an ``error``'s
``reason`` always goes out in English, as the host writes it (``N_`` marks it for the catalog and returns it as
it is).  The protocol has no code beside the reason: the reasons a spades-tui host sends are its known set, and
each is its own key.  A client shows a reason it knows (``shown``: the same template, its values read back) in the
player's language; any other (a foreign server's, an older one's) as it came, text from outside, already cleaned
by ``frames.error``.
"""

from __future__ import annotations

import re
from functools import cache

from ...i18n.language import N_, translated

# Joining and watching.
WRONG_CODE = N_("wrong code")
TOO_MANY_WRONG = N_("too many wrong codes from this address: wait a minute")
TOO_MANY_WRONG_KEYS = N_("too many wrong codes or keys from this address: wait a minute")
WATCH_CODE = N_("that is the table's watch code: watch with 'spades-tui watch ADDR:P CODE'")
JOIN_CODE = N_("that is the table's join code, which sits down at the table: watch with the watch code")
CODE_USED = N_("that code has been used: the seat is taken (its player comes back with 'join' alone)")
UNKNOWN_TOKEN = N_("unknown seat token (that game is not at this table)")
WATCHERS_FULL = N_("this table has {count} watchers already: try again later")
VERSION = N_("this table speaks protocol {version}; update spades-tui")
TAKEN = N_("your seat was taken from another window")
NOT_A_SERVER = N_("this is a table, not a server: open a table with 'spades-tui host --server ADDR:P' at a "
                  "'spades-tui serve'")
NO_RATINGS = N_("this server keeps no players or ratings")
SLOW_WATCHER = N_("you could not keep up with the table (too many frames waiting for you): watch it again")
# Saying a line.
WATCHERS_SAY = N_("watchers read but do not say")
LINE_TOO_LONG = N_("a line may hold at most {count} characters")
NOTHING_TO_SAY = N_("nothing to say once cleaned (no control characters or escape sequences)")
ONE_A_SECOND = N_("one line a second: wait a moment ({line} was not said)")
# Playing.
NOT_BEGUN = N_("the game has not begun: the first hand's shuffle is being fixed")
STALE = N_("stale: the game is at action {at}, not {sent}")
NOT_YOUR_SEAT = N_("that is not your seat")
GAME_OVER = N_("the game is over")
NOT_YOUR_TURN = N_("it is not your turn")
NOT_ALLOWED = N_("not allowed: {problem}")
LATE_NONCE = N_("no nonce came within {seconds} s: hand {hand} is shuffled without yours (the host's secret alone; "
                "it was committed before)")
# Rated play and a server's limits.
ONLY_RATED = N_("only a rated table takes a resignation or a claim")
CLAIM_TOO_SOON = N_("the other player left {waited} s ago: the game may be claimed after {after} s")
OTHER_AT_TABLE = N_("the other player is at the table: a game is claimed only from a player who left")
UNKNOWN_KEY = N_("unknown player key: this server has no player with it (if its players were reset, move your key "
                 "file for it out of server-keys/ in your data folder and play again)")  # at most MAX_SAY
NEEDS_KEY = N_("this needs your player key: register first")
NAME_TAKEN = N_("that name is taken on this server")
NO_SUCH_PLAYER = N_("no player of that name on this server")
RATED_NEEDS_KEY = N_("a rated table: sit down with your player key")
OWN_RATED_TABLE = N_("that is your own rated table: a game is rated between two players")
SEEKING_ALREADY = N_("you are seeking a game already (in another window?)")
SEEKERS_PER_ADDRESS = N_("at most {count} players may seek a game at once from one address")
SEEKERS_FULL = N_("too many players are seeking a game here now: try again in a minute")
TABLES_FULL = N_("too many tables are open here: try again later")
WAITING_PER_ADDRESS = N_("you have {count} tables here waiting for a friend already: sit down at one of them, or "
                         "wait until one closes (30 minutes)")
TABLES_PER_ADDRESS = N_("you have {count} tables open here already: finish one of them, or wait until one closes")
CLOSED_UNJOINED = N_("nobody sat down at this table within 30 minutes: it is closed (open another)")
LOBBY_FULL = N_("the lobby is full now: try again in a moment")
NO_CHALLENGE = N_("this server holds no day's challenge")
CHALLENGES_PER_ADDRESS = N_("you have {count} challenges open here already: finish one of them")
CHALLENGES_FULL = N_("too many challenges are being played here: try again in a few minutes")
CHALLENGE_OVER = N_("this challenge is over")

KNOWN = (
    WRONG_CODE, TOO_MANY_WRONG, TOO_MANY_WRONG_KEYS, WATCH_CODE, JOIN_CODE, CODE_USED, UNKNOWN_TOKEN, WATCHERS_FULL,
    VERSION, TAKEN, NOT_A_SERVER, NO_RATINGS, SLOW_WATCHER, WATCHERS_SAY, LINE_TOO_LONG, NOTHING_TO_SAY,
    ONE_A_SECOND, NOT_BEGUN, STALE, NOT_YOUR_SEAT, GAME_OVER, NOT_YOUR_TURN, NOT_ALLOWED, LATE_NONCE, ONLY_RATED,
    CLAIM_TOO_SOON, OTHER_AT_TABLE, UNKNOWN_KEY, NEEDS_KEY, NAME_TAKEN, NO_SUCH_PLAYER, RATED_NEEDS_KEY,
    OWN_RATED_TABLE, SEEKING_ALREADY, SEEKERS_PER_ADDRESS, SEEKERS_FULL, TABLES_FULL, WAITING_PER_ADDRESS,
    TABLES_PER_ADDRESS, CLOSED_UNJOINED, LOBBY_FULL, NO_CHALLENGE, CHALLENGES_PER_ADDRESS, CHALLENGES_FULL,
    CHALLENGE_OVER,
)

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each known reason as a pattern that reads its values back (a placeholder: any text, shortest first)."""
    found = []
    for template in KNOWN:
        parts = _PLACEHOLDER.split(template)  # text, name, text, name, ..., text
        pattern = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts))
        found.append((template, re.compile(pattern, re.DOTALL)))
    return tuple(found)


def shown(reason: str) -> str:
    """A reason as the host sent it (cleaned), in the player's language when it is one spades-tui sends; else as
    it came (text from outside: its values stay as they came, in words the reader's screen shows plainly)."""
    for template, pattern in _patterns():
        match = pattern.fullmatch(reason)
        if match is not None:
            return translated(template).format(**match.groupdict())
    return reason
