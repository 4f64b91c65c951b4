"""A network table before its first update: the invite to pass on, or the seat being taken.  No card here.

A table hosted here also lists the ways that reach a friend on another machine (tui/reach.py): Enter on one posts
``TableWaitScreen.Way``; the app's table answers it.  ``ServerAddressScreen`` asks for a table server's address."""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n.language import N_, _
from ...session.text import without_controls
from ..messages import ShowStart
from ..typed import once_typed
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter
from ..widgets.plain import plain_content
from ..widgets.toosmall import TooSmall


class TableWaitScreen(Screen[None]):
    """Shows ``text`` (the invite, who joined, why the table cannot be reached) and, for a table hosted here, the
    ways to reach a friend elsewhere (``set_ways``); Esc leaves the table."""

    HELP_TOPIC: ClassVar[str] = "table"  # F1: the guide's "Playing a friend" first (tui/app/guide.py TOPICS)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("Leave the table"),
                tooltip=N_("Back to the start screen (a begun game is saved).")),
    ]

    class Way(Message):
        """A way to reach the friend was chosen (an id of ``tui/reach.ways``)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, title: str, text: str, ways: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.ways = tuple(ways)

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            with VerticalScroll(id="tablebox"):
                yield Static(self.title_text, id="title", markup=False)
                yield Static(self.text, id="table-text", markup=False)
                yield OptionList(*self._options(), id="ways")
            yield GameFooter()
        yield TooSmall()

    def _options(self) -> list[Option]:
        return [Option(plain_content(label), id=key) for key, label in self.ways]

    def on_mount(self) -> None:
        self._refresh(True)  # text and ways may have changed before the screen mounted

    def set_text(self, text: str, ways: Optional[Sequence[tuple[str, str]]] = None) -> None:
        """The screen's words; ``ways`` (None: as they are) the choices under them."""
        self.text = text
        if ways is not None:
            self.ways = tuple(ways)
        if self.is_mounted:
            self._refresh(ways is not None)

    def _refresh(self, ways: bool) -> None:
        self.query_one("#table-text", Static).update(self.text)
        if not ways:
            return
        found = self.query_one("#ways", OptionList)
        found.clear_options()
        found.add_options(self._options())
        found.display = bool(self.ways)
        if self.ways:
            found.highlighted = 0
            found.focus()

    @on(OptionList.OptionSelected, "#ways")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.post_message(self.Way(event.option.id))

    def action_leave(self) -> None:
        self.post_message(ShowStart())


class ServerAddressScreen(ModalScreen[Optional[str]]):
    """A table server's address typed in (ADDR:PORT, or wss://ADDR:PORT); dismisses with it, or None (Esc)."""

    HELP_TOPIC: ClassVar[str] = "table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open the table there"), priority=True,
                tooltip=N_("Open your table at the table server typed in.")),
        Binding("escape", "cancel", N_("Back"), id="server.cancel", tooltip=N_("Back to the table's invite.")),
        Binding("f1", "app.help", N_("Help"), id="server.help"),  # in the footer: a modal screen shows its keys only
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, problem: str = "") -> None:
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="choicebox"):
            yield Static(_("Open the table at a table server"), id="choicetitle", markup=False)
            yield Static(self.problem or _("The address of a 'spades-tui serve' both of you reach (ADDR:PORT, or "
                                           "wss://ADDR:PORT with TLS), then Enter:"), id="choicetext", markup=False)
            yield Input(placeholder="spades.example.org:7000", max_length=200, id="serveraddress")
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def action_open(self) -> None:
        once_typed(self.query_one("#serveraddress", Input), self._open_typed)

    def _open_typed(self) -> None:
        address = without_controls(self.query_one("#serveraddress", Input).value).strip()
        if address:
            self.dismiss(address)

    def action_cancel(self) -> None:
        self.dismiss(None)
