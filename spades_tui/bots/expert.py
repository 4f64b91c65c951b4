"""The expert bot: every sampled deal solved exactly, samples drawn from inference.

Play (as GIB plays bridge): opponent hands are drawn turn by turn from a model
of how they draft (``sampling.draft_sampler``: take-first turns kept a card
they liked, take-second turns a card they had not chosen), respecting every
card seen, the voids shown and Double Nil exchanges, and weighted by how well
each fits their bid.  Each sample is solved double dummy for every legal card
(aim ``most`` while a contract is to make or to set, ``fewest`` for Nils and
bags); a card's value is the mean over samples of the estimated chance to win
the game from the resulting score, bags and match target included
(``core.utility_table``), not its raw tricks.  (Solving each sample by the
points search on that utility instead measured no gain over 400 duplicate
hands in issue 20, at a third more time: see commit b846ba5.)

Bidding: the same samples solved from the first lead; every legal bid (Nil
included) is valued at the game's score over the distribution of solved
tricks, a contract losing a trick in ``DD_DISCOUNT`` of the deals because a
solved deal is optimistic for the side that sees both hands.  Double Nil,
the draft and the exchange are the hard bot's expected-value choices (the
Double Nil chance simulated from the hand and the draft so far).

Speed: the solving runs on a process pool of ``workers`` processes (all the
cores by default), created at the first decision that needs it and shut down
by ``close``.  With ``iterations`` set and no budget a decision is a function
of (seed, observation).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Callable, Optional, Sequence, TypeVar

from ..engine import Bid, Observation, PlayerAction
from .core import View, utility_table, view_of
from .hard import HardBot
from .heuristic import normal_bid
from .sampling import (
    DD_DISCOUNT,
    BidJob,
    BidTally,
    PlayJob,
    Sampler,
    draft_sampler,
    needs,
    play_aim,
    play_goals,
    solve_bid_batch,
    solve_play_batch,
)

DEFAULT_BUDGET = 1.0  # seconds of thinking per decision
MAX_SAMPLES = 600  # the most samples a decision takes within its budget (issue 20: 200 lost about
# twice as much utility a decision as 600, judged by 1200 independent samples; expert_samples_measure.py)
BATCH = 6  # samples a worker solves per task: enough to outweigh the pickling

R = TypeVar("R")


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def _die_with_parent() -> None:
    """A pool worker's first act: on Linux, ask to be ended when its parent dies, so a
    bot process killed mid-decision leaves no worker behind (elsewhere: nothing to do)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class ExpertBot(HardBot):
    name = "expert"

    def __init__(
        self,
        seed: Optional[int] = None,
        budget: Optional[float] = DEFAULT_BUDGET,
        iterations: Optional[int] = None,
        workers: Optional[int] = None,
    ) -> None:
        if budget is None and iterations is None:
            budget = DEFAULT_BUDGET
        super().__init__(seed, budget=budget, iterations=iterations)
        self.workers = default_workers() if workers is None else max(1, workers)
        self._pool: Optional[Executor] = None

    # ------------------------------------------------------------ the pool

    def _executor(self) -> Optional[Executor]:
        if self.workers <= 1 or multiprocessing.current_process().daemon:
            return None  # a daemonic process (an arena worker) may not start children
        if self._pool is None:
            # fork: the workers inherit the loaded modules and start in milliseconds.
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_die_with_parent)
        return self._pool

    def close(self) -> None:
        """Shut the worker processes down (and wait for them): nothing outlives the game."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def _solve(
        self,
        sample: Sampler,
        rng: random.Random,
        job: Callable[[tuple[int, ...]], object],
        run: Callable[[object], list[R]],
        keep: Callable[[int], bool],
    ) -> list[tuple[int, float, R]]:
        """Sampled opponent hands (those ``keep`` accepts) with their weights and solved results.

        Batches of samples are solved, on the pool when there is one, until the
        iteration cap, the sample cap or the time budget (the next batch is begun
        only if one as slow as the slowest so far would end within it).
        """
        start = time.perf_counter()
        cap = MAX_SAMPLES if self.iterations is None else self.iterations
        pool = self._executor()
        lanes = self.workers if pool is not None else 1
        out: list[tuple[int, float, R]] = []
        drawn = 0
        slowest = 0.0
        while drawn < cap:
            began = time.perf_counter()
            if self.budget is not None and out and began - start + slowest > self.budget:
                break
            k = min(cap - drawn, BATCH * lanes)
            draws = [sample(rng) for _ in range(k)]
            drawn += k
            kept = [(h, w) for h, w in draws if keep(h)]
            if not kept:
                continue
            chunks = [kept[i::lanes] for i in range(lanes)]
            chunks = [c for c in chunks if c]
            jobs = [job(tuple(h for h, _ in c)) for c in chunks]
            if pool is not None and len(jobs) > 1:
                results = list(pool.map(run, jobs))
            else:
                results = [run(j) for j in jobs]
            for c, r in zip(chunks, results, strict=True):
                out.extend((h, w, v) for (h, w), v in zip(c, r, strict=True))
            slowest = max(slowest, time.perf_counter() - began)
        return out

    # ------------------------------------------------------------ bidding

    def bid(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> int:
        view = view_of(obs)
        rules = obs.rules
        me = obs.seat
        scores = (obs.scores[me], obs.scores[1 - me])
        bags = (obs.bags[me], obs.bags[1 - me])
        allowed = sorted(a.tricks for a in legal if isinstance(a, Bid))
        if not allowed:
            return super().bid(obs, legal, rng)
        leader = 1 - obs.first_drafter  # the second player leads the first trick
        opp_known = view.bids[1]
        # The opponent's bid, known or as the normal bot would make it with that hand.

        def their_bid(opp: int) -> int:
            if opp_known is not None:
                return opp_known
            others = (view.unknown | view.hand) & ~opp
            return normal_bid(opp, others, rules, (scores[1], scores[0]), (bags[1], bags[0]), None)

        def job(opps: tuple[int, ...]) -> BidJob:
            # Every solve each sample may need: the opponent's bid decides which.
            return (view.hand, opps, me, leader, True, True)

        def fits(opp: int) -> bool:
            return opp.bit_count() == view.hand.bit_count() and not opp & view.hand

        solved = self._solve(draft_sampler(obs, view), rng, job, solve_bid_batch, fits)  # type: ignore[arg-type]
        tally = BidTally(rules, scores, bags, allowed, DD_DISCOUNT)
        for opp, weight, (most, fewest) in solved:
            ob = their_bid(opp)
            m, f = needs(allowed, ob)
            tally.add(most if m else -1, fewest if f else -1, ob, weight)
        if tally.total <= 0:
            return super().bid(obs, legal, rng)
        return tally.best()

    # ------------------------------------------------------------ play

    def play(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> int:
        values = self.card_values(obs, legal, rng)
        if values is None:
            return super().play(obs, legal, rng)
        # Ties go to the lower card.
        return max(values, key=lambda c: (values[c], -(c % 13), -c))

    def card_values(
        self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random
    ) -> Optional[dict[int, float]]:
        """Each legal card's mean utility over the solved samples (None if no sample was solved)."""
        view: View = view_of(obs)
        me = obs.seat
        b0 = view.bids[0] if view.bids[0] is not None else 1
        b1 = view.bids[1] if view.bids[1] is not None else 1
        w0, w1 = view.won
        left = view.hand.bit_count()  # tricks still to be decided, the current one included
        aim = play_aim(play_goals(b0, b1, w0, w1, left))
        util = utility_table(obs.rules, (obs.scores[me], obs.scores[1 - me]), (obs.bags[me], obs.bags[1 - me]), b0, b1)
        table = (obs.trick[0].player, int(obs.trick[0].card)) if obs.trick else None
        need = left - (1 if table is not None else 0)
        cards = [int(a.card) for a in legal if hasattr(a, "card")]
        broken = view.broken  # whether a spade may be led (the rule book's spades_free)

        def fits(opp: int) -> bool:
            return opp.bit_count() == need and not opp & (view.hand | view.played)

        def job(opps: tuple[int, ...]) -> PlayJob:
            return (view.hand, opps, me, table, broken, aim)

        solved = self._solve(draft_sampler(obs, view), rng, job, solve_play_batch, fits)  # type: ignore[arg-type]
        totals = dict.fromkeys(cards, 0.0)
        for _, weight, values in solved:
            for c, v in values.items():
                if c in totals:
                    totals[c] += weight * util[min(13, w0 + v)]
        weight = sum(w for _, w, _ in solved)
        if not solved or weight <= 0:
            return None
        return {c: t / weight for c, t in totals.items()}
