"""The daily challenge's end (``spades-tui challenge``): the four hands against the par, the line to share."""

from __future__ import annotations

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import challenge_end_view
from .game import GameScreen


class ChallengeEndScreen(GameScreen):
    KIND = Kind.GAME_OVER
    HELP_TOPIC = "challenge"

    def view(self, seat_view: SeatView) -> GameView:
        return challenge_end_view(seat_view)
