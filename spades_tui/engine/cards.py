"""Cards as small immutable integers.

A card is an ``int`` from 0 to 51 (``suit * 13 + rank - 2``) so that hands are cheap
frozensets and bots can turn them into bit masks with ``1 << card``.  The 52
instances are created once; ``Card.parse`` and ``CARDS`` hand them out.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable

from ..i18n.language import N_, _, translated

# The suits by name, in the order of ``Suit`` (spades, hearts, diamonds, clubs): messages, translated where shown.
_SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def plural(self) -> str:
        """Lower-case English name, e.g. ``hearts`` (``words``: in the player's language)."""
        return self.name.lower()

    @property
    def words(self) -> str:
        """The suit's name in the player's language, lower-case, as a message's placeholder takes it: ``hearts``,
        ``hjärter``, ``ärtu`` (docs/languages.md)."""
        return translated(_SUIT_WORDS[self])

    @classmethod
    def parse(cls, text: str) -> Suit:
        index = "SHDC".find(text.upper()) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(_("unknown suit {typed}").format(typed=repr(text)))
        return cls(index)


RANK_CHARS = "23456789TJQKA"


class Card(int):
    """One of the 52 cards; compare, hash and sort as its index."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return SUITS[self // 13]

    @property
    def rank(self) -> int:
        """2 to 14 (ace high)."""
        return self % 13 + 2

    @property
    def code(self) -> str:
        """Record notation: rank then suit letter, e.g. ``TS``."""
        return RANK_CHARS[self % 13] + "SHDC"[self // 13]

    @property
    def rank_text(self) -> str:
        """Rank as people write it: ``10`` rather than ``T``."""
        r = RANK_CHARS[self % 13]
        return "10" if r == "T" else r

    def label(self, symbols: bool = True) -> str:
        """Rank then suit with no space: ``10♥`` (or ``10H`` without symbols)."""
        suit = self.suit
        return self.rank_text + (suit.symbol if symbols else suit.letter)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        if not 2 <= rank <= 14:
            raise ValueError(f"rank must be 2..14, not {rank}")
        return CARDS[int(suit) * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``TS``; also accepts ``10S`` and lower case."""
        if not isinstance(text, str):
            raise ValueError(_("a card must be a string like 'TS', not {value}").format(value=repr(text)))
        t = text.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in "SHDC":
            raise ValueError(_("{typed} is not a card (expected rank 2-9/T/J/Q/K/A then suit S/H/D/C, e.g. 'TS')")
                             .format(typed=repr(text)))
        return CARDS["SHDC".index(t[1]) * 13 + RANK_CHARS.index(t[0])]


SUITS: tuple[Suit, ...] = tuple(Suit)
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
DECK: frozenset[Card] = frozenset(CARDS)


def codes(cards: Iterable[Card]) -> list[str]:
    """Record codes, sorted by suit then rank so output is stable."""
    return [c.code for c in sorted(cards)]
