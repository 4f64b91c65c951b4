"""The lesson's end (``spades-tui learn``): the hand's score, explained beside it, then what next."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import lesson_end_view
from .game import GameScreen


class LessonEndScreen(GameScreen):
    KIND = Kind.SUMMARY
    HELP_TOPIC = "scoring"

    def view(self, seat_view: SeatView) -> GameView:
        return lesson_end_view(seat_view)
