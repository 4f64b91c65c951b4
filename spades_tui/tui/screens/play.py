"""Card play: the trick, the last trick, the hand with the legal cards raised."""

from __future__ import annotations

from ...session import Snapshot
from ..viewmodels import GameView, Kind, play_view
from .game import GameScreen


class PlayScreen(GameScreen):
    KIND = Kind.PLAY

    def view(self, snap: Snapshot) -> GameView:
        return play_view(snap)
