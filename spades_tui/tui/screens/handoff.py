"""Hot-seat: pass the keyboard; no card on this screen."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import handoff_view
from .game import GameScreen


class HandoffScreen(GameScreen):
    KIND = Kind.HANDOFF

    def view(self, seat_view: SeatView) -> GameView:
        return handoff_view(seat_view)
