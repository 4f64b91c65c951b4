"""After each hand: each scoring rule's points."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import summary_view
from .gameover import DockedChoices


class SummaryScreen(DockedChoices):
    KIND = Kind.SUMMARY
    HELP_TOPIC = "scoring"
    auto_opened = 0  # the hand whose review this screen opened by itself

    def view(self, seat_view: SeatView) -> GameView:
        return summary_view(seat_view)

    def render_view(self) -> None:
        super().render_view()
        seat_view = self.seat_view
        if (seat_view is not None and seat_view.auto_review and seat_view.review is not None
                and self.auto_opened != seat_view.review.hand):
            self.auto_opened = seat_view.review.hand  # the setting opens it once; r opens it again
            self.action_review()
