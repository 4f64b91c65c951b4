"""The card table's widgets: the opponent's side, the cards in the middle, the hand and the choices.

Colours and emphasis come from component classes styled in ``assets/spades.tcss``
(with ``App:nocolor`` variants), so no style lives in Python strings.  Every card
is written as ``card.label()`` (rank then suit symbol, no space).  Cards grow with
the terminal: small (3 rows) below about 110x36, large (5 rows) from there.
"""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ...session.text import printable
from ...session.view import Card
from ..viewmodels import Item, Opponent, TableRow
from .faces import LARGE, SMALL, CardSize, back_lines, face_lines, row_step, row_width
from .plain import plain

LARGE_FROM = (110, 36)  # terminal columns and rows from which cards are drawn large


def card_size(widget: Widget) -> CardSize:
    size = widget.app.size
    return LARGE if size.width >= LARGE_FROM[0] and size.height >= LARGE_FROM[1] else SMALL


class CardWidget(Widget):
    """Shared by the card widgets: the card styles and the size that fits the terminal."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "cards--spades", "cards--hearts", "cards--diamonds", "cards--clubs", "cards--caption", "cards--empty",
        "cards--back", "cards--mark", "cards--cursor", "cards--disabled", "cards--button",
    }

    def style_of(self, card: Optional[Card]) -> Style:
        if card is None:
            return self.get_component_rich_style("cards--empty")
        # One class a suit: the stylesheet makes them two colours, or four with the four-colour deck.
        return self.get_component_rich_style(f"cards--{card.suit.name.lower()}")


class OpponentView(CardWidget):
    """The other player's side: name, how many cards, the backs, a note (draft picks)."""

    DEFAULT_CSS = "OpponentView { height: auto; }"

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.opponent: Optional[Opponent] = None

    def show(self, opponent: Optional[Opponent]) -> None:
        self.opponent = opponent
        self.display = opponent is not None
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if self.opponent is None:
            return 0
        return 1 + (card_size(self).height if self.opponent.cards else 0)

    def render(self) -> Text:
        opp = self.opponent
        if opp is None:
            return Text()
        caption = self.get_component_rich_style("cards--caption")
        head = plain(f"{opp.name} · {opp.cards} card{'s' if opp.cards != 1 else ''}", caption)
        if opp.note:
            head.append(printable(f" · {opp.note}"), caption)
        head.truncate(max(1, self.size.width), overflow="ellipsis")  # one line, whatever the width
        lines = [head]
        if opp.cards:
            size = card_size(self)
            step = row_step(opp.cards, max(size.width, self.size.width), size)
            back = back_lines(size)
            style = self.get_component_rich_style("cards--back")
            for row in back:
                text = Text()
                for i in range(opp.cards):
                    text.append(row if i == opp.cards - 1 else row[:step], style)
                lines.append(text)
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out


class TableView(CardWidget):
    """The middle of the table: rows of cards (the opponent's above, yours below), each with a caption."""

    DEFAULT_CSS = "TableView { height: auto; }"

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.rows: tuple[TableRow, ...] = ()

    def show(self, rows: tuple[TableRow, ...]) -> None:
        self.rows = rows
        self.display = bool(rows)
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.rows) * card_size(self).height

    def render(self) -> Text:
        size = card_size(self)
        caption = self.get_component_rich_style("cards--caption")
        mark = self.get_component_rich_style("cards--mark")
        width = max((len(r.cards) * (size.width + 1) for r in self.rows), default=0)
        indent = max(0, (self.size.width - width) // 2 - 8)
        lines: list[Text] = []
        for row in self.rows:
            faces = [face_lines(c, heavy=row.mark, size=size) for c in row.cards]
            for k in range(size.height):
                text = Text(" " * indent)
                for card, face in zip(row.cards, faces, strict=True):
                    text.append(face[k], self.style_of(card))
                    text.append(" ")
                text.append(" " * (width - len(row.cards) * (size.width + 1)))
                if k == size.height // 2:
                    text.append(printable(f" {row.caption}"), mark if row.mark else caption)
                lines.append(text)
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out


class Picker(CardWidget):
    """Choices with a cursor; the screen owns the cursor and the keys.

    With ``cards=True`` it draws the items that are cards, as the hand at the bottom (the
    legal ones raised, overlapping when the row is wider than the widget), or the cards of
    ``display`` when no item is a card; otherwise it draws the text items as buttons.
    Indexes are always those of the whole item list.  A click posts ``Picker.Clicked``.
    """

    DEFAULT_CSS = "Picker { height: auto; }"

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, cards: bool, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self.items: Sequence[Item] = ()
        self.display_cards: tuple[Card, ...] = ()
        self.cursor: int = -1
        self.gap = 1  # spaces between buttons; 0 for a row of many short ones (the bids: Nil to 13 in one row)
        self._spans: list[tuple[int, int, int, int, int]] = []  # x0, x1, y0, y1, index

    def show(self, items: Sequence[Item], cursor: int, display_cards: tuple[Card, ...] = ()) -> None:
        self.items = items
        self.cursor = cursor
        self.display_cards = display_cards
        self.display = bool(self._entries())
        self.refresh(layout=True)

    def _entries(self) -> list[tuple[int, Item]]:
        if not self.cards:
            return [(i, it) for i, it in enumerate(self.items) if it.card is None]
        chosen = [(i, it) for i, it in enumerate(self.items) if it.card is not None]
        return chosen or [(-1, Item(c.code, card=c)) for c in self.display_cards]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if not self._entries():
            return 0
        if self.cards:
            return card_size(self).height + 1
        return len(self._button_rows(self._entries(), max(10, width)))

    def render(self) -> Text:
        entries = self._entries()
        out = self._render_cards(entries) if self.cards else self._render_buttons(entries)
        out.no_wrap = True
        return out

    def _style(self, item: Item, index: int, base: Style) -> Style:
        style = base
        if not item.enabled:
            style = style + self.get_component_rich_style("cards--disabled")
        if index == self.cursor and index >= 0:
            style = style + self.get_component_rich_style("cards--cursor")
        return style + Style(color=base.color)  # the highlighted card keeps its suit's colour

    def _render_cards(self, entries: list[tuple[int, Item]]) -> Text:
        size = card_size(self)
        step = row_step(len(entries), max(size.width, self.size.width), size)
        band = [Text() for _ in range(size.height + 1)]
        spans = []
        for n, (index, item) in enumerate(entries):
            assert item.card is not None
            shown = size.width if n == len(entries) - 1 else step
            face = face_lines(item.card, heavy=index == self.cursor and index >= 0, size=size)
            style = self._style(item, index, self.style_of(item.card))
            top = 0 if item.raised else 1
            for row in range(size.height + 1):
                k = row - top
                inside = 0 <= k < size.height
                band[row].append(face[k][:shown] if inside else " " * shown, style if inside else None)
            if index >= 0:
                spans.append((n * step, n * step + shown, 0, size.height + 1, index))
        self._spans = spans
        return Text("\n").join(band)

    def _button_rows(self, entries: list[tuple[int, Item]], width: int) -> list[list[tuple[int, Item, str]]]:
        """The buttons, wrapped onto as many rows as the width needs."""
        rows: list[list[tuple[int, Item, str]]] = [[]]
        x = 0
        for index, item in entries:
            shown = printable(item.text)  # a choice may hold a name ("Pass to ...")
            label = f"[{shown}]" if index == self.cursor else f" {shown} "
            if x and x + self.gap + len(label) > width:
                rows.append([])
                x = 0
            x += (self.gap if x else 0) + len(label)
            rows[-1].append((index, item, label))
        return rows

    def _render_buttons(self, entries: list[tuple[int, Item]]) -> Text:
        button = self.get_component_rich_style("cards--button")
        lines = []
        spans = []
        for y, row in enumerate(self._button_rows(entries, max(10, self.size.width))):
            text = Text()
            for index, item, label in row:
                if text.cell_len:
                    text.append(" " * self.gap)
                x = text.cell_len
                text.append(label, self._style(item, index, button))
                spans.append((x, x + len(label), y, y + 1, index))
            lines.append(text)
        self._spans = spans
        return Text("\n").join(lines)

    def index_at(self, x: int, y: int) -> Optional[int]:
        for x0, x1, y0, y1, index in self._spans:
            if x0 <= x < x1 and y0 <= y < y1:
                return index
        return None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None and self.items[index].enabled:
            self.post_message(self.Clicked(index))


__all__ = ["LARGE_FROM", "CardWidget", "OpponentView", "Picker", "TableView", "card_size", "row_width"]
