"""Scoring of one hand (docs/rules.md section 7), as the rule book says it (``rulebook.hand_score``)."""

from __future__ import annotations

from typing import Optional

from .rulebook import hand_score
from .rules import Rules
from .state import ScoreLine


def score_player(
    rules: Rules, bid: Optional[int], double_nil: bool, tricks: int, bags_before: int
) -> tuple[ScoreLine, int]:
    """Score one player's hand; return the line and the bag total after it.

    ``bid`` is None only for a Double Nil player.
    """
    return hand_score(rules, "double_nil" if double_nil else bid, tricks, bags_before)
