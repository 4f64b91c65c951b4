"""The help modal: the players' guide's section for the screen beneath, the keys (built from the live
bindings: one source for keys), then the rest of the guide (assets/guide.md)."""

from __future__ import annotations

import functools
from typing import ClassVar, Optional

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..resources import read_asset
from ..widgets import PALETTE_KEY, GameFooter
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


@functools.cache
def guide_markdown(topic: Optional[str]) -> tuple[Optional[Markdown], Markdown]:
    """The guide parsed for ``topic`` (see ``guide_for``), once: the app may parse it in the background
    before help is first opened, so that the first F1 does not wait for it."""
    first, rest = guide_for(topic, read_asset(GUIDE))
    return (Markdown(first) if first else None), Markdown(rest)


def _bindings(owner: type[object]) -> list[Binding]:
    found: list[Binding] = []
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            found.append(item)
    return found


class HelpScreen(ModalScreen[None]):
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
            # Rich's Markdown in a Static: it opens several times faster than Textual's Markdown widget.
            yield Static(Group(*parts, self.keys_table(), *(Text(n) for n in NOTES), Text(""), rest), id="helptext")
        yield GameFooter()

    def on_screen_resume(self) -> None:
        # The app keeps this screen between openings (built once): each opening starts at the top, as a new one did.
        self.query_one("#helpbody", VerticalScroll).scroll_home(animate=False)

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
