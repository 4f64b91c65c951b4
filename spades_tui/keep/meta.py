"""The game record's writer metadata, read through typed accessors.

A record's extra top-level keys (docs/game-record.md: readers ignore keys they do not know) carry
what the session adds: the dealer's ``seed``, the statistics' ``game_id``, ``practice``
(take-backs), the forfeit's ``result``.  They are read here and only here, each checked for
its type, so a hand-edited record with a wrong type reads as if the key were absent.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, replace
from typing import Any, Optional

from ..engine.outcome import Forfeit, Outcome, hand_limit_outcome, outcome_of
from ..engine.record import GameRecord, PlayerInfo
from ..engine.state import GameState, Phase

# A daily challenge (session/challenge.py) is four hands: its record's game ends once the fourth is scored.
CHALLENGE_HANDS = 4
MAX_CHALLENGE_CODE = 40  # "2026-12-01:tournament" is 21: a longer one is no code

def hands_scored(state: GameState, hands: int = CHALLENGE_HANDS) -> bool:
    """``hands`` hands are scored and the next is not dealt: where a challenge's game ends (its four)."""
    return state.phase is Phase.SHUFFLE and len(state.history) >= hands


# The players of a record that names none (the format makes ``players`` optional): the game and its slot say these.
DEFAULT_NAMES = (PlayerInfo("Player 1"), PlayerInfo("Player 2"))


@dataclass(frozen=True)
class RecordMeta:
    seed: Optional[int]  # the dealer's seed: a resumed game deals the same cards
    game_id: Optional[str]  # the statistics count each game once
    practice: bool  # a take-back made this a practice game (the key is there)
    takebacks: int  # how many take-backs (0 when none or unreadable)
    # The first hand the take-backs touched: hands scored before it were played without knowing what
    # comes and still count in the statistics.  1 (all practice) for records that do not say.
    practice_from: Optional[int]
    forfeit: Optional[Forfeit]
    challenge: Optional[str] = None  # the daily challenge's code (``2026-12-01``) the game plays

    @classmethod
    def of(cls, record: GameRecord) -> RecordMeta:
        meta = dict(record.metadata)
        seed = meta.get("seed")
        gid = meta.get("game_id")
        found = meta.get("practice")
        takebacks = found.get("takebacks") if isinstance(found, dict) else None
        first = found.get("from_hand") if isinstance(found, dict) else None
        challenge = meta.get("challenge")
        practice_from = (first if type(first) is int and first >= 1 else 1) if "practice" in meta else None
        return cls(
            seed=seed if type(seed) is int else None,
            game_id=gid if isinstance(gid, str) and gid else None,
            practice="practice" in meta,
            takebacks=takebacks if type(takebacks) is int and takebacks > 0 else 0,
            practice_from=practice_from,
            forfeit=Forfeit.from_json(meta.get("result")),
            challenge=challenge if isinstance(challenge, str) and 0 < len(challenge) <= MAX_CHALLENGE_CODE else None,
        )


def with_meta(record: GameRecord, **values: Any) -> GameRecord:
    """``record`` with these metadata keys set (others kept, in order)."""
    meta = {**dict(record.metadata), **values}
    return GameRecord(record.rules, record.first_drafter, record.players, record.actions, tuple(meta.items()))


def game_outcome(record: GameRecord, state: GameState) -> Optional[Outcome]:
    """How the game of ``record`` (replayed as ``state``) ended; None while it goes on.  A challenge's ends once
    its fourth hand is scored, the higher score winning (its target is out of reach)."""
    meta = RecordMeta.of(record)
    found = outcome_of(state, meta.forfeit)
    if found is None and meta.challenge is not None and hands_scored(state):
        return hand_limit_outcome(state.scores)
    return found


def record_over(record: GameRecord) -> bool:
    """The game of ``record`` has ended (won, forfeited, a challenge's four hands scored); False for one that does
    not replay (refused with its message where it is played)."""
    from ..engine.record import replay

    try:
        return game_outcome(record, replay(record)) is not None
    except ValueError:
        return False


# ---------------------------------------------------------------- a network table's metadata

def _hex_bytes(value: object, size: int) -> Optional[bytes]:
    if not isinstance(value, str) or len(value) != 2 * size:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class HandSecret:
    """One hand's share of the host's shuffle (docs/table-protocol.md): its secret and, once fixed, the
    seats' nonces (None each for a seat that sent none; ``nonces`` None while they are awaited)."""

    hand: int
    secret: bytes
    nonces: Optional[tuple[Optional[bytes], Optional[bytes]]] = None

    def to_json(self) -> dict[str, Any]:
        nonces = None if self.nonces is None else [n.hex() if n is not None else None for n in self.nonces]
        return {"hand": self.hand, "secret": self.secret.hex(), "nonces": nonces}

    @classmethod
    def from_json(cls, data: object) -> Optional[HandSecret]:
        if not isinstance(data, dict):
            return None
        hand, secret, nonces = data.get("hand"), _hex_bytes(data.get("secret"), 32), data.get("nonces")
        if type(hand) is not int or hand < 1 or secret is None:
            return None
        if nonces is None:
            return cls(hand, secret)
        if not isinstance(nonces, list) or len(nonces) != 2:
            return None
        # A nonce reads back as it was kept, whatever its length (an empty one included): a hand whose nonce
        # would not read lost its secret here once, and a resumed host never revealed that hand.
        pair = tuple(None if n is None else _any_hex(n) for n in nonces)
        if any(n is None and raw is not None for n, raw in zip(pair, nonces, strict=True)):
            return None
        return cls(hand, secret, (pair[0], pair[1]))


def _any_hex(value: object) -> Optional[bytes]:
    if not isinstance(value, str) or len(value) > 128 or not all(ch in "0123456789abcdefABCDEF" for ch in value):
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:  # an odd number of digits
        return None


@dataclass(frozen=True)
class TableMeta:
    """What a table's host keeps in its record to resume (never sent before the game is over): the
    invite's code, the remote seat, the SHA-256 of its token, and every hand's secret and nonces."""

    code: str
    remote: int
    token_hash: Optional[str]  # None until the friend sat down
    hands: tuple[HandSecret, ...] = ()
    owner_hash: Optional[str] = None  # the other seat's token, when a client plays it too (a served table)
    # Where the table listened: a resumed host listens there again, so the friend's 'join' finds it.
    address: Optional[str] = None
    port: Optional[int] = None
    watch: Optional[str] = None  # the watch code (older records have none: a new one is drawn)
    public: bool = False  # listed in its server's lobby
    # A server's table (table/server/tables.py): the address that opened it, which it counts against while it is open,
    # and whether its two seats came from that one address (then it closes soon after both leave).
    opened_by: Optional[str] = None
    one_address: bool = False
    rated: Optional[tuple[int, int]] = None  # a rated table: each seat's registered player (their server ids)

    KEY = "table"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "remote": self.remote, "token_hash": self.token_hash,
                                "hands": [h.to_json() for h in self.hands]}
        if self.owner_hash is not None:
            data["owner_hash"] = self.owner_hash
        if self.address is not None and self.port is not None:
            data["address"], data["port"] = self.address, self.port
        if self.watch is not None:
            data["watch"] = self.watch
        if self.public:
            data["public"] = True
        if self.opened_by is not None:
            data["opened_by"] = self.opened_by
        if self.one_address:
            data["one_address"] = True
        if self.rated is not None:
            data["rated"] = list(self.rated)
        return data

    @classmethod
    def of(cls, record: GameRecord) -> Optional[TableMeta]:
        data = dict(record.metadata).get(cls.KEY)
        if not isinstance(data, dict):
            return None
        code, remote, token_hash, hands = (data.get("code"), data.get("remote"), data.get("token_hash"),
                                           data.get("hands"))
        if not isinstance(code, str) or type(remote) is not int or remote not in (0, 1):
            return None
        if token_hash is not None and not isinstance(token_hash, str):
            return None
        found = tuple(h for h in (HandSecret.from_json(x) for x in hands) if h is not None) \
            if isinstance(hands, list) else ()
        owner = data.get("owner_hash")
        address, port, watch = data.get("address"), data.get("port"), data.get("watch")
        good_port = type(port) is int and 0 < port < 65536
        opened_by = data.get("opened_by")
        rated = data.get("rated")
        ids = tuple(rated) if isinstance(rated, list) and len(rated) == 2 and all(type(i) is int for i in rated) \
            else None
        return cls(code, remote, token_hash, found, owner if isinstance(owner, str) else None,
                   address if isinstance(address, str) and good_port else None, port if good_port else None,
                   watch if isinstance(watch, str) else None, data.get("public") is True,
                   opened_by if isinstance(opened_by, str) and 0 < len(opened_by) <= 64 else None,
                   data.get("one_address") is True, (ids[0], ids[1]) if ids is not None else None)

    def secret_of(self, hand: int) -> Optional[HandSecret]:
        for h in self.hands:
            if h.hand == hand:
                return h
        return None

    def with_hand(self, secret: HandSecret) -> TableMeta:
        others = tuple(h for h in self.hands if h.hand != secret.hand)
        return replace(self, hands=tuple(sorted(others + (secret,), key=lambda h: h.hand)))


def game_id_of(record: GameRecord) -> str:
    """The record's ``game_id``; for records without one, a stable hash of rules, players and first 2 actions."""
    found = RecordMeta.of(record).game_id
    if found is not None:
        return found
    data = record.to_json()
    key = json.dumps([data["rules"], data.get("players"), data["actions"][:2], data["first_drafter"]],
                     sort_keys=True, ensure_ascii=True)
    import hashlib  # in here: it loads OpenSSL, and a game's first paint needs no hash (issue 33)

    return "h-" + hashlib.sha256(key.encode()).hexdigest()[:32]


def new_game_id() -> str:
    return uuid.uuid4().hex
