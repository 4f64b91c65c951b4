"""The load form: the game records found (saved games, record files here), or a typed path; the record
is read and checked before the game starts."""

from __future__ import annotations

from typing import Callable, ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n.language import N_, _
from ...keep.records import FoundRecord
from ...session.view import GameRecord
from ..widgets.footer import GameFooter
from ..widgets.plain import plain_content
from ..widgets.toosmall import TooSmall
from .forms import FormScreen


class LoadScreen(FormScreen[GameRecord]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", N_("Back"), id="load.back")]

    def __init__(self, found: Sequence[FoundRecord],
                 read: Callable[[str], tuple[Optional[GameRecord], Optional[str]]]) -> None:
        """``read(path)`` is the app's: the record in that file, or why it cannot be loaded (a screen reads no
        file)."""
        super().__init__()
        self.found = tuple(found)
        self._read = read

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            yield Static(_("Load a game record"), id="title")
            if self.found:
                # Issue 52: a game over is shown, not saved again (it became a second copy among the finished ones).
                yield Label(_("Records found (Enter: one in play goes on as a new game, one over is shown):"),
                            classes="label wide")  # one line: 76 columns
                # Plain Content: a label holds players' names, never to be read as markup.
                yield OptionList(*(Option(plain_content(f.label), id=str(i)) for i, f in enumerate(self.found)),
                                 id="found")
            yield Label(_("Or the path of a record (JSON):") if self.found else _("The path of a record (JSON):"),
                        classes="label wide")
            yield Input(id="path", placeholder="game.json", compact=True)
            yield Static("", id="message", classes="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Load"), id="load", variant="primary", compact=True)
                yield Button(_("Back"), id="back", compact=True)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        (self.query_one("#found", OptionList) if self.found else self.query_one("#path", Input)).focus()

    @on(OptionList.OptionSelected, "#found")
    def _found(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self._open(str(self.found[int(event.option.id)].path))

    @on(Input.Submitted)
    @on(Button.Pressed, "#load")
    def _load(self) -> None:
        path = self.query_one("#path", Input).value.strip()
        if not path:
            self._say(_("Type the path of a game record."))
            return
        self._open(path)

    def _open(self, path: str) -> None:
        record, problem = self._read(path)
        if record is None:
            self._say(problem or _("Cannot load that record."))
            return
        self.dismiss(record)

    def _say(self, error: str) -> None:
        self.query_one("#message", Static).update(error)
