"""The base of every game screen: it renders its view model and turns keys into messages.

A game screen keeps no game fact.  It watches the app's ``snapshot`` and renders
``self.view(snapshot)``, a pure view model (``tui/viewmodels.py``); each phase
screen only says which view model it shows.  The cursor, the cards marked for an
exchange and a half-typed bid are the only things it holds: choices in progress,
not game facts.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ...engine import Card
from ...session import Snapshot
from ..messages import ActionChosen, NextHand, Reveal, ShowStart
from ..viewmodels import Command, GameView, Item, Kind, Sheet, screen_kind
from ..widgets import CardsView, GameFooter, Picker, TooSmall, too_small


def sheet_table(sheet: Sheet) -> Table:
    table = Table(title=sheet.title, expand=False)
    for i, column in enumerate(sheet.columns):
        table.add_column(column, justify="left" if i == 0 and sheet.first_column_left else "right")
    for row in sheet.rows:
        table.add_row(*row)
    return table


class GameScreen(Screen[None]):
    """Subclasses set ``KIND`` and implement ``view``."""

    KIND: ClassVar[Kind]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,up,k", "move(-1)", "Move", key_display="←→", id="game.move"),
        Binding("right,l,down,j", "move(1)", "Move", show=False, id="game.move_next"),
        Binding("enter", "confirm", "Confirm", id="game.confirm"),
        Binding("space", "mark", "Mark card", id="game.mark"),
        Binding("0", "digit(0)", "Type bid", key_display="0-9", id="game.digit"),
        *[Binding(str(d), f"digit({d})", "Type bid", show=False) for d in range(1, 10)],
    ]

    def __init__(self) -> None:
        super().__init__()
        self.snap: Optional[Snapshot] = None
        self.shown: Optional[GameView] = None
        self.cursor = -1
        self.marked: frozenset[Card] = frozenset()
        self.typed = ""

    @property
    def pane(self) -> str:
        return self.shown.pane if self.shown is not None else ""

    def view(self, snap: Snapshot) -> GameView:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            yield Static(id="status", markup=False)
            with VerticalScroll(id="body"):
                yield Static(id="prompt", markup=False)
                yield CardsView(id="table")
                yield Static(id="info", markup=False)
                yield Picker(id="picker")
                yield Static(id="detail", markup=False)
                yield Static(id="handlabel", markup=False)
                yield CardsView(id="hand")
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.watch(self.app, "snapshot", self._changed, init=True)

    def _changed(self, snap: Optional[Snapshot]) -> None:
        if snap is not None and screen_kind(snap) is self.KIND:  # else the app is about to switch screens
            self.snap = snap
            self.render_view()

    def on_resize(self) -> None:
        self.refresh_bindings()

    # ------------------------------------------------------------ drawing

    def render_view(self) -> None:
        if self.snap is None:
            return
        vm = self.view(self.snap)
        if self.shown is None or vm.decision != self.shown.decision:
            self.marked, self.typed = frozenset(), ""  # a new decision: nothing marked or typed yet
            vm = self.view(self.snap)
            self.cursor = vm.default
        items = vm.items
        if items and not (0 <= self.cursor < len(items) and items[self.cursor].enabled):
            self.cursor = next((i for i, it in enumerate(items) if it.enabled), -1)
        self.shown = vm
        self.query_one("#status", Static).update(vm.status)
        self.query_one("#prompt", Static).update(vm.prompt)
        table = self.query_one("#table", CardsView)
        table.show(vm.table)
        table.display = bool(vm.table)
        self._text("#info", vm.info)
        detail = self.query_one("#detail", Static)
        detail.update(sheet_table(vm.sheet) if vm.sheet is not None else "")
        detail.display = vm.sheet is not None
        self.query_one("#picker", Picker).show(items, self.cursor)
        self._text("#handlabel", vm.hand_label)
        self.query_one("#hand", CardsView).show([("", tuple((c, "") for c in vm.hand))] if vm.hand else [])
        self.refresh_bindings()

    def _text(self, selector: str, text: str) -> None:
        widget = self.query_one(selector, Static)
        widget.update(text)
        widget.display = bool(text)

    # ------------------------------------------------------------ keys

    @property
    def items(self) -> tuple[Item, ...]:
        return self.shown.items if self.shown is not None else ()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("move", "confirm", "mark", "digit") and too_small(self):
            return False
        vm = self.shown
        if action == "move":
            return sum(1 for i in self.items if i.enabled) > 1
        if action == "confirm":
            return 0 <= self.cursor < len(self.items)
        if action == "mark":
            return vm is not None and vm.marking
        if action == "digit":
            return vm is not None and vm.typing_bid
        return True

    def action_move(self, delta: int) -> None:
        items = self.items
        self.typed = ""
        i = self.cursor
        while 0 <= i + delta < len(items):
            i += delta
            if items[i].enabled:
                self.cursor = i
                break
        self.query_one("#picker", Picker).show(items, self.cursor)

    def action_digit(self, digit: int) -> None:
        candidate = self.typed + str(digit)
        if int(candidate) > 13 or (candidate.startswith("0") and len(candidate) > 1):
            candidate = str(digit)
        self.typed = candidate
        for i, item in enumerate(self.items):
            if item.key == str(int(candidate)):
                self.cursor = i
        self.render_view()

    def action_mark(self) -> None:
        if 0 <= self.cursor < len(self.items) and self.items[self.cursor].command is Command.MARK:
            self._choose(self.items[self.cursor])

    def on_picker_clicked(self, message: Picker.Clicked) -> None:
        self.cursor = message.index
        self.action_confirm()

    def action_confirm(self) -> None:
        if 0 <= self.cursor < len(self.items) and self.items[self.cursor].enabled:
            self._choose(self.items[self.cursor])

    def _choose(self, item: Item) -> None:
        if item.action is not None:
            self.post_message(ActionChosen(item.action))
        elif item.command is Command.MARK and item.card is not None:
            card = item.card
            if card in self.marked:
                self.marked -= {card}
            elif len(self.marked) < 3:
                self.marked |= {card}
            self.render_view()
        elif item.command is Command.REVEAL:
            self.post_message(Reveal())
        elif item.command is Command.NEXT_HAND:
            self.post_message(NextHand())
        elif item.command is Command.NEW_GAME:
            self.post_message(ShowStart())
        elif item.command is Command.QUIT:
            self.app.exit(0)
