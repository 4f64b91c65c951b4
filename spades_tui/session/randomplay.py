"""Uniformly random legal play, for the benchmark, tests and fuzzing."""

from __future__ import annotations

import random
from typing import Optional

from ..engine.actions import Action, PlayerAction
from ..engine.record import GameRecord
from ..engine.reducer import legal_actions, reduce
from ..engine.rules import Rules
from ..engine.state import GameState, Phase
from . import loop
from .dealer import Dealer


def random_game(
    seed: int,
    rules: Optional[Rules] = None,
    first_drafter: int = 0,
    max_hands: Optional[int] = None,
    max_actions: Optional[int] = None,
) -> tuple[GameRecord, GameState]:
    """Play random legal decisions; stop at game over, ``max_hands`` scored hands or ``max_actions``."""
    rng = random.Random(seed)
    record = GameRecord(rules=rules or Rules(), first_drafter=first_drafter)
    actions: list[Action] = []

    def decide(state: GameState, seat: int) -> PlayerAction:
        return rng.choice(legal_actions(state))

    def apply(state: GameState, action: Action) -> GameState:
        actions.append(action)
        return reduce(state, action)

    def stop(state: GameState) -> bool:
        return (max_hands is not None and state.phase is Phase.SHUFFLE and len(state.history) >= max_hands) or (
            max_actions is not None and len(actions) >= max_actions
        )

    state = loop.run(record.new_state(), Dealer(seed), decide, apply=apply, stop=stop)
    return GameRecord(record.rules, first_drafter, None, tuple(actions)), state
