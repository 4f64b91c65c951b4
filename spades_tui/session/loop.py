"""The one step loop: apply the chance actions that are due, ask whoever must act.

Every host runs a game through this loop: the app (through ``GameStore.settle``), the
arena, the benchmark, random play and the tests.  Chance comes from the ``Dealer``;
decisions come from ``decide(state, seat)``, which may return None to say that the
decision waits (a person has not chosen yet), and the loop then stops.  The dealer may wait
too: a network table's dealer has no cards for a hand until the seats' nonces are in
(table/wire/shuffle.py), and then the loop stops as it does for a decision.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..engine.actions import Action, PlayerAction
from ..engine.reducer import reduce
from ..engine.state import GameState, Phase
from .dealer import Dealer

Decide = Callable[[GameState, int], Optional[PlayerAction]]
Apply = Callable[[GameState, Action], GameState]
Stop = Callable[[GameState], bool]


def between_hands(state: GameState) -> bool:
    """A hand has been scored and the next one is not shuffled yet (the app shows the summary here)."""
    return state.phase is Phase.SHUFFLE and bool(state.history)


def _never(state: GameState) -> bool:
    return False


def waits(state: GameState, seat: int) -> Optional[PlayerAction]:
    return None


def run(
    state: GameState,
    dealer: Dealer,
    decide: Decide = waits,
    *,
    apply: Apply = reduce,
    stop: Stop = _never,
) -> GameState:
    """Play from ``state`` until the game is over, ``stop(state)`` holds or ``decide`` returns None.

    ``apply(state, action)`` makes the next state (``reduce`` by default; a store passes
    its ``dispatch`` so every action is recorded and saved).  Errors from ``decide`` or
    ``apply`` propagate: the caller decides what a failure means (a forfeit, say).
    """
    while state.phase is not Phase.GAME_OVER and not stop(state):
        action: Optional[Action] = dealer.chance_action(state)
        if action is None:
            seat = state.to_act
            if seat is None:
                break  # chance is due and the dealer waits for it (a network table's nonces)
            action = decide(state, seat)
            if action is None:
                break
        state = apply(state, action)
    return state
