"""Bidding: a picker from Nil (0) to 13; digits type a bid."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import bidding_view
from .game import GameScreen


class BiddingScreen(GameScreen):
    KIND = Kind.BIDDING
    HELP_TOPIC = "bidding"

    def view(self, v: SeatView) -> GameView:
        return bidding_view(v, self.typed)
