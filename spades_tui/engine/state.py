"""Immutable game state.  Only ``reduce`` makes new states."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, NamedTuple, Optional, Union

from .cards import Card
from .outcome import Outcome
from .rules import Rules

BidValue = Union[int, Literal["double_nil"]]


class Phase(str, Enum):
    """The kind of action due next (docs/game-record.md)."""

    SHUFFLE = "shuffle"
    DOUBLE_NIL = "double_nil"
    DRAFT = "draft"
    EXCHANGE = "exchange"
    EXCHANGE_DRAW = "exchange_draw"
    BIDDING = "bidding"
    PLAY = "play"
    GAME_OVER = "game_over"


class PlayedCard(NamedTuple):
    player: int
    card: Card


class DraftTurn(NamedTuple):
    player: int
    take: Literal["first", "second"]


Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's points for one hand, by scoring rule (docs/rules.md section 7)."""

    contract: int = 0  # +/-10 x bid (7.1)
    overtricks: int = 0  # +1 per trick over the bid (7.1)
    nil: int = 0  # +/-100 Nil or +/-200 Double Nil (7.2, 7.3)
    bag_penalty: int = 0  # -penalty per bag limit reached (7.4)
    bags_added: int = 0  # bags this hand added to the running total

    @property
    def points(self) -> int:
        return self.contract + self.overtricks + self.nil + self.bag_penalty


@dataclass(frozen=True, slots=True)
class HandResult:
    """A completed, scored hand."""

    first_drafter: int
    bids: tuple[BidValue, BidValue]
    tricks: Pair
    lines: tuple[ScoreLine, ScoreLine]
    scores_after: Pair
    bags_after: Pair

    @property
    def points(self) -> Pair:
        return (self.lines[0].points, self.lines[1].points)


@dataclass(frozen=True, slots=True)
class HandState:
    """Everything about the hand in progress (or the last one, once scored)."""

    first: int  # the first player (drafts first) of this hand
    stock: tuple[Card, ...]  # top first
    discard: frozenset[Card]
    hands: tuple[frozenset[Card], frozenset[Card]]
    seen_discards: tuple[frozenset[Card], frozenset[Card]]
    draft_log: tuple[DraftTurn, ...] = ()
    double_nil: tuple[Optional[bool], Optional[bool]] = (None, None)  # None: not asked
    exchanged: tuple[Optional[int], Optional[int]] = (None, None)
    set_aside: tuple[Card, ...] = ()  # exchange cards awaiting their draw
    bids: tuple[Optional[int], Optional[int]] = (None, None)
    tricks_won: Pair = (0, 0)
    trick: tuple[PlayedCard, ...] = ()
    tricks: tuple[tuple[PlayedCard, PlayedCard], ...] = ()
    trick_winners: tuple[int, ...] = ()
    spades_broken: bool = False
    to_act: Optional[int] = None

    @property
    def second(self) -> int:
        return 1 - self.first

    def bid_of(self, player: int) -> Optional[BidValue]:
        if self.double_nil[player]:
            return "double_nil"
        return self.bids[player]

    @property
    def last_trick(self) -> Optional[tuple[PlayedCard, PlayedCard]]:
        return self.tricks[-1] if self.tricks else None


@dataclass(frozen=True, slots=True)
class GameState:
    rules: Rules
    first_drafter: int  # first player of hand 1
    phase: Phase = Phase.SHUFFLE
    hand_number: int = 0  # hands started
    scores: Pair = (0, 0)
    bags: Pair = (0, 0)
    history: tuple[HandResult, ...] = ()
    hand: Optional[HandState] = None
    outcome: Optional[Outcome] = None  # how the rule book ended the game (section 8); None while it goes on

    @property
    def winner(self) -> Optional[int]:
        return self.outcome.winner if self.outcome is not None else None

    @property
    def to_act(self) -> Optional[int]:
        """The player whose decision is due; None for chance actions and game over."""
        if self.hand is None or self.phase in (Phase.SHUFFLE, Phase.EXCHANGE_DRAW, Phase.GAME_OVER):
            return None
        return self.hand.to_act

    @property
    def is_chance(self) -> bool:
        return self.phase in (Phase.SHUFFLE, Phase.EXCHANGE_DRAW)

    @property
    def current_first_drafter(self) -> int:
        """First player of the hand in progress, or of the next hand to be shuffled."""
        if self.hand is None:
            return self.first_drafter
        if self.phase is Phase.SHUFFLE:
            return self.hand.second
        return self.hand.first


def new_game(rules: Optional[Rules] = None, first_drafter: int = 0) -> GameState:
    """The empty game: the first action is a ``Shuffle``."""
    if first_drafter not in (0, 1):
        raise ValueError(f"first_drafter must be 0 or 1, not {first_drafter!r}")
    return GameState(rules=rules if rules is not None else Rules(), first_drafter=first_drafter)
