"""``spades-tui bench``: engine throughput and record replay time."""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from typing import Callable

from ..engine.actions import PlayerAction
from ..engine.record import loads_record, replay
from ..engine.reducer import legal_actions
from ..engine.rules import Rules
from ..engine.state import GameState, new_game
from ..session import loop
from ..session.dealer import Dealer
from ..session.randomplay import random_game
from . import common
from .common import print_or_quiet


def _another_hand_scored(played: int) -> Callable[[GameState], bool]:
    return lambda state: len(state.history) > played


DEFAULT_RULES = Rules()


def endless(rules: Rules) -> Rules:
    """The rules' play and scoring, in a game that never ends by the score (a bench measures hands)."""
    return dataclasses.replace(rules, target=10_000, losing_score=0, thirteen_wins=False)


def hands_per_second(seed: int, seconds: float, rules: Rules = DEFAULT_RULES) -> tuple[int, float]:
    """Play complete random hands through reduce + legal_actions for about ``seconds``."""
    rng = random.Random(seed)
    dealer = Dealer(seed)

    def decide(state: GameState, seat: int) -> PlayerAction:
        return rng.choice(legal_actions(state))

    state = new_game(endless(rules))
    hands = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(10):
            state = loop.run(state, dealer, decide, stop=_another_hand_scored(len(state.history)))
            hands += 1
        elapsed = time.perf_counter() - start
    return hands, elapsed


def solver_times(seed: int, hands: int, rules: Rules = DEFAULT_RULES) -> tuple[list[float], list[float], list[float]]:
    """Over random 13-trick hands, taken at the first lead: one full solve, the whole-hand trick
    analysis (every legal card of each of the 26 plays, one ``Solver`` per hand), and the whole review
    of the hand as the review screen gets it (``review_hand``: tricks, points, the draft and the bids)."""
    from ..engine.actions import Play
    from ..engine.reducer import reduce
    from ..engine.state import Phase
    from ..solver.analysis import review_hand
    from ..solver.position import Position, position_from_state
    from ..solver.solver import Solver

    solves: list[float] = []
    analyses: list[float] = []
    reviews: list[float] = []
    for i in range(hands):
        record, _ = random_game(seed + i, endless(rules), max_hands=1)
        state = record.new_state()
        positions: list[Position] = []
        for action in record.actions:
            if isinstance(action, Play) and state.phase is Phase.PLAY:
                positions.append(position_from_state(state))
            state = reduce(state, action)
        start = time.perf_counter()
        Solver().solve(positions[0])
        solves.append(time.perf_counter() - start)
        start = time.perf_counter()
        solver = Solver()
        for p in positions:
            solver.card_values(p)
        analyses.append(time.perf_counter() - start)
        start = time.perf_counter()
        review_hand(record, 1)
        reviews.append(time.perf_counter() - start)
    return solves, analyses, reviews


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=common.seed, default=1, help="seed of the random games (default 1)")
    p.add_argument("--seconds", type=float, default=3.0, help="how long to play hands (default 3)")
    p.add_argument("--solver", type=int, metavar="HANDS", help="time the double-dummy solver over HANDS random hands")
    p.add_argument("--rules", type=common.rules, metavar=common.RULES_METAVAR, default=Rules(),
                   help=common.rules_help() + " (the game never ends by the score here)")


def run(ns: argparse.Namespace) -> int:
    if ns.solver is not None:
        solves, analyses, reviews = solver_times(ns.seed, max(1, ns.solver), ns.rules)
        return print_or_quiet("\n".join(
            f"{name}: median {statistics.median(t) * 1000:.0f} ms, worst {max(t) * 1000:.0f} ms "
            f"over {len(t)} hands (seed {ns.seed})"
            for name, t in (("full 13-trick solve", solves), ("whole-hand analysis (26 plays)", analyses),
                            ("whole-hand review (tricks, points, draft)", reviews))))
    hands, elapsed = hands_per_second(ns.seed, ns.seconds, ns.rules)
    lines = [f"engine: {hands / elapsed:,.0f} complete random hands/s ({hands} hands in {elapsed:.2f} s, "
             f"seed {ns.seed})"]
    record, _ = random_game(ns.seed, endless(ns.rules), max_hands=10)
    text = record.dumps()
    runs = 20
    start = time.perf_counter()
    for _ in range(runs):
        replay(loads_record(text))
    per = (time.perf_counter() - start) / runs
    lines.append(f"record: load + replay of a 10-hand record ({len(record.actions)} actions, "
                 f"{len(text):,} bytes): {per * 1000:.1f} ms")
    return print_or_quiet("\n".join(lines))
