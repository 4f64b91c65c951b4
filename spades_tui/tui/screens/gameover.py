"""The end of a game: the winner and every hand, or the forfeit."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import game_over_view
from .game import GameScreen

# Below this width the score panel gives way to the table of every hand, which holds the same scores.
FULL_WIDTH = 110


class GameOverScreen(GameScreen):
    KIND = Kind.GAME_OVER
    HELP_TOPIC = "scoring"

    def on_resize(self) -> None:
        self.set_class(self.size.width < FULL_WIDTH, "-table-only")
        super().on_resize()

    def view(self, seat_view: SeatView) -> GameView:
        return game_over_view(seat_view)
