"""Exact double-dummy analysis of the play phase (docs/analysis.md).

Pure: imports only the engine and the standard library; no I/O, no randomness.
"""

from .position import Position, cards_of, mask_of, position_from_state
from .solver import AIMS, Aim, Solver, card_values, legal_cards, solve

__all__ = [
    "AIMS", "Aim", "Position", "Solver", "card_values", "cards_of", "legal_cards", "mask_of",
    "position_from_state", "solve",
]
