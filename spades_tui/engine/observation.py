"""What one player may know (docs/rules.md section 10), as typed objects.

``observe(state, player)`` is the only way bots and screens learn about the
game: it copies exactly the facts the player is entitled to and nothing else.
``Observation.to_json()`` is the JSON form of docs/bot-protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .cards import Card, codes
from .rules import Rules
from .state import BidValue, DraftTurn, GameState, Phase, PlayedCard


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    rules: Rules
    hand_number: int
    first_drafter: int
    phase: Phase
    to_act: Optional[int]
    scores: tuple[int, int]
    bags: tuple[int, int]
    hand: frozenset[Card]
    drawn: Optional[Card]
    seen_discards: frozenset[Card]
    draft_log: tuple[DraftTurn, ...]
    stock_left: int
    double_nil: tuple[bool, bool]
    exchanged: tuple[Optional[int], Optional[int]]
    bids: tuple[Optional[BidValue], Optional[BidValue]]
    tricks_won: tuple[int, int]
    trick: tuple[PlayedCard, ...]
    tricks: tuple[tuple[PlayedCard, PlayedCard], ...]
    spades_broken: bool
    opponent_cards: int

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    def known_cards(self) -> frozenset[Card]:
        """Every card whose place this player knows or has seen this hand."""
        played = {pc.card for pc in self.trick}
        for t in self.tricks:
            played.update(pc.card for pc in t)
        extra = {self.drawn} if self.drawn is not None else set()
        return self.hand | self.seen_discards | frozenset(played) | frozenset(extra)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "hand_number": self.hand_number,
            "first_drafter": self.first_drafter,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "scores": list(self.scores),
            "bags": list(self.bags),
            "hand": codes(self.hand),
            "drawn": self.drawn.code if self.drawn is not None else None,
            "seen_discards": codes(self.seen_discards),
            "draft_log": [{"player": d.player, "take": d.take} for d in self.draft_log],
            "stock_left": self.stock_left,
            "double_nil": list(self.double_nil),
            "exchanged": list(self.exchanged),
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "trick": [_played(pc) for pc in self.trick],
            "tricks": [[_played(pc) for pc in t] for t in self.tricks],
            "spades_broken": self.spades_broken,
            "opponent_cards": self.opponent_cards,
        }


def _played(pc: PlayedCard) -> dict[str, Any]:
    return {"player": pc.player, "card": pc.card.code}


_EMPTY: frozenset[Card] = frozenset()


def observe(state: GameState, player: int) -> Observation:
    """The observation of ``player`` (0 or 1) in ``state``."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    hand = state.hand
    common = dict(
        seat=player,
        rules=state.rules,
        hand_number=state.hand_number,
        first_drafter=state.current_first_drafter,
        phase=state.phase,
        to_act=state.to_act,
        scores=state.scores,
        bags=state.bags,
    )
    if hand is None:
        return Observation(
            **common,  # type: ignore[arg-type]
            hand=_EMPTY,
            drawn=None,
            seen_discards=_EMPTY,
            draft_log=(),
            stock_left=0,
            double_nil=(False, False),
            exchanged=(None, None),
            bids=(None, None),
            tricks_won=(0, 0),
            trick=(),
            tricks=(),
            spades_broken=False,
            opponent_cards=0,
        )
    drawn = hand.stock[0] if state.phase is Phase.DRAFT and hand.to_act == player else None
    opponent = 1 - player
    opponent_cards = len(hand.hands[opponent])
    if state.phase is Phase.EXCHANGE_DRAW and hand.to_act == opponent:
        opponent_cards += len(hand.set_aside)  # set aside, still theirs as far as we know
    my_hand = hand.hands[player]
    seen = hand.seen_discards[player]
    if state.phase is Phase.EXCHANGE_DRAW and hand.to_act == player:
        seen = seen | frozenset(hand.set_aside)  # they know what they put back
    return Observation(
        **common,  # type: ignore[arg-type]
        hand=my_hand,
        drawn=drawn,
        seen_discards=seen,
        draft_log=hand.draft_log,
        stock_left=len(hand.stock),
        double_nil=(bool(hand.double_nil[0]), bool(hand.double_nil[1])),
        exchanged=hand.exchanged,
        bids=(hand.bid_of(0), hand.bid_of(1)),
        tricks_won=hand.tricks_won,
        trick=hand.trick,
        tricks=hand.tricks,
        spades_broken=hand.spades_broken,
        opponent_cards=opponent_cards,
    )
