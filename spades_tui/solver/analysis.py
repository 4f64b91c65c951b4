"""Double-dummy analysis of a game record (analysis.md): what each play cost.

``analyse_record`` replays the record through the engine's ``reduce`` and, for
every ``play`` action, judges the card with all cards face up: ``best`` (the
most tricks the player could still make sure of), ``played`` (what they keep
after the card played) and the optimal cards.  For a Nil or Double Nil bidder
the same is also given for the other aim (``nil_*``: the fewest tricks).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..engine import (
    CARDS,
    BidValue,
    Card,
    GameRecord,
    IllegalActionError,
    Phase,
    Play,
    ReplayError,
    Shuffle,
    reduce,
)
from .position import position_from_state
from .solver import Solver


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
        return data


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The plays of one hand and what card play cost each player in it."""

    hand: int
    bids: tuple[Optional[BidValue], Optional[BidValue]]
    plays: tuple[PlayAnalysis, ...]
    complete: bool  # all 13 tricks were played

    @property
    def tricks_lost(self) -> tuple[int, int]:
        """Per player, the sum of the losses of their plays."""
        lost = [0, 0]
        for p in self.plays:
            lost[p.player] += p.loss
        return (lost[0], lost[1])

    def is_nil(self, player: int) -> bool:
        return self.bids[player] == 0 or self.bids[player] == "double_nil"

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
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every play of a record, judged, and a summary per hand that has plays."""

    plays: tuple[PlayAnalysis, ...]
    hands: tuple[HandAnalysis, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``analyse --json`` object of analysis.md (``hands`` is an extra key)."""
        return {"plays": [p.to_json() for p in self.plays], "hands": [h.to_json() for h in self.hands]}


def _optimal(values: dict[Card, int], best: int) -> tuple[Card, ...]:
    return tuple(sorted(c for c, v in values.items() if v == best))


def analyse_record(record: GameRecord) -> Analysis:
    """Replay ``record`` through ``reduce`` and judge every ``play`` action.

    Raises the engine's ``ReplayError`` (``action N: why``) for an illegal action,
    as ``replay`` does.
    """
    state = record.new_state()
    plays: list[PlayAnalysis] = []
    hands: list[HandAnalysis] = []
    current: list[PlayAnalysis] = []
    solver = Solver()
    bids: tuple[Optional[BidValue], Optional[BidValue]] = (None, None)
    hand_number = 0

    def close_hand(complete: bool) -> None:
        if current:
            hands.append(HandAnalysis(hand_number, bids, tuple(current), complete))
            current.clear()

    for index, action in enumerate(record.actions):
        try:
            after = reduce(state, action)
        except IllegalActionError as exc:
            raise ReplayError(index, str(exc)) from None
        if isinstance(action, Play):
            hand = state.hand
            assert hand is not None and state.phase is Phase.PLAY
            if state.hand_number != hand_number:
                close_hand(False)
                solver = Solver()  # a new hand: nothing of the last one can recur
                hand_number = state.hand_number
                bids = (hand.bid_of(0), hand.bid_of(1))
            position = position_from_state(state)
            values = solver.card_values(position)
            best = max(values.values())
            nil: tuple[Optional[int], Optional[int], Optional[tuple[Card, ...]]] = (None, None, None)
            if bids[action.player] in (0, "double_nil"):
                fewest = solver.card_values(position, "fewest")
                nil_best = min(fewest.values())
                nil = (nil_best, fewest[action.card], _optimal(fewest, nil_best))
            analysed = PlayAnalysis(
                action=index,
                hand=state.hand_number,
                trick=len(hand.tricks) + 1,
                player=action.player,
                card=CARDS[action.card],
                best=best,
                played=values[action.card],
                optimal=_optimal(values, best),
                nil_best=nil[0],
                nil_played=nil[1],
                nil_optimal=nil[2],
            )
            plays.append(analysed)
            current.append(analysed)
            if after.phase is not Phase.PLAY:
                close_hand(True)
        state = after
    close_hand(False)
    return Analysis(tuple(plays), tuple(hands))


# ---------------------------------------------------------------- the report for a person

def tricks_words(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def either_words(cards: Sequence[Card]) -> str:
    """``A♥``, ``A♥ or Q♠``, ``A♥, Q♠ or 9♣``: high ranks first, then by suit."""
    labels = [c.label() for c in sorted(cards, key=lambda c: (-c.rank, c.suit))]
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " or " + labels[-1]


def _bid_words(bid: Optional[BidValue]) -> str:
    if bid == "double_nil":
        return "Double Nil"
    if bid == 0:
        return "Nil"
    return "no bid" if bid is None else str(bid)


def format_report(analysis: Analysis, names: Sequence[str] = ("Player 0", "Player 1")) -> str:
    """Per hand: the tricks each player lost by card play, then each costly play in words.

    A costly play reads ``hand 2, trick 5: Ada played K♥ and lost 1 trick (A♥ or Q♠ kept 7)``.
    For a Nil or Double Nil bidder, plays that let them be given more tricks are
    listed as such (``... for the Nil: ... took on 1 trick (2♥ held them to 0)``).
    """
    if not analysis.hands:
        return "No cards were played: nothing to analyse."
    lines: list[str] = []
    for h in analysis.hands:
        lost = h.tricks_lost
        head = (
            f"hand {h.hand} (bids: {names[0]} {_bid_words(h.bids[0])}, {names[1]} {_bid_words(h.bids[1])}"
            f"{'' if h.complete else '; cut short'}): "
            f"{names[0]} lost {tricks_words(lost[0])} by card play, {names[1]} lost {tricks_words(lost[1])}"
        )
        added = h.nil_tricks_added
        for player in (0, 1):
            extra = added[player]
            if extra is not None:
                head += f"; {names[player]}'s {_bid_words(h.bids[player])} took on {tricks_words(extra)} by card play"
        lines.append(head)
        costly = False
        for p in h.plays:
            name = names[p.player]
            if p.loss:
                costly = True
                lines.append(
                    f"hand {p.hand}, trick {p.trick}: {name} played {p.card.label()} and lost {tricks_words(p.loss)} "
                    f"({either_words(p.optimal)} kept {p.best})"
                )
            if p.nil_loss and p.nil_optimal is not None:
                costly = True
                lines.append(
                    f"hand {p.hand}, trick {p.trick}, for the {_bid_words(h.bids[p.player])}: {name} played "
                    f"{p.card.label()} and took on {tricks_words(p.nil_loss)} "
                    f"({either_words(p.nil_optimal)} held them to {p.nil_best})"
                )
        if not costly:
            lines.append(f"hand {h.hand}: no costly play")
    return "\n".join(lines)


# ---------------------------------------------------------------- one hand, for the review screen


@dataclass(frozen=True)
class HandReview:
    """One finished hand judged double dummy, and both hands as they stood at its first lead."""

    hand: int
    hands: tuple[frozenset[Card], frozenset[Card]]
    analysis: HandAnalysis


def review_hand(record: GameRecord, hand: int) -> Optional[HandReview]:
    """Hand ``hand`` (1-based) of ``record`` alone: only its own actions are solved, so the review of
    the tenth hand costs no more than the first.  None if that hand has no card play."""
    shuffles = [i for i, a in enumerate(record.actions) if isinstance(a, Shuffle)]
    if not 1 <= hand <= len(shuffles):
        return None
    start = shuffles[hand - 1]
    end = shuffles[hand] if hand < len(shuffles) else len(record.actions)
    before = record.new_state()
    for action in record.actions[:start]:
        before = reduce(before, action)
    alone = GameRecord(record.rules, before.current_first_drafter, record.players, record.actions[start:end])
    analysis = analyse_record(alone)
    if not analysis.hands:
        return None
    state = alone.new_state()
    for action in alone.actions:
        if state.phase is Phase.PLAY:
            break
        state = reduce(state, action)
    assert state.hand is not None
    judged = dataclasses.replace(analysis.hands[0], hand=hand)
    return HandReview(hand, state.hand.hands, judged)
