"""Uniformly random legal play, for the benchmark, tests and fuzzing."""

from __future__ import annotations

import random
from typing import Optional

from .dealer import Dealer
from .engine import GameRecord, GameState, Phase, Rules, legal_actions, reduce
from .engine.actions import Action


def random_game(
    seed: int,
    rules: Optional[Rules] = None,
    first_drafter: int = 0,
    max_hands: Optional[int] = None,
    max_actions: Optional[int] = None,
) -> tuple[GameRecord, GameState]:
    """Play random legal decisions; stop at game over, ``max_hands`` scored hands or ``max_actions``."""
    rng = random.Random(seed)
    dealer = Dealer(seed)
    record = GameRecord(rules=rules or Rules(), first_drafter=first_drafter)
    state = record.new_state()
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        if max_hands is not None and state.phase is Phase.SHUFFLE and len(state.history) >= max_hands:
            break
        if max_actions is not None and len(actions) >= max_actions:
            break
        action = dealer.chance_action(state)
        if action is None:
            action = rng.choice(legal_actions(state))
        state = reduce(state, action)
        actions.append(action)
    return GameRecord(record.rules, first_drafter, None, tuple(actions)), state
