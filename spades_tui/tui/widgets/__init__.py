"""Widgets: card faces, the choice picker, the footer, the too-small message."""

from .cards import CardsView, Picker, face_lines, is_red
from .footer import GameFooter
from .toosmall import MIN_HEIGHT, MIN_WIDTH, TooSmall, too_small

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "CardsView", "GameFooter", "Picker", "TooSmall", "face_lines", "is_red",
           "too_small"]
