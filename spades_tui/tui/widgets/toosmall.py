"""The message shown instead of a screen while the terminal is under 80x24."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Static

from ...i18n.language import _

MIN_WIDTH, MIN_HEIGHT = 80, 24


class TooSmall(Static):
    """Shown instead of everything else while the terminal is under 80x24 (the stylesheet switches it)."""

    def __init__(self) -> None:
        super().__init__(
            _("This terminal is too small.\nPlease make it at least {columns} columns by {rows} rows;\n"
              "the game carries on as soon as it is.").format(columns=MIN_WIDTH, rows=MIN_HEIGHT),
            id="toosmall",
        )

    def on_mount(self) -> None:
        if self.app.is_web:  # a browser tab (spades-tui serve): the cells grow and shrink with the window
            self.update(_("This window is too small.\nPlease make it larger, or zoom out (Ctrl and minus),\n"
                          "to at least {columns} columns by {rows} rows;\nthe game carries on as soon as it is.")
                        .format(columns=MIN_WIDTH, rows=MIN_HEIGHT))


def too_small(screen: Screen[Any]) -> bool:
    size = screen.app.size
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT
