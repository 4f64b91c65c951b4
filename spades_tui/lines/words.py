"""How line mode writes and reads cards, hands and bids: ``10♥`` or, with ``--words``, "ten of hearts".

Pure text, no view: ``Words`` is the player's choice of spelling, handed to every line written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional

from ..i18n.language import _, current, pgettext
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


def rank_words() -> dict[int, str]:
    """The ranks in words in the player's language ("ten"; "tio", "kümme"), as a screen reader says a card."""
    return {2: pgettext("card rank", "two"), 3: pgettext("card rank", "three"), 4: pgettext("card rank", "four"),
            5: pgettext("card rank", "five"), 6: pgettext("card rank", "six"), 7: pgettext("card rank", "seven"),
            8: pgettext("card rank", "eight"), 9: pgettext("card rank", "nine"), 10: pgettext("card rank", "ten"),
            11: pgettext("card rank", "jack"), 12: pgettext("card rank", "queen"),
            13: pgettext("card rank", "king"), 14: pgettext("card rank", "ace")}


def suit_words() -> dict[Suit, str]:
    """The suits' names in the player's language ("hearts"; "hjärter", "ärtu"), in the lines' sentences."""
    return {Suit.SPADES: pgettext("suit", "spades"), Suit.HEARTS: pgettext("suit", "hearts"),
            Suit.DIAMONDS: pgettext("suit", "diamonds"), Suit.CLUBS: pgettext("suit", "clubs")}


def suit_name(suit: Suit) -> str:
    return suit_words()[suit]


def spelled(rank: int, suit: Suit) -> str:
    """A card in words: "ten of hearts" ("hjärter tio", "ärtu kümme": the suit first, as those players say it)."""
    return pgettext("a card in words", "{rank} of {suit}").format(rank=rank_words()[rank], suit=suit_name(suit))


def folded(text: str) -> str:
    """``text`` in lower case without its accents: "äss" and "ass", "hjärter" and "hjarter" are typed alike."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(ch))


@lru_cache(maxsize=8)
def _typed_names(language: str) -> tuple[dict[str, int], dict[str, str]]:
    """The rank and suit words a player may type in ``language``: the English ones and the language's own."""
    ranks = {folded(w): r for w, r in _RANK_NAMES.items()} | {folded(w): r for r, w in rank_words().items()}
    suits = {folded(w): s for w, s in _SUIT_NAMES.items()} | {folded(w): s.letter.lower()
                                                              for s, w in suit_words().items()}
    return ranks, suits


@lru_cache(maxsize=8)
def _red_words(language: str) -> re.Pattern[str]:
    """The red cards as ``10♥`` or in words in ``language`` (and in English), for ``in_colour``."""
    said = {spelled(r, s) for r in RANK_WORDS for s in (Suit.HEARTS, Suit.DIAMONDS)}
    said |= {f"{w} of {s}" for w in RANK_WORDS.values() for s in ("hearts", "diamonds")}
    words = "|".join(re.escape(w) for w in sorted(said, key=len, reverse=True))
    return re.compile(rf"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♥♦]|\b(?:{words})\b")


@dataclass(frozen=True)
class Words:
    """``spelled``: cards and suits in words ("ten of hearts"), for screen readers that read symbols badly."""

    spelled: bool = False
    color: bool = False  # --color: red suits in red (the one colour line mode has, and only when asked)

    def card(self, card: Card) -> str:
        if self.spelled:
            return spelled(card.rank, card.suit)
        return card.label()

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards in a list: "A♠, 10♥" ("ace of spades, ten of hearts"); "none" for none."""
        said = [self.card(c) for c in sort_cards(cards)]
        return ", ".join(said) if said else pgettext("no cards", "none")

    def rank(self, card: Card) -> str:
        if self.spelled:
            return rank_words()[card.rank]
        return RANK_SHORT.get(card.rank, str(card.rank))

    def hand(self, cards: Iterable[Card]) -> str:
        """"spades A, 10, 4; hearts K, Q, 8; clubs none; diamonds 10, 9, 8": grouped by suit, high first."""
        held = list(cards)
        parts = []
        for suit in SUIT_ORDER:
            ranks = [self.rank(c) for c in sorted((c for c in held if c.suit is suit), key=lambda c: -c.rank)]
            parts.append(pgettext("a suit of a hand", "{suit} {ranks}").format(
                suit=suit_name(suit), ranks=", ".join(ranks) if ranks else pgettext("no cards", "none")))
        return "; ".join(parts)

    def number(self, n: int) -> str:
        """A score: the true minus sign, or "minus 40" in words (a screen reader may skip the sign)."""
        if n < 0 and self.spelled:
            return _("minus {number}").format(number=-n)
        return str(n).replace("-", MINUS)

    def signed(self, n: int) -> str:
        """Points won or lost: "+42", "−40" (in words "plus 42", "minus 40")."""
        if self.spelled:
            return _("plus {number}").format(number=n) if n >= 0 else _("minus {number}").format(number=-n)
        return f"{n:+}".replace("-", MINUS)


SYMBOLS = Words()  # cards as 10♥, the default


def in_colour(line: str) -> str:
    """``line`` with its hearts and diamonds red (SGR 31), for ``--color``."""
    return _red_words(current()).sub(lambda m: f"\x1b[31m{m.group(0)}\x1b[39m", line)


_LABEL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♠♥♦♣])")


def spell_labels(text: str) -> str:
    """Cards written ``10♥`` in a text made elsewhere (the hint's, the review's) spelt out: "ten of hearts"."""
    ranks = {"J": 11, "Q": 12, "K": 13, "A": 14}
    return _LABEL.sub(lambda m: spelled(ranks.get(m.group(1)) or int(m.group(1)), Suit("♠♥♦♣".index(m.group(2)))),
                      text)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Spades, hearts, clubs, diamonds; high first in each."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))


def bid_words(bid: Optional[BidValue]) -> str:
    if bid is None:
        return _("not yet")
    if bid == "double_nil":
        return _("Double Nil")
    return _("Nil") if bid == 0 else str(bid)


def parse_card(text: str) -> Optional[Card]:
    """A card as a person types it: ``10h``, ``10♥``, ``th``, ``TH``, ``ten of hearts``, ``q spades``, or in the
    player's language ("hjärter tio", "ärtu kümme", either way round); else None."""
    t = folded(text.strip())
    for symbol, letter in _SYMBOLS.items():
        t = t.replace(symbol, letter)
    words = [w for w in re.split(r"[\s,]+", t) if w and w != "of"]
    rank: Optional[int] = None
    suit: Optional[str] = None
    if len(words) == 2:
        ranks, suits = _typed_names(current())
        for first, second in (words, words[::-1]):
            rank = ranks.get(first, _RANK_TEXT.get(first))
            suit = suits.get(second, second if second in ("s", "h", "d", "c") else None)
            if rank is not None and suit is not None:
                break
    elif len(words) == 1 and len(words[0]) >= 2:
        rank, suit = _RANK_TEXT.get(words[0][:-1]), words[0][-1]
    if rank is None or suit not in ("s", "h", "d", "c"):
        return None
    return Card.of(rank, Suit.parse(suit.upper()))
