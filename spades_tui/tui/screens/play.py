"""Card play: the trick, the last trick, the hand with the legal cards raised."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import play_view
from .game import GameScreen


class PlayScreen(GameScreen):
    KIND = Kind.PLAY
    HELP_TOPIC = "play"

    def view(self, seat_view: SeatView) -> GameView:
        return play_view(seat_view)
