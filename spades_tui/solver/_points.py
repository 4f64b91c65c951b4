"""The points search: any payoff over the leader's trick count, exactly (docs/analysis.md, Points).

The trick search (``_search.Search``) answers "can the leader make at least ``t``
of the tricks left?".  The score is not monotone in tricks (a Nil broken, a bag
limit reached), so the points question needs more: can the leader make sure
that their count of the tricks left lands in a *set* ``S`` of counts?  ``S`` is
a bit mask over ``0..n`` (bit ``k``: ``k`` tricks).  A payoff ``g(k)`` then has
the value ``max v`` such that the leader can force ``{k: g(k) >= v}``, found
with a few such probes.

The search is the trick search's, with the target a set: winning a trick shifts
``S`` down by one, losing it hands the lead to the other player, whose target is
the mirror of the complement of ``S`` (perfect information: exactly one of the
two can force their set).  Sets that are one-sided within the counts the
position can still reach (``k >= t`` or ``k <= t``) go to the trick searches,
whose tables they share; only two-sided sets are searched here.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..engine.rulebook import SPADES, playable_mask, trick_table
from ._search import (
    Search,
    follow_order_fewest,
    follow_order_most,
    lead_order_fewest,
    lead_order_most,
    position_key,
    sure_spades,
)

# Bit reversal of 14-bit masks (trick counts 0..13), for mirroring a target set.
_REV14 = tuple(int(f"{x:014b}"[::-1], 2) for x in range(1 << 14))


def mirror(s: int, n: int) -> int:
    """``{n - 1 - k : k in s}`` for ``s`` within ``0..n-1``."""
    return _REV14[s & ((1 << n) - 1)] >> (14 - n)


CanFn = Callable[[int, int, bool, int], bool]
AfterLeadCanFn = Callable[[int, int, int, bool, int], bool]


class SetSearch:
    """Can the leader force their count of the tricks left into a set?  One table, kept between calls."""

    def __init__(self, most: Search, fewest: Search) -> None:
        self.most = most
        self.fewest = fewest
        self.table: dict[int, bool] = {}
        self.nodes = 0
        self.can, self.after_lead_can = self._build()

    def clear(self) -> None:
        self.table.clear()

    def _build(self) -> tuple[CanFn, AfterLeadCanFn]:
        table = self.table
        tget = table.get
        most_ge = self.most.ge
        fewest_ge = self.fewest.ge
        key_of = position_key
        wins, breaks, lead_breaks = trick_table()  # the rule book's 6.3 and 6.5, indexed
        leadable_of = playable_mask

        def one_sided(a: int, b: int, broken: bool, s: int, n: int) -> int:
            """1 or 0 when ``s`` is settled without a set search (-1 otherwise); ``s`` within ``0..n``."""
            lo = sure_spades((a & SPADES) | (b & SPADES) << 13)
            hi = n - sure_spades((b & SPADES) | (a & SPADES) << 13)
            reach = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)  # counts any play can still end in
            s &= reach
            if not s:
                return 0
            if s == reach:
                return 1
            low = (s & -s).bit_length() - 1
            high = s.bit_length() - 1
            if s == reach & ~((1 << low) - 1):  # k >= low
                return 1 if most_ge(a, b, broken, low) else 0
            if s == reach & ((1 << (high + 1)) - 1):  # k <= high: lose at least n - high
                return 1 if fewest_ge(a, b, broken, n - high) else 0
            return -1

        def wants_tricks(s: int, n: int) -> bool:
            """Whether the set lies towards more tricks (for move ordering only)."""
            low = (s & -s).bit_length() - 1
            high = s.bit_length() - 1
            return low > n - high

        def after_lead_can(a2: int, b: int, c: int, broken: bool, s: int) -> bool:
            """After the leader (now holding ``a2``) led ``c``: can they still force ``s``?"""
            n = b.bit_count()
            beaten_by = wins[c]
            breaking = breaks[c]
            nb = broken or lead_breaks[c]
            # The follower plays against the set: they try to win when it lies high.
            order = follow_order_most if wants_tricks(s, n) else follow_order_fewest
            lost_target = ((1 << n) - 1) & ~mirror(s, n)
            for d in order(c, b, a2 | b | 1 << c):
                b2 = b ^ (1 << d)
                nb2 = nb or breaking[d]
                if not beaten_by[d]:
                    if not can(a2, b2, nb2, s >> 1):
                        return False
                elif can(b2, a2, nb2, lost_target):
                    return False
            return True

        def can(a: int, b: int, broken: bool, s: int) -> bool:
            n = a.bit_count()
            s &= (1 << (n + 1)) - 1
            if not s:
                return False
            if n == 0:
                return True  # s holds 0
            settled = one_sided(a, b, broken, s, n)
            if settled >= 0:
                return settled == 1
            k = key_of(a, b, broken) << 14 | s
            got = tget(k)
            if got is not None:
                return got
            self.nodes += 1
            order = lead_order_most if wants_tricks(s, n) else lead_order_fewest
            for c in order(a, b, leadable_of(a, -1, broken), a | b):
                if after_lead_can(a ^ (1 << c), b, c, broken, s):
                    table[k] = True
                    return True
            table[k] = False
            return False

        return can, after_lead_can


def threshold_sets(payoff: Sequence[int]) -> list[tuple[int, int]]:
    """``(v, {k: payoff[k] >= v})`` for each distinct payoff ``v``, lowest ``v`` first."""
    out = []
    for v in sorted(set(payoff)):
        s = 0
        for k, x in enumerate(payoff):
            if x >= v:
                s |= 1 << k
        out.append((v, s))
    return out


def best_value(sets: Sequence[tuple[int, int]], forces: Callable[[int], bool], start: int | None = None) -> int:
    """The largest ``v`` of ``sets`` whose set ``forces`` says can be forced (the lowest always can).

    ``forces`` is monotone (a smaller set is harder).  With ``start`` (an index of
    ``sets`` known to be at least the answer's) it probes downwards from there,
    as a card usually keeps the position's value; otherwise it bisects.
    """
    if start is not None:
        i = start
        while i > 0 and not forces(sets[i][1]):
            i -= 1
        return sets[i][0]
    lo, hi = 0, len(sets) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if forces(sets[mid][1]):
            lo = mid
        else:
            hi = mid - 1
    return sets[lo][0]
