"""Sampling what a player cannot see, and solving the samples exactly.

One place for what the hints, the hard bot and the expert bot share:

- ``Clock``: how many samples (a fixed count, or as many as fit a time budget);
- draft completions (``finish_draft``) and the Double Nil chance they give
  (``double_nil_chance``), from the hand and the draft so far;
- opponent hand samplers: ``tilt_sampler`` (a fixed tilt towards good cards and a
  weight for the bid: what the hints use) and ``draft_sampler`` (turn-by-turn
  inference from the opponent's take-first / take-second choices, Double Nil
  declaration and bid);
- exact solving of one sampled deal for bidding (``solve_bid``) and play
  (``solve_play``), with a solver kept per process, and the batch forms a
  process pool runs (``solve_bid_batch``, ``solve_play_batch``).

Samplers read only a ``View`` (built from an observation): they never see a
hidden card.  Pure: no I/O; randomness comes from the generator passed in.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from typing import Callable, Optional, Sequence

from ..engine import rulebook
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..solver.position import Position
from ..solver.solver import Aim, Solver
from .core import (
    FULL,
    GOODNESS,
    View,
    bits,
    card_danger,
    estimate_tricks,
    hand_points,
    mask_of,
    nil_safety,
    sample_opponent,
    tricks_wanted,
    utility_table,
)
from .heuristic import calibrated_tricks, normal_bid

# Fitted on normal-vs-normal drafts: real opponent hands had a mean GOODNESS sum of 9.15;
# uniform samples 7.66, tilt 1 gave 8.82, tilt 2 gave 9.81.
TILT_CONTRACT = 1.3
TILT_NIL = -1.5
BID_SD = 2.0  # how far a bid strays from the trick estimate, for weighting samples


def opponent_tilt(obs: Observation) -> float:
    opp = 1 - obs.seat
    if obs.double_nil[opp] or obs.bids[opp] == 0:
        return TILT_NIL
    return TILT_CONTRACT


def bid_weight(opp_start: int, opp_bid: Optional[rulebook.Bid]) -> float:
    """How well a sampled opponent hand (as it was before play) fits the bid they made."""
    wanted = None if opp_bid is None else rulebook.contract(opp_bid)
    if wanted is None:
        return 1.0
    est = calibrated_tricks(opp_start, FULL & ~opp_start)
    z = (est - wanted) / BID_SD
    return math.exp(-0.5 * z * z)


def hand_value(hand: int, seen: int, rules: Rules, double_nil: bool) -> float:
    """A finished draft hand's worth in points: 10 per expected trick, or a Nil's value;
    for a Double Nil drafter 400 times the chance it makes (after exchanging its three worst)."""
    others = FULL & ~hand & ~seen
    if double_nil:
        p = 13 / max(1, others.bit_count())
        dangers = sorted((card_danger(c, hand, others, p) for c in bits(hand)), reverse=True)
        safe = 1.0
        for d in dangers[3:]:  # the three worst go back in the exchange
            safe *= 1.0 - d
        safe *= (1.0 - 0.12) ** min(3, len(dangers))
        return 2 * rules.double_nil_points * safe
    value = 10 * estimate_tricks(hand, others)
    if rules.nil:
        value = max(value, 2 * rules.nil_points * nil_safety(hand, others) - rules.nil_points - 30)
    return value


KEEP_GOODNESS = 0.6  # a simulated contract drafter keeps a top card better than this

# A sampler draws one opponent hand (their cards now) and its weight: how well it
# fits what the opponent did.
Sampler = Callable[[random.Random], tuple[int, float]]


class Clock:
    """How many samples: exactly ``samples`` if given, else as many as fit the budget.

    The next sample is started only if the slowest one so far would still end
    within the budget, so a caller rarely overruns it.  ``cap`` bounds the count
    in budget mode.
    """

    def __init__(self, samples: Optional[int], budget: float, cap: int) -> None:
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.samples = samples
        self.budget = budget
        self.cap = cap
        self.start = self.last = time.perf_counter()
        self.taken = 0
        self.slowest = 0.0

    def more(self, step: int = 1) -> bool:
        """Whether to take ``step`` more samples (counted as taken when so)."""
        now = time.perf_counter()
        if self.taken:
            self.slowest = max(self.slowest, now - self.last)
        self.last = now
        if self.samples is not None:
            ok = self.taken < self.samples
        else:
            ok = self.taken == 0 or (self.taken < self.cap and now - self.start + self.slowest <= self.budget)
        if ok:
            self.taken += step
        return ok


# ---------------------------------------------------------------- draft simulation


def keeps_good(card: int) -> bool:
    return GOODNESS[card] > KEEP_GOODNESS


def keeps_low(card: int) -> bool:
    """The normal bot's Double Nil drafting: low side cards and very low spades."""
    return (card >= 13 and card % 13 <= 5) or (card < 13 and card % 13 <= 2)


def finish_draft(
    hand: int, seen: int, stock: Sequence[int], turn: int, keep: Callable[[int], bool], see_second: bool
) -> tuple[int, int]:
    """My hand and known discards after the rest of the draft.

    ``stock[turn]`` is the top card of my next turn; my later turns come every
    four cards (the opponent's turns take the two in between).
    """
    i = turn
    while hand.bit_count() < 13 and i + 1 < len(stock):
        top, second = stock[i], stock[i + 1]
        if keep(top):
            hand |= 1 << top
            if see_second:
                seen |= 1 << second
        else:
            hand |= 1 << second
            seen |= 1 << top
        i += 4
    return hand, seen


def double_nil_chance(
    view: View, rules: Rules, stock_left: int, rng: random.Random, more: Callable[[], bool]
) -> tuple[float, float]:
    """The chance a Double Nil made now would make (drafting low from here, then
    exchanging the three worst), and the tricks an ordinary draft would reach.

    Both from simulated completions of the draft over random stocks of the cards
    this player has not seen.
    """
    pool = bits(view.unknown)
    size = min(stock_left, len(pool))
    made = tricks = 0.0
    n = 0
    while more():
        stock = rng.sample(pool, size)
        low_hand, low_seen = finish_draft(view.hand, view.seen, stock, 0, keeps_low, rules.see_second_card)
        good_hand, good_seen = finish_draft(view.hand, view.seen, stock, 0, keeps_good, rules.see_second_card)
        made += hand_value(low_hand, low_seen, rules, True) / 400
        tricks += calibrated_tricks(good_hand, FULL & ~good_hand & ~good_seen)
        n += 1
    return made / max(1, n), tricks / max(1, n)


def after_turn(view: View, choice: str, top: int, second: int, see2: bool) -> tuple[int, int]:
    """The drafter's hand and the cards they have seen after this turn's ``choice`` ("first": keep the top
    card, "second": pass it for the next; ``second`` -1 when the stock has no next card)."""
    if choice == "first":
        return view.hand | 1 << top, view.seen | (1 << second if see2 and second >= 0 else 0)
    return view.hand | (1 << second if second >= 0 else 0), view.seen | 1 << top


def draft_values(
    view: View, rules: Rules, top: int, stock_left: int, dn: bool, rng: random.Random, more: Callable[[], bool]
) -> tuple[dict[str, list[float]], int]:
    """Taking the top card (``first``) and passing it (``second``), each followed by
    the rest of the draft on the same random stocks: per choice, the summed value of
    the finished hand (``hand_value``; for a Double Nil drafter as expected points)
    and its tricks (for a Double Nil drafter: the chance it makes), and the count."""
    keep = keeps_low if dn else keeps_good
    pool = bits(view.unknown)
    size = min(max(0, stock_left - 1), len(pool))
    see2 = rules.see_second_card
    sums = {"first": [0.0, 0.0], "second": [0.0, 0.0]}  # value, tricks (or Double Nil chance)
    n = 0
    while more():
        stock = [top, *rng.sample(pool, size)]
        second = stock[1] if size else -1
        for choice in ("first", "second"):
            hand, seen = after_turn(view, choice, top, second, see2)
            hand, seen = finish_draft(hand, seen, stock, 4, keep, see2)
            value = hand_value(hand, seen, rules, dn)
            acc = sums[choice]
            if dn:
                acc[0] += value - rules.double_nil_points  # 2 x points x chance, as expected points
                acc[1] += value / (2 * rules.double_nil_points)
            else:
                acc[0] += value
                acc[1] += calibrated_tricks(hand, FULL & ~hand & ~seen)
        n += 1
    return sums, max(1, n)


# ---------------------------------------------------------------- opponent samplers


def tilt_sampler(obs: Observation, view: View) -> Sampler:
    """Uniform over what the opponent may hold, tilted by a constant towards the
    cards a drafter keeps, weighted by how well the hand fits their bid."""
    tilt = opponent_tilt(obs)
    opp_bid = view.bids[1]

    def draw(rng: random.Random) -> tuple[int, float]:
        opp = sample_opponent(view, rng, tilt)
        return opp, bid_weight(opp | view.opp_played, opp_bid)

    return draw


# The draft model: a contract drafter keeps a top card with chance
# sigmoid(KEEP_SLOPE * (goodness - KEEP_GOODNESS)); a Double Nil drafter keeps low ones.
KEEP_SLOPE = 8.0
LOW_GOODNESS = 0.42
NIL_WEIGHT_FLOOR = 0.05  # a Nil bid from a hand that looks unsafe is unlikely, not impossible


def _keep_chance(card: int, low: bool) -> float:
    g = GOODNESS[card]
    x = KEEP_SLOPE * ((LOW_GOODNESS - g) if low else (g - KEEP_GOODNESS))
    return 1.0 / (1.0 + math.exp(-x))


def draft_sampler(obs: Observation, view: View) -> Sampler:
    """Opponent hands drawn turn by turn from the draft they were seen to make.

    Each of their draft turns is replayed on the cards they may hold: a turn where
    they took the first card kept a card they liked (drawn with the keep chance
    of the draft model), a turn where they took the second kept a card they had
    not chosen (drawn uniformly).  Cards they have played since were kept on some
    turn too: their share of each kind of turn is taken out in proportion.  Voids
    shown in play and Double Nil exchanges are respected as by ``sample_opponent``.
    The weight is how well the hand fits their bid (a contract: the trick
    estimate; a Nil: the hand's Nil safety).
    """
    opp = 1 - obs.seat
    firsts = sum(1 for d in obs.draft_log if d.player == opp and d.take == "first")
    seconds = sum(1 for d in obs.draft_log if d.player == opp and d.take == "second")
    low = obs.double_nil[opp]
    total = firsts + seconds
    need = view.opp_count
    opp_bid = view.bids[1]
    # Kept on a "first" turn and still in hand, in expectation.
    from_first = round(firsts * need / total) if total else 0
    from_first = max(0, min(need, from_first))
    pool = view.unknown & ~view.opp_voids
    weights = {c: _keep_chance(c, low) for c in bits(pool)}
    if view.opp_exchanged or len(weights) < need:
        # A Double Nil exchange may have brought them seen cards: the plain sampler handles it.
        def fallback(rng: random.Random) -> tuple[int, float]:
            hand = sample_opponent(view, rng, opponent_tilt(obs))
            return hand, _bid_fit(hand | view.opp_played, opp_bid, view)

        return fallback
    cards = list(weights)
    inv = {c: 1.0 / weights[c] for c in cards}

    def draw(rng: random.Random) -> tuple[int, float]:
        rand = rng.random
        # Efraimidis-Spirakis: the from_first cards with the largest u ** (1 / w) are a
        # weighted sample without replacement.
        keyed = sorted(cards, key=lambda c: rand() ** inv[c])
        chosen = keyed[len(keyed) - from_first:] if from_first else []
        rest = keyed[: len(keyed) - from_first]
        chosen += rng.sample(rest, need - from_first)
        hand = mask_of(chosen)
        return hand, _bid_fit(hand | view.opp_played, opp_bid, view)

    return draw


def bid_sampler(obs: Observation, view: View, plain: bool = False, fit: bool = False) -> Sampler:
    """The opponent hands a bid is valued on: ``draft_sampler`` (``plain``: uniform, unweighted).  With
    ``fit`` the hands are not weighted by the bid (their trick estimate against it): the caller weighs each
    solved deal by the tricks their hand makes in it instead (``fit_weight``), so the bid counts once."""
    if fit:
        view = dataclasses.replace(view, bids=(view.bids[0], None))
    if plain:
        return lambda rng: (sample_opponent(view, rng, 0.0), 1.0)
    return draft_sampler(obs, view)


def _bid_fit(start: int, opp_bid: Optional[rulebook.Bid], view: View) -> float:
    if opp_bid is None:
        return 1.0
    if rulebook.is_nil(opp_bid):
        return NIL_WEIGHT_FLOOR + nil_safety(start, FULL & ~start & ~view.seen)
    return bid_weight(start, opp_bid)


# ---------------------------------------------------------------- exact solving

_SOLVER: Optional[Solver] = None
SOLVER_TABLE_LIMIT = 400_000  # positions kept between solves before the table is cleared


def solver() -> Solver:
    """This process's solver: its transposition tables help the next sample's solve."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver()
    elif _SOLVER.table_size > SOLVER_TABLE_LIMIT:
        _SOLVER.clear()
    return _SOLVER


def solve_bid(
    engine: Solver, hand: int, opp: int, me: int, leader: int, most: bool, fewest: bool
) -> tuple[int, int]:
    """My double-dummy tricks in a fresh deal, both trying to win (``most``) and both
    trying to lose (``fewest``); -1 for what was not asked."""
    hands = (hand, opp) if me == 0 else (opp, hand)
    position = Position(hands, None, leader, False)
    m = f = -1
    if most:
        v = engine.solve(position, "most")
        m = v if leader == me else 13 - v
    if fewest:
        v = engine.solve(position, "fewest")
        f = v if leader == me else 13 - v
    return m, f


def solve_play(
    engine: Solver, hand: int, opp: int, me: int, table: Optional[tuple[int, int]], broken: bool, aim: Aim
) -> dict[int, int]:
    """Tricks I make from here after each legal card, both hands known, under ``aim``."""
    hands = (hand, opp) if me == 0 else (opp, hand)
    values = engine.card_values(Position(hands, table, me, broken), aim)
    return {int(c): v for c, v in values.items()}


BidJob = tuple[int, tuple[int, ...], int, int, bool, bool]
PlayJob = tuple[int, tuple[int, ...], int, Optional[tuple[int, int]], bool, Aim]


# A deal to solve from the first lead: (my hand, theirs, whether I lead, aim).
Deal = tuple[int, int, bool, Aim]


def solve_deal(engine: Solver, deal: Deal) -> int:
    """My double-dummy tricks in a fresh deal under ``aim`` (``fewest``: both try to lose tricks)."""
    mine, theirs, i_lead, aim = deal
    v = engine.solve(Position((mine, theirs), None, 0 if i_lead else 1, False), aim)
    return v if i_lead else 13 - v


def solve_deals_batch(job: tuple[Deal, ...]) -> list[int]:
    """``solve_deal`` for each deal of a batch (run in a pool worker)."""
    engine = solver()
    return [solve_deal(engine, d) for d in job]


def solve_bid_batch(job: BidJob) -> list[tuple[int, int]]:
    """``solve_bid`` for each sampled opponent hand of a batch (run in a pool worker)."""
    hand, opps, me, leader, most, fewest = job
    engine = solver()
    return [solve_bid(engine, hand, o, me, leader, most, fewest) for o in opps]


def solve_play_batch(job: PlayJob) -> list[dict[int, int]]:
    """``solve_play`` for each sampled opponent hand of a batch (run in a pool worker)."""
    hand, opps, me, table, broken, aim = job
    engine = solver()
    return [solve_play(engine, hand, o, me, table, broken, aim) for o in opps]


def play_goals(bid: int, opp_bid: int, won: int, opp_won: int, left: int) -> list[str]:
    """What the player to act can still play for, most important first ("duck" if nothing); the
    bids are ``tricks_wanted`` (0 for a Nil or a Double Nil)."""
    goals = []
    if bid <= 0 and won == 0:
        goals.append("nil")
    if opp_bid <= 0 and opp_won == 0:
        goals.append("set_nil")
    if bid > 0 and won < bid <= won + left:
        goals.append("make")
    if opp_bid > 0 and opp_won < opp_bid <= opp_won + left:
        goals.append("set")
    return goals or ["duck"]


def play_aim(goals: Sequence[str]) -> Aim:
    """The solver's aim for the most important goal: win tricks to make or set a contract, else lose them."""
    return "most" if goals[0] in ("make", "set") else "fewest"


# ---------------------------------------------------------------- valuing bids over solved deals

# Share of deals where a contract bidder takes one trick fewer than double dummy: fitted
# on 240 bids of hard and normal bots (actual tricks ran 0.35 below the sampled
# double-dummy mean; 0.2 matched the share of contracts made and the best log loss).
# It allows for a solved deal being optimistic for the side that sees both hands.
DD_DISCOUNT = 0.2


def needs(allowed: Sequence[int], opp_bid: rulebook.Bid) -> tuple[bool, bool]:
    """Which solves the bids need: (``most``, ``fewest``).  A Nil at stake, mine or
    theirs, means both try to lose tricks; otherwise both try to win them."""
    theirs_nil = rulebook.is_nil(opp_bid)
    fewest = theirs_nil or 0 in allowed
    most = not theirs_nil and any(b > 0 for b in allowed)
    return most, fewest


# The bid rule measured best (issue 30): each solved deal counted half at its tricks T and half
# at T - 1 (a player who cannot see the cards loses about a trick to the solver's hindsight), a
# Nil half at T and half at T + 1, valued by the hand's margin with bags charged.
SLIP = 0.5

# The ``played`` bid rule (issue 38): the slip rule's T and T - 1 each spread both ways by how far
# played-out tricks fall from the real deal's solved T (benchmarks/slip_measure.py, expert v expert, 320
# contract bids on 80 deals, main 9c8110a): taken - T was -2: 5.3%, -1: 24.4%, 0: 40.0%, +1: 24.4%,
# +2: 5.3% (and 0.3% at each of -3, +3), mean 0.000: the opponent's errors hand tricks back as often as
# one's own lose them.  The slip stays: it is the bidder's sampled T against the real one (the spread
# alone, in place of the slip, bid 6.08 a contract against 5.77 and benched -7.3 points a hand).
# Pairs (d, share).
PLAYED_SPREAD: tuple[tuple[int, float], ...] = ((-2, 0.05), (-1, 0.25), (0, 0.40), (1, 0.25), (2, 0.05))


def margin_table(rules: Rules, my_bid: rulebook.Bid, opp_bid: rulebook.Bid) -> list[float]:
    """My hand points minus the opponent's for each count of my tricks (0..13), the opponent taking
    the rest, every bag charged its long-run share of the penalty (bag_penalty / bag_limit a bag)."""
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit > 0 else 0.0
    flat = dataclasses.replace(rules, bag_limit=0)  # the penalty is charged by the bag, not at the limit
    out = []
    for t in range(14):
        pm, bm = hand_points(flat, my_bid, t, 0)
        po, bo = hand_points(flat, opp_bid, 13 - t, 0)
        out.append(pm - po - per_bag * (bm - bo))
    return out


class BidTally:
    """Each candidate bid's weighted value, chance of making and points over solved deals.

    ``objective`` ``win``: the estimated chance to win the game (``utility_table``); ``margin``: the
    hand's margin in points with bags charged (``margin_table``).  A contract loses a trick in a
    ``discount`` share of the deals; with ``nil_slip`` a Nil takes one more in that share too.
    """

    def __init__(
        self, rules: Rules, scores: tuple[int, int], bags: tuple[int, int], allowed: Sequence[int],
        discount: float = DD_DISCOUNT, objective: str = "win", nil_slip: bool = False,
        spread: Optional[Sequence[tuple[int, float]]] = None,
    ) -> None:
        self.objective = objective
        self.spread = spread  # each of a contract's T and T - 1 spread to (T + d, share)
        self.nil_slip = nil_slip
        self.rules = rules
        self.scores = scores
        self.bags = bags
        self.allowed = list(allowed)
        self.discount = discount
        self.tables: dict[tuple[int, rulebook.Bid], list[float]] = {}
        self.rows: dict[int, list[tuple[int, bool]]] = {}  # per bid, by my tricks: (my points, made)
        self.util = dict.fromkeys(self.allowed, 0.0)
        self.made = dict.fromkeys(self.allowed, 0.0)
        self.points = dict.fromkeys(self.allowed, 0.0)
        self.total = 0.0

    def add(self, most: int, fewest: int, opp_bid: rulebook.Bid, weight: float) -> None:
        """One solved deal: my tricks with both winning (``most``) and both losing (``fewest``)."""
        rules, bags = self.rules, self.bags
        theirs_nil = rulebook.is_nil(opp_bid)
        # The tricks each kind of bid may end with, the same for every bid of that kind: found once a deal.
        losing: tuple[tuple[int, float], ...] = ((fewest, 1.0),)
        if self.nil_slip:
            losing = ((fewest, 1.0 - self.discount), (min(13, fewest + 1), self.discount))
        # Real play falls a little short of double dummy: one trick less, now and then.
        winning: tuple[tuple[int, float], ...] = ((most, 1.0 - self.discount), (max(0, most - 1), self.discount))
        if self.spread is not None:  # and spreads both ways round that
            winning = tuple((min(13, max(0, t + d)), share * s) for t, share in winning for d, s in self.spread)
        for b in self.allowed:
            outcomes = losing if b == 0 or theirs_nil else winning
            table = self.tables.get((b, opp_bid))
            if table is None:
                table = self.tables[(b, opp_bid)] = (
                    margin_table(rules, b, opp_bid) if self.objective == "margin"
                    else utility_table(rules, self.scores, bags, b, opp_bid)
                )
            row = self.rows.get(b)
            if row is None:  # my points and whether the bid is made, by my tricks: the same every deal
                row = self.rows[b] = [(hand_points(rules, b, t, bags[0])[0], rulebook.made(b, t)) for t in range(14)]
            for t, share in outcomes:
                w = weight * share
                self.util[b] += w * table[t]
                self.points[b] += w * row[t][0]
                self.made[b] += w * row[t][1]
        self.total += weight

    def value(self, b: int) -> float:
        return self.util[b] / self.total if self.total > 0 else 0.0

    def chance(self, b: int) -> float:
        return self.made[b] / self.total if self.total > 0 else 0.0

    def mean_points(self, b: int) -> float:
        return self.points[b] / self.total if self.total > 0 else 0.0

    def best(self) -> int:
        """The bid of the highest utility (ties: the likelier to make, then the lower)."""
        return max(self.allowed, key=lambda b: (self.value(b), self.chance(b), -b))


def opponent_bid(view: View, opp: int, rules: Rules, scores: tuple[int, int], bags: tuple[int, int],
                 ) -> rulebook.Bid:
    """The opponent's bid: known, or, bidding first, as the normal bot would make it with the sampled hand
    ``opp`` (``scores`` and ``bags``: mine, theirs)."""
    if view.bids[1] is not None:
        return view.bids[1]
    others = (view.unknown | view.hand) & ~opp
    return normal_bid(opp, others, rules, (scores[1], scores[0]), (bags[1], bags[0]), None)


def bid_tally(rules: Rules, scores: tuple[int, int], bags: tuple[int, int], allowed: Sequence[int],
              rule: str = "played", objective: str = "margin") -> BidTally:
    """The tally of a bid rule (``choices.EXPERT_CHOICES["bid"]``): ``slip`` and ``fit`` count each deal
    half at its tricks and half a trick short (a Nil a trick over); ``dd`` a trick short in
    ``DD_DISCOUNT`` of the deals, Nils as solved; ``played`` spreads a contract's T and T - 1 by
    ``PLAYED_SPREAD``, a Nil as ``slip``."""
    if rule == "dd":
        return BidTally(rules, scores, bags, allowed, DD_DISCOUNT, objective)
    return BidTally(rules, scores, bags, allowed, SLIP, objective, nil_slip=True,
                    spread=PLAYED_SPREAD if rule == "played" else None)


# The ``fit`` bid rule (issue 38): when the opponent has bid, a sampled deal counts as much as their
# bid is likely on it, judged by the tricks their hand makes in that very deal solved double dummy (a
# contract: the most they can take; a Nil or Double Nil: the fewest they can be held to, against 0).
# The weight is the likelihood of the bid given those tricks, P(T - bid = d), read off how bots bid:
# on main 7461ab7, deals drafted by the normal bot (seed 77), T - bid over 200 seats bid by the normal
# bot and 80 by the expert (iters=48) counted -4: 1, -2: 12, -1: 48, 0: 76, +1: 95, +2: 43, +3: 3,
# +4: 2 (means +0.35 and +0.66).  So a bidder bids about a trick under what their hand makes double
# dummy, as the expert's own rule assumes: a kernel on |T - bid| centred on 0 would favour deals where
# their hand is a trick weaker than it is, and bid mine too high.  The table is those counts over the
# most common, rounded, with a floor of 0.05: a person may bid far off, and a tiny weight would leave
# the decision to a handful of deals.
# Indexed by their tricks less their bid, -3 (or fewer) .. +3 (or more).
FIT_WEIGHTS: tuple[float, ...] = (0.05, 0.15, 0.5, 0.8, 1.0, 0.45, 0.05)
# A Nil or Double Nil (none was bid in those deals): by the fewest tricks their hand is held to, 0, 1, 2,
# 3 or more, the contract table read from its peak towards a hand too strong for its bid.
FIT_NIL_WEIGHTS: tuple[float, ...] = (1.0, 0.5, 0.15, 0.05)


def fit_weight(opp_tricks: int, opp_bid: rulebook.Bid) -> float:
    """How likely the opponent's ``opp_bid`` is on a deal where their hand makes ``opp_tricks`` double dummy
    (a contract: the most they take, ``FIT_WEIGHTS``; a Nil: the fewest they are held to, ``FIT_NIL_WEIGHTS``)."""
    if rulebook.is_nil(opp_bid):
        return FIT_NIL_WEIGHTS[min(max(0, opp_tricks), len(FIT_NIL_WEIGHTS) - 1)]
    far = len(FIT_WEIGHTS) // 2
    d = opp_tricks - tricks_wanted(opp_bid)
    return FIT_WEIGHTS[max(-far, min(far, d)) + far]


def add_solved(tally: BidTally, allowed: Sequence[int], most: int, fewest: int, opp_bid: rulebook.Bid,
               weight: float, fit: bool = False) -> None:
    """One solved deal into ``tally``: my double-dummy tricks with both winning (``most``) and both losing
    (``fewest``), -1 for what was not solved, only those ``needs`` says the bids need counted.  With
    ``fit`` (the opponent's bid is known, not guessed) the deal is weighted by ``fit_weight`` too."""
    m, f = needs(allowed, opp_bid)
    if fit:
        theirs = fewest if rulebook.is_nil(opp_bid) else most
        if theirs >= 0:
            weight *= fit_weight(13 - theirs, opp_bid)
    tally.add(most if m else -1, fewest if f else -1, opp_bid, weight)
