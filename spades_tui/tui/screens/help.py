"""The help modal: keys and the rulebook, from text files under assets/."""

from __future__ import annotations

from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..resources import read_asset
from ..widgets import GameFooter


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", "Close help", key_display="Esc", id="help.close"),
        Binding("down,j", "scroll(1)", "Scroll", key_display="↑↓", id="help.scroll"),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        Binding("pagedown,space", "page(1)", "Page", show=False),
        Binding("pageup", "page(-1)", "Page", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="helpbody"):
            # Rich's Markdown in a Static: it opens several times faster than Textual's Markdown widget.
            yield Static(Markdown(read_asset("keys.md") + "\n\n" + read_asset("rules.md")), id="helptext")
        yield GameFooter()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        body = self.query_one("#helpbody", VerticalScroll)
        body.scroll_relative(y=delta, animate=False)

    def action_page(self, delta: int) -> None:
        body = self.query_one("#helpbody", VerticalScroll)
        body.scroll_relative(y=delta * max(1, body.size.height - 2), animate=False)
