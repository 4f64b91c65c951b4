"""The load form: the path of a game record, read and checked before the game starts."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from ...session import LOAD_ERRORS, load_game
from ...session.view import GameRecord
from ..widgets import GameFooter, TooSmall
from .forms import FormScreen


class LoadScreen(FormScreen[GameRecord]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back", id="load.back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            yield Static("Load a game record", id="title")
            yield Label("Path of the record (JSON):", classes="label wide")
            yield Input(id="path", placeholder="game.json", compact=True)
            yield Static("", id="message", classes="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Load", id="load", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#load")
    def _load(self) -> None:
        path = self.query_one("#path", Input).value.strip()
        if not path:
            self._say("Type the path of a game record.")
            return
        try:
            record, _ = load_game(path)
        except LOAD_ERRORS as exc:
            self._say(f"Cannot load that record: {exc}")
            return
        self.dismiss(record)

    def _say(self, error: str) -> None:
        self.query_one("#message", Static).update(error)
