"""The draft: the Double Nil question before any card is shown, the draft turns, the exchange."""

from __future__ import annotations

from ...session import Snapshot
from ..viewmodels import GameView, Kind, draft_view
from .game import GameScreen


class DraftScreen(GameScreen):
    KIND = Kind.DRAFT

    def view(self, snap: Snapshot) -> GameView:
        return draft_view(snap, self.marked)
