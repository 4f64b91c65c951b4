"""``spades-tui bench``: engine throughput and record replay time."""

from __future__ import annotations

import random
import time
from typing import Sequence

from .cli import CliError, _Parser
from .dealer import Dealer
from .engine import Phase, Rules, legal_actions, new_game, reduce, replay
from .engine.record import loads_record
from .randomplay import random_game


def hands_per_second(seed: int, seconds: float) -> tuple[int, float]:
    """Play complete random hands through reduce + legal_actions for about ``seconds``."""
    rng = random.Random(seed)
    dealer = Dealer(seed)
    # A huge target so hands never stop for a game end.
    state = new_game(Rules(target=10**9))
    hands = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(10):
            while True:
                chance = dealer.chance_action(state)
                state = reduce(state, chance if chance is not None else rng.choice(legal_actions(state)))
                if state.phase is Phase.SHUFFLE:
                    break
            hands += 1
        elapsed = time.perf_counter() - start
    return hands, elapsed


def main(argv: Sequence[str]) -> int:
    parser = _Parser(prog="spades-tui bench", description="Measure engine speed.")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to play hands (default 3)")
    try:
        ns = parser.parse_args(list(argv))
    except CliError as exc:
        import sys

        print(exc, file=sys.stderr)
        return 2
    hands, elapsed = hands_per_second(ns.seed, ns.seconds)
    print(f"engine: {hands / elapsed:,.0f} complete random hands/s ({hands} hands in {elapsed:.2f} s, seed {ns.seed})")
    record, _ = random_game(ns.seed, Rules(target=10**9), max_hands=10)
    text = record.dumps()
    runs = 20
    start = time.perf_counter()
    for _ in range(runs):
        replay(loads_record(text))
    per = (time.perf_counter() - start) / runs
    print(
        f"record: load + replay of a 10-hand record ({len(record.actions)} actions, "
        f"{len(text):,} bytes): {per * 1000:.1f} ms"
    )
    return 0
