"""The judgements of the analysis (docs/analysis.md): a play, a draft turn, a hand, and a hand's scoring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Optional

from ..engine import rulebook
from ..engine.cards import Card
from ..engine.reducer import trick_winner
from ..engine.rulebook import hand_score
from ..engine.rules import Rules
from ..engine.state import BidValue, PlayedCard, ScoreLine

if TYPE_CHECKING:  # a name for annotations only: the play screen's words load without the solver itself
    from .solver import Aim

TRICKS = 13


@dataclass(frozen=True, slots=True)
class Scoring:
    """What a hand scores for each final trick count: its rules, bids and the bag totals at its start."""

    rules: Rules
    bids: tuple[BidValue, BidValue]
    bags: tuple[int, int]

    def line(self, player: int, tricks: int) -> ScoreLine:
        """Player ``player``'s scoring lines when they end the hand with ``tricks`` tricks (the rule book's 7)."""
        return hand_score(self.rules, self.bids[player], tricks, self.bags[player])[0]

    def points(self, player: int, tricks: int) -> int:
        """Player ``player``'s points for the hand when they end it with ``tricks`` tricks (docs/rules.md 7)."""
        return self.line(player, tricks).points

    def margin(self, player: int, tricks: int) -> int:
        """Their points minus the other player's, when ``player`` ends with ``tricks`` of the 13."""
        return self.points(player, tricks) - self.points(1 - player, TRICKS - tricks)

    def payoff(self, player: int, won: int, left: int) -> list[int]:
        """The margin for each count ``k`` (0..``left``) of the tricks left, with ``won`` already won."""
        return [self.margin(player, won + k) for k in range(left + 1)]

    def is_nil(self, player: int) -> bool:
        return rulebook.is_nil(self.bids[player])

    def penalties(self, player: int, tricks: int) -> int:
        """How many times the bag limit is reached with ``tricks`` tricks."""
        line = self.line(player, tricks)
        return -line.bag_penalty // self.rules.bag_penalty if self.rules.bag_penalty else 0

    def bags_added(self, player: int, tricks: int) -> int:
        return self.line(player, tricks).bags_added

    def made(self, player: int, tricks: int) -> bool:
        """Whether ``player``'s bid makes with ``tricks`` (the rule book's ``made``)."""
        return rulebook.made(self.bids[player], tricks)


CardValues = tuple[tuple[Card, int], ...]


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    """The judgement of one ``play`` action."""

    action: int  # 0-based index in the record's actions
    hand: int  # 1-based
    trick: int  # 1..13 within the hand
    player: int
    card: Card
    best: int  # dd(P): the most tricks left the player could make sure of
    played: int  # dd_after(P, card)
    optimal: tuple[Card, ...]  # every card with dd_after == best, in index order
    # Only for a Nil or Double Nil bidder: the fewest tricks (of those left) the
    # player could hold themselves to, and after the card played.
    nil_best: Optional[int] = None
    nil_played: Optional[int] = None
    nil_optimal: Optional[tuple[Card, ...]] = None
    # By points (docs/analysis.md, Points): margins of hand points, the tricks already won counted.
    points_best: int = 0
    points_played: int = 0
    points_optimal: tuple[Card, ...] = ()
    values: CardValues = ()  # every legal card's dd_after (tricks), in index order
    point_values: CardValues = ()  # every legal card's pts_after, in index order
    won: tuple[int, int] = (0, 0)  # tricks each player had won before this play
    # Only for a contract player whose opponent bid Nil or Double Nil: the fewest tricks (of those left) the player
    # could keep for themselves, pushing the rest on the Nil bidder, and after the card played (not in the JSON).
    push_best: Optional[int] = None
    push_played: Optional[int] = None

    @property
    def loss(self) -> int:
        """Tricks the card cost: ``best - played``."""
        return self.best - self.played

    @property
    def nil_loss(self) -> int:
        """Extra tricks the card let the Nil bidder be given (0 when not a Nil bidder)."""
        if self.nil_best is None or self.nil_played is None:
            return 0
        return self.nil_played - self.nil_best

    @property
    def push_loss(self) -> int:
        """Tricks the card kept for its player that could have been pushed on the Nil bidder (0 if none)."""
        if self.push_best is None or self.push_played is None:
            return 0
        return self.push_played - self.push_best

    @property
    def points_loss(self) -> int:
        """Points of margin the card cost: ``points_best - points_played``."""
        return self.points_best - self.points_played

    @property
    def tricks_left(self) -> int:
        """Tricks still to be decided at this play, its own trick included."""
        return TRICKS - self.trick + 1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "action": self.action,
            "hand": self.hand,
            "trick": self.trick,
            "player": self.player,
            "card": self.card.code,
            "best": self.best,
            "played": self.played,
            "optimal": [c.code for c in self.optimal],
        }
        if self.nil_optimal is not None:
            data["nil_best"] = self.nil_best
            data["nil_played"] = self.nil_played
            data["nil_optimal"] = [c.code for c in self.nil_optimal]
        data["points"] = {
            "best": self.points_best,
            "played": self.points_played,
            "optimal": [c.code for c in self.points_optimal],
        }
        return data


@dataclass(frozen=True, slots=True)
class DraftAnalysis:
    """One ``draft`` action judged with the other card of the turn swapped in (docs/analysis.md)."""

    action: int  # 0-based index in the record's actions
    hand: int  # 1-based
    player: int
    turn: int  # 1..13: the drafter's own draft turn in the hand
    take: Literal["first", "second"]
    kept: Card
    other: Card
    aim: Aim  # "fewest" for a Nil or Double Nil bidder
    tricks: int  # the drafter's double-dummy tricks from the first lead, the hand as it was
    tricks_other: Optional[int]  # the same with ``other`` for ``kept``; None when it cannot be judged
    skipped: str = ""  # why not judged: "" or a short reason

    @property
    def other_seen(self) -> bool:
        """Whether the drafter saw the other card (always when they took the second; see_second_card)."""
        return self.take == "second"

    @property
    def gain(self) -> int:
        """How much better the other card would have done, in the drafter's aim (0 if not judged)."""
        if self.tricks_other is None:
            return 0
        diff = self.tricks_other - self.tricks
        return -diff if self.aim == "fewest" else diff

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "action": self.action,
            "hand": self.hand,
            "player": self.player,
            "turn": self.turn,
            "kept": self.kept.code,
            "other": self.other.code,
            "aim": self.aim,
            "tricks": self.tricks,
            "tricks_other": self.tricks_other,
        }
        if self.skipped:
            data["skipped"] = self.skipped
        return data


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The plays of one hand and what card play cost each player in it."""

    hand: int
    bids: tuple[Optional[BidValue], Optional[BidValue]]
    plays: tuple[PlayAnalysis, ...]
    complete: bool  # all 13 tricks were played
    scoring: Optional[Scoring] = None
    draft: tuple[DraftAnalysis, ...] = ()
    could_make: tuple[int, int] = (0, 0)  # the most tricks each could make double dummy from the first lead
    could_hold: tuple[int, int] = (0, 0)  # the fewest each could be held to (the other pushing tricks on them)
    from_lead: bool = False  # judged from its first lead: ``could_make`` and ``could_hold`` are known

    @property
    def tricks_lost(self) -> tuple[int, int]:
        """Per player, the sum of the losses of their plays."""
        lost = [0, 0]
        for p in self.plays:
            lost[p.player] += p.loss
        return (lost[0], lost[1])

    @property
    def points_lost(self) -> tuple[int, int]:
        """Per player, the points of margin their card play cost (the sum of their plays' losses)."""
        lost = [0, 0]
        for p in self.plays:
            lost[p.player] += p.points_loss
        return (lost[0], lost[1])

    def is_nil(self, player: int) -> bool:
        bid = self.bids[player]  # None: not bid (a hand cut short), not a Double Nil
        return bid is not None and rulebook.is_nil(bid)

    def trick_plays(self, trick: int) -> tuple[PlayAnalysis, ...]:
        """The plays of trick ``trick`` (1..13) as they happened: the lead, then the answer."""
        return tuple(p for p in self.plays if p.trick == trick)

    def trick_winner(self, trick: int) -> Optional[int]:
        """Who won trick ``trick``; None while it is not complete."""
        both = self.trick_plays(trick)
        if len(both) != 2:
            return None
        return trick_winner((PlayedCard(both[0].player, both[0].card), PlayedCard(both[1].player, both[1].card)))

    @property
    def final_tricks(self) -> Optional[tuple[int, int]]:
        """The tricks each player took in the hand as it was played; None for a hand cut short."""
        if not self.complete:
            return None
        won = [0, 0]
        for number in range(1, TRICKS + 1):
            winner = self.trick_winner(number)
            if winner is None:
                return None
            won[winner] += 1
        return (won[0], won[1])

    @property
    def nil_tricks_added(self) -> tuple[Optional[int], Optional[int]]:
        """Per Nil or Double Nil bidder, the sum of their plays' ``nil_loss`` (None for others)."""
        added: list[Optional[int]] = [None, None]
        for player in (0, 1):
            if self.is_nil(player):
                added[player] = sum(p.nil_loss for p in self.plays if p.player == player)
        return (added[0], added[1])

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "bids": list(self.bids),
            "complete": self.complete,
            "plays": len(self.plays),
            "tricks_lost": list(self.tricks_lost),
            "nil_tricks_added": list(self.nil_tricks_added),
            "points_lost": list(self.points_lost),
            "could_make": list(self.could_make),
            "could_hold": list(self.could_hold),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every play and draft turn of a record, judged, and a summary per hand that has plays."""

    plays: tuple[PlayAnalysis, ...]
    hands: tuple[HandAnalysis, ...]

    @property
    def draft(self) -> tuple[DraftAnalysis, ...]:
        return tuple(d for h in self.hands for d in h.draft)

    def to_json(self) -> dict[str, Any]:
        """The ``analyse --json`` object of docs/analysis.md (``hands`` is an extra key)."""
        return {
            "plays": [p.to_json() for p in self.plays],
            "draft": [d.to_json() for d in self.draft],
            "hands": [h.to_json() for h in self.hands],
        }


@dataclass(frozen=True)
class TrickReview:
    """One trick of a reviewed hand: both hands as they stood before it, and its plays judged."""

    number: int  # 1..13
    hands: tuple[frozenset[Card], frozenset[Card]]
    plays: tuple[PlayAnalysis, ...]  # the lead, then the answer (one play in a hand cut short)
    winner: Optional[int]  # None while the trick is not complete


@dataclass(frozen=True)
class HandReview:
    """One finished hand judged double dummy, and both hands as they stood at its first lead."""

    hand: int
    hands: tuple[frozenset[Card], frozenset[Card]]
    analysis: HandAnalysis

    @property
    def tricks(self) -> tuple[TrickReview, ...]:
        """Trick by trick, for stepping through the hand."""
        held = [set(self.hands[0]), set(self.hands[1])]
        out: list[TrickReview] = []
        plays = self.analysis.plays
        for number in sorted({p.trick for p in plays}):
            mine = tuple(p for p in plays if p.trick == number)
            winner = None
            if len(mine) == 2:
                winner = trick_winner((PlayedCard(mine[0].player, mine[0].card),
                                       PlayedCard(mine[1].player, mine[1].card)))
            out.append(TrickReview(number, (frozenset(held[0]), frozenset(held[1])), mine, winner))
            for p in mine:
                held[p.player].discard(p.card)
        return tuple(out)
