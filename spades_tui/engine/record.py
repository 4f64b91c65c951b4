"""Game records (docs/game-record.md): parse, serialise, replay and summarise.

Pure functions over already-decoded JSON values; reading and writing files is
``spades_tui.storage``'s job.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..i18n.language import _
from .actions import Action, action_from_json
from .errors import IllegalActionError, RecordError, RulesError
from .reducer import reduce
from .rules import Rules
from .state import GameState, HandResult, new_game
from .text import MAX_RECORD_NAME, clean_name

FORMAT = "spades-tui-game"
VERSION = 1


HUMAN = "human"  # a person at this keyboard
REMOTE = "remote"  # a person at a network table: their decisions arrive from outside
BOT_PREFIX = "bot:"  # "bot:LEVEL" or "bot:cmd:PROGRAM"
EXTERNAL_PREFIX = "cmd:"  # a bot spec that names an external program


class SeatKind(str, Enum):
    """Who plays a seat, read from the record's ``players[i].kind`` (docs/game-record.md) here only."""

    PERSON = "person"  # "human"
    BOT = "bot"  # "bot:LEVEL" or "bot:cmd:PROGRAM": asked by the session's host (the app's worker)
    REMOTE = "remote"  # "remote"

    @classmethod
    def of(cls, kind: str) -> SeatKind:
        if kind.startswith(BOT_PREFIX):
            return cls.BOT
        if kind == REMOTE:
            return cls.REMOTE
        return cls.PERSON


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A seat's player as the record names it: ``kind`` is the record's string (docs/game-record.md), read
    through the typed accessors below and made by the constructors, never parsed by hand elsewhere."""

    name: str
    kind: str = HUMAN

    @classmethod
    def person(cls, name: str) -> PlayerInfo:
        """A person at this keyboard."""
        return cls(name, HUMAN)

    @classmethod
    def remote(cls, name: str) -> PlayerInfo:
        """A person at a network table, whose decisions arrive from outside."""
        return cls(name, REMOTE)

    @classmethod
    def bot(cls, name: str, spec: str) -> PlayerInfo:
        """A bot of ``spec`` (a level, or ``cmd:PROGRAM``)."""
        return cls(name, bot_kind(spec))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind}

    @property
    def seat_kind(self) -> SeatKind:
        return SeatKind.of(self.kind)

    @property
    def is_person(self) -> bool:
        return self.seat_kind is SeatKind.PERSON

    @property
    def is_remote(self) -> bool:
        return self.seat_kind is SeatKind.REMOTE

    @property
    def bot_spec(self) -> Optional[str]:
        """The bot's spec (``hard``, ``cmd:PROGRAM``) for a bot's seat; None for a person's."""
        return self.kind[len(BOT_PREFIX):] if self.seat_kind is SeatKind.BOT else None

    @property
    def external_bot(self) -> bool:
        """Whether the seat is an external program's (``bot:cmd:PROGRAM``)."""
        return (self.bot_spec or "").startswith(EXTERNAL_PREFIX)


def bot_kind(spec: str) -> str:
    """The record's kind for a bot of ``spec``."""
    return BOT_PREFIX + spec


def seat_kinds(players: Optional[Sequence[PlayerInfo]]) -> tuple[SeatKind, ...]:
    """Each seat's kind; a record without players is a game of two persons (docs/game-record.md)."""
    return tuple(p.seat_kind for p in players) if players is not None else (SeatKind.PERSON, SeatKind.PERSON)


def is_table_game(players: Optional[Sequence[PlayerInfo]]) -> bool:
    """A network table's game as its host keeps it: one seat played here (a person or a bot), the
    other by a remote friend.  A served table (both seats remote: 'spades-tui serve') is not one."""
    return seat_kinds(players).count(SeatKind.REMOTE) == 1


def is_served_table(players: Optional[Sequence[PlayerInfo]]) -> bool:
    """A table a server held for two remote players (both seats remote): nobody plays it here."""
    return players is not None and seat_kinds(players).count(SeatKind.REMOTE) == 2


@dataclass(frozen=True, slots=True)
class GameRecord:
    rules: Rules = field(default_factory=Rules)
    first_drafter: int = 0
    players: Optional[tuple[PlayerInfo, PlayerInfo]] = None
    actions: tuple[Action, ...] = ()
    metadata: tuple[tuple[str, Any], ...] = ()  # extra top-level keys, kept as written

    def with_action(self, action: Action) -> GameRecord:
        return GameRecord(self.rules, self.first_drafter, self.players, self.actions + (action,), self.metadata)

    def truncated(self, length: int) -> GameRecord:
        return GameRecord(self.rules, self.first_drafter, self.players, self.actions[:length], self.metadata)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        for key, value in self.metadata:
            if key not in ("format", "version", "rules", "first_drafter", "players", "actions"):
                data[key] = value
        data["rules"] = self.rules.to_json()
        data["first_drafter"] = self.first_drafter
        if self.players is not None:
            data["players"] = [p.to_json() for p in self.players]
        data["actions"] = [a.to_json() for a in self.actions]
        return data

    def dumps(self) -> str:
        """Compact-ish JSON: one action per line, so records diff well."""
        data = self.to_json()
        actions = data.pop("actions")
        head = json.dumps(data, ensure_ascii=False)[:-1]
        body = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in actions)
        sep = ", " if data else ""
        return f'{head}{sep}"actions": [\n  {body}\n]}}\n' if actions else f'{head}{sep}"actions": []}}\n'

    def new_state(self) -> GameState:
        return new_game(self.rules, self.first_drafter)


def parse_record(data: Any) -> GameRecord:
    """Validate a decoded JSON value as a game record; raise ``RecordError``."""
    if not isinstance(data, Mapping):
        raise RecordError(_("a game record must be a JSON object, not {kind}").format(kind=type(data).__name__))
    for key in ("format", "version"):
        if key not in data:
            raise RecordError(_("not a spades-tui game record: it lacks {field}").format(field=repr(key)))
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(_("not a spades-tui game record: format is {format}, expected {expected}").format(
            format=repr(fmt), expected=repr(FORMAT)))
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise RecordError(_("unsupported record version {version} (this program reads version {expected})").format(
            version=repr(version), expected=VERSION))
    try:
        rules = Rules.from_json(data.get("rules", {}))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    first = data.get("first_drafter", 0)
    if type(first) is not int or first not in (0, 1):
        raise RecordError(_("first_drafter must be 0 or 1, not {value}").format(value=repr(first)))
    players = _parse_players(data.get("players"))
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list):
        raise RecordError(_("the record has no 'actions' list"))
    actions = []
    for i, raw in enumerate(raw_actions):
        try:
            actions.append(action_from_json(raw))
        except RecordError as exc:
            raise RecordError(_("action {index}: {problem}").format(index=i, problem=exc)) from None
    known = ("format", "version", "rules", "first_drafter", "players", "actions")
    metadata = tuple((k, v) for k, v in data.items() if k not in known)
    return GameRecord(rules, first, players, tuple(actions), metadata)


def _parse_players(raw: Any) -> Optional[tuple[PlayerInfo, PlayerInfo]]:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        raise RecordError(_("players must be a list of two objects"))
    out = []
    for i, p in enumerate(raw):
        if not isinstance(p, Mapping):
            raise RecordError(_("player {index} must be an object with a name").format(index=i))
        name = p.get("name", f"Player {i + 1}")
        kind = p.get("kind", HUMAN)
        if not isinstance(name, str) or not isinstance(kind, str):
            raise RecordError(_("player {index}: name and kind must be strings").format(index=i))
        # Cleaned as they enter: a record is text from anywhere (docs/rules.md's hostile-input rule).
        out.append(PlayerInfo(clean_name(name, f"Player {i + 1}", MAX_RECORD_NAME),
                              clean_name(kind, HUMAN, MAX_RECORD_NAME)))
    return (out[0], out[1])


def loads_record(text: str) -> GameRecord:
    # A UTF-8 byte order mark (some Windows editors write one) is no part of the JSON.
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(_("not valid JSON: {problem} at line {line} column {column}").format(
            problem=exc.msg, line=exc.lineno, column=exc.colno)) from None
    except RecursionError:
        raise RecordError(_("not a game record: the JSON is nested too deeply")) from None
    except ValueError as exc:
        # json's own limits (an integer of over 4300 digits) raise a plain ValueError.
        raise RecordError(_("not a game record: {problem}").format(problem=exc)) from None
    return parse_record(data)


class ReplayError(IllegalActionError):
    """An illegal action inside a record; ``index`` is its 0-based position."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(_("action {index}: {problem}").format(index=index, problem=reason))
        self.index = index
        self.reason = reason


def replay_actions(state: GameState, actions: Iterable[Action], start: int = 0) -> GameState:
    for i, action in enumerate(actions, start):
        try:
            state = reduce(state, action)
        except IllegalActionError as exc:
            raise ReplayError(i, str(exc)) from None
    return state


def replay(record: GameRecord) -> GameState:
    """Fold the reducer over the record's actions from the empty game."""
    return replay_actions(record.new_state(), record.actions)


def summary(state: GameState) -> dict[str, Any]:
    """The ``replay --json`` object of docs/game-record.md."""
    return {
        "phase": state.phase.value,
        "hand": state.hand_number,
        "scores": list(state.scores),
        "bags": list(state.bags),
        "winner": state.winner,
        "to_act": state.to_act,
        "hands": [_hand_summary(h) for h in state.history],
    }


def _hand_summary(h: HandResult) -> dict[str, Any]:
    return {
        "first_drafter": h.first_drafter,
        "bids": list(h.bids),
        "tricks": list(h.tricks),
        "points": list(h.points),
    }
