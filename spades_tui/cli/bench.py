"""``spades-tui bench``: engine throughput and record replay time, the solver's speed, and the benches
of one decision (``bench bid A B``, ``bench draft A B``: ``arena/benches.py``)."""

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
from ..i18n.language import N_, _, ngettext, translated
from ..session import loop
from ..session.dealer import Dealer
from ..session.randomplay import random_game
from . import common
from .common import decimal_words, grouped_words, print_or_quiet


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
        for _hand in range(10):
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
        record, _state = random_game(seed + i, endless(rules), max_hands=1)
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


# What ``bench --solver`` times, each on a line of its own.
SOLVE = N_("full 13-trick solve")
ANALYSIS = N_("whole-hand analysis (26 plays)")
REVIEW = N_("whole-hand review (tricks, points, draft)")


def configure(p: argparse.ArgumentParser) -> None:
    p.description = _("Measure the engine's speed (random hands through the engine, a record's replay), the "
                      "double-dummy solver's (--solver), or bench one decision of two rules with no hand played "
                      "out: 'bench bid A B' bids the same drafted deals with rule A and rule B, 'bench draft A B' "
                      "drafts the same stocks with each; every deal is valued with both hands face up (the "
                      "exact solver) and the report gives the margin A - B with its 95% interval and the "
                      "contracts made. A rule is a bot spec: easy, normal, hard[:...], expert[:...].")
    p.add_argument("decision", nargs="*", metavar="bid|draft A B",
                   help=_("bench one decision: bid or draft, then the two rules (bot specs)"))
    p.add_argument("--deals", type=int, default=30, metavar=_("DEALS"),
                   help=_("bench bid/draft: deals, each in both seats (default 30)"))
    p.add_argument("--opponent", default="normal", metavar=_("OPPONENT"),
                   help=_("bench bid/draft: the other seat's rule (default normal)"))
    p.add_argument("--drafter", default="normal", metavar=_("DRAFTER"),
                   help=_("bench bid: who drafts both seats (default normal)"))
    p.add_argument("--bidder", default="normal", metavar=_("BIDDER"),
                   help=_("bench draft: who bids both seats (default normal)"))
    p.add_argument("--budget", type=float, metavar=_("BUDGET"),
                   help=_("bench bid/draft: thinking time of hard and expert bots (s)"))
    p.add_argument("--jobs", type=int, default=1, metavar=_("JOBS"),
                   help=_("bench bid/draft: deals in parallel processes (default 1)"))
    p.add_argument("--seed", type=common.seed, default=1, metavar=_("SEED"),
                   help=_("seed of the random games (default 1)"))
    p.add_argument("--seconds", type=float, default=3.0, metavar=_("SECONDS"),
                   help=_("how long to play hands (default 3)"))
    p.add_argument("--solver", type=int, metavar=_("HANDS"),
                   help=_("time the double-dummy solver over HANDS random hands"))
    p.add_argument("--rules", type=common.rules, metavar=common.rules_metavar(), default=Rules(),
                   help=_("{rules_help} (the game never ends by the score here)").format(
                       rules_help=common.rules_help()))


def decision_bench(ns: argparse.Namespace) -> int:
    """``bench bid A B`` / ``bench draft A B``: the report on stdout, a progress line a deal on stderr."""
    from ..arena.benches import BenchConfig, format_bench, progress, run_bench
    from .arena import bot_spec

    what, *specs = ns.decision
    if what not in ("bid", "draft") or len(specs) != 2:
        raise common.CliError(_("spades-tui bench: to bench a decision say 'bench bid A B' or 'bench draft A B' "
                                "(two bot specs), not {given}").format(given=repr(" ".join(ns.decision))))
    if ns.deals < 1 or ns.jobs < 1:
        raise common.CliError(_("spades-tui bench: --deals and --jobs must be at least 1"))
    if ns.budget is not None and ns.budget <= 0:
        raise common.CliError(_("spades-tui bench: --budget must be positive"))
    a, b, opponent, drafter, bidder = (bot_spec(x, "spades-tui bench")
                                       for x in (*specs, ns.opponent, ns.drafter, ns.bidder))
    config = BenchConfig(what, a, b, opponent, drafter, bidder, ns.rules, ns.seed, ns.budget)
    deals = list(progress(run_bench(config, ns.deals, ns.jobs), ns.deals))
    return print_or_quiet(format_bench(config, deals))


def run(ns: argparse.Namespace) -> int:
    if ns.decision:
        return decision_bench(ns)
    if ns.solver is not None:
        solves, analyses, reviews = solver_times(ns.seed, max(1, ns.solver), ns.rules)
        return print_or_quiet("\n".join(
            ngettext("{what}: median {median} ms, worst {worst} ms over {count} hand (seed {seed})",
                     "{what}: median {median} ms, worst {worst} ms over {count} hands (seed {seed})", len(t)).format(
                what=translated(what), median=f"{statistics.median(t) * 1000:.0f}", worst=f"{max(t) * 1000:.0f}",
                count=len(t), seed=ns.seed)
            for what, t in ((SOLVE, solves), (ANALYSIS, analyses), (REVIEW, reviews))))
    hands, elapsed = hands_per_second(ns.seed, ns.seconds, ns.rules)
    lines = [ngettext("engine: {rate} complete random hands/s ({count} hand in {seconds} s, seed {seed})",
                      "engine: {rate} complete random hands/s ({count} hands in {seconds} s, seed {seed})",
                      hands).format(rate=grouped_words(hands / elapsed), count=hands,
                                    seconds=decimal_words(elapsed, 2), seed=ns.seed)]
    record, _state = random_game(ns.seed, endless(ns.rules), max_hands=10)
    text = record.dumps()
    runs = 20
    start = time.perf_counter()
    for _run in range(runs):
        replay(loads_record(text))
    per = (time.perf_counter() - start) / runs
    lines.append(_("record: load + replay of a 10-hand record ({actions} actions, {size} bytes): {ms} ms").format(
        actions=len(record.actions), size=grouped_words(len(text)), ms=decimal_words(per * 1000, 1)))
    return print_or_quiet("\n".join(lines))
