"""The end of a game: the winner and every hand, or the forfeit."""

from __future__ import annotations

from ...session import Snapshot
from ..viewmodels import GameView, Kind, game_over_view
from .game import GameScreen


class GameOverScreen(GameScreen):
    KIND = Kind.GAME_OVER

    def view(self, snap: Snapshot) -> GameView:
        return game_over_view(snap)
