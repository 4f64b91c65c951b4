"""``python -m spades_tui.solver.bench [--hands 20] [--seed 1]``: how fast the solver is.

Over N random 13-trick hands (random legal games, taken at the first lead) it
prints the time of one full 13-trick solve, and of the whole-hand analysis
(every legal card of each of the 26 plays, one ``Solver`` per hand), median and
worst.  A measuring script, not a test: the random games come from
``spades_tui.randomplay``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Optional, Sequence

from ..engine import Phase, Play, Rules, reduce
from .position import Position, position_from_state
from .solver import Solver


def hand_positions(seed: int) -> list[Position]:
    """The 26 play positions of the first hand of a random game."""
    from ..randomplay import random_game  # randomness lives outside the solver

    record, _ = random_game(seed, Rules(target=10**9), max_hands=1)
    state = record.new_state()
    out: list[Position] = []
    for action in record.actions:
        if isinstance(action, Play) and state.phase is Phase.PLAY:
            out.append(position_from_state(state))
        state = reduce(state, action)
    return out


def analyse_positions(positions: Sequence[Position]) -> None:
    solver = Solver()
    for p in positions:
        solver.card_values(p)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spades_tui.solver.bench", description=__doc__)
    parser.add_argument("--hands", type=int, default=20, help="how many random hands (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first random game (default 1)")
    ns = parser.parse_args(argv)
    solves: list[float] = []
    analyses: list[float] = []
    for i in range(ns.hands):
        positions = hand_positions(ns.seed + i)
        start = time.perf_counter()
        Solver().solve(positions[0])
        solves.append(time.perf_counter() - start)
        start = time.perf_counter()
        analyse_positions(positions)
        analyses.append(time.perf_counter() - start)
    for name, times in (("full 13-trick solve", solves), ("whole-hand analysis (26 plays)", analyses)):
        print(
            f"{name}: median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms "
            f"over {len(times)} hands (seed {ns.seed})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
