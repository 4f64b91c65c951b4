"""Card faces and the one choice widget.

Colours and emphasis come from component classes styled in ``assets/spades.tcss``
(with ``App:nocolor`` variants), so no style lives in Python strings.  Every card
is written as ``card.label()`` (rank then suit symbol, no space), faces included.
"""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ...engine import Card, Suit
from ..viewmodels import CardGroup, Item

FACE_WIDTH = 5


def is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


_LIGHT = ("╭───╮", "│", "│", "╰───╯")
_HEAVY = ("┏━━━┓", "┃", "┃", "┗━━━┛")
_BACK = ("╭───╮", "│", "│", "╰───╯")


def face_lines(card: Optional[Card], heavy: bool = False) -> tuple[str, str, str]:
    """Three lines of a card face 5 cells wide; ``None`` is an empty place."""
    top, left, right, bottom = _HEAVY if heavy else _LIGHT
    if card is None:
        return ("     ", "  ·  ", "     ")
    return (top, f"{left}{card.label():>3}{right}", bottom)


class CardsView(Widget):
    """Groups of card faces with captions; shows, never chooses."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"cards--red", "cards--black", "cards--caption", "cards--empty"}
    DEFAULT_CSS = "CardsView { height: auto; }"

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self._groups: Sequence[CardGroup] = []

    def show(self, groups: Sequence[CardGroup]) -> None:
        self._groups = groups
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if not self._groups:
            return 0
        captions = any(cap for _, cards in self._groups for _, cap in cards)
        return 1 + 3 + (1 if captions else 0)

    def render(self) -> Text:
        red = self.get_component_rich_style("cards--red")
        black = self.get_component_rich_style("cards--black")
        caption = self.get_component_rich_style("cards--caption")
        empty = self.get_component_rich_style("cards--empty")
        rows = [Text() for _ in range(5)]
        has_captions = any(cap for _, cards in self._groups for _, cap in cards)
        for gi, (title, cards) in enumerate(self._groups):
            if gi:
                for r in rows:
                    r.append("   ")
            width = max(len(title), len(cards) * (FACE_WIDTH + 1) - 1 if cards else 0)
            rows[0].append(title.ljust(width), caption)
            used = 0
            for ci, (card, cap) in enumerate(cards):
                if ci:
                    for r in rows[1:]:
                        r.append(" ")
                    used += 1
                style = empty if card is None else (red if is_red(card) else black)
                for li, line in enumerate(face_lines(card)):
                    rows[1 + li].append(line, style)
                rows[4].append(cap[:FACE_WIDTH].center(FACE_WIDTH), caption)
                used += FACE_WIDTH
            for r in rows[1:]:
                r.append(" " * (width - used))
        out = Text("\n").join(rows if has_captions else rows[:4])
        out.no_wrap = True
        return out


class Picker(Widget):
    """A row of choices with a cursor; the screen owns the cursor and the keys.

    Cards are drawn as faces (legal ones raised), text choices as buttons below.
    A click on a choice posts ``Picker.Clicked``.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "picker--red", "picker--black", "picker--cursor", "picker--disabled", "picker--button",
    }
    DEFAULT_CSS = "Picker { height: auto; }"

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.items: Sequence[Item] = ()
        self.cursor: int = -1
        self._spans: list[tuple[int, int, int, int, int]] = []  # x0, x1, y0, y1, index

    def show(self, items: Sequence[Item], cursor: int) -> None:
        self.items = items
        self.cursor = cursor
        self.refresh(layout=True)

    def _has_cards(self) -> bool:
        return any(i.card is not None for i in self.items)

    def _has_buttons(self) -> bool:
        return any(i.card is None for i in self.items)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return (4 if self._has_cards() else 0) + (1 if self._has_buttons() else 0)

    def render(self) -> Text:
        red = self.get_component_rich_style("picker--red")
        black = self.get_component_rich_style("picker--black")
        cursor_style = self.get_component_rich_style("picker--cursor")
        disabled = self.get_component_rich_style("picker--disabled")
        button = self.get_component_rich_style("picker--button")
        spans: list[tuple[int, int, int, int, int]] = []
        lines: list[Text] = []
        if self._has_cards():
            band = [Text() for _ in range(4)]
            x = 0
            for index, item in enumerate(self.items):
                if item.card is None:
                    continue
                at_cursor = index == self.cursor
                style: Style = red if is_red(item.card) else black
                if not item.enabled:
                    style = style + disabled
                if at_cursor:
                    style = style + cursor_style
                face = face_lines(item.card, heavy=at_cursor)
                top = 0 if item.raised else 1
                for row in range(4):
                    k = row - top
                    if 0 <= k < 3:
                        band[row].append(face[k], style)
                    else:
                        band[row].append(" " * FACE_WIDTH)
                spans.append((x, x + FACE_WIDTH, 0, 4, index))
                x += FACE_WIDTH
            lines.extend(band)
        if self._has_buttons():
            y = len(lines)
            row_text = Text()
            x = 0
            for index, item in enumerate(self.items):
                if item.card is not None:
                    continue
                if x:
                    row_text.append(" ")
                    x += 1
                at_cursor = index == self.cursor
                label = f"[{item.text}]" if at_cursor else f" {item.text} "
                style = button + (cursor_style if at_cursor else Style()) + (Style() if item.enabled else disabled)
                row_text.append(label, style)
                spans.append((x, x + len(label), y, y + 1, index))
                x += len(label)
            lines.append(row_text)
        self._spans = spans
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out

    def index_at(self, x: int, y: int) -> Optional[int]:
        for x0, x1, y0, y1, index in self._spans:
            if x0 <= x < x1 and y0 <= y < y1:
                return index
        return None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None and self.items[index].enabled:
            self.post_message(self.Clicked(index))
