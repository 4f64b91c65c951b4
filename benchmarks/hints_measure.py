"""``python -m benchmarks.hints_measure [--games 6] [--per-kind 25] [--seed 1]``: how fast hints are.

Positions come from random legal games (``spades_tui.session.randomplay``), every
decision with more than one legal action; for each kind of hint (Double Nil,
draft, exchange, bidding, play) up to ``--per-kind`` of them, spread over the
games, are hinted with the default time budget, and the median and worst
latency are printed.  A measuring script, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Optional, Sequence

from spades_tui.bots.hints import DEFAULT_BUDGET, hint
from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.observation import Observation, observe
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState
from spades_tui.session.randomplay import random_game

KINDS = ("double_nil", "draft", "exchange", "bidding", "play")


def decision_positions(seed: int, hands: int = 2) -> list[tuple[Observation, tuple[PlayerAction, ...]]]:
    """Every decision with a choice in the first ``hands`` hands of a random game."""
    record, _ = random_game(seed, Rules(target=10_000), first_drafter=seed % 2, max_hands=hands)
    state: GameState = record.new_state()
    out = []
    for action in record.actions:
        seat = state.to_act
        if seat is not None:
            legal = legal_actions(state)
            if len(legal) > 1:
                out.append((observe(state, seat), legal))
        state = reduce(state, action)
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hints_measure", description=__doc__)
    parser.add_argument("--games", type=int, default=6, help="random games to draw positions from (default 6)")
    parser.add_argument("--per-kind", type=int, default=25, help="positions timed per kind of hint (default 25)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first random game (default 1)")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="hint time budget in seconds")
    ns = parser.parse_args(argv)
    by_kind: dict[str, list[tuple[Observation, tuple[PlayerAction, ...]]]] = {k: [] for k in KINDS}
    for i in range(ns.games):
        for obs, legal in decision_positions(ns.seed + i):
            by_kind[obs.phase.value].append((obs, legal))  # the phases are named as the kinds
    rng = random.Random(ns.seed)
    every: list[float] = []
    print(f"hint latency, budget {ns.budget:.2f} s, positions from {ns.games} random games (seed {ns.seed})")
    for kind in KINDS:
        pool = by_kind[kind]
        chosen = rng.sample(pool, min(ns.per_kind, len(pool)))
        times: list[float] = []
        for obs, legal in chosen:
            start = time.perf_counter()
            got = hint(obs, legal, seed=ns.seed, budget=ns.budget)
            times.append(time.perf_counter() - start)
            if got.recommended not in legal:
                raise SystemExit(f"{kind}: recommended action not legal: {got.recommended}")
        every += times
        if times:
            print(
                f"  {kind:<10} median {statistics.median(times) * 1000:4.0f} ms, "
                f"worst {max(times) * 1000:4.0f} ms over {len(times)} positions"
            )
        else:
            print(f"  {kind:<10} no positions")
    if every:
        print(
            f"  {'all':<10} median {statistics.median(every) * 1000:4.0f} ms, "
            f"worst {max(every) * 1000:4.0f} ms over {len(every)} positions"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
