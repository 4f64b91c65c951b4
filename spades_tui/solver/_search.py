"""The double-dummy search itself, on bit masks (no cards, no players, no API).

A *lead position* is ``(A, B, broken)``: the player to lead holds the mask ``A``,
the other the mask ``B`` (as many cards), ``broken`` says whether spades are
broken.  Its value is the number of *points* the leader can make sure of among
the ``popcount(A)`` tricks left.  A point is a trick won (aim ``most``) or a
trick lost (aim ``fewest``, where both players try to lose tricks): in both
cases the game is zero-sum and symmetric, so one search serves both aims.

``ge(A, B, broken, target)`` answers "can the leader make ``target`` points?"
(a null-window search).  The transposition table keeps, for each position up
to order-preserving relabelling of the ranks within each suit (and the three
side suits in any order), a lower and an upper bound on its value; exact
values come from a few ``ge`` probes.  Touching cards (no card of either hand
between them) are one choice.  Safe bounds (sure spade tricks, side-suit
winners that can be cashed) settle many positions without a search.
"""

from __future__ import annotations

from typing import Callable

from ..engine.rulebook import FULL, NON_SPADES, RANKS, SPADES, SUIT_MASK, SUITS, playable_mask, trick_table

__all__ = ["FULL", "NON_SPADES", "RANKS", "SPADES", "SUIT_MASK", "SUITS", "Search", "position_key", "runs"]

# ---------------------------------------------------------------- small cached tables
# Keys are pairs of 13-bit suit masks packed as ``x | y << 13``.

_RUNS: dict[int, tuple[int, ...]] = {}
_CODES: dict[int, int] = {}
_SURE_SPADES: dict[int, int] = {}


def runs(pair: int) -> tuple[int, ...]:
    """Ranks (0..12, ascending) of the lowest card of each run of touching cards.

    ``pair`` is ``h | u << 13``: ``h`` one player's cards of a suit, ``u`` every
    card of that suit still in play (both hands and the table), ``h`` within ``u``.
    """
    got = _RUNS.get(pair)
    if got is not None:
        return got
    h = pair & SUIT_MASK
    u = pair >> 13
    out: list[int] = []
    in_run = False
    for r in range(RANKS):
        bit = 1 << r
        if u & bit:
            if h & bit:
                if not in_run:
                    out.append(r)
                    in_run = True
            else:
                in_run = False
    result = tuple(out)
    _RUNS[pair] = result
    return result


def _suit_code(pair: int) -> int:
    """The suit up to relabelling: who holds each card still in play, low to high.

    ``pair`` is ``a | b << 13``; the code is a 1 followed by one bit per card
    (1: ``a`` holds it), so it is at most 14 bits and different lengths differ.
    """
    a = pair & SUIT_MASK
    b = pair >> 13
    code = 1
    for r in range(RANKS):
        bit = 1 << r
        if a & bit:
            code = code << 1 | 1
        elif b & bit:
            code <<= 1
    _CODES[pair] = code
    return code


def sure_spades(pair: int) -> int:
    """Tricks that ``x``'s spades win however the play goes; ``pair`` is ``x | y << 13``.

    A spade loses its trick only to a higher spade played to the same trick, and
    each of ``y``'s spades can beat at most one of ``x``'s: so ``x`` wins at least
    ``|x|`` minus the largest matching of ``y``'s spades to lower ones of ``x``.
    """
    got = _SURE_SPADES.get(pair)
    if got is not None:
        return got
    x = pair & SUIT_MASK
    y = pair >> 13
    free = beaten = 0
    for r in range(RANKS):
        bit = 1 << r
        if x & bit:
            free += 1
        elif y & bit and free:
            free -= 1
            beaten += 1
    result = x.bit_count() - beaten
    _SURE_SPADES[pair] = result
    return result


def cashable(a_hand: int, b_hand: int) -> int:
    """Side-suit tricks the leader ``a_hand`` can cash at once, keeping the lead.

    In each side suit, the leader's cards above the other's highest card win
    while the other must follow; once the other is void they can ruff if they
    hold a spade.  Cashing needs no spade, so it adds to ``sure_spades``.
    """
    fs = b_hand & SPADES
    total = 0
    for s in (1, 2, 3):
        a = a_hand & SUITS[s]
        if not a:
            continue
        b = b_hand & SUITS[s]
        if b:
            w = (a >> b.bit_length()).bit_count()
            if fs:
                lb = b.bit_count()
                if w > lb:
                    w = lb
            total += w
        elif not fs:
            total += a.bit_count()
    return total


def position_key(a: int, b: int, broken: bool) -> int:
    """Transposition key of the lead position: equal keys, equal values."""
    g = _CODES.get
    p = (a & SUIT_MASK) | (b & SUIT_MASK) << 13
    k = g(p) or _suit_code(p)
    p = (a >> 13 & SUIT_MASK) | (b >> 13 & SUIT_MASK) << 13
    h = g(p) or _suit_code(p)
    p = (a >> 26 & SUIT_MASK) | (b >> 26 & SUIT_MASK) << 13
    d = g(p) or _suit_code(p)
    p = (a >> 39) | (b >> 39) << 13
    c = g(p) or _suit_code(p)
    # The side suits are interchangeable: sort their codes.
    if h < d:
        h, d = d, h
    if d < c:
        d, c = c, d
        if h < d:
            h, d = d, h
    if not (a | b) & SPADES:
        broken = True  # no spade left: the flag cannot matter
    return (((k << 14 | h) << 14 | d) << 14 | c) << 1 | broken


# ---------------------------------------------------------------- move orders

def _reps(hand: int, union: int, s: int) -> tuple[int, ...]:
    sh = 13 * s
    return runs((hand >> sh & SUIT_MASK) | (union >> sh & SUIT_MASK) << 13)


def lead_order_most(a: int, b: int, leadable: int, union: int) -> list[int]:
    """Leads worth trying first when the leader wants tricks: sure winners, then low cards."""
    first: list[int] = []
    second: list[int] = []
    third: list[int] = []
    fs = b & SPADES
    for s in (0, 1, 2, 3):
        if not leadable & SUITS[s]:
            continue
        sh = 13 * s
        reps = _reps(a, union, s)
        bs = b >> sh & SUIT_MASK
        if bs:
            top = bs.bit_length() - 1
        elif s == 0 or not fs:
            top = -1  # nothing can beat these
        else:
            top = 99  # the other is void and can ruff
        low = True
        for r in reps:
            if r > top:
                first.append(sh + r)
            elif low:
                second.append(sh + r)
                low = False
            else:
                third.append(sh + r)
    first.reverse()
    return first + second + third


def lead_order_fewest(a: int, b: int, leadable: int, union: int) -> list[int]:
    """Leads worth trying first when the leader wants to lose: low cards first."""
    out: list[tuple[int, int]] = []
    for s in (0, 1, 2, 3):
        if not leadable & SUITS[s]:
            continue
        sh = 13 * s
        for r in _reps(a, union, s):
            out.append((r + (13 if s == 0 else 0), sh + r))
    out.sort()
    return [c for _, c in out]


def follow_order_most(c: int, b: int, union: int) -> list[int]:
    """Answers to the lead ``c`` when the follower wants tricks: cheapest winner, then lowest."""
    s = c // 13
    sh = 13 * s
    bs = b >> sh & SUIT_MASK
    if bs:
        reps = runs(bs | (union >> sh & SUIT_MASK) << 13)
        rc = c - sh
        win = [sh + r for r in reps if r > rc]
        lose = [sh + r for r in reps if r < rc]
        return win + lose
    first: list[int] = []
    if s != 0 and b & SPADES:
        first.extend(_reps(b, union, 0))  # the lowest ruff first
        suits: tuple[int, ...] = (1, 2, 3)
    else:
        suits = (0, 1, 2, 3)
    # the lowest discard of each suit before the other discards
    lows: list[int] = []
    highs: list[int] = []
    for t in suits:
        if b & SUITS[t]:
            reps = _reps(b, union, t)
            lows.append(13 * t + reps[0])
            highs.extend(13 * t + r for r in reps[1:])
    return first + lows + highs


def follow_order_fewest(c: int, b: int, union: int) -> list[int]:
    """Answers to the lead ``c`` when the follower wants to lose: highest loser first."""
    s = c // 13
    sh = 13 * s
    bs = b >> sh & SUIT_MASK
    if bs:
        reps = runs(bs | (union >> sh & SUIT_MASK) << 13)
        rc = c - sh
        lose = [sh + r for r in reversed(reps) if r < rc]
        win = [sh + r for r in reversed(reps) if r > rc]
        return lose + win
    side: list[tuple[int, int]] = []
    spades: list[int] = []
    for t in (0, 1, 2, 3):
        if b & SUITS[t]:
            for r in _reps(b, union, t):
                if t == 0 and s != 0:
                    spades.append(r)  # a ruff wins: last
                else:
                    side.append((-r, 13 * t + r))
    side.sort()
    return [x for _, x in side] + spades


# ---------------------------------------------------------------- the search

GeFn = Callable[[int, int, bool, int], bool]
AfterLeadFn = Callable[[int, int, int, bool, int], bool]


class Search:
    """One aim's search and its transposition table."""

    def __init__(self, fewest: bool) -> None:
        self.fewest = fewest
        self.table: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        self.ge, self.after_lead_ge = self._build()

    def clear(self) -> None:
        self.table.clear()

    def bounds(self, a: int, b: int, n: int) -> tuple[int, int]:
        """Safe bounds on the leader's points, found without searching."""
        if self.fewest:
            lo = sure_spades((b & SPADES) | (a & SPADES) << 13)
            hi = n - sure_spades((a & SPADES) | (b & SPADES) << 13)
        else:
            lo = sure_spades((a & SPADES) | (b & SPADES) << 13) + cashable(a, b)
            hi = n - sure_spades((b & SPADES) | (a & SPADES) << 13)
        if lo > n:
            lo = n
        return lo, hi

    def value(self, a: int, b: int, broken: bool) -> int:
        """The exact value of a lead position (leader's points)."""
        n = a.bit_count()
        if n == 0:
            return 0
        got = self.table.get(position_key(a, b, broken))
        lo, hi = got if got is not None else self.bounds(a, b, n)
        while lo < hi:
            t = (lo + hi + 1) // 2
            if self.ge(a, b, broken, t):
                lo = t
            else:
                hi = t - 1
        return lo

    def value_near(self, a: int, b: int, broken: bool, guess: int) -> int:
        """The exact value of a lead position, probing outwards from ``guess`` (a close position's value):
        two probes when the guess is right, against about four for bisection."""
        n = a.bit_count()
        if n == 0:
            return 0
        got = self.table.get(position_key(a, b, broken))
        lo, hi = got if got is not None else self.bounds(a, b, n)
        guess = min(max(guess, lo), hi)
        if self.ge(a, b, broken, guess):
            lo = guess
            while lo < hi and self.ge(a, b, broken, lo + 1):
                lo += 1
            return lo
        hi = guess - 1
        while hi > lo and not self.ge(a, b, broken, hi):
            hi -= 1
        return hi

    def value_after_lead(self, a: int, b: int, c: int, broken: bool, hi: int) -> int:
        """The exact value for the leader after leading ``c`` (``a`` without it), at most ``hi``.

        Probes from ``hi`` down: the usual loss is 0 or 1 trick.
        """
        t = hi
        while t > 0 and not self.after_lead_ge(a, b, c, broken, t):
            t -= 1
        return t

    def _build(self) -> tuple[GeFn, AfterLeadFn]:
        table = self.table
        tget = table.get
        fewest = self.fewest
        key_of = position_key
        bounds = self.bounds
        lead_order = lead_order_fewest if fewest else lead_order_most
        follow_order = follow_order_fewest if fewest else follow_order_most
        wins, breaks, lead_breaks = trick_table()  # the rule book's 6.3 and 6.5, indexed
        leadable_of = playable_mask
        lose_pt = 1 if fewest else 0  # the leader's points from a trick the follower wins
        win_pt = 1 - lose_pt

        def after_lead_ge(a2: int, b: int, c: int, broken: bool, target: int) -> bool:
            """After the leader (now holding ``a2``) led ``c``: can they still make ``target``?"""
            n = b.bit_count()
            beaten_by = wins[c]
            breaking = breaks[c]
            nb = broken or lead_breaks[c]
            for d in follow_order(c, b, a2 | b | 1 << c):
                b2 = b ^ (1 << d)
                nb2 = nb or breaking[d]
                if not beaten_by[d]:
                    if not ge(a2, b2, nb2, target - win_pt):
                        return False
                elif ge(b2, a2, nb2, n + lose_pt - target):
                    return False
            return True

        def ge(a: int, b: int, broken: bool, target: int) -> bool:
            if target <= 0:
                return True
            n = a.bit_count()
            if target > n:
                return False
            if n == 1:
                won = not wins[a.bit_length() - 1][b.bit_length() - 1]
                return won != fewest
            k = key_of(a, b, broken)
            got = tget(k)
            if got is None:
                lo, hi = bounds(a, b, n)
                if target <= lo or target > hi:
                    table[k] = (lo, hi)
                    return target <= lo
            else:
                lo, hi = got
                if target <= lo:
                    return True
                if target > hi:
                    return False
            self.nodes += 1
            for c in lead_order(a, b, leadable_of(a, -1, broken), a | b):
                if after_lead_ge(a ^ (1 << c), b, c, broken, target):
                    got = tget(k)
                    hi = got[1] if got is not None else hi
                    table[k] = (target, hi)
                    return True
            got = tget(k)
            lo = got[0] if got is not None else lo
            table[k] = (lo, target - 1)
            return False

        return ge, after_lead_ge
