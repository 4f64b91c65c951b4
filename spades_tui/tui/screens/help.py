"""The help modal: the players' guide's section for the screen beneath, the keys (built from the live
bindings: one source for keys), then the rest of the guide (assets/guide.md), handed to it laid out by the
app's help (``tui/app/guide.py``): the screen reads no file."""

from __future__ import annotations

from typing import ClassVar, Optional

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n.language import N_, _, translated
from ..invite import invite_lines
from ..widgets.footer import PALETTE_KEY, GameFooter
from ..widgets.laidout import LaidOut
from .game import GameScreen

NOTES = (
    N_("Clicking a card or a choice picks it, like Enter. Enter always confirms a legal choice, so Enter alone "
       "can play a whole game."),
    N_("In a hot-seat game, whenever the other person must play, a screen with no cards on it asks to pass the "
       "keyboard; the next player presses Enter when only they can see the screen."),
    N_("The game is saved after every move; start spades-tui again to resume it."),
)


def _bindings(owner: type[object]) -> list[Binding]:
    found: list[Binding] = []
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            found.append(item)
    return found


class HelpScreen(ModalScreen[None]):
    PALETTE_COMMAND: ClassVar[str] = "help"  # the palette's command that opens it: not offered over it
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", N_("Close help"), key_display="Esc", id="help.close",
                tooltip=N_("Close this help and go back.")),
        Binding("down,j", "scroll(1)", N_("Scroll"), key_display="↑↓", id="help.scroll",
                tooltip=N_("Scroll the help.")),
        Binding("up,k", "scroll(-1)", N_("Scroll"), show=False),
        Binding("pagedown,space", "page(1)", N_("Page"), show=False),
        Binding("pageup", "page(-1)", N_("Page"), show=False),
        PALETTE_KEY,
    ]

    def __init__(self, topic: Optional[str], guide: tuple[Optional[LaidOut], LaidOut]) -> None:
        """``topic`` (a key of guide.TOPICS) names the screen help was opened from; ``guide``, the guide laid out
        for it (``guide.guide_markdown``): that screen's sections (None: none), then the rest."""
        super().__init__()
        self.topic = topic
        self.guide = guide

    def compose(self) -> ComposeResult:
        first, rest = self.guide
        parts: list[RenderableType] = [first, Text("")] if first is not None else []
        with VerticalScroll(id="helpbody"):
            table = Static("", id="helptable", markup=False)  # a network table's state and invite (on_screen_resume)
            table.display = False
            yield table
            # Rich's Markdown in a Static: it opens several times faster than Textual's Markdown widget.
            yield Static(Group(*parts, self.keys_table(), *(Text(translated(n)) for n in NOTES), Text(""), rest),
                         id="helptext")
        yield GameFooter()

    def on_screen_resume(self) -> None:
        # The app keeps this screen between openings (built once): each opening starts at the top, as a new one did.
        self.query_one("#helpbody", VerticalScroll).scroll_home(animate=False)
        table = self._table_lines()
        found = self.query_one("#helptable", Static)
        found.update(Text(_("At the table: {table}").format(table=table) + "\n") if table else "")
        found.display = bool(table)

    def _table_lines(self) -> str:
        """What the game beneath says of its network table, and, for a seat that has the table's codes, its
        invite and watch command at any time (a watcher has neither)."""
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, GameScreen):
                seat_view = screen.seat_view
                if seat_view is None or not seat_view.table:
                    return ""
                return "\n".join((seat_view.table.replace("\n", "  "), *invite_lines(seat_view)))
        return ""

    def keys_table(self) -> Table:
        """Every key of the game's screens and of the app, from their bindings: what the footer shows, and more."""
        table = Table(title=_("Keys"), title_justify="left", show_header=False, box=None, padding=(0, 2, 0, 0))
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("does")
        by_description: dict[str, list[Binding]] = {}
        for binding in _bindings(GameScreen) + _bindings(type(self.app)) + _bindings(HelpScreen):
            if binding.description:
                by_description.setdefault(binding.description, []).append(binding)
        for same in by_description.values():
            keys = dict.fromkeys(k.strip() for b in same for k in b.key.split(","))
            shown = " ".join(self.app.get_key_display(Binding(k, same[0].action)) for k in keys)
            table.add_row(shown, translated(same[0].tooltip or same[0].description))
        return table

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        body = self.query_one("#helpbody", VerticalScroll)
        body.scroll_relative(y=delta, animate=False)

    def action_page(self, delta: int) -> None:
        body = self.query_one("#helpbody", VerticalScroll)
        body.scroll_relative(y=delta * max(1, body.size.height - 2), animate=False)
