"""The card table's widgets: the opponent's side, the cards in the middle, the hand and the choices.

Colours and emphasis come from component classes styled in ``assets/spades.tcss``
(with ``App:nocolor`` variants), so no style lives in Python strings.  Every card
is written as ``card.label()`` (rank then suit symbol, no space).  The screen sets the card size
(``size_cards``: small, medium or large, whichever fits, widgets/fit.py); each widget centers what it
draws in its width (docs/playing.md, "Screen sizes").
"""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ...i18n.language import N_, _, ngettext, translated
from ...session.text import printable
from ...session.view import Card
from ..gameview import Item, Opponent, TableRow
from .faces import SMALL, CardSize, back_lines, face_lines, pile_lines, row_step, row_width
from .fit import GAP
from .plain import plain

EMPTY = N_("no cards yet")  # the frame of cards not yet dealt (translated where drawn)


def stock_caption(count: int) -> str:
    """The words beside the stock's pile: how many cards lie under its top card."""
    return ngettext("Stock: {count} card under it", "Stock: {count} cards under it", count).format(count=count)


def opponent_parts(opp: Opponent) -> list[str]:
    """The opponent's line, phrase by phrase: the name, the cards held, a note."""
    held = ngettext("{count} card", "{count} cards", opp.cards).format(count=opp.cards)
    return [printable(opp.name), held] + ([printable(opp.note)] if opp.note else [])


def opponent_line(opp: Opponent) -> str:
    """The opponent's line on one line, as the screen measures it before wrapping."""
    return " · ".join(opponent_parts(opp))


def centered(lines: list[Text], width: int) -> list[Text]:
    """The lines as one block in the middle of ``width`` columns: what shows of them (not their padding)
    has as many columns on its left as on its right."""
    inked = [line.plain for line in lines if line.plain.strip()]
    if not inked:
        return lines
    left = min(len(text) - len(text.lstrip()) for text in inked)
    right = max(len(text.rstrip()) for text in inked)
    pad = max(0, (width - (right - left)) // 2 - left)
    return [Text(" " * pad) + line for line in lines] if pad else lines


def wrapped_head(parts: list[str], width: int) -> list[str]:
    """Phrases joined by " · ", wrapped between phrases onto as many lines as ``width`` needs (never cut)."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


class CardWidget(Widget):
    """Shared by the card widgets: the card styles and the card size the screen chose."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "cards--spades", "cards--hearts", "cards--diamonds", "cards--clubs", "cards--caption", "cards--empty",
        "cards--back", "cards--mark", "cards--cursor", "cards--disabled", "cards--button",
    }

    card: CardSize = SMALL  # the size of the cards (the screen's choice)
    back: CardSize = SMALL  # the opponent's backs: the same, or one smaller

    def size_cards(self, card: CardSize, back: CardSize) -> None:
        if (card, back) != (self.card, self.back):
            self.card, self.back = card, back
            self.refresh(layout=True)

    def style_of(self, card: Optional[Card]) -> Style:
        if card is None:
            return self.get_component_rich_style("cards--empty")
        # One class a suit: the stylesheet makes them two colours, or four with the four-colour deck.
        return self.get_component_rich_style(f"cards--{card.suit.name.lower()}")


class OpponentView(CardWidget):
    """The other player's side: name, how many cards, a note (bid, tricks won, draft picks), the backs."""

    DEFAULT_CSS = "OpponentView { height: auto; }"

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.opponent: Optional[Opponent] = None
        self.empty = False  # with no card, keep the backs' place (where the screen has room)

    def show(self, opponent: Optional[Opponent], empty: bool = False) -> None:
        self.opponent, self.empty = opponent, empty
        self.display = opponent is not None
        self.refresh(layout=True)

    def _head(self, width: int) -> list[str]:
        opp = self.opponent
        assert opp is not None
        return wrapped_head(opponent_parts(opp), max(10, width))

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if self.opponent is None:
            return 0
        backs = self.back.height if self.opponent.cards or self.empty else 0
        return len(self._head(width)) + backs

    def render(self) -> Text:
        opp = self.opponent
        if opp is None:
            return Text()
        width = self.size.width
        caption = self.get_component_rich_style("cards--caption")
        lines = centered([plain(line, caption) for line in self._head(width)], width)
        size = self.back
        if opp.cards:
            step = row_step(opp.cards, max(size.width, width), size)
            style = self.get_component_rich_style("cards--back")
            backs = []
            for row in back_lines(size):
                text = Text()
                for i in range(opp.cards):
                    text.append(row if i == opp.cards - 1 else row[:step], style)
                backs.append(text)
            lines += centered(backs, width)
        elif self.empty:
            lines += centered(_empty_place(size.height, caption), width)
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out


def _empty_place(height: int, style: Style) -> list[Text]:
    """The place of cards not yet dealt: a dashed frame, its words on the middle row."""
    empty = translated(EMPTY)
    inner = len(empty) + 4
    lines = ["╭" + "┄" * inner + "╮", *(f"┆{(empty if k == (height - 2) // 2 else ''):^{inner}}┆"
                                        for k in range(height - 2)), "╰" + "┄" * inner + "╯"]
    return [Text(line, style) for line in lines]


class TableView(CardWidget):
    """The middle of the table: rows of cards (the opponent's above, yours below), each with a caption;
    beside them the piles (the stock, each player's won tricks), under them the cards seen passed."""

    DEFAULT_CSS = "TableView { height: auto; }"

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.rows: tuple[TableRow, ...] = ()
        self.piles: tuple[tuple[str, int], ...] = ()  # one a row, beside its card, small
        self.stock: Optional[int] = None  # the stock's pile beside the first row's card
        self.discards: Optional[int] = None
        self.seen: tuple[Card, ...] = ()
        self.seen_caption = ""

    def show(self, rows: tuple[TableRow, ...], *, piles: tuple[tuple[str, int], ...] = (),
             stock: Optional[int] = None, discards: Optional[int] = None, seen: tuple[Card, ...] = (),
             seen_caption: str = "") -> None:
        self.rows, self.piles, self.stock, self.discards = rows, piles, stock, discards
        self.seen, self.seen_caption = seen, seen_caption
        self.display = bool(rows or seen or discards is not None or stock is not None)
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        height = len(self.rows) * self.card.height
        if self.discards is not None or (self.stock is not None and not self.rows):
            height += self.card.height
        if self.seen:
            height += (1 if height else 0) + 1 + SMALL.height
        return height

    def _beside(self, index: int) -> tuple[list[tuple[str, bool]], list[str]]:
        """What stands left of a row's card (a pile, each line marked True, and its words) and right of it
        (its caption lines)."""
        row = self.rows[index]
        right = [row.caption]
        left: list[tuple[str, bool]] = []
        if self.stock is not None and index == 0:
            left = [(line, True) for line in pile_lines(self.stock, self.card)]
            right.append(stock_caption(self.stock))
        elif index < len(self.piles):
            words, count = self.piles[index]
            left = [*((line, True) for line in pile_lines(count, SMALL)), (words, False)]
        return left, right

    def render(self) -> Text:
        size = self.card
        caption = self.get_component_rich_style("cards--caption")
        mark = self.get_component_rich_style("cards--mark")
        back = self.get_component_rich_style("cards--back")
        beside = [self._beside(i) for i in range(len(self.rows))]
        if self.stock is not None and not self.rows:  # before any card is seen: the stock alone
            beside.append(([(line, True) for line in pile_lines(self.stock, size)],
                           [ngettext("The stock: {count} card", "The stock: {count} cards", self.stock).format(
                               count=self.stock)]))
        if self.discards is not None:
            beside.append(([(line, True) for line in pile_lines(self.discards, size)],
                           [ngettext("The discard pile: {count} card", "The discard pile: {count} cards",
                                     self.discards).format(count=self.discards), _("the exchange draws from it")]))
        left_w = max((len(line) for left, _right in beside for line, _pile in left), default=0)
        right_w = max((len(line) for _left, right in beside for line in right), default=0)
        block: list[Text] = []
        for i, (left, right) in enumerate(beside):
            row = self.rows[i] if i < len(self.rows) else None
            faces = face_lines(row.cards[0] if row and row.cards else None, heavy=bool(row and row.mark), size=size)
            top = (size.height - len(right)) // 2
            ltop = (size.height - len(left)) // 2
            for k in range(size.height):
                text = Text()
                if left_w:
                    piece, pile = left[k - ltop] if 0 <= k - ltop < len(left) else ("", False)
                    text.append(printable(f"{piece:<{left_w}}"), back if pile else caption)
                    text.append(" " * GAP)
                if row is not None:
                    card = row.cards[0] if row.cards else None
                    text.append(faces[k], self.style_of(card))
                text.append(" " * GAP)
                words = right[k - top] if 0 <= k - top < len(right) else ""
                style = mark if row is not None and row.mark and k - top == 0 else caption
                text.append(printable(f"{words:<{right_w}}"), style)
                block.append(text)
        lines = centered(block, self.size.width)
        if self.seen:
            seen = []
            step = row_step(len(self.seen), self.size.width, SMALL)
            faces_seen = [face_lines(c, size=SMALL) for c in self.seen]
            for k in range(SMALL.height):
                text = Text()
                for n, (card, face) in enumerate(zip(self.seen, faces_seen, strict=True)):
                    text.append(face[k] if n == len(self.seen) - 1 else face[k][:step], self.style_of(card))
                seen.append(text)
            if lines:
                lines.append(Text())
            lines += centered([Text(self.seen_caption, caption)], self.size.width)
            lines += centered(seen, self.size.width)
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

    def show(self, items: Sequence[Item], cursor: int, display_cards: tuple[Card, ...] = (),
             empty: bool = False, backs: int = 0) -> None:
        """``empty``: with no card to draw, keep the hand's place (where the screen has room); ``backs``: with no
        card to draw, that many face down (the public view's bottom player)."""
        self.items = items
        self.cursor = cursor
        self.display_cards = display_cards
        self.backs = backs if self.cards else 0
        self.empty = empty and self.cards
        self.display = bool(self._entries()) or self.empty or bool(self.backs)
        self.refresh(layout=True)

    empty = False
    backs = 0

    def _entries(self) -> list[tuple[int, Item]]:
        if not self.cards:
            return [(i, it) for i, it in enumerate(self.items) if it.card is None]
        chosen = [(i, it) for i, it in enumerate(self.items) if it.card is not None]
        return chosen or [(-1, Item(c.code, card=c)) for c in self.display_cards]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if self.cards and (self._entries() or self.empty or self.backs):
            return self.card.height + 1
        if not self._entries():
            return 0
        return len(self._button_rows(self._entries(), max(10, width)))

    def render(self) -> Text:
        entries = self._entries()
        if self.cards and not entries and self.backs:
            self._spans = []
            out = self._render_backs(self.backs)
        elif self.cards and not entries:
            self._spans = []
            place = _empty_place(self.card.height, self.get_component_rich_style("cards--caption"))
            out = Text("\n").join([Text(), *centered(place, self.size.width)])
        else:
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
        size = self.card
        step = row_step(len(entries), max(size.width, self.size.width), size)
        pad = max(0, (self.size.width - row_width(len(entries), step, size)) // 2)  # the hand in the middle
        band = [Text(" " * pad) for _row in range(size.height + 1)]
        spans = []
        for n, (index, item) in enumerate(entries):
            assert item.card is not None
            shown = size.width if n == len(entries) - 1 else step
            face = face_lines(item.card, heavy=index == self.cursor and index >= 0, size=size,
                              covered=shown < size.width)
            style = self._style(item, index, self.style_of(item.card))
            top = 0 if item.raised else 1
            for row in range(size.height + 1):
                k = row - top
                inside = 0 <= k < size.height
                band[row].append(face[k][:shown] if inside else " " * shown, style if inside else None)
            if index >= 0:
                spans.append((pad + n * step, pad + n * step + shown, 0, size.height + 1, index))
        self._spans = spans
        return Text("\n").join(band)

    def _render_backs(self, count: int) -> Text:
        """``count`` cards face down, overlapping as the hand's do, one row lower (where an unraised card is)."""
        size = self.card
        step = row_step(count, max(size.width, self.size.width), size)
        style = self.get_component_rich_style("cards--back")
        rows = []
        for line in back_lines(size):
            text = Text()
            for i in range(count):
                text.append(line if i == count - 1 else line[:step], style)
            rows.append(text)
        return Text("\n").join([Text(), *centered(rows, self.size.width)])

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
        width = max(10, self.size.width)
        for y, row in enumerate(self._button_rows(entries, width)):
            used = sum(len(label) for _index, _item, label in row) + self.gap * (len(row) - 1)
            text = Text(" " * max(0, (width - used) // 2))  # each row of buttons in the middle
            for index, item, label in row:
                if text.cell_len and text.plain.strip():
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

    class Refused(Message):
        """A click on a choice that is not allowed now (a card that may not be played): the lesson explains it."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None and self.items[index].enabled:
            self.post_message(self.Clicked(index))
        elif index is not None:
            self.post_message(self.Refused(index))


__all__ = ["CardWidget", "OpponentView", "Picker", "TableView", "centered", "opponent_line", "row_width",
           "stock_caption", "wrapped_head"]
