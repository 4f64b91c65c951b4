"""How line mode writes and reads cards, hands and bids: ``10♥`` or, with ``--words``, "ten of hearts".

Pure text, no view: ``Words`` is the player's choice of spelling, handed to every line written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

from ..session.text import MINUS
from ..session.view import BidValue, Card, Suit

RANK_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
              11: "jack", 12: "queen", 13: "king", 14: "ace"}
RANK_SHORT = {11: "J", 12: "Q", 13: "K", 14: "A"}
# The hand is said in the full screen's order, colours alternating: spades, hearts, clubs, diamonds.
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}
_SUIT_NAMES = {"spades": "s", "spade": "s", "hearts": "h", "heart": "h", "diamonds": "d", "diamond": "d",
               "clubs": "c", "club": "c"}
_RANK_NAMES = {word: rank for rank, word in RANK_WORDS.items()} | {"deuce": 2, "jack": 11, "queen": 12, "king": 13,
                                                                   "ace": 14}
_RANK_TEXT = {"j": 11, "q": 12, "k": 13, "a": 14, "t": 10, "10": 10} | {str(n): n for n in range(2, 10)}


@dataclass(frozen=True)
class Words:
    """``spelled``: cards and suits in words ("ten of hearts"), for screen readers that read symbols badly."""

    spelled: bool = False
    color: bool = False  # --color: red suits in red (the one colour line mode has, and only when asked)

    def card(self, card: Card) -> str:
        if self.spelled:
            return f"{RANK_WORDS[card.rank]} of {card.suit.plural}"
        return card.label()

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards in a list: "A♠, 10♥" ("ace of spades, ten of hearts"); "none" for none."""
        said = [self.card(c) for c in sort_cards(cards)]
        return ", ".join(said) if said else "none"

    def rank(self, card: Card) -> str:
        if self.spelled:
            return RANK_WORDS[card.rank]
        return RANK_SHORT.get(card.rank, str(card.rank))

    def hand(self, cards: Iterable[Card]) -> str:
        """"spades A, 10, 4; hearts K, Q, 8; clubs none; diamonds 10, 9, 8": grouped by suit, high first."""
        held = list(cards)
        parts = []
        for suit in SUIT_ORDER:
            ranks = [self.rank(c) for c in sorted((c for c in held if c.suit is suit), key=lambda c: -c.rank)]
            parts.append(f"{suit.plural} {', '.join(ranks) if ranks else 'none'}")
        return "; ".join(parts)

    def number(self, n: int) -> str:
        """A score: the true minus sign, or "minus 40" in words (a screen reader may skip the sign)."""
        if n < 0 and self.spelled:
            return f"minus {-n}"
        return str(n).replace("-", MINUS)

    def signed(self, n: int) -> str:
        """Points won or lost: "+42", "−40" (in words "plus 42", "minus 40")."""
        if self.spelled:
            return f"plus {n}" if n >= 0 else f"minus {-n}"
        return f"{n:+}".replace("-", MINUS)


SYMBOLS = Words()  # cards as 10♥, the default


_RED = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♥♦]|\b(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|"
                  r"king|ace) of (?:hearts|diamonds)\b")


def in_colour(line: str) -> str:
    """``line`` with its hearts and diamonds red (SGR 31), for ``--color``."""
    return _RED.sub(lambda m: f"\x1b[31m{m.group(0)}\x1b[39m", line)


_LABEL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♠♥♦♣])")


def spell_labels(text: str) -> str:
    """Cards written ``10♥`` in a text made elsewhere (the hint's, the review's) spelt out: "ten of hearts"."""
    ranks = {"J": 11, "Q": 12, "K": 13, "A": 14}
    return _LABEL.sub(lambda m: f"{RANK_WORDS[ranks.get(m.group(1)) or int(m.group(1))]} of "
                                f"{Suit('♠♥♦♣'.index(m.group(2))).plural}", text)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Spades, hearts, clubs, diamonds; high first in each."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))


def bid_words(bid: Optional[BidValue]) -> str:
    if bid is None:
        return "not yet"
    if bid == "double_nil":
        return "Double Nil"
    return "Nil" if bid == 0 else str(bid)


def parse_card(text: str) -> Optional[Card]:
    """A card as a person types it: ``10h``, ``10♥``, ``th``, ``TH``, ``ten of hearts``, ``q spades``; else None."""
    t = text.strip().lower()
    for symbol, letter in _SYMBOLS.items():
        t = t.replace(symbol, letter)
    words = [w for w in re.split(r"[\s,]+", t) if w and w != "of"]
    rank: Optional[int] = None
    suit: Optional[str] = None
    if len(words) == 2:
        rank = _RANK_NAMES.get(words[0], _RANK_TEXT.get(words[0]))
        suit = _SUIT_NAMES.get(words[1], words[1] if words[1] in ("s", "h", "d", "c") else None)
    elif len(words) == 1 and len(words[0]) >= 2:
        rank, suit = _RANK_TEXT.get(words[0][:-1]), words[0][-1]
    if rank is None or suit not in ("s", "h", "d", "c"):
        return None
    return Card.of(rank, Suit.parse(suit.upper()))
