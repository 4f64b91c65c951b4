"""Bidding: a picker from Nil (0) to 13; digits type a bid."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import bidding_view
from .game import GameScreen


class BiddingScreen(GameScreen):
    KIND = Kind.BIDDING
    HELP_TOPIC = "bidding"

    def view(self, seat_view: SeatView) -> GameView:
        return bidding_view(seat_view, self.typed)
