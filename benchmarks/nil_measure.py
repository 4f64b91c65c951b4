"""``python -m benchmarks.nil_measure forced|plan [options]``: why the bots (almost) never bid Nil.

Two measures, neither a test (issue 20):

- ``forced --nil LEVEL --setter SPEC --hands N``: a Nil-er that drafts low all the way (keeps a top
  card only if it is a side card of rank 7 or lower or a spade of 4 or lower, else takes the second),
  bids Nil in every hand and plays as LEVEL (hard or expert: their ducking), against SPEC setting it
  (SPEC's own draft, bid and play).  Prints how many Nils were made, in all and by the hand's
  ``nil_safety`` at the bid, and the double-dummy share (both trying to lose: the setter feeding
  tricks) of the same deals, to show how far the safety estimate and the solver are from real play.
- ``plan --spec SPEC --hands N``: SPEC against SPEC; at every draft turn of both seats, the value of
  finishing the draft as a contract drafter (10 points a calibrated trick) and as a Nil drafter
  (200 x Nil safety - 100), each over the same ``--samples`` random stocks, the better choice of this
  turn under each plan.  Prints how often the Nil plan came out ahead and the closest it came.
- ``dd --deals N``: random stocks drafted by a low drafter (as ``forced``) and a contract drafter (keeping
  cards of goodness above 0.6), each deal solved double dummy for the low hand's fewest tricks; the share
  of Nils made among the hands of highest ``nil_safety`` (the best 2%, 5%, 10%, 20%, 50%, all).

Every bot decides from its observation only; the measure reads the finished deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Optional, Sequence

from spades_tui.arena.match import play_game
from spades_tui.bots.base import Bot
from spades_tui.bots.core import FULL, View, bits, nil_safety, view_of
from spades_tui.bots.expert import ExpertBot
from spades_tui.bots.hard import HardBot
from spades_tui.bots.heuristic import calibrated_tricks
from spades_tui.bots.levels import make_bot
from spades_tui.bots.sampling import after_turn, finish_draft, keeps_good, keeps_low, solve_bid, solver
from spades_tui.engine.actions import Bid, Draft, PlayerAction
from spades_tui.engine.observation import Observation, observe
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase

BUCKETS = ((0.0, 0.05), (0.05, 0.15), (0.15, 0.3), (0.3, 1.01))


def nil_drafter(level: str, seed: int, budget: float) -> Bot:
    base: type[HardBot] = ExpertBot if level == "expert" else HardBot

    class NilDrafter(base):  # type: ignore[valid-type, misc]
        name = f"nil-{level}"
        safety = 0.0

        def choose(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> PlayerAction:
            if obs.phase is Phase.DRAFT:
                return Draft(obs.seat, "first" if obs.drawn is None or keeps_low(obs.drawn) else "second")
            if obs.phase is Phase.BIDDING and any(isinstance(a, Bid) and a.tricks == 0 for a in legal):
                view = view_of(obs)
                self.safety = nil_safety(view.hand, view.unknown)
                return Bid(obs.seat, 0)
            return super().choose(obs, legal, rng)

    if base is ExpertBot:
        return NilDrafter(seed, budget=budget, workers=1)
    return NilDrafter(seed, budget=budget)


def forced(ns: argparse.Namespace) -> int:
    rows: list[tuple[float, int, int]] = []  # safety at the bid, tricks taken, double-dummy fewest tricks
    engine = solver()
    for g in range(ns.hands):
        nil = nil_drafter(ns.nil, ns.seed + g, ns.budget)
        setter = make_bot(ns.setter, seed=10_000 + ns.seed + g, budget=ns.budget, workers=1)
        seat = g % 2
        bots = (nil, setter) if seat == 0 else (setter, nil)
        start: dict[int, int] = {}

        def seen(state: GameState, to_act: int, start: dict[int, int] = start) -> None:
            if state.phase is Phase.BIDDING and not start:
                for s in (0, 1):
                    start[s] = view_of(observe(state, s)).hand

        result = play_game(bots, seed=ns.seed * 7919 + g, rules=Rules(), first_drafter=(g // 2) % 2, hands=1,
                           observer=seen)
        if not result.state.history or result.state.history[0].bids[seat] != 0:
            continue
        tricks = result.state.history[0].tricks[seat]
        leader = 1 - (g // 2) % 2  # the second drafter leads the first trick
        _, fewest = solve_bid(engine, start[seat], start[1 - seat], seat, leader, False, True)
        rows.append((nil.safety, tricks, fewest))  # type: ignore[attr-defined]
    n = len(rows)
    made = sum(1 for _, t, _ in rows if t == 0)
    dd = sum(1 for _, _, f in rows if f == 0)
    print(f"Nil-er drafting low, playing as {ns.nil}, against {ns.setter} (budget {ns.budget:g} s), seed {ns.seed}")
    print(f"  Nils {n}: made {made} ({100 * made / max(1, n):.1f}%), double dummy {dd} ({100 * dd / max(1, n):.1f}%),"
          f" mean tricks taken {statistics.fmean(t for _, t, _ in rows) if rows else 0:.2f}")
    for lo, hi in BUCKETS:
        part = [r for r in rows if lo <= r[0] < hi]
        if part:
            print(f"  safety {lo:.2f}..{min(hi, 1):.2f}: {len(part):3d} Nils, made {sum(r[1] == 0 for r in part):3d},"
                  f" double dummy {sum(r[2] == 0 for r in part):3d},"
                  f" mean safety {statistics.fmean(r[0] for r in part):.2f}")
    return 0


def plan_values(view: View, rules: Rules, top: int, stock_left: int, rng: random.Random,
                samples: int) -> tuple[float, float]:
    """(best contract plan, best Nil plan) in points, from this draft turn on."""
    pool = bits(view.unknown)
    size = min(max(0, stock_left - 1), len(pool))
    see2 = rules.see_second_card
    sums = {("first", "c"): 0.0, ("second", "c"): 0.0, ("first", "n"): 0.0, ("second", "n"): 0.0}
    for _ in range(samples):
        stock = [top, *rng.sample(pool, size)]
        second = stock[1] if size else -1
        for choice in ("first", "second"):
            hand, seen = after_turn(view, choice, top, second, see2)
            good, good_seen = finish_draft(hand, seen, stock, 4, keeps_good, see2)
            sums[(choice, "c")] += 10 * calibrated_tricks(good, FULL & ~good & ~good_seen)
            low, low_seen = finish_draft(hand, seen, stock, 4, keeps_low, see2)
            sums[(choice, "n")] += 200 * nil_safety(low, FULL & ~low & ~low_seen) - 100
    c = max(sums[("first", "c")], sums[("second", "c")]) / samples
    n = max(sums[("first", "n")], sums[("second", "n")]) / samples
    return c, n


def plan(ns: argparse.Namespace) -> int:
    gaps: list[tuple[float, float, float, int]] = []  # Nil minus contract, contract, Nil, cards in hand
    safeties: list[float] = []
    rng = random.Random(ns.seed)
    for g in range(ns.hands):
        bots = (make_bot(ns.spec, seed=ns.seed + g, budget=ns.budget, workers=1),
                make_bot(ns.spec, seed=20_000 + ns.seed + g, budget=ns.budget, workers=1))

        def seen(state: GameState, to_act: int) -> None:
            obs = observe(state, to_act)
            view = view_of(obs)
            if state.phase is Phase.DRAFT and obs.drawn is not None and not obs.double_nil[to_act]:
                c, n = plan_values(view, obs.rules, obs.drawn, obs.stock_left, rng, ns.samples)
                gaps.append((n - c, c, n, view.hand.bit_count()))
            elif state.phase is Phase.BIDDING:
                safeties.append(nil_safety(view.hand, view.unknown))

        result = play_game(bots, seed=ns.seed * 7919 + g, rules=Rules(), first_drafter=g % 2, hands=1, observer=seen)
        del result
    ahead = sum(1 for x in gaps if x[0] > 0)
    print(f"{ns.spec} against {ns.spec}: {ns.hands} hands, {len(gaps)} draft turns, {ns.samples} stocks a turn,"
          f" seed {ns.seed}")
    print(f"  Nil plan ahead of the contract plan: {ahead} turns;"
          f" mean contract plan {statistics.fmean(x[1] for x in gaps):.1f},"
          f" mean Nil plan {statistics.fmean(x[2] for x in gaps):.1f} points")
    best = max(gaps)
    print(f"  closest: Nil plan {best[0]:+.1f} points against the contract plan ({best[2]:.1f} vs {best[1]:.1f},"
          f" {best[3]} cards in hand)")
    safeties.sort(reverse=True)
    print(f"  Nil safety at the bid: best {', '.join(f'{s:.2f}' for s in safeties[:5])}; "
          f"{sum(s >= 0.55 for s in safeties)} of {len(safeties)} hands at 0.55 or more (the normal bot's threshold)")
    return 0


def dd(ns: argparse.Namespace) -> int:
    rng = random.Random(ns.seed)
    engine = solver()
    rows: list[tuple[float, int]] = []
    for _ in range(ns.deals):
        stock = list(range(52))
        rng.shuffle(stock)
        hands, seen = [0, 0], [0, 0]
        for t in range(26):
            p = t % 2
            top, second = stock[2 * t], stock[2 * t + 1]
            if (keeps_low if p == 0 else keeps_good)(top):
                hands[p] |= 1 << top
            else:
                hands[p] |= 1 << second
                seen[p] |= 1 << top
        safety = nil_safety(hands[0], FULL & ~hands[0] & ~seen[0])
        _, fewest = solve_bid(engine, hands[0], hands[1], 0, rng.randrange(2), False, True)
        rows.append((safety, fewest))
    rows.sort(reverse=True)
    print(f"low drafter against a contract drafter: {ns.deals} random stocks, seed {ns.seed}, double dummy")
    for share in (0.02, 0.05, 0.1, 0.2, 0.5, 1.0):
        part = rows[: max(1, int(share * len(rows)))]
        made = sum(1 for _, f in part if f == 0)
        print(f"  best {100 * share:3.0f}% by Nil safety (>= {part[-1][0]:.2f}): {made}/{len(part)} made"
              f" ({100 * made / len(part):.0f}%)")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    f = sub.add_parser("forced")
    f.add_argument("--nil", choices=("hard", "expert"), default="hard")
    f.add_argument("--setter", default="hard")
    f.add_argument("--hands", type=int, default=40)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--budget", type=float, default=0.1)
    q = sub.add_parser("plan")
    q.add_argument("--spec", default="normal")
    q.add_argument("--hands", type=int, default=40)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--samples", type=int, default=40)
    q.add_argument("--budget", type=float, default=0.1)
    d = sub.add_parser("dd")
    d.add_argument("--deals", type=int, default=1000)
    d.add_argument("--seed", type=int, default=1)
    ns = p.parse_args(argv)
    return {"forced": forced, "plan": plan, "dd": dd}[ns.what](ns)


if __name__ == "__main__":
    raise SystemExit(main())
