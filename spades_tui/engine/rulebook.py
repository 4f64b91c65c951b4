"""The rule book: each rule of docs/rules.md written once, for everyone who plays or judges.

The reducer enforces the game with these primitives, and the bots, the solvers, the hints, the
review and the statistics ask them the same questions: which cards may be played (6.2, 6.4), who
wins a trick (6.3), when spades break (6.5), what a hand scores (7), when the game ends (8), who
is asked about Double Nil (4.1) and what may be bid (5.2).  A search whose inner loop cannot
afford a call indexes tables built from these once (``trick_table``), so even the fast forms are
this code's answers, never the rules written out again.  The one option of the play,
``spades_any_time``, reaches the bots and the solvers through ``spades_free``: a position whose
spades may be led is searched as one whose spades are broken (the searches ask nothing else of it).

Cards are the ints 0..51 (``suit * 13 + rank - 2``, spades 0..12); a hand is a bit mask of them
(bit ``c`` for card ``c``), the vocabulary below.
"""

from __future__ import annotations

from functools import cache
from typing import Final, Iterable, Literal, Optional, Sequence, Union

from .cards import Card
from .outcome import Outcome, Termination
from .rules import Rules
from .state import BidValue, HandResult, ScoreLine

# ---------------------------------------------------------------- the mask vocabulary

RANKS = 13
TRICKS = 13  # tricks in a hand, and the highest bid (5.2)
SUIT_MASK = 0x1FFF  # the 13 ranks of one suit, lowest bit the 2
SUITS: tuple[int, int, int, int] = (SUIT_MASK, SUIT_MASK << 13, SUIT_MASK << 26, SUIT_MASK << 39)
SPADES = SUITS[0]
FULL = (1 << 52) - 1
NON_SPADES = FULL ^ SPADES


def mask_of(cards: Iterable[Union[Card, int, str]]) -> int:
    """Bit mask of cards given as ``Card``s, ints 0..51 or record codes (``"AS"``)."""
    m = 0
    for c in cards:
        index = Card.parse(c) if isinstance(c, str) else int(c)
        if not 0 <= index < 52:
            raise ValueError(f"not a card: {c!r}")
        m |= 1 << index
    return m


# ---------------------------------------------------------------- play (section 6)

def spades_free(rules: Rules, broken: bool) -> bool:
    """6.4: whether a spade may be led now whatever else the leader holds (spades broken, or the
    option ``spades_any_time``).  Once true it stays true for the hand, as breaking does."""
    return broken or rules.spades_any_time


def playable_mask(hand: int, lead: int, free: bool) -> int:
    """The cards of ``hand`` that may be played: 6.2 follow suit to ``lead`` (-1: nothing led yet),
    6.4 no spade led unless ``free`` (``spades_free``) or the hand holds only spades."""
    if lead >= 0:
        same = hand & SUITS[lead // 13]
        return same if same else hand
    if free:
        return hand
    side = hand & NON_SPADES
    return side if side else hand


def follower_wins(lead: int, follow: int) -> bool:
    """6.3: whether ``follow`` beats ``lead``: the higher card of the suit led, or a spade on another suit."""
    if lead // 13 == follow // 13:
        return follow > lead
    return follow < 13


def breaks_spades(lead: int, card: int) -> bool:
    """6.5: whether playing ``card`` breaks spades: a spade led (``lead`` -1), or a spade played to a
    trick led in another suit."""
    if card >= 13:
        return False
    return lead < 0 or lead >= 13


TrickTable = tuple[tuple[bool, ...], ...]


@cache
def trick_table() -> tuple[TrickTable, TrickTable, tuple[bool, ...]]:
    """``(wins, breaks, lead_breaks)``: ``wins[c][d]`` is ``follower_wins(c, d)``, ``breaks[c][d]`` is
    ``breaks_spades(c, d)`` and ``lead_breaks[c]`` is ``breaks_spades(-1, c)``, for the searches'
    inner loops, which index where a call would cost.  Built once, from the functions above."""
    wins = tuple(tuple(follower_wins(c, d) for d in range(52)) for c in range(52))
    breaks = tuple(tuple(breaks_spades(c, d) for d in range(52)) for c in range(52))
    return wins, breaks, tuple(breaks_spades(-1, c) for c in range(52))


# ---------------------------------------------------------------- Double Nil and bidding (4, 5)

def asked_double_nil(rules: Rules, scores: tuple[int, int], player: int) -> bool:
    """4.1: whether ``player`` is asked about Double Nil in a hand that started at ``scores``."""
    if not rules.double_nil:
        return False
    behind = rules.double_nil_behind
    return behind <= 0 or scores[1 - player] - scores[player] >= behind


def bid_range(rules: Rules) -> range:
    """5.2: the bids a player may make (0 is Nil, allowed unless the option ``nil`` is off)."""
    return range(0 if rules.nil else 1, TRICKS + 1)


# ---------------------------------------------------------------- scoring (section 7)

Bid = BidValue  # a contract (0 is Nil) or "double_nil": the one bid encoding, state and bots alike
DOUBLE_NIL: Final = "double_nil"  # the Double Nil bid (7.4)


def contract(bid: Bid) -> Optional[int]:
    """The tricks a bid contracts for (7.1), or None for a Nil or a Double Nil (7.3, 7.4)."""
    return None if isinstance(bid, str) or bid == 0 else bid


def is_nil(bid: Bid) -> bool:
    """Whether ``bid`` is a Nil or a Double Nil: it is made by taking no trick."""
    return contract(bid) is None


def made(bid: Bid, tricks: int) -> bool:
    """Whether a bid is made with ``tricks`` won: a Nil or Double Nil by none, a contract by at
    least the bid (7.1-7.4)."""
    n = contract(bid)
    return tricks == 0 if n is None else tricks >= n


def hand_score(rules: Rules, bid: Bid, tricks: int, bags_before: int) -> tuple[ScoreLine, int]:
    """One player's points for a hand (7.1-7.5) by scoring rule, and their bag total after it."""
    points = overtricks = nil = 0
    bags_added = 0
    n = contract(bid)
    if n is None:
        value = rules.nil_points if bid == 0 else rules.double_nil_points
        nil = value if made(bid, tricks) else -value
        if rules.nil_tricks_are_bags:
            bags_added = tricks  # bags, but not points (docs/rules.md 9)
    elif made(n, tricks):
        points = (20 if rules.ten_for_200 and n >= 10 else 10) * n
        overtricks = tricks - n
        bags_added = overtricks
    else:
        points = -10 * n
    bags = bags_before + bags_added
    penalty = 0
    if rules.bag_limit > 0:
        while bags >= rules.bag_limit:
            penalty -= rules.bag_penalty
            bags -= rules.bag_limit
    return ScoreLine(points, overtricks, nil, penalty, bags_added), bags


def hand_points(rules: Rules, bid: Bid, tricks: int, bags_before: int) -> tuple[int, int]:
    """``hand_score``'s total points and the bags after, for code that needs no lines."""
    line, bags = hand_score(rules, bid, tricks, bags_before)
    return line.points, bags


# ---------------------------------------------------------------- end of the game (section 8)

Ending = Literal["target", "losing_score", "thirteen"]


def thirteen_winner(rules: Rules, bids: tuple[Bid, Bid], tricks: tuple[int, int]) -> Optional[int]:
    """8.5: the player who bid 13 and won all 13 tricks under ``thirteen_wins``, or None."""
    if not rules.thirteen_wins:
        return None
    for p in (0, 1):
        if bids[p] == TRICKS and tricks[p] == TRICKS:
            return p
    return None


def score_winner(rules: Rules, scores: tuple[int, int]) -> Optional[tuple[int, Ending]]:
    """8.1-8.4: the winner by the scores after a hand and how (target or losing floor), or None
    while the game goes on (equal scores always play on)."""
    a, b = scores
    if a == b:
        return None
    reached = max(scores) >= rules.target
    floor = rules.losing_score > 0 and min(scores) <= -rules.losing_score
    if not (reached or floor):
        return None
    return (0 if a > b else 1), ("target" if reached else "losing_score")


def game_end(
    rules: Rules, scores: tuple[int, int], bids: tuple[Bid, Bid], tricks: tuple[int, int]
) -> Optional[Outcome]:
    """Section 8 after a hand is scored: the game's outcome (who won and how), or None to play on."""
    thirteen = thirteen_winner(rules, bids, tricks)
    if thirteen is not None:
        return Outcome(Termination.THIRTEEN, thirteen, scores)
    by_score = score_winner(rules, scores)
    return Outcome(Termination(by_score[1]), by_score[0], scores) if by_score is not None else None


def rules_outcome(rules: Rules, history: Sequence[HandResult]) -> Optional[Outcome]:
    """Section 8 read from the scored hands alone (a table's client has no state, only its
    observations' history): the game's outcome after the last hand, or None while it goes on."""
    if not history:
        return None
    last = history[-1]
    return game_end(rules, last.scores_after, last.bids, last.tricks)
