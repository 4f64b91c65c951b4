"""``Position``: the play-phase facts the solver needs, as bit masks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Union

from ..engine.cards import CARDS, Card
from ..engine.rulebook import FULL, playable_mask, spades_free
from ..engine.rulebook import mask_of as mask_of
from ..engine.state import GameState, Phase

CardLike = Union[Card, int, str]


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _hand_mask(cards: Union[str, Iterable[CardLike]]) -> int:
    return mask_of(cards.split() if isinstance(cards, str) else cards)


@dataclass(frozen=True, slots=True)
class Position:
    """A play position (docs/analysis.md): both hands, the card on the table, who acts.

    ``hands[p]`` is player ``p``'s cards as a bit mask (bit ``c`` for card ``c``);
    ``table`` is ``(player, card)`` when the trick is already led, and then
    ``to_act`` is the other player and holds one card more.  ``spades_broken`` says whether a
    spade may be led: spades broken, or the option ``spades_any_time`` (``position_from_state``
    asks the rule book's ``spades_free``), the only way the options reach the play.
    """

    hands: tuple[int, int]
    table: Optional[tuple[int, int]] = None
    to_act: int = 0
    spades_broken: bool = False

    def __post_init__(self) -> None:
        h0, h1 = self.hands
        if self.to_act not in (0, 1):
            raise ValueError(f"to_act must be 0 or 1, not {self.to_act!r}")
        if h0 & ~FULL or h1 & ~FULL or h0 < 0 or h1 < 0 or h0 & h1:
            raise ValueError("hands must be disjoint masks of the 52 cards")
        n0, n1 = h0.bit_count(), h1.bit_count()
        if self.table is None:
            if n0 != n1:
                raise ValueError(f"with no card on the table both hands hold as many cards, not {n0} and {n1}")
            return
        player, card = self.table
        if player != 1 - self.to_act:
            raise ValueError("the card on the table must be the other player's")
        if not 0 <= card < 52 or (h0 | h1) >> card & 1:
            raise ValueError(f"bad card on the table: {card!r}")
        if self.hands[self.to_act].bit_count() != self.hands[player].bit_count() + 1:
            raise ValueError("the player to act must hold one card more than the one who led")

    @classmethod
    def of(
        cls,
        hand0: Union[str, Iterable[CardLike]],
        hand1: Union[str, Iterable[CardLike]],
        *,
        to_act: int = 0,
        table: Optional[tuple[int, CardLike]] = None,
        spades_broken: bool = False,
    ) -> Position:
        """From card lists or codes: ``Position.of("AS KH", "2H 3D", to_act=1)``.

        ``table`` is ``(player, card)``; ``to_act`` defaults to the other player then.
        """
        if table is not None:
            player, card = table
            index = Card.parse(card) if isinstance(card, str) else int(card)
            return cls((_hand_mask(hand0), _hand_mask(hand1)), (player, CARDS[index]), 1 - player, spades_broken)
        return cls((_hand_mask(hand0), _hand_mask(hand1)), None, to_act, spades_broken)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be decided, the current one included."""
        return (self.hands[0].bit_count() + self.hands[1].bit_count() + (self.table is not None)) // 2

    @property
    def legal_mask(self) -> int:
        """The cards the player to act may play (docs/rules.md 6.2, 6.4), as a mask."""
        lead = self.table[1] if self.table is not None else -1
        return playable_mask(self.hands[self.to_act], lead, self.spades_broken)


def position_from_state(state: GameState) -> Position:
    """The position in front of the player to act in the play phase."""
    hand = state.hand
    if state.phase is not Phase.PLAY or hand is None or hand.to_act is None:
        raise ValueError(f"not a play position: the game is in the {state.phase.value} phase")
    table = (hand.trick[0].player, int(hand.trick[0].card)) if hand.trick else None
    free = spades_free(state.rules, hand.spades_broken)
    return Position((mask_of(hand.hands[0]), mask_of(hand.hands[1])), table, hand.to_act, free)
