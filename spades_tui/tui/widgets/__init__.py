"""Widgets: the card table (opponent, middle, hand, choices), the footer, the too-small message."""

from .cards import OpponentView, Picker, TableView, card_size
from .faces import LARGE, SMALL, back_lines, face_lines, is_red
from .footer import PALETTE_KEY, GameFooter
from .plain import plain, plain_cells, plain_content
from .toosmall import MIN_HEIGHT, MIN_WIDTH, TooSmall, too_small

__all__ = ["LARGE", "MIN_HEIGHT", "MIN_WIDTH", "PALETTE_KEY", "SMALL", "GameFooter", "OpponentView", "Picker",
           "TableView", "TooSmall", "back_lines", "card_size", "face_lines", "is_red", "plain", "plain_cells",
           "plain_content", "too_small"]
