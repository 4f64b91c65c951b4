"""Benches of one decision, judged with no hand played out (docs/analysis.md, "Benches").

A played-out hand adds the card play's spread to a draft or bid rule's result, so a match needs
hundreds of hands to tell two rules apart.  These benches value each deal the exact solver's way
instead, with both hands face up:

- ``bench bid A B``: each deal is drafted (both seats by the same drafting bot) up to the bids;
  then rule A bids in one seat, against the same opponent rule, and rule B in its place on the same
  deal, each seat in turn (duplicate).  Each bid is scored against the real deal: made when the
  bidder can make it against any defence (the solver's most tricks, or fewest for a Nil), and the
  hand's margin with both bids known under best play (the points search, bags charged as the
  rules charge them, from the bags each side holds).
- ``bench draft A B``: the same stock drafted by rule A in one seat against the opponent rule, and
  by rule B in that seat on the same stock, each seat in turn; both seats then bid by the same
  bidding rule, and the finished deal is valued the same way.

A rule is a bot spec (``expert``, ``expert:draft=dd``, ``hard``, ``normal`` ...): its draft or bid
decisions are the rule.  Each deal gives A's margin less B's, averaged over the two seatings: the
mean, its 95% interval, and per rule the contracts made, are the report.
"""

from __future__ import annotations

import multiprocessing
import sys
from dataclasses import dataclass, field
from typing import Iterator, Literal, Optional, TextIO

from ..bots.base import Bot
from ..bots.levels import make_bot
from ..engine.actions import PlayerAction
from ..engine.observation import observe
from ..engine.reducer import legal_actions
from ..engine.rulebook import TRICKS, contract, made
from ..engine.rules import Rules
from ..engine.state import BidValue, GameState, Phase, new_game
from ..i18n.language import SOURCE, _, current, ngettext
from ..session import loop
from ..session.dealer import Dealer
from ..solver.judgement import Scoring
from ..solver.position import Position, position_from_state
from ..solver.solver import Aim, Solver
from .stats import figure, mean_ci, row

Decision = Literal["bid", "draft"]


@dataclass(frozen=True)
class BenchConfig:
    decision: Decision
    spec_a: str
    spec_b: str
    opponent: str = "normal"  # the other seat's rule: its draft and bids
    drafter: str = "normal"  # bench bid: who drafts both seats (the deal the bids are made on)
    bidder: str = "normal"  # bench draft: who bids both seats of the drafted deal
    rules: Rules = field(default_factory=Rules)
    seed: int = 1
    budget: Optional[float] = None  # thinking time of hard and expert bots


@dataclass(frozen=True)
class Judged:
    """One rule's seat on one deal: its bid, whether the deal let it make it, and the hand's margin."""

    bid: BidValue
    made: bool
    margin: int


@dataclass(frozen=True)
class BenchDeal:
    index: int
    a: tuple[Judged, Judged]  # rule A in seat 0, then in seat 1
    b: tuple[Judged, Judged]

    @property
    def difference(self) -> float:
        """A's margin less B's on this deal, the mean of the two seatings."""
        return sum(x.margin - y.margin for x, y in zip(self.a, self.b, strict=True)) / 2


def deal_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


# ---------------------------------------------------------------- playing a deal up to the first lead

def play_until(config: BenchConfig, state: GameState, dealer: Dealer, drafters: tuple[str, str],
               bidders: tuple[str, str], seed: int, phase: Phase) -> GameState:
    """Play from ``state`` until ``phase``: seat ``s`` decides by ``drafters[s]`` (the draft, Double Nil,
    the exchange) and bids by ``bidders[s]``; a bot sees only its observation."""
    made_bots: dict[tuple[int, str], Bot] = {}

    def bot(seat: int, role: str) -> Bot:
        if (seat, role) not in made_bots:
            spec = bidders[seat] if role == "bid" else drafters[seat]
            b = make_bot(spec, seed=seed * 4 + seat * 2 + (role == "bid"), budget=config.budget, workers=1)
            b.start(seat, config.rules)
            made_bots[seat, role] = b
        return made_bots[seat, role]

    def decide(now: GameState, seat: int) -> PlayerAction:
        chosen = bot(seat, "bid" if now.phase is Phase.BIDDING else "draft")
        legal = legal_actions(now)
        action = chosen.decide(observe(now, seat), legal)
        if action not in legal:
            raise ValueError(f"{chosen.name} returned an illegal action {action!r}")
        return action

    try:
        return loop.run(state, dealer, decide, stop=lambda st: st.phase is phase)
    finally:
        for b in made_bots.values():
            try:
                b.close()
            except Exception:
                pass


def seat_tricks(solver: Solver, position: Position, aim: Aim) -> tuple[int, int]:
    """Each seat's tricks when the leader of ``position`` plays for ``aim`` against any defence: zero-sum,
    so the other seat's is what the leader's best leaves."""
    leader = position.to_act
    leaders = solver.solve(position, aim)
    return (leaders, TRICKS - leaders) if leader == 0 else (TRICKS - leaders, leaders)


def judge(state: GameState, seat: int, solver: Optional[Solver] = None) -> Judged:
    """``seat``'s bid on the deal of ``state`` (at its first lead), both hands face up.

    Made: the bidder can take at least its bid (a Nil: no trick) against any defence.  Zero-sum, so
    the other seat's most (fewest) is what the leader is left with under the leader's own aim."""
    hand = state.hand
    assert hand is not None and state.phase is Phase.PLAY and not hand.trick
    b0, b1 = hand.bid_of(0), hand.bid_of(1)
    assert b0 is not None and b1 is not None
    bids = (b0, b1)
    solver = solver or Solver()
    position = position_from_state(state)
    leader = position.to_act
    bid = bids[seat]
    tricks = seat_tricks(solver, position, "fewest" if contract(bid) is None else "most")[seat]
    scoring = Scoring(state.rules, bids, state.bags)
    value = solver.points_solve(position, scoring.payoff(leader, 0, TRICKS))
    return Judged(bid, made(bid, tricks), value if seat == leader else -value)


def bench_deal(config: BenchConfig, index: int) -> BenchDeal:
    """Deal ``index``: rule A in each seat, then rule B in its place."""
    seed = deal_seed(config.seed, index)
    start = new_game(config.rules, index % 2)
    judged: dict[str, list[Judged]] = {"a": [], "b": []}
    if config.decision == "bid":  # one draft, by the same drafter in both seats: every bid is made on it
        both = (config.drafter, config.drafter)
        start = play_until(config, start, Dealer(seed), both, both, seed, Phase.BIDDING)
    for key, spec in (("a", config.spec_a), ("b", config.spec_b)):
        for seat in (0, 1):
            mine = (spec, config.opponent) if seat == 0 else (config.opponent, spec)
            if config.decision == "bid":
                drafters, bidders = (config.drafter, config.drafter), mine
            else:
                drafters, bidders = mine, (config.bidder, config.bidder)
            state = play_until(config, start, Dealer(seed), drafters, bidders, seed, Phase.PLAY)
            judged[key].append(judge(state, seat))
    a, b = judged["a"], judged["b"]
    return BenchDeal(index, (a[0], a[1]), (b[0], b[1]))


def _bench_star(args: tuple[BenchConfig, int]) -> BenchDeal:
    return bench_deal(*args)


def run_bench(config: BenchConfig, deals: int, jobs: int = 1) -> Iterator[BenchDeal]:
    work = [(config, i) for i in range(deals)]
    if jobs <= 1:
        yield from map(_bench_star, work)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap_unordered(_bench_star, work)


# ---------------------------------------------------------------- the report

def _side_lines(label: str, spec: str, judged: list[Judged]) -> list[str]:
    contracts = [j for j in judged if contract(j.bid) is not None]
    nils = [j for j in judged if contract(j.bid) is None]
    numbers = [contract(j.bid) or 0 for j in contracts]
    mean_bid = figure(sum(numbers) / len(numbers), 2) if numbers else "-"
    made_c = sum(j.made for j in contracts)
    made_n = sum(j.made for j in nils)
    points = sum(j.margin for j in judged) / max(1, len(judged))

    def share(k: int, n: int) -> str:
        return f"{k}/{n}" + (f" ({figure(100 * k / n, 1)}%)" if n else "")

    return [f"{label} {spec}:",
            row(_("margin per hand"), ngettext("{margin}  ({count} seat, best play both hands face up)",
                                               "{margin}  ({count} seats, best play both hands face up)",
                                               len(judged)).format(margin=figure(points, 1, sign=True),
                                                                   count=len(judged))),
            row(_("contracts made"), _("{share}, mean bid {mean}").format(share=share(made_c, len(contracts)),
                                                                        mean=mean_bid)),
            row(_("Nils made"), share(made_n, len(nils)))]


def format_bench(config: BenchConfig, deals: list[BenchDeal]) -> str:
    deals = sorted(deals, key=lambda d: d.index)
    said = dict(count=len(deals), seed=config.seed, drafter=config.drafter, opponent=config.opponent,
                bidder=config.bidder)
    if config.decision == "bid":
        heading = ngettext("{count} deal x 2 seatings, seed {seed}, drafted by {drafter}, against {opponent}'s bids",
                           "{count} deals x 2 seatings, seed {seed}, drafted by {drafter}, against {opponent}'s bids",
                           len(deals)).format(**said)
    else:
        heading = ngettext("{count} deal x 2 seatings, seed {seed}, against {opponent}'s draft, both seats bid by "
                           "{bidder}", "{count} deals x 2 seatings, seed {seed}, against {opponent}'s draft, both "
                           "seats bid by {bidder}", len(deals)).format(**said)
    if config.budget is not None:
        heading += _(", hard/expert budget {seconds} s").format(seconds=figure(config.budget))
    lines = [_("bench {decision}: A = {a}  vs  B = {b}").format(decision=config.decision, a=config.spec_a,
                                                                b=config.spec_b), heading, ""]
    lines += _side_lines("A", config.spec_a, [j for d in deals for j in d.a])
    lines += _side_lines("B", config.spec_b, [j for d in deals for j in d.b])
    m, lo, hi = mean_ci([d.difference for d in deals])
    lines += ["", ngettext("difference A - B, points per hand: {margin}  (95% CI {low} to {high}, {count} deal)",
                           "difference A - B, points per hand: {margin}  (95% CI {low} to {high}, {count} deals)",
                           len(deals)).format(margin=figure(m, 1, sign=True), low=figure(lo, 1, sign=True),
                                              high=figure(hi, 1, sign=True), count=len(deals))]
    return "\n".join(lines)


def progress(results: Iterator[BenchDeal], total: int, out: Optional[TextIO] = None) -> Iterator[BenchDeal]:
    """The results as they come, with a progress line (the running mean) on ``out`` (standard error)
    after each."""
    out = out or sys.stderr
    diffs: list[float] = []
    for r in results:
        diffs.append(r.difference)
        m, lo, hi = mean_ci(diffs)
        said = [f"{x:+.1f}" if current() == SOURCE else figure(x, 1, sign=True) for x in (m, lo, hi)]
        print(_("bench: {done}/{total} deals, A - B {margin} ({low} to {high})").format(
            done=len(diffs), total=total, margin=said[0], low=said[1], high=said[2]), file=out, flush=True)
        yield r

