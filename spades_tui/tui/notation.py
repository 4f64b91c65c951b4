"""How the screens write numbers, bids and hands: one place for the true minus sign and the bids' words.

Pure text: every view model and screen writes a score, a bid or a hand through these.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

from ..session.view import BidValue, Card, Exchange, Suit

# Display order alternates colours: spades, hearts, clubs, diamonds.
_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}


def sort_hand(cards: Sequence[Card] | frozenset[Card]) -> list[Card]:
    """Sorted by suit, high rank first within a suit."""
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit], -c.rank))


MINUS = "\u2212"  # the true minus sign, as wide as "+" (the ASCII screen writes it as "-")


def num(n: int) -> str:
    """A number as the screens write it: ``−40`` with the true minus sign."""
    return str(n).replace("-", MINUS)


def decimal(x: float, places: int) -> str:
    """A figure with decimals as the screens write every number: ``−120.5`` with the true minus sign."""
    return num_text(f"{x:.{places}f}")


def num_text(text: str) -> str:
    """A number already written, its minus made the true one."""
    return text.replace("-", MINUS)


def signed(n: int) -> str:
    """Points as the screens write them: ``+12``, ``−200``, ``+0``."""
    return f"{n:+}".replace("-", MINUS)


_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")


def minus_signs(text: str) -> str:
    """A text's negative numbers with the true minus sign (``-100 expected`` reads ``−100 expected``)."""
    return _NEGATIVE.sub(MINUS, text)


def pair(a: str, b: str) -> str:
    """Both players' figures in one cell, the first player's first: ``12 · −40``."""
    return f"{a} · {b}"


def exchange_label(action: Exchange) -> str:
    """``Exchange 9♠ 7♥`` (spades first, high cards first) or ``Keep all``, as the hint names them."""
    if not action.discard:
        return "Keep all"
    return "Exchange " + " ".join(c.label() for c in sorted(action.discard, key=lambda c: (c.suit, -c.rank)))


def bid_text(bid: Optional[BidValue]) -> str:
    if bid is None:
        return "—"
    if bid == "double_nil":
        return "Double Nil"
    if bid == 0:
        return "Nil"
    return str(bid)


def short_bid(bid: BidValue) -> str:
    """A bid in a narrow cell: ``DblNil`` for a Double Nil, else as ``bid_text`` writes it."""
    return "DblNil" if bid == "double_nil" else bid_text(bid)

