"""Widgets: the card table (opponent, middle, hand, choices), the footer, the too-small message.

Names load with their module on first use (``spades_tui._lazy``): the start screen needs the footer
and the too-small notice, not the cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import exports, lazy_exports

# Eager: the function has its module's name, which the module's import would otherwise put here.
from .plain import plain, plain_cells, plain_content

if TYPE_CHECKING:
    from .cards import OpponentView, Picker, TableView, card_size
    from .faces import LARGE, SMALL, back_lines, face_lines, is_red
    from .footer import PALETTE_KEY, GameFooter
    from .toosmall import MIN_HEIGHT, MIN_WIDTH, TooSmall, too_small

__getattr__ = lazy_exports(__name__, exports(
    cards=("OpponentView", "Picker", "TableView", "card_size"),
    faces=("LARGE", "SMALL", "back_lines", "face_lines", "is_red"),
    footer=("PALETTE_KEY", "GameFooter"),
    toosmall=("MIN_HEIGHT", "MIN_WIDTH", "TooSmall", "too_small"),
))

__all__ = ["LARGE", "MIN_HEIGHT", "MIN_WIDTH", "PALETTE_KEY", "SMALL", "GameFooter", "OpponentView", "Picker",
           "TableView", "TooSmall", "back_lines", "card_size", "face_lines", "is_red", "plain", "plain_cells",
           "plain_content", "too_small"]
