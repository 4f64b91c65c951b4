"""A forced card said: "10♦ played itself (your only card)", on the news line under the table while that card
is on it (its trick, then the finished trick until the next is led or the hand's summary comes).

The card that played itself is the screen's own memory (a choice the screen made for the person), kept with the
hand it was played in; the rest comes from the seat's view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from ..i18n.language import _

if TYPE_CHECKING:
    from ..session.view import Card, SeatView


@dataclass(frozen=True)
class ForcedNote:
    card: Card
    reason: str  # "your only card", "your only diamond", ... (in the player's language)
    hand_number: int

    def text(self) -> str:
        return _("{card} played itself ({reason}).").format(card=self.card.label(), reason=self.reason)


def forced_note(seat_view: SeatView, card: Card) -> ForcedNote:
    """Why ``card`` is the seat's only legal card in ``seat_view``, the view it is played from."""
    from ..session.view import Suit  # in here: the view loads with the first game (test_start_imports.py)

    obs = seat_view.observation
    if len(obs.hand) == 1:
        reason = _("your only card")
    elif obs.trick and card.suit is obs.trick[0].card.suit:
        reason = {Suit.SPADES: _("your only spade"), Suit.HEARTS: _("your only heart"),  # following suit
                  Suit.DIAMONDS: _("your only diamond"), Suit.CLUBS: _("your only club")}[card.suit]
    elif not obs.trick and not obs.spades_broken and card.suit is not Suit.SPADES:
        reason = _("your only non-spade: spades are not broken")
    else:
        reason = _("your only legal card")
    return ForcedNote(card, reason, obs.hand_number)


def forced_news(seat_view: Optional[SeatView], note: Optional[ForcedNote]) -> str:
    """The note's line while its card is on the table in ``seat_view``; "" once the table moved on."""
    if seat_view is None or note is None or seat_view.observation.hand_number != note.hand_number:
        return ""
    obs = seat_view.observation
    shown = obs.trick if obs.trick else (obs.tricks[-1] if obs.tricks else ())
    return note.text() if any(pc.card == note.card for pc in shown) else ""
