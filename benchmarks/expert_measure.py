"""``python -m benchmarks.expert_measure [--games 4] [--hands 3] [--spec expert]``: how fast
the expert bot decides.

Plays ``--games`` games of ``--hands`` hands each, the bot under test (``--spec``, by default the
expert with its process pool on every core, as the app runs it) against the hard bot, and prints
the median and worst time of its decisions, all of them and by phase (decisions with one legal
action are answered at once and left out).  A measuring script, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Optional, Sequence

from spades_tui.arena.match import play_game
from spades_tui.bots.base import Bot
from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.observation import Observation
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState

CLEAR_S = 0.01  # a decision answered this fast took no thinking (a clear one)


class Timed(Bot):
    """Wraps a bot and records (phase, seconds) for every decision with a choice."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[tuple[str, float]] = []

    def start(self, seat: int, rules: Rules) -> None:
        self.inner.start(seat, rules)

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        start = time.perf_counter()
        action = self.inner.decide(observation, legal)
        if len(legal) > 1:
            self.times.append((observation.phase.value, time.perf_counter() - start))
        return action

    def finish(self, scores: tuple[int, int], winner: Optional[int]) -> None:
        self.inner.finish(scores, winner)

    def close(self) -> None:
        self.inner.close()


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--hands", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--spec", default="expert")
    ns = p.parse_args(argv)
    times: list[tuple[str, float]] = []
    for g in range(ns.games):
        timed = Timed(make_bot(ns.spec, seed=ns.seed + g))
        opponent = make_bot("hard", seed=1000 + g)
        bots: tuple[Bot, Bot] = (timed, opponent) if g % 2 == 0 else (opponent, timed)

        def seen(state: GameState, seat: int) -> None:
            pass

        play_game(bots, seed=ns.seed * 7919 + g, rules=Rules(target=10_000), first_drafter=g % 2, hands=ns.hands,
                  observer=seen)
        times.extend(timed.times)
    print(f"{ns.spec} against hard: {ns.games} games x {ns.hands} hands, {len(times)} decisions with a choice")
    phases = sorted({k for k, _ in times})
    for label, values in [("all", [t for _, t in times])] + [(k, [t for q, t in times if q == k]) for k in phases]:
        if values:
            print(f"  {label:<11} n={len(values):4d}  median {statistics.median(values):.3f} s  "
                  f"worst {max(values):.3f} s  mean {statistics.fmean(values):.3f} s")
    quick = sum(1 for _, t in times if t < CLEAR_S)
    print(f"  answered at once (under {1000 * CLEAR_S:.0f} ms): {quick} of {len(times)} decisions with a choice")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
