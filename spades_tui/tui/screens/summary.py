"""After each hand: each scoring rule's points."""

from __future__ import annotations

from ...session import Snapshot
from ..viewmodels import GameView, Kind, summary_view
from .game import GameScreen


class SummaryScreen(GameScreen):
    KIND = Kind.SUMMARY

    def view(self, snap: Snapshot) -> GameView:
        return summary_view(snap)
