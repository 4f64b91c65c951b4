"""The help modal: the players' guide's section for the screen beneath, the keys (built from the live
bindings: one source for keys), then the rest of the guide (assets/guide.md)."""

from __future__ import annotations

import functools
from typing import ClassVar, Iterable, Optional

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..resources import read_asset
from ..widgets.footer import PALETTE_KEY, GameFooter
from .game import GameScreen

NOTES = (
    "Clicking a card or a choice picks it, like Enter. Enter always confirms a legal choice, so Enter alone "
    "can play a whole game.",
    "In a hot-seat game, whenever the other person must play, a screen with no cards on it asks to pass the "
    "keyboard; the next player presses Enter when only they can see the screen.",
    "The game is saved after every move; start spades-tui again to resume it.",
)


GUIDE = "guide.md"

# Which sections of the guide (by their `## ` heading) come first, for the screen help was opened from.
TOPICS: dict[str, tuple[str, ...]] = {
    "start": ("How a hand goes", "Rule options"),
    "draft": ("The draft", "Double Nil"),
    "bidding": ("Bidding",),
    "play": ("Play",),
    "scoring": ("Scoring", "End of the game"),
    "settings": ("Settings", "Rule options"),
}


def guide_sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The guide's text before its first `## ` heading, then (heading, section text with its heading line)."""
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append((line[3:].strip(), [line]))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    return "\n".join(preamble).strip(), [(h, "\n".join(body).strip()) for h, body in sections]


def guide_for(topic: Optional[str], text: str) -> tuple[str, str]:
    """(the sections for ``topic``, then the rest of the guide), both Markdown; an unknown topic puts none first."""
    preamble, sections = guide_sections(text)
    wanted = TOPICS.get(topic or "", ())
    first = [body for heading in wanted for h, body in sections if h == heading]
    rest = [body for h, body in sections if h not in wanted]
    return "\n\n".join(first), "\n\n".join(filter(None, [preamble, *rest]))


class LaidOut:
    """A renderable laid out once per width and kept: the guide's Markdown, wrapped to the help box's width
    in the background before help first opens, so that F1 draws lines already made (issue 21: a key's
    repaint within 100 ms; laying out the whole guide took about 150 ms)."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._lines: dict[tuple[int, bool], list[list[Segment]]] = {}

    def lines(self, console: Console, options: ConsoleOptions) -> list[list[Segment]]:
        key = (options.max_width, options.ascii_only)  # an ASCII screen draws other rules and boxes
        found = self._lines.get(key)
        if found is None:  # a width not prepared (the terminal was resized): laid out now, then kept
            found = console.render_lines(self.renderable, options.update(height=None), pad=False)
            self._lines[key] = found
        return found

    def widths(self) -> set[int]:
        """The widths laid out so far."""
        return {width for width, _ in self._lines}

    def prepare(self, console: Console, width: int) -> None:
        """Lay it out for ``width`` columns now (in a worker thread: the interface's thread draws meanwhile)."""
        if width > 0:
            self.lines(console, console.options.update(width=width))  # kept by lines: once per width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(console, options):
            yield from line
            yield Segment.line()


def help_text_width(screen_width: int) -> int:
    """The columns the guide is drawn in on a screen this wide (assets/spades.tcss: #helpbody is 90% wide,
    with a round border and a vertical scrollbar)."""
    return screen_width * 9 // 10 - 2 - 2


@functools.cache
def guide_markdown(topic: Optional[str]) -> tuple[Optional[LaidOut], LaidOut]:
    """The guide parsed for ``topic`` (see ``guide_for``), once: the app parses and lays it out in the
    background (``LaidOut.prepare``) before help is first opened, so that the first F1 does not wait for it."""
    first, rest = guide_for(topic, read_asset(GUIDE))
    return (LaidOut(Markdown(first)) if first else None), LaidOut(Markdown(rest))


def prepare_guide(topics: Iterable[Optional[str]], console: Console, screen_width: int) -> None:
    """Parse and lay out the guide for each topic at this screen width (help's first opening is then quick)."""
    width = help_text_width(screen_width)
    for topic in topics:
        for part in guide_markdown(topic):
            if part is not None:
                part.prepare(console, width)


def _bindings(owner: type[object]) -> list[Binding]:
    found: list[Binding] = []
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            found.append(item)
    return found


class HelpScreen(ModalScreen[None]):
    PALETTE_COMMAND: ClassVar[str] = "help"  # the palette's command that opens it: not offered over it
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", "Close help", key_display="Esc", id="help.close",
                tooltip="Close this help and go back."),
        Binding("down,j", "scroll(1)", "Scroll", key_display="↑↓", id="help.scroll", tooltip="Scroll the help."),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        Binding("pagedown,space", "page(1)", "Page", show=False),
        Binding("pageup", "page(-1)", "Page", show=False),
        PALETTE_KEY,
    ]

    def __init__(self, topic: Optional[str] = None) -> None:
        """``topic`` (a key of TOPICS) names the screen help was opened from: its sections of the guide come first."""
        super().__init__()
        self.topic = topic

    def compose(self) -> ComposeResult:
        first, rest = guide_markdown(self.topic)
        parts: list[RenderableType] = [first, Text("")] if first is not None else []
        with VerticalScroll(id="helpbody"):
            table = Static("", id="helptable", markup=False)  # a network table's state and invite (on_screen_resume)
            table.display = False
            yield table
            # Rich's Markdown in a Static: it opens several times faster than Textual's Markdown widget.
            yield Static(Group(*parts, self.keys_table(), *(Text(n) for n in NOTES), Text(""), rest), id="helptext")
        yield GameFooter()

    def on_screen_resume(self) -> None:
        # The app keeps this screen between openings (built once): each opening starts at the top, as a new one did.
        self.query_one("#helpbody", VerticalScroll).scroll_home(animate=False)
        table = self._table_lines()
        found = self.query_one("#helptable", Static)
        found.update(Text(f"At the table: {table}\n") if table else "")
        found.display = bool(table)

    def _table_lines(self) -> str:
        """What the game beneath says of its network table (the friend's invite while their seat is empty)."""
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, GameScreen):
                snap = screen.snap
                return snap.table.replace("\n", "  ") if snap is not None and snap.table else ""
        return ""

    def keys_table(self) -> Table:
        """Every key of the game's screens and of the app, from their bindings: what the footer shows, and more."""
        table = Table(title="Keys", title_justify="left", show_header=False, box=None, padding=(0, 2, 0, 0))
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("does")
        by_description: dict[str, list[Binding]] = {}
        for binding in _bindings(GameScreen) + _bindings(type(self.app)) + _bindings(HelpScreen):
            if binding.description:
                by_description.setdefault(binding.description, []).append(binding)
        for same in by_description.values():
            keys = dict.fromkeys(k.strip() for b in same for k in b.key.split(","))
            shown = " ".join(self.app.get_key_display(Binding(k, same[0].action)) for k in keys)
            table.add_row(shown, same[0].tooltip or same[0].description)
        return table

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        body = self.query_one("#helpbody", VerticalScroll)
        body.scroll_relative(y=delta, animate=False)

    def action_page(self, delta: int) -> None:
        body = self.query_one("#helpbody", VerticalScroll)
        body.scroll_relative(y=delta * max(1, body.size.height - 2), animate=False)
