"""Card faces, backs, piles and rows of cards, at three sizes, as lines of text.

Small cards are 5 columns by 3 rows (the 80x24 screen), medium 7 by 5 (from about 100x32), large 9 by
7 (from about 140x45): docs/playing.md, "Screen sizes".  A row of cards that does not fit its width
overlaps: each card but the last shows only its left part, as a fanned hand does, and that part
always holds the rank and suit.  Every character used has an ASCII stand-in of the same width
(tui/app/terminal.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...session.view import Card, Suit


@dataclass(frozen=True)
class CardSize:
    width: int
    height: int
    name: str = ""


SMALL = CardSize(5, 3, "small")
MEDIUM = CardSize(7, 5, "medium")
LARGE = CardSize(9, 7, "large")
SIZES = (LARGE, MEDIUM, SMALL)  # largest first: the table takes the largest that fits
MIN_STEP = 4  # columns an overlapped card keeps: "│10♥" still shows its rank and suit


def smaller(size: CardSize) -> CardSize:
    """One size smaller (the small size stays small)."""
    return SIZES[min(len(SIZES) - 1, SIZES.index(size) + 1)]


def is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


_LIGHT = "╭─╮│╰╯"
_HEAVY = "┏━┓┃┗┛"


def face_lines(card: Optional[Card], heavy: bool = False, size: CardSize = SMALL,
               covered: bool = False) -> tuple[str, ...]:
    """A card face; ``None`` is an empty place on the table (a dot in the middle).  ``covered``: the next
    card of a fan lies over its right part, so its bottom-right corner is left blank (not cut to "1")."""
    w, h = size.width, size.height
    if card is None:
        blank = " " * w
        mid = ("·".center(w),)
        return (blank,) * ((h - 1) // 2) + mid + (blank,) * (h - 1 - (h - 1) // 2)
    tl, hz, tr, vt, bl, br = tuple(_HEAVY if heavy else _LIGHT)
    inner = w - 2
    label = card.label()
    top, bottom = tl + hz * inner + tr, bl + hz * inner + br
    corner = f"{vt}{label:<{inner}}{vt}"  # left: an overlapped card still shows it
    if h == 3:
        return (top, corner, bottom)
    blank = f"{vt}{'':<{inner}}{vt}"
    middle = f"{vt}{label[-1]:^{inner}}{vt}"
    pad = (blank,) * ((h - 5) // 2)  # the large face: a blank row above and below the middle suit
    return (top, corner, *pad, middle, *pad, blank if covered else f"{vt}{label:>{inner}}{vt}", bottom)


def back_lines(size: CardSize = SMALL) -> tuple[str, ...]:
    """The back of a card: the same frame, hatched."""
    inner = size.width - 2
    return ("╭" + "─" * inner + "╮", *("│" + "░" * inner + "│" for _ in range(size.height - 2)),
            "╰" + "─" * inner + "╯")


PILE_EDGES = 4  # a pile shows at most this many edges behind its top card


def pile_lines(count: int, size: CardSize = SMALL) -> tuple[str, ...]:
    """A face-down pile of ``count`` cards: a back with an edge for each card under it (a few at most);
    an empty pile is nothing (its words say 0)."""
    if count <= 0:
        return ()
    edges = min(PILE_EDGES, count - 1)
    back = back_lines(size)
    return tuple(line + ("╮" if i == 0 else "╯" if i == len(back) - 1 else "│") * edges
                 for i, line in enumerate(back))


def pile_width(size: CardSize) -> int:
    return size.width + PILE_EDGES


def row_step(count: int, width: int, size: CardSize) -> int:
    """Columns from one card's left edge to the next: the whole card if they fit, less if they must overlap."""
    if count <= 1:
        return size.width
    step = (width - size.width) // (count - 1)
    return max(MIN_STEP, min(size.width, step))


def row_width(count: int, step: int, size: CardSize) -> int:
    return 0 if count == 0 else step * (count - 1) + size.width


def fits(count: int, width: int, size: CardSize) -> bool:
    """Whether ``count`` cards of ``size`` fit ``width`` columns, fanned as close as they may be."""
    return row_width(count, MIN_STEP if count > 1 else size.width, size) <= width
