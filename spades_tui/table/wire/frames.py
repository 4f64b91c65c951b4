"""What a host sends, read by a client that trusts nothing (docs/table-protocol.md, "Messages").

Each host frame is checked field by field, by type and by bound, before any of it is used: ``read``
gives a typed message or raises ``FrameError`` naming what is wrong, and the client warns and drops
that frame (the game goes on when it can).  A reader per type, in ``READERS``: every host message
(``watching`` and ``said`` included) has one there; a type without one is dropped as unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ...bots.protocol import observation_from_json, player_action_from_json
from ...engine.actions import PlayerAction
from ...engine.errors import RecordError
from ...engine.observation import Observation
from ...engine.record import HUMAN, GameRecord, PlayerInfo, parse_record
from ...engine.rules import Rules
from ...engine.state import HandResult, ScoreLine

# A day's standings (docs/table-protocol.md, "The day's challenge"): the seat's view of them, kept as read.
from ...session.field import FieldLine as Standing
from ...session.field import FieldView as Standings
from . import protocol as p
from .shuffle import parse_nonce

MAX_AT = 1_000_000  # record lengths and hand numbers beyond any game: a host that sends more is lying
MAX_HANDS = 10_000
MAX_LEGAL = 1_000
MAX_TOKEN = 200
MAX_REASON = 300  # characters of a host's error kept and shown
MAX_KIND = 40
MAX_NAME = 40  # a player's name once cleaned (protocol.clean_name's bound)
MAX_CLAIM_AFTER = 10**7  # seconds: a rated table's wait before a claim (a week is 604,800)
MAX_RATING = 10_000.0  # a Glicko rating beyond any player's
MAX_RD = 1_000.0  # an RD (a new player's is 350)


class FrameError(ValueError):
    """A host frame that is not what the protocol says; the reason in plain words."""


def _int(value: object, what: str, low: int = 0, high: int = MAX_AT) -> int:
    if type(value) is not int or not low <= value <= high:
        raise FrameError(f"{what} is not a whole number from {low} to {high}")
    return value


def _list(value: object, what: str, limit: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit:
        raise FrameError(f"{what} is not a list of at most {limit}")
    return value


def _pair(value: object, what: str, low: int = -MAX_AT, high: int = MAX_AT) -> tuple[int, int]:
    items = _list(value, what, 2)
    if len(items) != 2:
        raise FrameError(f"{what} is not a pair")
    return (_int(items[0], what, low, high), _int(items[1], what, low, high))


def _str(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise FrameError(f"{what} is not a string of at most {limit} characters")
    return value


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FrameError(f"{what} is not an object")
    return value


@dataclass(frozen=True)
class Welcome:
    seat: int
    token: str
    players: tuple[PlayerInfo, PlayerInfo]
    rules: Rules
    code: Optional[str] = None
    watch: Optional[str] = None
    rated: bool = False  # a rated table (docs/table-protocol.md, "Rated play")
    claim_after: Optional[float] = None  # there: seconds the other seat must be gone before a claim
    challenge: Optional[str] = None  # the day's challenge at a server: its code (DATE or DATE:PRESET)


@dataclass(frozen=True)
class SeatRating:
    """A seat's rating before and after a rated game, and their RDs (over 110: provisional)."""

    before: float
    after: float
    rd_before: float
    rd_after: float


@dataclass(frozen=True)
class Commit:
    hand: int
    commitment: str  # 64 hex digits, lower case
    fixed: bool = False  # the server deals the hand (the day's challenge): no nonce is asked


@dataclass(frozen=True)
class Update:
    at: int
    observation: Observation
    legal: tuple[PlayerAction, ...]
    hands: tuple[HandResult, ...]
    connected: tuple[bool, bool]
    names: Optional[tuple[str, str]] = None  # the seats' names now (a friend who sat down later), cleaned
    public: bool = False  # a watcher's view: no seat, no hand, no drawn card, no discard, no choice


@dataclass(frozen=True)
class Watching:
    """A watcher's welcome: who plays, under which rules."""
    players: tuple[PlayerInfo, PlayerInfo]
    rules: Rules


@dataclass(frozen=True)
class Said:
    seat: int
    name: str  # cleaned
    text: str  # cleaned as the host cleans a say, at most protocol.MAX_SAY characters


@dataclass(frozen=True)
class Seeking:
    """Quick play, waiting to be paired (docs/table-protocol.md, "Rated play")."""

    others: int  # others seeking now
    waited: int  # seconds so far


@dataclass(frozen=True)
class Reveal:
    hand: int
    secret: bytes
    nonces: tuple[Optional[bytes], Optional[bytes]]
    fixed: bool = False  # the secret is the hand's key itself (the day's challenge)


@dataclass(frozen=True)
class Queued:
    """The day's challenge: the server's expert waits its turn (``waiting``, ``ahead`` before it), or its turn came."""

    waiting: bool
    ahead: int


@dataclass(frozen=True)
class Error:
    reason: str  # cleaned: no control or format character, at most MAX_REASON characters


@dataclass(frozen=True)
class Over:
    scores: tuple[int, int]
    winner: Optional[int]
    record: Optional[GameRecord]  # None when the host's record could not be read (the result still counts)
    ratings: Optional[tuple[SeatRating, SeatRating]] = None  # a rated table's, per seat; None: none, or unreadable


def players_of(value: object) -> tuple[PlayerInfo, PlayerInfo]:
    items = _list(value, "players", 2)
    if len(items) != 2:
        raise FrameError("players is not a list of two")
    infos = []
    for i, item in enumerate(items):
        found = _object(item, "a player")
        name = found.get("name")
        kind = found.get("kind", HUMAN)
        if not isinstance(name, str) or not isinstance(kind, str):
            raise FrameError("a player's name and kind are strings")
        infos.append(PlayerInfo(p.clean_name(name, f"Player {i + 1}"), p.clean_name(kind, HUMAN, limit=MAX_KIND)))
    return (infos[0], infos[1])


def rules_of(value: object) -> Rules:
    try:
        return Rules.from_json(_object(value, "rules"))
    except FrameError:
        raise
    except Exception as exc:  # RulesError and whatever a damaged object raises: not rules
        raise FrameError(f"the rules cannot be read ({type(exc).__name__})") from None


def _code(value: object, what: str) -> Optional[str]:
    if value is None:
        return None
    return p.clean_name(_str(value, what, 64), "", limit=64) or None


def welcome(m: dict[str, Any]) -> Welcome:
    seat = _int(m.get("seat"), "seat", 0, 1)
    token = _str(m.get("token"), "token", MAX_TOKEN)
    if not token or not token.isascii() or not token.isprintable():
        raise FrameError("the token is not printable text")
    rated = m.get("rated") is True  # anything but true: not rated (an older host sends nothing)
    after = _number(m.get("claim_after"), MAX_CLAIM_AFTER) if rated else None
    challenge = m.get("challenge")
    day = None if challenge is None else p.clean_name(_str(challenge, "challenge", 40), "?", limit=40)
    return Welcome(seat, token, players_of(m.get("players")), rules_of(m.get("rules")), _code(m.get("code"), "code"),
                   _code(m.get("watch"), "watch"), rated, after, day)


def _number(value: object, high: float) -> Optional[float]:
    """A finite number from 0 to ``high`` (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= high:
        return None  # (NaN fails both comparisons)
    return float(value)


def ratings_of(value: object) -> Optional[tuple[SeatRating, SeatRating]]:
    """An ``over``'s ``ratings``: two seats' ratings before and after, each bounded; None for anything else (the
    result still counts, only the change is not shown)."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    seats = []
    for item in value:
        if not isinstance(item, dict):
            return None
        found = [_number(item.get(k), high) for k, high in (("before", MAX_RATING), ("after", MAX_RATING),
                                                             ("rd_before", MAX_RD), ("rd_after", MAX_RD))]
        if any(v is None for v in found):
            return None
        seats.append(SeatRating(*(v for v in found if v is not None)))
    return (seats[0], seats[1])


def commit(m: dict[str, Any]) -> Commit:
    hand = _int(m.get("hand"), "hand", 1, MAX_HANDS)
    found = parse_nonce(m.get("commitment"))  # the same shape: exactly 64 hex digits
    if found is None:
        raise FrameError("the commitment is not 64 hex digits")
    return Commit(hand, found.hex(), m.get("fixed") is True)


def _score_line(value: object) -> ScoreLine:
    found = _object(value, "a score line")
    fields = ("contract", "overtricks", "nil", "bag_penalty", "bags_added")
    if set(found) - set(fields):
        raise FrameError("a score line has unknown fields")
    return ScoreLine(**{k: _int(found.get(k, 0), f"a score line's {k}", -MAX_AT, MAX_AT) for k in fields})


def _bid(value: object) -> int | str:
    if value == "double_nil" and isinstance(value, str):
        return "double_nil"
    return _int(value, "a bid", 0, 13)


def hand_result(value: object) -> HandResult:
    """One completed hand of an update's ``hands`` (docs/game-record.md's replay summary)."""
    found = _object(value, "a hand")
    bids = _list(found.get("bids"), "bids", 2)
    lines = _list(found.get("lines"), "lines", 2)
    if len(bids) != 2 or len(lines) != 2:
        raise FrameError("a hand has two bids and two score lines")
    b0, b1 = _bid(bids[0]), _bid(bids[1])
    return HandResult(_int(found.get("first_drafter"), "first_drafter", 0, 1), (b0, b1),  # type: ignore[arg-type]
                      _pair(found.get("tricks"), "tricks", 0, 13), (_score_line(lines[0]), _score_line(lines[1])),
                      _pair(found.get("scores_after"), "scores_after"), _pair(found.get("bags_after"), "bags_after"))


def _public(raw: dict[str, Any]) -> dict[str, Any]:
    """A watcher's observation (seat null): checked to hold no seat's own cards, then read as seat 0's
    with nothing of its own (the public view is the same from either seat)."""
    if raw.get("hand") != [] or raw.get("drawn") is not None or raw.get("seen_discards"):
        raise FrameError("a watcher's view holds a seat's own cards")
    return {**raw, "seat": 0, "seen_discards": []}


def _names(value: object) -> Optional[tuple[str, str]]:
    if value is None:
        return None
    items = _list(value, "players", 2)
    if len(items) != 2:
        raise FrameError("an update's players is not a list of two names")
    names = [_str(item, "a player's name", 8 * MAX_NAME) for item in items]
    return (p.clean_name(names[0], "Player 1"), p.clean_name(names[1], "Player 2"))


def update(m: dict[str, Any]) -> Update:
    at = _int(m.get("at"), "at")
    raw = m.get("observation")
    public = isinstance(raw, dict) and "seat" in raw and raw["seat"] is None
    try:
        obs = observation_from_json(_public(_object(raw, "the observation")) if public else raw)
    except FrameError:
        raise
    except Exception as exc:  # ProtocolError, and whatever a damaged object raises: not an observation
        raise FrameError(f"the observation cannot be read ({str(exc)[:80] or type(exc).__name__})") from None
    if not 0 <= obs.hand_number <= MAX_HANDS:
        raise FrameError("the observation's hand number is out of bounds")
    legal = []
    for item in _list(m.get("legal"), "legal", MAX_LEGAL):
        try:
            legal.append(player_action_from_json(item))
        except Exception:
            raise FrameError("a legal action cannot be read") from None
    hands = tuple(hand_result(h) for h in _list(m.get("hands"), "hands", MAX_HANDS))
    connected = _list(m.get("connected"), "connected", 2)
    if len(connected) != 2 or not all(type(c) is bool for c in connected):
        raise FrameError("connected is not two true-or-false values")
    if public and legal:
        raise FrameError("a watcher's view offers a choice")
    return Update(at, obs, tuple(legal), hands, (connected[0], connected[1]), _names(m.get("players")), public)


def watching(m: dict[str, Any]) -> Watching:
    return Watching(players_of(m.get("players")), rules_of(m.get("rules")))


def said(m: dict[str, Any]) -> Said:
    seat = _int(m.get("seat"), "seat", 0, 1)
    name = _str(m.get("name"), "a name", 8 * MAX_NAME)
    line, problem = p.clean_said(m.get("text"))  # cleaned by the host, and again here: it is hostile text
    if line is None:
        raise FrameError(f"a said's text: {problem}")
    return Said(seat, p.clean_name(name, f"Player {seat + 1}"), line)


def reveal(m: dict[str, Any]) -> Reveal:
    hand = _int(m.get("hand"), "hand", 1, MAX_HANDS)
    secret = parse_nonce(m.get("secret"))
    if secret is None:
        raise FrameError("the secret is not 64 hex digits")
    nonces = _list(m.get("nonces"), "nonces", 2)
    if len(nonces) != 2:
        raise FrameError("nonces is not a pair")
    pair = []
    for raw in nonces:
        found = None if raw is None else parse_nonce(raw)
        if raw is not None and found is None:
            raise FrameError("a nonce is not 64 hex digits or null")
        pair.append(found)
    return Reveal(hand, secret, (pair[0], pair[1]), m.get("fixed") is True)


def error(m: dict[str, Any]) -> Error:
    reason = m.get("reason")
    if not isinstance(reason, str):
        raise FrameError("an error's reason is not a string")
    return Error(p.clean_name(reason[:4 * MAX_REASON], "an error", limit=MAX_REASON))


def over(m: dict[str, Any]) -> Over:
    scores = _pair(m.get("scores"), "scores")
    winner = m.get("winner")
    if winner is not None:
        winner = _int(winner, "winner", 0, 1)
    try:
        record: Optional[GameRecord] = parse_record(m.get("record"))
    except RecordError:
        record = None
    except Exception:  # whatever else a damaged record raises
        record = None
    return Over(scores, winner, record, ratings_of(m.get("ratings")))


def seeking(m: dict[str, Any]) -> Seeking:
    return Seeking(_int(m.get("others"), "others", 0, 100_000), _int(m.get("waited"), "waited", 0, 10**7))


def queued(m: dict[str, Any]) -> Queued:
    waiting = m.get("waiting")
    if not isinstance(waiting, bool):
        raise FrameError("waiting is not true or false")
    return Queued(waiting, _int(m.get("ahead"), "ahead", 0, 100_000))


MAX_STANDINGS = 200  # lines of a standings frame
CHALLENGE_HANDS = 4


def _percent(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 100.0:  # NaN: no
        raise FrameError(f"{what} is not a percentage")
    return float(value)


def standing(value: object) -> Standing:
    m = _object(value, "a standing")
    hands = m.get("hands")
    pcts = m.get("hand_percents")
    found = None if hands is None else tuple(_int(h, "a hand's margin", -MAX_AT, MAX_AT)
                                             for h in _list(hands, "hands", CHALLENGE_HANDS))
    found_pcts = None if pcts is None else tuple(_percent(h, "a hand's percentage")
                                                 for h in _list(pcts, "hand_percents", CHALLENGE_HANDS))
    if (found is not None and len(found) != CHALLENGE_HANDS) or (found_pcts is not None and
                                                                  len(found_pcts) != CHALLENGE_HANDS):
        raise FrameError(f"a standing has {CHALLENGE_HANDS} hands")
    par, you = m.get("par"), m.get("you")
    if not isinstance(par, bool) or not isinstance(you, bool):
        raise FrameError("par and you are true or false")
    name = _str(m.get("name"), "name", 4 * MAX_NAME)
    return Standing(p.clean_name(name, "?", limit=MAX_NAME), _percent(m.get("percent"), "percent"),
                    _int(m.get("rank"), "rank", 1, 10**6), par, you, found, found_pcts)


def standings(m: dict[str, Any]) -> Standings:
    date = _str(m.get("date"), "date", 10)
    preset = p.clean_name(_str(m.get("preset"), "preset", 40), "?", limit=40)
    practice, par = m.get("practice", False), m.get("par")
    if not isinstance(practice, bool) or not isinstance(par, bool):
        raise FrameError("practice and par are true or false")
    entries = tuple(standing(e) for e in _list(m.get("entries"), "entries", MAX_STANDINGS))
    you = None if m.get("you") is None else standing(m.get("you"))
    return Standings(p.clean_name(date, "?", limit=10), preset, _int(m.get("count"), "count", 0, 10**7), par,
                     entries, you, practice)


__all__ = ["Standing", "Standings"]  # the rest is read by name as before; these two are the field's, re-exported

READERS: dict[str, Callable[[dict[str, Any]], object]] = {
    "welcome": welcome, "commit": commit, "update": update, "reveal": reveal, "error": error, "over": over,
    "watching": watching, "said": said, "seeking": seeking, "queued": queued, "standings": standings,
}


def read(message: object) -> object:
    """A host frame (already JSON) as its typed message; ``FrameError`` if it is not one."""
    if not isinstance(message, dict):
        raise FrameError("a frame is not a JSON object")
    kind = message.get("type")
    reader = READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise FrameError(f"unknown message type {p.clean_name(str(kind), '?', limit=40)!r}")
    try:
        return reader(message)
    except FrameError:
        raise
    except Exception as exc:  # a reader's own slip must not end the listening loop either
        raise FrameError(f"a {kind} that cannot be read ({type(exc).__name__})") from None
