"""Card faces, backs and rows of cards, at two sizes, as rich Text lines.

Small cards are 3 rows by 5 columns (the 80x24 screen); large ones 5 rows by 7
columns (from about 120x40).  A row of cards that does not fit its width overlaps:
each card but the last shows only its left part, as a fanned hand does.  Every
character used has an ASCII stand-in of the same width (tui/terminal.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...session.view import Card, Suit


@dataclass(frozen=True)
class CardSize:
    width: int
    height: int


SMALL = CardSize(5, 3)
LARGE = CardSize(7, 5)


def is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


_LIGHT = "╭─╮│╰╯"
_HEAVY = "┏━┓┃┗┛"


def face_lines(card: Optional[Card], heavy: bool = False, size: CardSize = SMALL) -> tuple[str, ...]:
    """A card face; ``None`` is an empty place on the table (a dot in the middle)."""
    w, h = size.width, size.height
    if card is None:
        blank = " " * w
        mid = ("·".center(w),)
        return (blank,) * ((h - 1) // 2) + mid + (blank,) * (h - 1 - (h - 1) // 2)
    tl, hz, tr, vt, bl, br = tuple(_HEAVY if heavy else _LIGHT)
    inner = w - 2
    label = card.label()
    top, bottom = tl + hz * inner + tr, bl + hz * inner + br
    if h == 3:
        return (top, f"{vt}{label:<{inner}}{vt}", bottom)  # left: an overlapped card still shows it
    suit = label[-1]
    return (top, f"{vt}{label:<{inner}}{vt}", f"{vt}{suit:^{inner}}{vt}", f"{vt}{label:>{inner}}{vt}", bottom)


def back_lines(size: CardSize = SMALL) -> tuple[str, ...]:
    """The back of a card: the same frame, hatched."""
    inner = size.width - 2
    return ("╭" + "─" * inner + "╮", *("│" + "░" * inner + "│" for _ in range(size.height - 2)),
            "╰" + "─" * inner + "╯")


def row_step(count: int, width: int, size: CardSize) -> int:
    """Columns from one card's left edge to the next: the whole card if they fit, less if they must overlap."""
    if count <= 1:
        return size.width
    step = (width - size.width) // (count - 1)
    return max(4, min(size.width, step))  # 4 columns still show "│10♥"


def row_width(count: int, step: int, size: CardSize) -> int:
    return 0 if count == 0 else step * (count - 1) + size.width
