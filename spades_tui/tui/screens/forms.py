"""What the forms share."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual import on
from textual.screen import Screen
from textual.widgets import Button

R = TypeVar("R")


class FormScreen(Screen[R], Generic[R]):
    """A form that returns its result with ``dismiss``; Escape or its Back button closes it with None."""

    def action_back(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.dismiss(None)
