"""The review of a finished hand: both hands, then what each costly play cost (double dummy)."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...session.view import Suit
from ..viewmodels import ReviewView
from ..widgets import PALETTE_KEY, GameFooter, plain


class ReviewScreen(ModalScreen[None]):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"cards--spades", "cards--hearts", "cards--diamonds", "cards--clubs"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,r,q,enter", "close", "Close review", key_display="Esc", id="review.close",
                tooltip="Close the review and go back to the hand summary."),
        Binding("down,j", "scroll(1)", "Scroll", key_display="↑↓", id="review.scroll", tooltip="Scroll the review."),
        Binding("up,k", "scroll(-1)", "Scroll", show=False),
        PALETTE_KEY,
    ]

    def __init__(self, review: ReviewView) -> None:
        super().__init__()
        self.review = review

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="reviewbody"):
            yield Static(self._content(), id="reviewtext")
        yield GameFooter()

    def _content(self) -> Group:
        rv = self.review
        parts: list[Text] = [plain(rv.title, style="bold"), Text("")]
        for name, cards in rv.hands:
            line = plain(f"{name}: ", style="bold")
            for card in cards:
                # The table's suit colours (two, or four with the four-colour deck); red suits bold.
                colour = self.get_component_rich_style(f"cards--{card.suit.name.lower()}").color
                line.append(card.label(), style=Style(color=colour, bold=card.suit in (Suit.HEARTS, Suit.DIAMONDS)))
                line.append(" ")
            parts.append(line)
        parts.append(Text(""))
        parts.extend(plain(t) for t in rv.totals)
        parts.append(Text(""))
        parts.extend(plain(p) for p in rv.plays)
        return Group(*parts)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        self.query_one("#reviewbody", VerticalScroll).scroll_relative(y=delta, animate=False)
