"""``python -m benchmarks.expert_samples_measure [--hands 6] [--samples 200,600] [--reference 1500]``:
would more samples make the expert play better?

Plays ``--hands`` single hands, the expert (one process) against the hard bot, and keeps every
position where the expert had a card to choose.  In each, the expert's choice with each sample count of
``--samples`` (fixed iterations, so no clock) is judged by an independent estimate from ``--reference``
samples of other seeds: the share of choices that differ from the reference's best card, and the mean
utility lost against it, also in points of margin at the start of a game (the utility's slope at 0-0).
A measuring script, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Optional, Sequence

from spades_tui.arena.match import play_game
from spades_tui.bots.core import win_value
from spades_tui.bots.expert import ExpertBot
from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.observation import Observation, observe
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", default="200,600")
    p.add_argument("--reference", type=int, default=1500)
    ns = p.parse_args(argv)
    counts = [int(x) for x in ns.samples.split(",")]
    rules = Rules()
    positions: list[tuple[Observation, list[PlayerAction]]] = []
    for g in range(ns.hands):
        expert_seat = g % 2

        def seen(state: GameState, seat: int, expert_seat: int = expert_seat) -> None:
            if seat == expert_seat and state.phase is Phase.PLAY:
                legal = list(legal_actions(state))
                if len(legal) > 1:
                    positions.append((observe(state, seat), legal))

        bots = [make_bot("hard", seed=ns.seed + g, budget=0.1), ExpertBot(ns.seed + g, budget=None, iterations=200,
                                                                           workers=1)]
        if expert_seat == 0:
            bots.reverse()
        play_game((bots[0], bots[1]), seed=ns.seed * 7919 + g, rules=rules, first_drafter=g % 2, hands=1,
                  observer=seen)
    slope = win_value(rules, 1, 0, 0, 0) - win_value(rules, 0, 0, 0, 0)  # utility of one point at 0-0
    lost: dict[int, list[float]] = {n: [] for n in counts}
    differ: dict[int, int] = dict.fromkeys(counts, 0)
    for i, (obs, legal) in enumerate(positions):
        ref_bot = ExpertBot(10_000 + i, budget=None, iterations=ns.reference, workers=1)
        ref = ref_bot.card_values(obs, legal, random.Random(f"ref:{i}"))
        if ref is None:
            continue
        best = max(ref.values())
        for n in counts:
            bot = ExpertBot(i, budget=None, iterations=n, workers=1)
            values = bot.card_values(obs, legal, random.Random(f"{n}:{i}"))
            if values is None:
                continue
            pick = max(values, key=lambda c: (values[c], -(c % 13), -c))
            lost[n].append(best - ref[pick])
            differ[n] += ref[pick] < best - 1e-12
    print(f"expert against hard: {ns.hands} hands, {len(positions)} play decisions with a choice, "
          f"reference {ns.reference} samples, seed {ns.seed}")
    for n in counts:
        if lost[n]:
            mean = statistics.fmean(lost[n])
            print(f"  {n:5d} samples: {differ[n]:3d}/{len(lost[n])} choices below the reference's best; "
                  f"mean loss {mean:.5f} utility = {mean / slope:.2f} points a decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
