"""Bit-mask card arithmetic shared by the bots, and a fast trick simulator.

A hand is an ``int`` with bit ``c`` set for card ``c`` (0..51, suit * 13 + rank - 2),
so within a suit a higher bit is a higher card.  Everything here is pure Python on
small ints: this is what lets the hard bot simulate thousands of tricks a second.
Nothing here ever sees a ``GameState``: a ``View`` is built from an ``Observation``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Optional, Sequence

from ..engine import rulebook
from ..engine.actions import PlayerAction
from ..engine.observation import Observation

# The rule book's mask vocabulary and play rules, re-exported for the bots (engine/rulebook.py).
from ..engine.rulebook import FULL as FULL
from ..engine.rulebook import NON_SPADES as NON_SPADES
from ..engine.rulebook import SPADES as SPADES
from ..engine.rulebook import SUITS, follower_wins, playable_mask, score_winner, spades_free, thirteen_winner
from ..engine.rulebook import breaks_spades as breaks_spades
from ..engine.rulebook import hand_points as hand_points
from ..engine.rulebook import mask_of as mask_of
from ..engine.rules import Rules

SUIT = SUITS

WIN, LOSE = 1, 0


def bits(m: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def high(m: int) -> int:
    return m.bit_length() - 1


def low(m: int) -> int:
    return (m & -m).bit_length() - 1


def above(c: int) -> int:
    """Cards of the same suit higher than ``c``."""
    return SUIT[c // 13] & ~((2 << c) - 1)


def below(c: int) -> int:
    return SUIT[c // 13] & ((1 << c) - 1)


def lowest_rank(m: int) -> int:
    """The card of lowest rank (ties: the lowest suit index, spades first, so avoid spades by masking)."""
    best, best_rank = -1, 99
    while m:
        lb = m & -m
        c = lb.bit_length() - 1
        r = c % 13
        if r < best_rank:
            best, best_rank = c, r
        m ^= lb
    return best


def highest_rank(m: int) -> int:
    best, best_rank = -1, -1
    while m:
        lb = m & -m
        c = lb.bit_length() - 1
        r = c % 13
        if r > best_rank:
            best, best_rank = c, r
        m ^= lb
    return best


def tricks_wanted(bid: rulebook.Bid) -> int:
    """The tricks a bid asks for, as the simulators count them: its contract, 0 for a Nil or a
    Double Nil (both are made by taking none)."""
    return rulebook.contract(bid) or 0


# ---------------------------------------------------------------- what a player knows

@dataclass(frozen=True, slots=True)
class View:
    """An observation reduced to masks.  ``unknown``: cards whose place the player does not know."""

    seat: int
    hand: int
    seen: int
    played: int
    unknown: int
    opp_voids: int  # mask of the suits the opponent has shown void in
    opp_played: int  # cards the opponent played this hand
    opp_count: int
    opp_exchanged: int  # cards the opponent drew from the discard pile (Double Nil exchange)
    bids: tuple[Optional[rulebook.Bid], Optional[rulebook.Bid]]  # mine, opponent's (None: not bid yet)
    won: tuple[int, int]  # mine, opponent's
    lead: int  # card led to the current trick, or -1
    leader: int  # 0 me, 1 opponent (who leads the current / next trick)
    broken: bool  # whether a spade may be led (spades broken, or spades_any_time: rulebook.spades_free)


def view_of(obs: Observation) -> View:
    me, opp = obs.seat, 1 - obs.seat
    hand = mask_of(obs.hand)
    seen = mask_of(obs.seen_discards)
    played = 0
    voids = 0
    opp_played = 0
    for t in obs.tricks:
        played |= (1 << t[0].card) | (1 << t[1].card)
        if t[1].player == opp and t[1].card // 13 != t[0].card // 13:
            voids |= SUIT[t[0].card // 13]
        for pc in t:
            if pc.player == opp:
                opp_played |= 1 << pc.card
    for pc in obs.trick:
        played |= 1 << pc.card
        if pc.player == opp:
            opp_played |= 1 << pc.card
    drawn = (1 << obs.drawn) if obs.drawn is not None else 0
    unknown = FULL & ~(hand | seen | played | drawn)
    lead = obs.trick[0].card if obs.trick else -1
    if obs.trick:
        leader = 0 if obs.trick[0].player == me else 1
    else:
        leader = 0 if obs.to_act == me else 1
    return View(
        seat=me,
        hand=hand,
        seen=seen,
        played=played,
        unknown=unknown,
        opp_voids=voids,
        opp_played=opp_played,
        opp_count=obs.opponent_cards,
        opp_exchanged=obs.exchanged[opp] or 0,
        bids=(obs.bids[me], obs.bids[opp]),
        won=(obs.tricks_won[me], obs.tricks_won[opp]),
        lead=lead,
        leader=leader,
        broken=spades_free(obs.rules, obs.spades_broken),
    )


# How much a drafter prefers a card: rank, plus a little for being a spade.
GOODNESS = tuple((c % 13) / 12.0 + (0.35 if c < 13 else 0.0) for c in range(52))


def sample_opponent(view: View, rng: random.Random, tilt: float = 0.0) -> int:
    """A random opponent hand consistent with the view (voids shown in play respected).

    ``tilt`` > 0 favours high cards (the opponent drafted too, so the unseen discards
    are weaker than their hand); < 0 favours low ones (a Nil or Double Nil drafter).
    Weighted sampling without replacement by Efraimidis-Spirakis keys.
    """
    need = view.opp_count
    pool = view.unknown & ~view.opp_voids
    taken = 0
    if view.opp_exchanged:
        # Each card they drew in the exchange came from the 26-card pile, where my
        # seen discards lay: some of those may be in their hand now.
        seen_left = bits(view.seen & ~view.played & ~view.hand & ~view.opp_voids)
        k = sum(1 for _ in range(view.opp_exchanged) if rng.random() * 26 < len(seen_left))
        k = min(k, len(seen_left), need)
        if k:
            taken = mask_of(rng.sample(seen_left, k))
            need -= k
    if need <= 0:
        return taken
    cards = bits(pool)
    if taken:
        return taken | mask_of(rng.sample(cards, min(need, len(cards))))
    if len(cards) >= need:
        if tilt == 0.0 or need == len(cards):
            return mask_of(rng.sample(cards, need))
        rand = rng.random
        keyed = sorted(cards, key=lambda c: rand() ** math.exp(-tilt * GOODNESS[c]))
        return mask_of(keyed[-need:])
    # Only possible when the opponent drew seen discards in a Double Nil exchange.
    free = (view.unknown | view.seen) & ~pool & ~view.hand & ~view.played
    extra = bits(free & ~view.opp_voids) or bits(free)
    return mask_of(cards) | mask_of(rng.sample(extra, min(len(extra), need - len(cards))))


# ---------------------------------------------------------------- hand evaluation

_BINOM_CACHE: dict[tuple[int, int, int], float] = {}


def binom_cdf(n: int, k: int, p: float) -> float:
    """P(Binomial(n, p) <= k)."""
    if k >= n:
        return 1.0
    if k < 0:
        return 0.0
    key = (n, k, int(p * 1000))
    got = _BINOM_CACHE.get(key)
    if got is None:
        q = 1.0 - p
        got = sum(math.comb(n, i) * p**i * q ** (n - i) for i in range(k + 1))
        _BINOM_CACHE[key] = got
    return got


def estimate_tricks(hand: int, others: int, opp_count: int = 13) -> float:
    """Expected tricks of a 13-card (or partial) hand against an opponent holding
    ``opp_count`` cards drawn from ``others``.

    A card that is my i-th highest of its suit wins if the opponent holds at most i of
    the outstanding higher cards; side-suit winners are discounted by the chance the
    opponent is void by then and ruffs.  Spare spades ruff my short suits.
    """
    n_others = others.bit_count()
    p = min(1.0, opp_count / n_others) if n_others else 0.0
    total = 0.0
    opp_has_spades = 1.0 - (1.0 - p) ** (others & SPADES).bit_count()
    spade_tricks = 0.0
    shortness = 0.0
    for s in range(4):
        mine = bits(hand & SUIT[s])
        mine.reverse()
        o_suit = others & SUIT[s]
        n_o = o_suit.bit_count()
        for i, c in enumerate(mine):
            h = (o_suit & above(c)).bit_count()
            win = binom_cdf(h, i, p)
            if s:
                follows = 1.0 - binom_cdf(n_o, i, p)  # opponent still holds the suit at round i+1
                win *= follows + (1.0 - follows) * (1.0 - opp_has_spades)
                if i >= 3:
                    win *= 0.7  # long side suits rarely get run out before the opponent ruffs
                total += win
            else:
                spade_tricks += win
        if s and len(mine) <= 1:
            shortness += 0.45 if not mine else 0.2
    n_spades = (hand & SPADES).bit_count()
    spare = max(0.0, n_spades - spade_tricks)
    return total + spade_tricks + min(spare, shortness)


def card_danger(c: int, hand: int, others: int, p: float) -> float:
    """How likely card ``c`` is to win a trick its holder wants to lose (for Nil)."""
    s = c // 13
    h = (others & above(c)).bit_count()
    # The opponent lacking every higher card means c cannot duck under a lead of that suit.
    d = (1.0 - p) ** h
    low_partners = (hand & below(c)).bit_count()
    if s == 0:
        d = min(1.0, d * 1.6 + 0.04 * (c % 13))  # a spade played when void wins outright
    else:
        d *= 0.8 ** low_partners  # low cards of the suit let me duck the early rounds
        d *= 0.85
    return d


def nil_safety(hand: int, others: int, opp_count: int = 13) -> float:
    """Rough probability that a hand wins no trick when it tries to lose them all."""
    n_others = others.bit_count()
    p = min(1.0, opp_count / n_others) if n_others else 0.0
    safe = 1.0
    for c in bits(hand):
        safe *= 1.0 - card_danger(c, hand, others, p)
    return safe


# ---------------------------------------------------------------- scoring and utility



def win_value(rules: Rules, me: int, opp: int, bags_me: int, bags_opp: int) -> float:
    """Approximate chance of winning the game from these totals (plus a small point-margin tie-break).

    A game the rule book says is over (the target or the losing score) is won or lost outright; a
    score near the losing floor counts as near the end, as one near the target does.
    """
    tie_break = 1e-4 * (me - opp)
    end = score_winner(rules, (me, opp))
    if end is not None:
        return (1.0 if end[0] == 0 else 0.0) + tie_break
    liability = 0.0
    if rules.bag_limit > 0:
        liability = rules.bag_penalty / rules.bag_limit * 0.5
    em = me - liability * bags_me
    eo = opp - liability * bags_opp
    remaining = max(30.0, rules.target - max(em, eo))
    if rules.losing_score > 0:
        remaining = max(30.0, min(remaining, min(em, eo) + rules.losing_score))
    sd = 75.0 * math.sqrt(remaining / 70.0 + 0.5)
    return 1.0 / (1.0 + math.exp(-1.7 * (em - eo) / sd)) + tie_break


def utility_table(
    rules: Rules, scores: tuple[int, int], bags: tuple[int, int], my_bid: rulebook.Bid, opp_bid: rulebook.Bid
) -> list[float]:
    """Utility for each final count of my tricks (0..13), the opponent taking the rest.

    All 13 tricks on a bid of 13 under ``thirteen_wins`` win or lose the game outright (the rule book's 8.5)."""
    out = []
    for t in range(14):
        pm, bm = hand_points(rules, my_bid, t, bags[0])
        po, bo = hand_points(rules, opp_bid, 13 - t, bags[1])
        outright = thirteen_winner(rules, (my_bid, opp_bid), (t, 13 - t))
        if outright is not None:
            out.append((1.0 if outright == 0 else 0.0) + 1e-4 * (scores[0] + pm - scores[1] - po))
        else:
            out.append(win_value(rules, scores[0] + pm, scores[1] + po, bm, bo))
    return out


# ---------------------------------------------------------------- the fast trick simulator



def mode_of(bid: int, opp_bid: int, won: int, opp_won: int, left: int) -> int:
    """Whether a player wants the current trick (WIN) or wants to lose it (LOSE); the bids are
    ``tricks_wanted`` (0 for a Nil or a Double Nil)."""
    if bid <= 0 and won == 0:
        return LOSE  # my Nil stands: duck
    if opp_bid <= 0 and opp_won == 0:
        return LOSE  # their Nil stands: feed them tricks
    if bid > 0 and won < bid:
        return WIN
    if opp_bid > 0 and opp_won < opp_bid and opp_won + left >= opp_bid:
        return WIN  # set their contract
    return LOSE  # avoid bags


def policy(hand: int, other: int, lead: int, broken: bool, mode: int) -> int:
    """A fast, sensible card for simulations where both hands are known."""
    legal = playable_mask(hand, lead, broken)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if lead < 0:
        if mode == WIN:
            other_spades = other & SPADES
            for s in (1, 2, 3):
                mine = legal & SUIT[s]
                if mine:
                    top = high(mine)
                    o = other & SUIT[s]
                    if (o and top > high(o)) or (not o and not other_spades):
                        return top
            sp = legal & SPADES
            if sp and (not other_spades or high(sp) > high(other_spades)):
                return high(sp)
            # lead low from my longest side suit
            best_s, best_n = -1, 0
            for s in (1, 2, 3):
                n = (legal & SUIT[s]).bit_count()
                if n > best_n:
                    best_s, best_n = s, n
            if best_s >= 0:
                return low(legal & SUIT[best_s])
            return low(legal)
        # LOSE: lead my lowest card in a suit where the opponent holds higher ones
        best, best_rank = -1, 99
        m = legal
        while m:
            lb = m & -m
            c = lb.bit_length() - 1
            m ^= lb
            r = c % 13
            if other & above(c) and r < best_rank:
                best, best_rank = c, r
        return best if best >= 0 else lowest_rank(legal)
    same = legal & SUIT[lead // 13]
    if same:
        if mode == WIN:
            hi = same & above(lead)
            return low(hi) if hi else low(same)
        lo = same & below(lead)
        return high(lo) if lo else high(same)
    # void in the suit led
    if mode == WIN:
        sp = legal & SPADES
        if sp:
            return low(sp)
        return lowest_rank(legal)
    ns = legal & NON_SPADES
    if ns:
        return highest_rank(ns)
    return low(legal)


def rollout(
    h0: int, h1: int, leader: int, lead: int, broken: bool, bids: tuple[int, int], won: tuple[int, int]
) -> int:
    """Play the hand out with ``policy`` for both sides; return player 0's final tricks.

    Player 0 is the bot; ``lead`` is the card already led by ``leader`` (-1 if none),
    already removed from its hand.
    """
    w0, w1 = won
    b0, b1 = bids
    while True:
        left = (h0 | h1).bit_count() // 2 + (1 if lead >= 0 else 0)
        if lead < 0:
            if not h0 and not h1:
                return w0
            if leader == 0:
                lead = policy(h0, h1, -1, broken, mode_of(b0, b1, w0, w1, left))
                h0 &= ~(1 << lead)
            else:
                lead = policy(h1, h0, -1, broken, mode_of(b1, b0, w1, w0, left))
                h1 &= ~(1 << lead)
            if breaks_spades(-1, lead):
                broken = True
        if leader == 0:
            f = policy(h1, h0, lead, broken, mode_of(b1, b0, w1, w0, left))
            h1 &= ~(1 << f)
        else:
            f = policy(h0, h1, lead, broken, mode_of(b0, b1, w0, w1, left))
            h0 &= ~(1 << f)
        if breaks_spades(lead, f):
            broken = True
        if follower_wins(lead, f):
            leader = 1 - leader
        if leader == 0:
            w0 += 1
        else:
            w1 += 1
        lead = -1


def solve(
    h0: int, h1: int, leader: int, lead: int, broken: bool, won0: int, util: Sequence[float],
    memo: dict[tuple[int, int, int, int, bool, int], float],
) -> float:
    """Exact minimax value (player 0 maximises ``util[final tricks]``) with both hands known."""
    if lead < 0 and not h0:
        return util[won0]
    key = (h0, h1, leader, lead, broken, won0)
    got = memo.get(key)
    if got is not None:
        return got
    if lead < 0:
        hand = h0 if leader == 0 else h1
        best = -1e9 if leader == 0 else 1e9
        for c in bits(playable_mask(hand, -1, broken)):
            nb = broken or breaks_spades(-1, c)
            if leader == 0:
                v = solve(h0 & ~(1 << c), h1, 0, c, nb, won0, util, memo)
                if v > best:
                    best = v
            else:
                v = solve(h0, h1 & ~(1 << c), 1, c, nb, won0, util, memo)
                if v < best:
                    best = v
    else:
        follower = 1 - leader
        hand = h0 if follower == 0 else h1
        best = -1e9 if follower == 0 else 1e9
        for c in bits(playable_mask(hand, lead, broken)):
            nb = broken or breaks_spades(lead, c)
            winner = follower if follower_wins(lead, c) else leader
            n0 = h0 & ~(1 << c) if follower == 0 else h0
            n1 = h1 & ~(1 << c) if follower == 1 else h1
            v = solve(n0, n1, winner, -1, nb, won0 + (1 if winner == 0 else 0), util, memo)
            if follower == 0:
                if v > best:
                    best = v
            elif v < best:
                best = v
    memo[key] = best
    return best


def pick_legal(legal: Sequence[PlayerAction], wanted: PlayerAction) -> PlayerAction:
    """``wanted`` if it is one of ``legal`` (the bots never return anything else)."""
    for a in legal:
        if a == wanted:
            return a
    return legal[0]
