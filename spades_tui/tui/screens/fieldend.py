"""The day's challenge at a server, its end: your rank and percentage among the field, each hand against it."""

from __future__ import annotations

from ...session.view import SeatView
from ..fieldmodel import field_end_view
from ..gameview import GameView, Kind
from .gameover import DockedChoices


class FieldEndScreen(DockedChoices):
    KIND = Kind.GAME_OVER
    HELP_TOPIC = "challenge"

    def view(self, seat_view: SeatView) -> GameView:
        return field_end_view(seat_view)
