"""Finding a table (docs/table-protocol.md, "Public tables and the lobby"): the server's public tables, kept
fresh as its lobby sends them, and a watch code typed in (the browser's "Watch a table").

The rows come in as plain lines the table layer made from cleaned names (drawn with markup off all the same);
Enter on a table waiting for a player sits down at it, on a table in play watches it.  No card is here: the
lobby lists names, rules, scores, the hand and the watchers only.  Under the tables, the server's leaderboard
(docs/serving.md, "Rated play"), the player's own row marked.
"""

from __future__ import annotations

import re
from typing import ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n.language import N_, _
from ...session.text import without_controls
from ..typed import once_typed
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter
from ..widgets.plain import plain_content

CODE = re.compile(r"^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$")  # a table's code, as protocol.new_code makes it


class LobbyScreen(ModalScreen[Optional[tuple[str, str]]]):
    """Dismisses with ("join", CODE), ("rated", CODE) (a rated table's) or ("watch", WATCHCODE), or None (Esc)."""

    HELP_TOPIC: ClassVar[str] = "table"  # F1: the guide's "Playing a friend" first (tui/app/guide.py TOPICS)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Back"), id="lobby.cancel", tooltip=N_("Back to the start screen.")),
        # A priority binding: the list's own Enter would hide it from the footer (the keys that work now).
        Binding("enter", "pick", N_("Sit down or watch"), priority=True,
                tooltip=N_("A table waiting for a player: sit down at it. A table in play: watch it.")),
        Binding("f1", "app.help", N_("Help"), id="lobby.help"),  # in the footer: a modal screen shows its keys only
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, where: str) -> None:
        super().__init__(name="lobby")
        self.where = where
        self.rows: tuple[tuple[str, str, str], ...] = ()  # (line, "join", "rated" (with a key) or "watch", code)
        # What came before the screen was mounted (the server answers fast): shown once it is.
        self._early: Optional[tuple[Sequence[tuple[str, str, str]], str]] = None
        self._early_players: Optional[tuple[str, Sequence[str]]] = None
        self._ready = False  # set at the end of on_mount (one event loop: no moment between the two)

    def compose(self) -> ComposeResult:
        with Vertical(id="choicebox"):
            yield Static(_("Tables at {server}").format(server=self.where), id="choicetitle", markup=False)
            yield Static(_("Asking the server for its tables…"), id="choicetext", markup=False)
            yield OptionList(id="choicelist")
            yield Static("", id="playerstitle", markup=False)
            yield Static("", id="players", markup=False)
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        for part in ("#playerstitle", "#players"):
            self.query_one(part).display = False
        self._ready = True
        if self._early is not None:
            self.show(*self._early)
        if self._early_players is not None:
            self.show_players(*self._early_players)

    def show_players(self, title: str, rows: Sequence[str]) -> None:
        """The server's leaderboard under its tables (your own row marked); no rows: the title says why."""
        if not self._ready:
            self._early_players = (title, rows)
            return
        head, board = self.query_one("#playerstitle", Static), self.query_one("#players", Static)
        head.update(title)
        board.update("\n".join(rows))
        head.display, board.display = True, bool(rows)

    def show(self, rows: Sequence[tuple[str, str, str]], note: str) -> None:
        """The tables now (the highlighted one kept where it was when it is still listed) and a line above."""
        if not self._ready:
            self._early = (rows, note)
            return
        menu = self.query_one(OptionList)
        was = menu.highlighted
        kept = self.rows[was][2] if was is not None and was < len(self.rows) else None
        self.rows = tuple(rows)
        menu.clear_options()
        menu.add_options([Option(plain_content(_("Watch: {table}").format(table=line) if kind == "watch"
                                               else _("Sit down: {table}").format(table=line)))
                          for line, kind, _code in self.rows])
        codes = [code for _line, _kind, code in self.rows]
        if self.rows:
            menu.highlighted = codes.index(kept) if kept in codes else 0
        self.query_one("#choicetext", Static).update(note)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option_index)

    def action_pick(self) -> None:
        once_typed(self.query_one(OptionList), self._pick_highlighted)

    def _pick_highlighted(self) -> None:
        menu = self.query_one(OptionList)  # after the arrow keys sent before Enter have moved it
        if menu.highlighted is not None:
            self._choose(menu.highlighted)

    def _choose(self, index: int) -> None:
        if 0 <= index < len(self.rows):
            _line, kind, code = self.rows[index]
            self.dismiss((kind, code))

    def action_cancel(self) -> None:
        self.dismiss(None)


class WatchCodeScreen(ModalScreen[Optional[str]]):
    """A watch code typed in; dismisses with it (cleaned, checked) or None (Esc)."""

    HELP_TOPIC: ClassVar[str] = "table"

    BINDINGS: ClassVar[list[BindingType]] = [
        # A priority binding, so that the footer shows it: the field's own Enter would hide it.
        Binding("enter", "watch", N_("Watch"), priority=True, tooltip=N_("Watch the table with this watch code.")),
        Binding("escape", "cancel", N_("Back"), id="watchcode.cancel", tooltip=N_("Back to the start screen.")),
        Binding("f1", "app.help", N_("Help"), id="watchcode.help"),  # in the footer, as above
        PALETTE_KEY,
        HELP_KEY,
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="choicebox"):
            yield Static(_("Watch a table"), id="choicetitle", markup=False)
            yield Static(_("Its watch code (shown to its players beside their invite), then Enter:"),
                         id="choicetext", markup=False)
            yield Input(placeholder="abcd-efgh-jkmn", max_length=40, id="watchcode")
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Changed, "#watchcode")
    def _typed(self, event: Input.Changed) -> None:
        kept = without_controls(event.value)  # a paste's escape sequence leaves the field at once
        if kept != event.value:
            event.input.value = kept

    def action_watch(self) -> None:
        once_typed(self.query_one("#watchcode", Input), self._watch_typed)

    def _watch_typed(self) -> None:
        # Cleaned here too: Enter's action can run before the field's Changed handler has cleaned what was typed.
        code = without_controls(self.query_one("#watchcode", Input).value).strip().lower()
        if CODE.match(code):
            self.dismiss(code)
        else:
            self.query_one("#choicetext", Static).update(
                _("That is not a watch code: three groups of four letters and digits, such as abcd-efgh-jkmn."))

    def action_cancel(self) -> None:
        self.dismiss(None)
