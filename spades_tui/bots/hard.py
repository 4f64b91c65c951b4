"""The hard bot: determinised search over the hands the opponent may hold.

Play: for each sample of the opponent's hand (consistent with every card the bot
has seen, its discards and the voids shown in play, drawn turn by turn from the
opponent's take-first / take-second choices and weighted by their bid:
``sampling.draft_sampler``) every legal card is played
out with the fast bit-mask policy; the last four tricks are solved exactly.  The
card with the best mean utility wins.  Utility is an estimate of the chance to
win the game from the resulting totals (so it plays to the score, bags included).

Bidding simulates every candidate bid (Nil included) on the same samples; the
draft and Double Nil are decided by expected value too, the Double Nil chance
simulated from the hand and the draft so far (``sampling.double_nil_chance``).
"""

from __future__ import annotations

import random
import time
from typing import Optional, Sequence

from ..engine import rulebook
from ..engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, Play, PlayerAction
from ..engine.cards import CARDS
from ..engine.observation import Observation
from ..engine.rulebook import follower_wins
from ..engine.rules import Rules
from ..engine.state import Phase
from .core import bits, breaks_spades, rollout, solve, tricks_wanted, utility_table, view_of, win_value
from .heuristic import SeededBot, calibrated_tricks, exchange_choice, normal_bid
from .sampling import double_nil_chance, draft_sampler, hand_value

DEFAULT_BUDGET = 0.6  # seconds of thinking per decision
ENDGAME_TRICKS = 4  # solve exactly from this many cards in hand
# Share of Double Nils made by a hand drafted low: the normal bot made 31/70 against easy
# and 45/258 against hard in the arena; 0.3 sits between.
DN_SUCCESS = 0.3
# The simulated chance (drafting low from an empty hand under the default rules) is 0.34:
# scaled so it means DN_SUCCESS there, and moves with the rules and the draft so far.
DN_SIMULATED = 0.34
DN_SAMPLES = 48  # simulated draft completions per Double Nil decision


# Typical (my points, their points) of a hand without Double Nil, equally likely.
ORDINARY_OUTCOMES = ((60, 60), (90, 30), (30, 90), (-50, 60), (60, -50), (100, -100), (-100, 100))


def double_nil_utilities(obs: Observation, success: float) -> tuple[float, float]:
    """Utility (estimated win chance) of declaring Double Nil, made with chance ``success``, and of not."""
    rules = obs.rules
    me, opp = obs.scores[obs.seat], obs.scores[1 - obs.seat]
    bm, bo = obs.bags[obs.seat], obs.bags[1 - obs.seat]
    opp_gain = 90  # the opponent takes every trick: contract made plus bags
    points = rules.double_nil_points
    v_dn = success * win_value(rules, me + points, opp + opp_gain, bm, bo + 3) + (1 - success) * win_value(
        rules, me - points, opp + opp_gain, bm, bo + 3
    )
    v_no = sum(win_value(rules, me + a, opp + b, bm + 1, bo + 1) for a, b in ORDINARY_OUTCOMES) / len(
        ORDINARY_OUTCOMES
    )
    return v_dn, v_no


class HardBot(SeededBot):
    name = "hard"

    def __init__(
        self, seed: Optional[int] = None, budget: Optional[float] = DEFAULT_BUDGET, iterations: Optional[int] = None
    ) -> None:
        super().__init__(seed)
        if budget is None and iterations is None:
            budget = DEFAULT_BUDGET
        self.budget = budget
        self.iterations = iterations

    # The loop runs until the time budget or the iteration cap, whichever comes first;
    # with only ``iterations`` set it is deterministic for a given seed.
    def _more(self, start: float, done: int, scale: int = 1) -> bool:
        if done < 2:
            return True
        if self.iterations is not None and done >= self.iterations * scale:
            return False
        if self.budget is not None and time.perf_counter() - start >= self.budget:
            return False
        return True

    def choose(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> PlayerAction:
        seat = obs.seat
        if obs.phase is Phase.DOUBLE_NIL:
            return DeclareDoubleNil(seat, self.double_nil(obs, rng))
        if obs.phase is Phase.DRAFT:
            return Draft(seat, "first" if self.keep_top(obs, rng) else "second")
        if obs.phase is Phase.EXCHANGE:
            view = view_of(obs)
            return Exchange(seat, tuple(sorted(CARDS[c] for c in exchange_choice(view, view.seen))))
        if obs.phase is Phase.BIDDING:
            return Bid(seat, self.bid(obs, legal, rng))
        return Play(seat, CARDS[self.play(obs, legal, rng)])

    # ------------------------------------------------------------ Double Nil

    def double_nil_success(self, obs: Observation, rng: random.Random) -> float:
        """The chance a Double Nil makes, from simulated low drafts of this hand and stock."""
        count = [0]

        def more() -> bool:
            count[0] += 1
            return count[0] <= DN_SAMPLES

        p, _ = double_nil_chance(view_of(obs), obs.rules, obs.stock_left, rng, more)
        return min(1.0, p * DN_SUCCESS / DN_SIMULATED)

    def double_nil(self, obs: Observation, rng: random.Random) -> bool:
        """Declare if the expected win chance beats an ordinary hand's."""
        v_dn, v_no = double_nil_utilities(obs, self.double_nil_success(obs, rng))
        return v_dn > v_no + 0.01

    # ------------------------------------------------------------ draft

    def hand_value(self, hand: int, seen: int, rules: Rules, double_nil: bool) -> float:
        return hand_value(hand, seen, rules, double_nil)

    def keep_top(self, obs: Observation, rng: random.Random) -> bool:
        """Expected value of the finished hand, keeping the top card or a random one."""
        c = obs.drawn
        if c is None:
            return True
        view = view_of(obs)
        hand, seen = view.hand, view.seen
        dn = obs.double_nil[obs.seat]
        pool = bits(view.unknown)
        need = 13 - hand.bit_count()  # cards still to come, this one included
        if need <= 0 or len(pool) < need:
            return True
        diff = 0.0
        start = time.perf_counter()
        n = 0
        budget = self.budget
        limit = 24 if budget is None else max(8, min(60, int(budget * 100)))
        if self.iterations is not None:
            limit = min(limit, max(8, self.iterations // 4))
        while n < limit:
            r = rng.sample(pool, need)
            rest = 0
            for x in r[:-1]:
                rest |= 1 << x
            first = hand | (1 << c) | rest
            second = hand | rest | (1 << r[-1])
            # Cards passed over are seen discards: the top card if I take the second.
            diff += self.hand_value(first, seen, obs.rules, dn) - self.hand_value(
                second, seen | (1 << c), obs.rules, dn
            )
            n += 1
            if budget is not None and time.perf_counter() - start > budget / 3:
                break
        return diff >= 0

    # ------------------------------------------------------------ bidding

    def bid(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> int:
        view = view_of(obs)
        rules = obs.rules
        me = obs.seat
        scores = (obs.scores[me], obs.scores[1 - me])
        bags = (obs.bags[me], obs.bags[1 - me])
        allowed = {a.tricks for a in legal if isinstance(a, Bid)}
        est = calibrated_tricks(view.hand, view.unknown)
        centre = int(est + 0.5)
        cands = [b for b in range(max(1, centre - 2), min(13, centre + 2) + 1) if b in allowed]
        if rules.thirteen_wins and est >= 10.5 and 13 in allowed and 13 not in cands:
            cands.append(13)  # all 13 tricks win the game at once: the rollouts judge whether this hand takes them
        if 0 in allowed and est < 5:
            cands.append(0)
        if not cands:
            cands = sorted(allowed)
        leader = 0 if (1 - obs.first_drafter) == me else 1  # the second player leads
        opp_known = view.bids[1]
        totals = dict.fromkeys(cands, 0.0)
        tables: dict[tuple[int, rulebook.Bid], list[float]] = {}
        start = time.perf_counter()
        n = 0
        sample = draft_sampler(obs, view)
        while self._more(start, n, 4):
            opp, weight = sample(rng)
            if opp_known is not None:
                ob = opp_known
            else:
                opp_others = (view.unknown | view.hand) & ~opp
                ob = normal_bid(opp, opp_others, rules, (scores[1], scores[0]), (bags[1], bags[0]), None)
            for b in cands:
                table = tables.get((b, ob))
                if table is None:
                    table = tables[(b, ob)] = utility_table(rules, scores, bags, b, ob)
                t = rollout(view.hand, opp, leader, -1, False, (b, tricks_wanted(ob)), (0, 0))
                totals[b] += weight * table[t]
            n += 1
        return max(cands, key=lambda b: (totals[b], -abs(b - est)))

    # ------------------------------------------------------------ play

    def play(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> int:
        view = view_of(obs)
        rules = obs.rules
        me = obs.seat
        b0 = view.bids[0] if view.bids[0] is not None else 1
        b1 = view.bids[1] if view.bids[1] is not None else 1
        util = utility_table(rules, (obs.scores[me], obs.scores[1 - me]), (obs.bags[me], obs.bags[1 - me]), b0, b1)
        wants = (tricks_wanted(b0), tricks_wanted(b1))
        cards = [int(a.card) for a in legal if isinstance(a, Play)]
        totals = dict.fromkeys(cards, 0.0)
        hand = view.hand
        lead = view.lead
        w0, w1 = view.won
        exact = hand.bit_count() <= ENDGAME_TRICKS
        memo: dict[tuple[int, int, int, int, bool, int], float] = {}
        start = time.perf_counter()
        n = 0
        sample = draft_sampler(obs, view)
        while self._more(start, n):
            opp, weight = sample(rng)
            for c in cards:
                h0 = hand & ~(1 << c)
                if lead < 0:
                    broken = view.broken or breaks_spades(-1, c)
                    if exact:
                        v = solve(h0, opp, 0, c, broken, w0, util, memo)
                    else:
                        v = util[rollout(h0, opp, 0, c, broken, wants, (w0, w1))]
                else:
                    broken = view.broken or breaks_spades(lead, c)
                    mine = follower_wins(lead, c)
                    nw0 = w0 + (1 if mine else 0)
                    nw1 = w1 + (0 if mine else 1)
                    leader = 0 if mine else 1
                    if exact:
                        v = solve(h0, opp, leader, -1, broken, nw0, util, memo)
                    else:
                        v = util[rollout(h0, opp, leader, -1, broken, wants, (nw0, nw1))]
                totals[c] += weight * v
            n += 1
            if exact and n >= 64:
                break  # exact values over enough deals: more samples change little
        return max(cards, key=lambda c: (totals[c], -(c % 13)))

