"""How the screens write numbers, bids and hands: one place for the true minus sign and the bids' words.

Pure text: every view model and screen writes a score, a bid or a hand through these.
"""

from __future__ import annotations

from typing import Optional, Sequence

# The true minus sign and the numbers written with it: one place for every layer (engine/text.py, reached
# through session/text.py), named here too for the screens and view models that import them from here.
from ..i18n.language import _
from ..session.text import MINUS, decimal, minus_signs, num, num_text, signed
from ..session.view import BidValue, Card, Exchange, Suit

__all__ = ["MINUS", "bid_note", "bid_text", "bid_won_note", "decimal", "exchange_label", "is_you",
           "minus_signs",
           "num", "num_text", "pair", "percent", "short_bid", "signed", "sort_hand"]

# Display order alternates colours: spades, hearts, clubs, diamonds.
_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}


def sort_hand(cards: Sequence[Card] | frozenset[Card]) -> list[Card]:
    """Sorted by suit, high rank first within a suit."""
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit], -c.rank))


def is_you(name: str) -> bool:
    """A player called "You" (the default name against a bot), in English or in the player's language: the
    sentences about them say "you" ("Your hand", "You win")."""
    folded = name.strip().casefold()
    return folded in ("you", _("You").casefold())


def pair(a: str, b: str) -> str:
    """Both players' figures in one cell, the first player's first: ``12 · −40``."""
    return f"{a} · {b}"


def exchange_label(action: Exchange) -> str:
    """``Exchange 9♠ 7♥`` (spades first, high cards first) or ``Keep all``, as the hint names them."""
    if not action.discard:
        return _("Keep all")
    cards = " ".join(c.label() for c in sorted(action.discard, key=lambda c: (c.suit, -c.rank)))
    return _("Exchange {cards}").format(cards=cards)


def bid_text(bid: Optional[BidValue]) -> str:
    if bid is None:
        return "—"
    if bid == "double_nil":
        return _("Double Nil")
    if bid == 0:
        return _("Nil")
    return str(bid)


def bid_note(bid: Optional[BidValue]) -> str:
    """A player's bid beside their name: ``bid 4``, ``bid Nil``."""
    return _("bid {bid}").format(bid=bid_text(bid))


def bid_won_note(bid: Optional[BidValue], won: int) -> str:
    """A player's bid and tricks won beside their name in the play: ``bid 4 · won 2``."""
    return _("bid {bid} · won {won}").format(bid=bid_text(bid), won=won)


def short_bid(bid: BidValue) -> str:
    """A bid in a narrow cell: ``DblNil`` for a Double Nil, else as ``bid_text`` writes it."""
    return _("DblNil") if bid == "double_nil" else bid_text(bid)


def percent(x: float, places: int = 0) -> str:
    """A percentage as the player's language writes it: ``45.5%`` in English, ``45,5 %`` in Swedish and Estonian."""
    return _("{percent}%").format(percent=decimal(x, places))
