"""The messages of docs/table-protocol.md, the limits the host keeps, and what a remote name may be."""

from __future__ import annotations

import json
from typing import Any, Optional

from ...engine.text import clean_name as engine_clean_name
from ...engine.text import num, signed, speaker
from ...i18n.language import _, pgettext
from . import reasons as r

PROTOCOL = 2  # a JSON number 2 only (version_problem): protocol 1's shuffle could be read ahead
PATH = "/table"
MAX_FRAME = 64 * 1024  # bytes: a bigger frame gets an error and the connection is closed (1008)
# What aiohttp reads of one client frame at most: it refuses a frame whose declared length reaches this from its
# header, before a byte of it is kept (a 16 MiB limit let each connection hold 16 MiB, issue 49).
READ_LIMIT = MAX_FRAME + 1
CLOSE_POLICY = 1008
NONCE_TIMEOUT = 30.0  # seconds a seat has to send its nonce; then it counts as empty
HELLO_TIMEOUT = 10.0  # seconds a new connection has to send its join or rejoin
MAX_BAD_FRAMES = 3  # frames in a row that are not messages (not JSON, unknown type): the connection is closed
FLOOD_RATE = 100.0  # frames per second a connection is read at, at most, on average ...
FLOOD_BURST = 200.0  # ... after a burst of this many (a bot answers faster than a person, never this fast)
WRONG_CODES = 5  # wrong codes from one address ...
WRONG_CODE_WINDOW = 60.0  # ... within this many seconds, and that address is refused until the window passes
MAX_NAME = 16

# Rated play (docs/table-protocol.md, "Rated play"): who you are, the leaderboard, quick play; resign and claim.
# The day's challenge against the field (docs/table-protocol.md, "The day's challenge"): play it, or its standings.
CHALLENGE_FIRST = ("challenge", "standings")
RATED_FIRST = ("register", "rename", "players", "player", "quick", *CHALLENGE_FIRST)
CLIENT_TYPES = ("join", "rejoin", "nonce", "act", "create", "watch", "say", "lobby", *RATED_FIRST, "resign", "claim")
HOST_TYPES = ("welcome", "commit", "update", "reveal", "error", "over", "watching", "said", "tables", "registered",
              "renamed", "players", "player", "seeking", "queued", "standings")
FIRST_TYPES = ("join", "rejoin", "create", "watch", "lobby", *RATED_FIRST)  # what a first frame may be
CLAIM_AFTER = 300.0  # seconds a rated table's seat may be gone before the other may claim the game (--claim-after)
RESIGNED = "resigned"  # how a rated game's forfeit ends in its record: "NAME resigned" ...
CLAIMED = "left the table, and the game was claimed"  # ... or "NAME left the table, and the game was claimed"
MAX_WATCHERS = 8  # a table's watchers at once
MAX_SAY = 200  # characters of a line said, once cleaned
SAY_INTERVAL = 1.0  # seconds between two lines of one seat
CHAT_KEPT = 50  # lines a screen keeps


def chat_line(name: str, text: str, limit: int = 60) -> str:
    """The panel's short line of the last thing said (the chat key shows it whole)."""
    line = f"{name}: {text}"
    return line if len(line) <= limit else line[:limit - 1] + "…"


def clean_said(text: object) -> tuple[Optional[str], Optional[str]]:
    """A ``say``'s text cleaned as a name is (no escape sequence, control or format character, whitespace
    folded): (the line, None), or (None, the reason it is refused)."""
    if not isinstance(text, str):
        return None, "a say carries 'text', a string"
    if len(text) > 8 * MAX_SAY:  # cleaning never makes a line longer: no need to clean a huge one
        return None, r.LINE_TOO_LONG.format(count=MAX_SAY)
    cleaned = engine_clean_name(text, "", limit=8 * MAX_SAY)
    if not cleaned:
        return None, r.NOTHING_TO_SAY
    if len(cleaned) > MAX_SAY:
        return None, r.LINE_TOO_LONG.format(count=MAX_SAY)
    return cleaned, None


def decimal(value: float) -> str:
    """A number as the player's language writes it (``0.5``; ``0,5`` in Swedish and Estonian): seconds, mostly."""
    return f"{value:g}".replace(".", pgettext("decimal separator", "."))


def game_over_line(winner: Optional[str], scores: tuple[int, int]) -> str:
    """The end of a table's game, in a sentence (the events, ``host --bot``, ``join --bot``): who won (``winner``,
    a name; None: a draw) and the score, the first seat's first."""
    first, second = num(scores[0]), num(scores[1])
    if winner is None:
        return _("Game over: a draw, {first} to {second}.").format(first=first, second=second)
    if speaker(winner) == "you":
        return _("Game over: You win, {first} to {second}.").format(first=first, second=second)
    return _("Game over: {player} wins, {first} to {second}.").format(player=winner, first=first, second=second)


def hand_scored_line(number: int, names: list[str], points: tuple[int, int], scores: tuple[int, int]) -> str:
    """A scored hand, in a sentence (a table's events): each seat's points and the score after it."""
    each = ", ".join(f"{names[s]} {signed(points[s])}" for s in (0, 1))
    return _("Hand {number} scored: {points} (score {first} to {second}).").format(
        number=number, points=each, first=num(scores[0]), second=num(scores[1]))


_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed by hand


def new_code() -> str:
    """An invite code: 12 characters of a 31-letter alphabet (59 bits), in groups of four."""
    import secrets  # in here: the start screen names tables, it makes none (secrets loads OpenSSL: issue 33)

    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def new_token() -> str:
    """A seat's token: 192 random bits."""
    import secrets

    return secrets.token_urlsafe(24)


def clean_name(text: object, default: str = "", limit: int = MAX_NAME) -> str:
    """A remote player's name (or the host's words) fit to keep and show: issue 17's one cleaning
    (``engine.text.clean_name``: no escape sequence, control or format character, bounded); screens draw
    names with markup off."""
    return engine_clean_name(text, default, limit)


def way_back(invite: str) -> str:
    """What takes a seated player back to their seat, from the invite that seated them: the same command without
    its code (a used code is refused; ``join`` with no code rejoins with the seat's token, kept on their machine,
    and finds the table at this address even where it moved)."""
    head, _, code = invite.rpartition(" ")
    return head if head.startswith("spades-tui join ") and code else invite


def table_name(preferred: str, default: str) -> str:
    """A seat's name at a table: the settings' name, unless it is the "You" of games against a bot (which
    would read "You is thinking…" on the other screen)."""
    name = clean_name(preferred, default)
    return default if name.lower() == "you" else name


def dumps(message: dict[str, Any]) -> str:
    """A frame's text, always valid UTF-8: a lone surrogate that came in (JSON's "\\ud800") and is sent back
    would make the send fail, so then the frame is written with JSON's \\u escapes throughout."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message, ensure_ascii=True, separators=(",", ":"))
    return text


def error(reason: str) -> dict[str, Any]:
    return {"type": "error", "reason": reason}


def parse_frame(text: str) -> tuple[Optional[dict[str, Any]], Optional[str]]:
    """A client's frame as an object with a known type, or the reason it is not one."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        return None, f"a frame may hold at most {MAX_FRAME} bytes"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, "a frame must be one JSON object"
    if not isinstance(data, dict):
        return None, "a frame must be one JSON object"
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        return None, f"unknown message type {str(kind)[:40]!r} (known: {', '.join(CLIENT_TYPES)})"
    return data, None


def version_problem(data: dict[str, Any]) -> Optional[str]:
    """None if a first frame (join, rejoin, create, watch) speaks this protocol, else the refusal to send.

    A JSON number 2 only: ``true`` (``True == 1``), ``2.0`` and ``"2"`` are refused like 1, so that an old
    or a foreign client hears which version to speak instead of failing later."""
    version = data.get("protocol")
    if type(version) is int and version == PROTOCOL:
        return None
    return r.VERSION.format(version=PROTOCOL)


TAKEN = r.TAKEN  # said to a connection whose seat is taken back elsewhere


def whole(value: object) -> Optional[int]:
    return value if type(value) is int else None
