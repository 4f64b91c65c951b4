"""One small immutable value object per action type of docs/game-record.md.

``Shuffle`` and ``ExchangeDraw`` are *chance* actions: they carry the outcome of
randomness, made outside the engine, so the reducer stays pure and a record
replays identically anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Mapping, Union

from ..i18n.language import _
from .cards import Card, codes
from .errors import RecordError

Take = Literal["first", "second"]


@dataclass(frozen=True, slots=True)
class Shuffle:
    stock: tuple[Card, ...]
    type: ClassVar[str] = "shuffle"

    def to_json(self) -> dict[str, Any]:
        return {"type": "shuffle", "stock": [c.code for c in self.stock]}


@dataclass(frozen=True, slots=True)
class DeclareDoubleNil:
    player: int
    declare: bool
    type: ClassVar[str] = "double_nil"

    def to_json(self) -> dict[str, Any]:
        return {"type": "double_nil", "player": self.player, "declare": self.declare}


@dataclass(frozen=True, slots=True)
class Draft:
    player: int
    take: Take
    type: ClassVar[str] = "draft"

    def to_json(self) -> dict[str, Any]:
        return {"type": "draft", "player": self.player, "take": self.take}


def _sorted_cards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Cards in canonical (index) order; left alone if they cannot be sorted (bad input)."""
    try:
        return tuple(sorted(cards))
    except TypeError:
        return tuple(cards)


@dataclass(frozen=True, slots=True)
class Exchange:
    """A set of cards: kept sorted so that equal exchanges compare equal (and match legal_actions)."""

    player: int
    discard: tuple[Card, ...]
    type: ClassVar[str] = "exchange"

    def __post_init__(self) -> None:
        object.__setattr__(self, "discard", _sorted_cards(self.discard))

    def to_json(self) -> dict[str, Any]:
        return {"type": "exchange", "player": self.player, "discard": codes(self.discard)}


_new = object.__new__
_set = object.__setattr__


def exchange_presorted(player: int, discard: tuple[Card, ...]) -> Exchange:
    """An ``Exchange`` of cards already in index order, without the sort.

    ``legal_actions`` builds 378 of them per exchange decision; skipping
    ``__post_init__`` keeps that as fast as it was before exchanges were sorted.
    """
    action: Exchange = _new(Exchange)
    _set(action, "player", player)
    _set(action, "discard", discard)
    return action


@dataclass(frozen=True, slots=True)
class ExchangeDraw:
    """A set of cards, kept sorted like ``Exchange``."""

    player: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "exchange_draw"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted_cards(self.cards))

    def to_json(self) -> dict[str, Any]:
        return {"type": "exchange_draw", "player": self.player, "cards": codes(self.cards)}


@dataclass(frozen=True, slots=True)
class Bid:
    player: int
    tricks: int
    type: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "player": self.player, "tricks": self.tricks}


@dataclass(frozen=True, slots=True)
class Play:
    player: int
    card: Card
    type: ClassVar[str] = "play"

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "player": self.player, "card": self.card.code}


Action = Union[Shuffle, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Bid, Play]
PlayerAction = Union[DeclareDoubleNil, Draft, Exchange, Bid, Play]
CHANCE_TYPES = (Shuffle, ExchangeDraw)


def is_chance(action: Action) -> bool:
    return isinstance(action, CHANCE_TYPES)


# ---------------------------------------------------------------- parsing

_FIELDS: dict[str, tuple[str, ...]] = {
    "shuffle": ("stock",),
    "double_nil": ("player", "declare"),
    "draft": ("player", "take"),
    "exchange": ("player", "discard"),
    "exchange_draw": ("player", "cards"),
    "bid": ("player", "tricks"),
    "play": ("player", "card"),
}


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(_("field {field} must be a whole number, not {value}").format(
            field=repr(key), value=repr(value)))
    return value


def _player(data: Mapping[str, Any]) -> int:
    value = _int(data, "player")
    if value not in (0, 1):
        raise RecordError(_("field 'player' must be 0 or 1, not {value}").format(value=repr(value)))
    return value


def _card(value: Any) -> Card:
    try:
        return Card.parse(value)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def _cards(data: Mapping[str, Any], key: str) -> tuple[Card, ...]:
    value = data[key]
    if not isinstance(value, list):
        raise RecordError(_("field {field} must be a list of cards, not {value}").format(
            field=repr(key), value=repr(value)))
    return tuple(_card(v) for v in value)


def action_from_json(data: Any) -> Action:
    """Build an action from its record form; raise ``RecordError`` if malformed."""
    if not isinstance(data, Mapping):
        raise RecordError(_("an action must be an object, not {kind}").format(kind=type(data).__name__))
    if "type" not in data:
        raise RecordError(_("an action lacks its 'type'"))
    kind = data["type"]
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise RecordError(_("unknown action type {kind} (known: {kinds})").format(
            kind=repr(kind), kinds=", ".join(_FIELDS)))
    wanted = _FIELDS[kind]
    for key in wanted:
        if key not in data:
            raise RecordError(_("{kind} action lacks field {field}").format(kind=kind, field=repr(key)))
    for key in data:
        if key != "type" and key not in wanted:
            raise RecordError(_("{kind} action has unknown field {field}").format(kind=kind, field=repr(key)))
    if kind == "shuffle":
        return Shuffle(_cards(data, "stock"))
    player = _player(data)
    if kind == "double_nil":
        declare = data["declare"]
        if not isinstance(declare, bool):
            raise RecordError(_("field 'declare' must be true or false, not {value}").format(value=repr(declare)))
        return DeclareDoubleNil(player, declare)
    if kind == "draft":
        take = data["take"]
        if take == "first":
            return Draft(player, "first")
        if take == "second":
            return Draft(player, "second")
        raise RecordError(_("field 'take' must be \"first\" or \"second\", not {value}").format(value=repr(take)))
    if kind == "exchange":
        return Exchange(player, _cards(data, "discard"))
    if kind == "exchange_draw":
        return ExchangeDraw(player, _cards(data, "cards"))
    if kind == "bid":
        return Bid(player, _int(data, "tricks"))
    return Play(player, _card(data["card"]))
