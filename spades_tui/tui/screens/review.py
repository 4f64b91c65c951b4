"""The review of a finished hand, judged by the score with all cards face up (double dummy).

The first page: both hands at the first lead, what each player's card play cost in points and each
costly play, the bids beside what the hands could make, the draft.  The arrow keys (← →) step
through the hand trick by trick: both hands as they stood, the cards played (marked) and each
legal card's margin at that moment.  Esc goes back to the first page, and from there closes.
"""

from __future__ import annotations

from typing import ClassVar, Sequence

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n.language import N_, _
from ...session.view import Card, Suit
from ..notation import minus_signs
from ..reviewmodel import ReviewView
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter
from ..widgets.plain import plain


def words(text: str, style: str = "") -> Text:
    """A line of the review: names shown as written, numbers with the true minus sign."""
    return plain(minus_signs(text), style)


class ReviewScreen(ModalScreen[None]):
    HELP_TOPIC: ClassVar[str] = "scoring"  # help opens at this topic of the guide (tui/app/guide.py TOPICS)
    COMPONENT_CLASSES: ClassVar[set[str]] = {"cards--spades", "cards--hearts", "cards--diamonds", "cards--clubs"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back to the review"), key_display="Esc", id="review.back",
                tooltip=N_("Leave the trick-by-trick view: back to the first page of the review.")),
        Binding("escape,r,q,enter", "close", N_("Close review"), key_display="Esc", id="review.close",
                tooltip=N_("Close the review and go back to the hand summary.")),
        Binding("right,l", "step(1)", N_("Trick by trick"), key_display="←→", id="review.step",
                tooltip=N_("Step through the hand trick by trick: both hands, the cards played, each card's "
                           "margin in points.")),
        Binding("left,h", "step(-1)", N_("Trick by trick"), show=False),
        Binding("down,j", "scroll(1)", N_("Scroll"), key_display="↑↓", id="review.scroll",
                tooltip=N_("Scroll the review.")),
        Binding("up,k", "scroll(-1)", N_("Scroll"), show=False),
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, review: ReviewView) -> None:
        super().__init__()
        self.review = review
        self.page = -1  # -1: the first page; 0..: the tricks

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="reviewbody"):
            yield Static(self._content(), id="reviewtext")
        yield GameFooter()

    # ------------------------------------------------------------ drawing

    def _card_style(self, card: Card, marked: bool = False) -> Style:
        # The table's suit colours (two, or four with the four-colour deck); red suits bold.
        colour = self.get_component_rich_style(f"cards--{card.suit.name.lower()}").color
        return Style(color=colour, bold=card.suit in (Suit.HEARTS, Suit.DIAMONDS) or marked, reverse=marked)

    def _hand_line(self, label: str, cards: Sequence[Card], marked: Sequence[Card] = ()) -> Text:
        line = plain(f"{label}: ", style="bold")
        for card in cards:
            line.append(card.label(), style=self._card_style(card, card in marked))
            line.append(" ")
        return line

    def _content(self) -> Group:
        rv = self.review
        if 0 <= self.page < len(rv.tricks):
            return self._trick_content()
        parts: list[Text] = [plain(rv.title, style="bold"), Text("")]
        parts.extend(self._hand_line(label, cards) for label, cards in rv.hands)
        parts.append(Text(""))
        parts.extend(words(t) for t in rv.totals)
        for title, lines in zip(rv.titles, (rv.plays, rv.chances), strict=True):
            if not lines:
                continue
            parts.append(Text(""))
            if title:
                parts.append(plain(title, style="bold"))
            # What happened as written; what best play would have led to (the indented line) in italics.
            parts.extend(words(line, "italic" if line.startswith("  ") else "") for line in lines)
        if rv.bids:
            parts.append(Text(""))
            parts.append(Text(_("The bids"), style="bold"))
            parts.extend(words(b) for b in rv.bids)
        if rv.draft:
            parts.append(Text(""))
            parts.append(Text(_("The draft"), style="bold"))
            parts.extend(words(d) for d in rv.draft)
        if rv.legend:
            parts.append(Text(""))
            parts.append(plain(rv.legend, style="italic"))
        if rv.tricks:
            parts.append(Text(_("→ steps through the hand trick by trick."), style="italic"))
        return Group(*parts)

    def _trick_content(self) -> Group:
        trick = self.review.tricks[self.page]
        parts: list[Text] = [plain(trick.title, style="bold"), Text("")]
        parts.extend(self._hand_line(label, cards, trick.played) for label, cards in trick.hands)
        parts.append(Text(""))
        parts.append(words(trick.lines[0], "bold"))
        parts.extend(words(line) for line in trick.lines[1:])
        parts.append(Text(""))
        parts.append(Text(_("The cards played are marked; [ ] in the lines: the card played. Each number is the "
                            "margin in points that player could make sure of after that card."), style="italic"))
        return Group(*parts)

    def _redraw(self) -> None:
        self.query_one("#reviewtext", Static).update(self._content())
        self.query_one("#reviewbody", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self.page >= 0
        if action == "close":
            return self.page < 0
        if action == "step":
            return bool(self.review.tricks)
        return True

    def action_back(self) -> None:
        self.page = -1
        self._redraw()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_step(self, delta: int) -> None:
        n = len(self.review.tricks)
        if not n:
            return
        # From the first page, → is trick 1 and ← the last trick; past either end, back to the first page.
        page = self.page + delta if self.page >= 0 else (0 if delta > 0 else n - 1)
        self.page = page if 0 <= page < n else -1
        self._redraw()

    def action_scroll(self, delta: int) -> None:
        self.query_one("#reviewbody", VerticalScroll).scroll_relative(y=delta, animate=False)
