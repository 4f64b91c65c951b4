"""The public solver: exact double-dummy values of play positions."""

from __future__ import annotations

from typing import Callable, Literal, Optional, Sequence

from ..engine.cards import CARDS, Card
from ..engine.rulebook import breaks_spades, follower_wins
from ._points import SetSearch, best_value, mirror, threshold_sets
from ._search import SUIT_MASK, Search, position_key, runs
from .position import Position, cards_of

Aim = Literal["most", "fewest"]
AIMS: tuple[Aim, Aim] = ("most", "fewest")


def _rep_cards(hand: int, legal: int, union: int) -> list[tuple[int, int]]:
    """``(representative card, mask of its touching run)`` for each distinct choice in ``legal``."""
    out = []
    for s in range(4):
        sh = 13 * s
        h = legal >> sh & SUIT_MASK
        if not h:
            continue
        u = union >> sh & SUIT_MASK
        for r in runs(h | u << 13):
            run = 0
            x = r
            while x < 13:
                if (h >> x) & 1:
                    run |= 1 << (sh + x)
                elif (u >> x) & 1:
                    break  # a card of the other hand (or the table) ends the run
                x += 1
            out.append((sh + r, run))
    return out


def _bound(after_lead_can: Callable[[int, int, int, bool, int], bool], a2: int, b: int, c: int,
           broken: bool) -> Callable[[int], bool]:
    """Whether the leader, having led ``c``, can force a set."""
    return lambda s: after_lead_can(a2, b, c, broken, s)


def _when_won(can: Callable[[int, int, bool, int], bool], mine: int, theirs: int,
              broken: bool) -> Callable[[int], bool]:
    """Whether a player who has just won a trick (and leads the rest) forces a set of counts that includes it."""
    return lambda s: can(mine, theirs, broken, s >> 1)


def _when_lost(can: Callable[[int, int, bool, int], bool], theirs: int, mine: int, broken: bool,
               n: int) -> Callable[[int], bool]:
    """Whether a player who has just lost the trick (of ``n`` left) still forces a set: the other, leading
    the ``n - 1`` left, cannot force the mirror of the counts outside it (exactly one of the two can)."""
    rest = (1 << n) - 1  # my count of the n - 1 tricks after this one: 0..n-1
    return lambda s: not can(theirs, mine, broken, rest & ~mirror(s, n))


def _second_card(d: int, led: int, broken: bool) -> tuple[bool, bool]:
    """Whether the second card ``d`` wins the trick ``led`` was led to, and whether spades are broken after it
    (the rule book's 6.3 and 6.5; the searches index the same answers, ``rulebook.trick_table``)."""
    return follower_wins(led, d), broken or breaks_spades(led, d)


class Solver:
    """Double-dummy search with transposition tables kept between calls.

    Solving many related positions (every play of a hand) with one ``Solver``
    reuses what earlier solves learnt.  Values are tricks of the player to act:
    aim ``most``, the most they can make sure of; aim ``fewest``, the fewest they
    can hold themselves to when the other tries to give them tricks.
    """

    def __init__(self) -> None:
        self._searches = {"most": Search(False), "fewest": Search(True)}
        self._sets = SetSearch(self._searches["most"], self._searches["fewest"])

    def clear(self) -> None:
        """Forget every stored bound."""
        for s in self._searches.values():
            s.clear()
        self._sets.clear()

    @property
    def table_size(self) -> int:
        """Positions stored, both aims and the points search together."""
        return sum(len(s.table) for s in self._searches.values()) + len(self._sets.table)

    @property
    def nodes(self) -> int:
        """Positions searched so far (a measure of work)."""
        return sum(s.nodes for s in self._searches.values()) + self._sets.nodes

    def _search(self, aim: str) -> Search:
        try:
            return self._searches[aim]
        except KeyError:
            raise ValueError(f"aim must be 'most' or 'fewest', not {aim!r}") from None

    def solve(self, position: Position, aim: Aim = "most") -> int:
        """``dd(P)``: the tricks left that the player to act makes with best play by both."""
        values = self._points(position, aim, all_cards=False)
        best = max(values.values()) if values else 0
        return self._tricks(position, aim, best)

    def card_values(self, position: Position, aim: Aim = "most") -> dict[Card, int]:
        """``dd_after(P, c)`` for every legal card ``c`` of the player to act.

        For aim ``fewest`` the values are the fewest tricks the player can be held
        to after ``c`` (the best card has the smallest value).
        """
        values = self._points(position, aim, all_cards=True)
        return {CARDS[c]: self._tricks(position, aim, v) for c, v in values.items()}

    def solve_near(self, position: Position, aim: Aim, guess: int) -> int:
        """``solve`` for a lead position whose value is probably ``guess`` (a position one card away)."""
        if position.table is not None:
            return self.solve(position, aim)
        me = position.to_act
        points_guess = guess if aim == "most" else position.tricks_left - guess
        v = self._search(aim).value_near(position.hands[me], position.hands[1 - me], position.spades_broken,
                                         points_guess)
        return self._tricks(position, aim, v)

    def same_deal(self, p: Position, q: Position) -> bool:
        """Whether two lead positions are one up to relabelling (so their values are equal)."""
        if p.table is not None or q.table is not None or p.to_act != q.to_act:
            return False
        a, b = p.to_act, 1 - p.to_act
        return position_key(p.hands[a], p.hands[b], p.spades_broken) == position_key(
            q.hands[a], q.hands[b], q.spades_broken)

    def points_solve(self, position: Position, payoff: Sequence[int]) -> int:
        """The most the player to act can make sure of when ``payoff[k]`` is theirs for winning ``k``
        of the tricks left (``k`` from 0 to ``tricks_left``): any shape, not only more-is-better."""
        values = self.points_values(position, payoff, all_cards=False)
        return max(values.values()) if values else payoff[0]

    def points_values(
        self, position: Position, payoff: Sequence[int], *, all_cards: bool = True
    ) -> dict[Card, int]:
        """For every legal card, the payoff the player to act can make sure of after playing it.

        ``payoff`` has ``tricks_left + 1`` entries (see ``points_solve``).  With
        ``all_cards`` false only the maximum of the result is exact.
        """
        n = position.tricks_left
        if len(payoff) != n + 1:
            raise ValueError(f"payoff needs {n + 1} values (0 to {n} tricks), not {len(payoff)}")
        sets = threshold_sets(payoff)
        me = position.to_act
        mine = position.hands[me]
        theirs = position.hands[1 - me]
        broken = position.spades_broken
        legal = position.legal_mask
        can, after_lead_can = self._sets.can, self._sets.after_lead_can
        out: dict[int, int] = {}
        if not legal:
            return {}
        if position.table is None:
            best = best_value(sets, lambda s: can(mine, theirs, broken, s))
            if not all_cards:
                return {CARDS[(legal & -legal).bit_length() - 1]: best}
            top = next(i for i, (v, _) in enumerate(sets) if v == best)
            for c, run in _rep_cards(mine, legal, mine | theirs):
                nb = broken or breaks_spades(-1, c)
                v = best_value(sets, _bound(after_lead_can, mine ^ (1 << c), theirs, c, nb), top)
                for x in cards_of(run):
                    out[int(x)] = v
            return {CARDS[c]: v for c, v in out.items()}
        _, led = position.table
        union = mine | theirs | 1 << led
        start: Optional[int] = None
        for d, run in _rep_cards(mine, legal, union):
            mine2 = mine ^ (1 << d)
            i_win, nb = _second_card(d, led, broken)
            if i_win:
                v = best_value(sets, _when_won(can, mine2, theirs, nb), start)
            else:
                # The other leads the rest; they force the mirror of what I do not want, or I get mine.
                v = best_value(sets, _when_lost(can, theirs, mine2, nb, n), start)
            for x in cards_of(run):
                out[int(x)] = v
        return {CARDS[c]: v for c, v in out.items()}

    @staticmethod
    def _tricks(position: Position, aim: str, points: int) -> int:
        return points if aim == "most" else position.tricks_left - points

    def _points(self, position: Position, aim: str, all_cards: bool) -> dict[int, int]:
        """The points (tricks won for ``most``, lost for ``fewest``) after each legal card.

        With ``all_cards`` false only the value matters: cards are merged and
        stops early are allowed (the dict's maximum is still exact).
        """
        search = self._search(aim)
        me = position.to_act
        mine = position.hands[me]
        theirs = position.hands[1 - me]
        broken = position.spades_broken
        legal = position.legal_mask
        out: dict[int, int] = {}
        if not legal:
            return out
        if position.table is None:
            union = mine | theirs
            if not all_cards:
                out[0] = search.value(mine, theirs, broken)
                return out
            best = search.value(mine, theirs, broken)
            for c, run in _rep_cards(mine, legal, union):
                v = search.value_after_lead(mine ^ (1 << c), theirs, c, broken or breaks_spades(-1, c), best)
                for x in cards_of(run):
                    out[int(x)] = v
            return out
        _, led = position.table
        n = position.tricks_left
        union = mine | theirs | 1 << led
        win_pt = 0 if aim == "fewest" else 1
        for d, run in _rep_cards(mine, legal, union):
            mine2 = mine ^ (1 << d)
            i_win, nb = _second_card(d, led, broken)
            if i_win:
                v = win_pt + search.value(mine2, theirs, nb)
            else:
                v = (1 - win_pt) + (n - 1) - search.value(theirs, mine2, nb)
            for x in cards_of(run):
                out[int(x)] = v
        return out


def legal_cards(position: Position) -> tuple[Card, ...]:
    """The cards the player to act may play, in index order (as the engine allows)."""
    return cards_of(position.legal_mask)


def solve(position: Position, aim: Aim = "most") -> int:
    """``dd(P)`` with a fresh solver (see ``Solver.solve``)."""
    return Solver().solve(position, aim)


def card_values(position: Position, aim: Aim = "most") -> dict[Card, int]:
    """``dd_after(P, c)`` for each legal card with a fresh solver (see ``Solver.card_values``)."""
    return Solver().card_values(position, aim)
