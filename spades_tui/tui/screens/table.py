"""A network table before its first update: the invite to pass on, or the seat being taken.  No card here."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..messages import ShowStart
from ..widgets.footer import GameFooter
from ..widgets.toosmall import TooSmall


class TableWaitScreen(Screen[None]):
    """Shows ``text`` (the invite, who joined, why the table cannot be reached); Esc leaves the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Leave the table", tooltip="Back to the start screen (a begun game is saved)."),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            with Vertical(id="startbox"):
                yield Static(self.title_text, id="title", markup=False)
                yield Static(self.text, id="table-text", markup=False)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#table-text", Static).update(self.text)  # it may have changed before the screen mounted

    def set_text(self, text: str) -> None:
        self.text = text
        found = self.query("#table-text")
        if found:
            found.first(Static).update(text)

    def action_leave(self) -> None:
        self.post_message(ShowStart())
