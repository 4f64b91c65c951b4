"""``python -m benchmarks.slip_measure --spec SPEC --deals N``: how far played-out tricks fall from the
exact solver's (issue 38).

The expert's bid rule counts each solved deal half at its solved tricks T and half at T - 1: a player
who cannot see the cards is assumed to lose about a trick to the solver's hindsight.  This measures it.
SPEC plays SPEC on single hands (each deal twice, seats swapped, as the arena does); at the first lead
the real deal is solved for each seat's most tricks against any defence (T), and when the hand is over
the tricks each contract bidder took are set beside it.  Prints, over all contract bids together, the
distribution of taken - T, and per T - bid the share of contracts set (what the rule assumes: T - bid = 0 set half the
time, 1 or more never, -1 or less always).  Nils and Double Nils are left out (the rule's T + 1).

Every bot decides from its observation only; the measure reads the finished deal.  Not a test: run by hand
with the machine otherwise quiet, and give the load.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
from collections import Counter
from typing import Callable, Optional

from spades_tui.arena.benches import seat_tricks
from spades_tui.arena.match import deal_seed, play_game
from spades_tui.bots.levels import make_bot
from spades_tui.engine.rulebook import contract
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.solver.position import position_from_state
from spades_tui.solver.solver import Solver

Row = tuple[int, int, int]  # (bid, solved most tricks at the first lead, tricks taken)


def _solved(state: GameState) -> tuple[int, int]:
    """Each seat's most tricks against any defence on the deal of ``state`` (its first lead)."""
    return seat_tricks(Solver(), position_from_state(state), "most")


def _first_lead(found: list[tuple[int, int]]) -> Callable[[GameState, int], None]:
    """An observer that puts each seat's solved tricks into ``found`` at the hand's first lead."""

    def look(state: GameState, seat: int) -> None:
        hand = state.hand
        if not found and state.phase is Phase.PLAY and hand is not None and not hand.trick and not hand.tricks:
            found.append(_solved(state))

    return look


def one_deal(args: tuple[str, int, int, Optional[float]]) -> list[Row]:
    spec, seed, index, budget = args
    rules = Rules()
    rows: list[Row] = []
    for swap in (0, 1):
        found: list[tuple[int, int]] = []
        look = _first_lead(found)
        s = deal_seed(seed, index)
        bots = (make_bot(spec, seed=s * 2 + swap, budget=budget, workers=1),
                make_bot(spec, seed=s * 2 + 1 - swap, budget=budget, workers=1))
        result = play_game(bots, s, rules, index % 2, hands=1, observer=look)
        if not found or not result.state.history:
            continue
        record = result.state.history[-1]
        for seat in (0, 1):
            bid = record.bids[seat]
            if contract(bid) is None:
                continue
            rows.append((int(bid), found[0][seat], record.tricks[seat]))  # type: ignore[arg-type]
    return rows


def report(rows: list[Row]) -> str:
    n = len(rows)
    lines = [f"{n} contract bids"]
    slips = Counter(taken - solved for _, solved, taken in rows)
    lines.append("taken - solved: " + ", ".join(f"{k:+d}: {v} ({100 * v / n:.1f}%)" for k, v in sorted(slips.items())))
    lines.append(f"mean taken - solved: {sum((t - s) for _, s, t in rows) / max(1, n):+.3f}")
    by_margin: dict[int, list[bool]] = {}
    for bid, solved, taken in rows:
        by_margin.setdefault(max(-2, min(2, solved - bid)), []).append(taken < bid)
    lines.append("solved - bid (clipped to +-2): contracts set / bids")
    for k in sorted(by_margin):
        sets = by_margin[k]
        lines.append(f"  {k:+d}: {sum(sets)}/{len(sets)} ({100 * sum(sets) / len(sets):.1f}%)")
    made = sum(t >= b for b, _, t in rows)
    lines.append(f"made {made}/{n} ({100 * made / max(1, n):.1f}%)")
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--spec", default="expert")
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", type=int, default=38)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--budget", type=float, default=None)
    a = p.parse_args(argv)
    print(f"load at start {os.getloadavg()[0]:.2f}", flush=True)
    work = [(a.spec, a.seed, i, a.budget) for i in range(a.deals)]
    rows: list[Row] = []
    with multiprocessing.get_context("fork").Pool(a.jobs) as pool:
        for k, got in enumerate(pool.imap_unordered(one_deal, work), 1):
            rows.extend(got)
            if k % 10 == 0:
                print(f"{k}/{a.deals} deals", flush=True)
    print(report(rows))
    print(f"load at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
