"""The analysis's words that every sentence shares: counts, lists, bids, the tricks a card moved (docs/languages.md).

Every sentence is a whole message of the catalog with named placeholders: a player is "you" (``YOU``: the person at
the keyboard, whose sentences are messages of their own, since a verb agrees with its person in Estonian and a
possessive with its noun in Swedish) or a name, put in a placeholder as it is.  A placeholder's value is a name, a
card, a number or a whole message (a list of them joined with ``and_words``), never a part of a sentence.  Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..engine.cards import Card
from ..engine.state import BidValue
from ..i18n.language import _, ngettext

Names = Sequence[str]
YOU = "you"  # how the callers name the person at the keyboard (``engine.text.speaker``)


def is_you(name: str) -> bool:
    return name == YOU


def tricks_words(n: int) -> str:
    return ngettext("{count} trick", "{count} tricks", n).format(count=n)


def points_words(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=n)


def and_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def or_words(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(items) == 1:
        return items[0]
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def either_words(cards: Sequence[Card]) -> str:
    """``A♥``, ``A♥ or Q♠``, ``A♥, Q♠ or 9♣``: high ranks first, then by suit."""
    return or_words([c.label() for c in sorted(cards, key=lambda c: (-c.rank, c.suit))])


def on_tricks(numbers: Sequence[int]) -> str:
    """``trick 5``, ``tricks 3 and 9``: trick numbers in order after their noun."""
    listed = [str(n) for n in sorted(numbers)]
    return ngettext("trick {numbers}", "tricks {numbers}", len(listed)).format(numbers=and_words(listed))


def bid_words(bid: Optional[BidValue]) -> str:
    """``Double Nil``, ``Nil``, ``bid 4`` (a label that says what the number is)."""
    if bid == "double_nil":
        return _("Double Nil")
    if bid == 0:
        return _("Nil")
    return _("no bid") if bid is None else _("bid {bid}").format(bid=bid)


def bid_short(bid: BidValue) -> str:
    """``4``, ``Nil``, ``Double Nil``: a bid after "your" ("your 4 was set")."""
    return _("Double Nil") if bid == "double_nil" else _("Nil") if bid == 0 else str(bid)


def said_bid(name: str, bid: Optional[BidValue]) -> str:
    """Who bid what, in a list of bids: ``you bid 4``, ``Ada Nil``, ``the bot no bid``."""
    you = is_you(name)
    if bid == "double_nil":
        return _("you Double Nil") if you else _("{player} Double Nil").format(player=name)
    if bid == 0:
        return _("you Nil") if you else _("{player} Nil").format(player=name)
    if bid is None:
        return _("you no bid") if you else _("{player} no bid").format(player=name)
    return (_("you bid {bid}") if you else _("{player} bid {bid}")).format(player=name, bid=bid)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class TrickPart:
    """One side's cards that moved a player's trick count away from best play's: ``sign`` +1 (more tricks for the
    player) or -1, ``count`` tricks in all, on ``tricks`` (the trick numbers), in ``words`` (count first)."""

    sign: int
    count: int
    tricks: tuple[int, ...]
    words: str


def part_words(kind: str, mover: int, found: Sequence[tuple[int, int]], who: Names) -> str:
    """The words of a part (``trick_parts``): ``kind`` says what ``mover``'s cards did, on the ``(trick, tricks
    moved)`` pairs ``found``: "given" (to the other), "lost" (their own), "let_more" / "let_fewer" (a Nil's own
    cards let tricks in, for the Nil or against it), "push_more" / "push_fewer" (took tricks that could have been
    pushed on the other's Nil, for the mover or against the Nil)."""
    n = sum(k for _, k in found)
    on = on_tricks([t for t, _ in found])
    name, other = who[mover], who[1 - mover]
    if kind == "given":
        return (ngettext("{count} given by you on {tricks}", "{count} given by you on {tricks}", n) if is_you(name)
                else ngettext("{count} given by {player} on {tricks}", "{count} given by {player} on {tricks}", n)
                ).format(count=n, tricks=on, player=name)
    if kind == "lost":
        return (ngettext("{count} lost by your own cards on {tricks}", "{count} lost by your own cards on {tricks}", n)
                if is_you(name) else
                ngettext("{count} lost by {player}'s own cards on {tricks}",
                         "{count} lost by {player}'s own cards on {tricks}", n)).format(count=n, tricks=on, player=name)
    # One card may move best play's count by more than one trick: "let 10 in on 6 tricks" would not add up.
    each = n == len(found)
    if kind.startswith("let"):
        return _let_words(kind == "let_more", each, n, on, name)
    return _push_words(kind == "push_more", each, n, on, name, other)


def _let_words(more: bool, each: bool, n: int, on: str, name: str) -> str:
    """``2 more as your own cards let 2 in on tricks 3 and 9`` (a Nil's own cards let tricks in)."""
    you = is_you(name)
    if more and each:
        text = (ngettext("{count} more as your own cards let one in on {tricks}",
                         "{count} more as your own cards let {count} in on {tricks}", n) if you else
                ngettext("{count} more as {player}'s own cards let one in on {tricks}",
                         "{count} more as {player}'s own cards let {count} in on {tricks}", n))
    elif more:
        text = (_("{count} more as your own cards let tricks in on {tricks}") if you else
                _("{count} more as {player}'s own cards let tricks in on {tricks}"))
    elif each:
        text = (ngettext("{count} fewer as your own cards let one in on {tricks}",
                         "{count} fewer as your own cards let {count} in on {tricks}", n) if you else
                ngettext("{count} fewer as {player}'s own cards let one in on {tricks}",
                         "{count} fewer as {player}'s own cards let {count} in on {tricks}", n))
    else:
        text = (_("{count} fewer as your own cards let tricks in on {tricks}") if you else
                _("{count} fewer as {player}'s own cards let tricks in on {tricks}"))
    return text.format(count=n, tricks=on, player=name)


def _push_words(more: bool, each: bool, n: int, on: str, name: str, other: str) -> str:
    """``1 fewer as the bot's own cards took one that could have been pushed on you, on trick 7``."""
    if more:
        if not each:
            text = (_("{count} more as your own cards took tricks that could have been pushed on {other}, on "
                      "{tricks}") if is_you(name) else
                    _("{count} more as {player}'s own cards took tricks that could have been pushed on you, on "
                      "{tricks}") if is_you(other) else
                    _("{count} more as {player}'s own cards took tricks that could have been pushed on {other}, on "
                      "{tricks}"))
        elif is_you(name):
            text = ngettext("{count} more as your own cards took one that could have been pushed on {other}, on "
                            "{tricks}",
                            "{count} more as your own cards took {count} that could have been pushed on {other}, on "
                            "{tricks}", n)
        elif is_you(other):
            text = ngettext("{count} more as {player}'s own cards took one that could have been pushed on you, on "
                            "{tricks}",
                            "{count} more as {player}'s own cards took {count} that could have been pushed on you, on "
                            "{tricks}", n)
        else:
            text = ngettext("{count} more as {player}'s own cards took one that could have been pushed on {other}, "
                            "on {tricks}",
                            "{count} more as {player}'s own cards took {count} that could have been pushed on "
                            "{other}, on {tricks}", n)
    elif not each:
        text = (_("{count} fewer as your own cards took tricks that could have been pushed on {other}, on "
                  "{tricks}") if is_you(name) else
                _("{count} fewer as {player}'s own cards took tricks that could have been pushed on you, on "
                  "{tricks}") if is_you(other) else
                _("{count} fewer as {player}'s own cards took tricks that could have been pushed on {other}, on "
                  "{tricks}"))
    elif is_you(name):
        text = ngettext("{count} fewer as your own cards took one that could have been pushed on {other}, on "
                        "{tricks}",
                        "{count} fewer as your own cards took {count} that could have been pushed on {other}, on "
                        "{tricks}", n)
    elif is_you(other):
        text = ngettext("{count} fewer as {player}'s own cards took one that could have been pushed on you, on "
                        "{tricks}",
                        "{count} fewer as {player}'s own cards took {count} that could have been pushed on you, on "
                        "{tricks}", n)
    else:
        text = ngettext("{count} fewer as {player}'s own cards took one that could have been pushed on {other}, "
                        "on {tricks}",
                        "{count} fewer as {player}'s own cards took {count} that could have been pushed on "
                        "{other}, on {tricks}", n)
    return text.format(count=n, tricks=on, player=name, other=other)
