"""Scoring of one hand (docs/rules.md section 7)."""

from __future__ import annotations

from typing import Optional

from .rules import Rules
from .state import ScoreLine


def score_player(
    rules: Rules, bid: Optional[int], double_nil: bool, tricks: int, bags_before: int
) -> tuple[ScoreLine, int]:
    """Score one player's hand; return the line and the bag total after it.

    ``bid`` is None only for a Double Nil player.
    """
    contract = overtricks = nil = 0
    bags_added = 0
    if double_nil or bid == 0:
        value = 200 if double_nil else 100
        nil = value if tricks == 0 else -value
        if rules.nil_tricks_are_bags:
            bags_added = tricks  # bags, but not points (docs/rules.md 9)
    else:
        assert bid is not None
        if tricks >= bid:
            contract = 10 * bid
            overtricks = tricks - bid
            bags_added = overtricks
        else:
            contract = -10 * bid
    bags = bags_before + bags_added
    penalty = 0
    if rules.bag_limit > 0:
        while bags >= rules.bag_limit:
            penalty -= rules.bag_penalty
            bags -= rules.bag_limit
    line = ScoreLine(contract, overtricks, nil, penalty, bags_added)
    return line, bags
