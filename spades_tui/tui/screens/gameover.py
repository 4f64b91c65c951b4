"""The end of a game: the winner and every hand, or the forfeit."""

from __future__ import annotations

from textual.containers import VerticalScroll

from ...session.view import SeatView
from ..gameview import GameView, Kind
from ..viewmodels import game_over_view
from .game import GameScreen


class DockedChoices(GameScreen):
    """A screen of a long table (every hand, a hand's scoring) whose choices must stay in sight: docked under the
    table, which scrolls above them, only when it does not fit (issue 52: at 80x24 "New game" and "Quit" were below
    the fold after a long game); otherwise they stay just under the table."""

    def render_view(self) -> None:
        super().render_view()
        self.call_after_refresh(self._dock_choices)

    def on_resize(self) -> None:  # (Textual calls GameScreen's own on_resize too)
        self.remove_class("-choices-docked")  # laid out afresh: docked again only if it still does not fit
        self.call_after_refresh(self._dock_choices)

    def _dock_choices(self) -> None:
        if self.is_mounted and self.query_one("#body", VerticalScroll).max_scroll_y > 0:
            self.add_class("-choices-docked")

# Below this width the score panel gives way to the table of every hand, which holds the same scores.
FULL_WIDTH = 110


class GameOverScreen(DockedChoices):
    KIND = Kind.GAME_OVER
    HELP_TOPIC = "scoring"

    def on_resize(self) -> None:
        self.set_class(self.size.width < FULL_WIDTH, "-table-only")
        super().on_resize()

    def view(self, seat_view: SeatView) -> GameView:
        return game_over_view(seat_view)
