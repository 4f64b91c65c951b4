"""The end of a game: the winner and every hand, or the forfeit."""

from __future__ import annotations

from ...session.view import SeatView
from ..viewmodels import GameView, Kind, game_over_view
from .game import GameScreen


class GameOverScreen(GameScreen):
    KIND = Kind.GAME_OVER

    def view(self, v: SeatView) -> GameView:
        return game_over_view(v)
