"""After each hand: each scoring rule's points."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import summary_view
from .game import GameScreen


class SummaryScreen(GameScreen):
    KIND = Kind.SUMMARY
    HELP_TOPIC = "scoring"
    auto_opened = 0  # the hand whose review this screen opened by itself

    def view(self, v: SeatView) -> GameView:
        return summary_view(v)

    def render_view(self) -> None:
        super().render_view()
        snap = self.snap
        if snap is not None and snap.auto_review and snap.review is not None and self.auto_opened != snap.review.hand:
            self.auto_opened = snap.review.hand  # the setting opens it once; r opens it again
            self.action_review()
