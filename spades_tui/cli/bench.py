"""``spades-tui bench``: engine throughput and record replay time."""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable

from ..engine import GameState, PlayerAction, Rules, legal_actions, new_game, replay
from ..engine.record import loads_record
from ..session import loop
from ..session.dealer import Dealer
from ..session.randomplay import random_game
from .common import print_or_quiet

HELP = "measure the engine's speed"


def _another_hand_scored(played: int) -> Callable[[GameState], bool]:
    return lambda state: len(state.history) > played


def hands_per_second(seed: int, seconds: float) -> tuple[int, float]:
    """Play complete random hands through reduce + legal_actions for about ``seconds``."""
    rng = random.Random(seed)
    dealer = Dealer(seed)

    def decide(state: GameState, seat: int) -> PlayerAction:
        return rng.choice(legal_actions(state))

    # A huge target so hands never stop for a game end.
    state = new_game(Rules(target=10**9))
    hands = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(10):
            state = loop.run(state, dealer, decide, stop=_another_hand_scored(len(state.history)))
            hands += 1
        elapsed = time.perf_counter() - start
    return hands, elapsed


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    p.add_argument("--seconds", type=float, default=3.0, help="how long to play hands (default 3)")


def run(ns: argparse.Namespace) -> int:
    hands, elapsed = hands_per_second(ns.seed, ns.seconds)
    lines = [f"engine: {hands / elapsed:,.0f} complete random hands/s ({hands} hands in {elapsed:.2f} s, "
             f"seed {ns.seed})"]
    record, _ = random_game(ns.seed, Rules(target=10**9), max_hands=10)
    text = record.dumps()
    runs = 20
    start = time.perf_counter()
    for _ in range(runs):
        replay(loads_record(text))
    per = (time.perf_counter() - start) / runs
    lines.append(f"record: load + replay of a 10-hand record ({len(record.actions)} actions, "
                 f"{len(text):,} bytes): {per * 1000:.1f} ms")
    return print_or_quiet("\n".join(lines))
