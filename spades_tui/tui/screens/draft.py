"""The draft: the Double Nil question before any card is shown, the draft turns, the exchange."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import draft_view
from .game import GameScreen


class DraftScreen(GameScreen):
    KIND = Kind.DRAFT
    HELP_TOPIC = "draft"

    def view(self, seat_view: SeatView) -> GameView:
        return draft_view(seat_view, self.marked)
