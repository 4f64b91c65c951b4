"""Which card size the table is drawn at, and which of its extras fit (docs/playing.md, "Screen sizes").

Pure: from the main area's size and what the screen shows, no Textual.  The cards take the largest
size with which the hand of 13, the opponent's row and the table fit the main area's rows; the
opponent's backs are one size smaller where that is what makes it fit.  Then the extras take the room
that is left, in order: the won-trick piles (large cards only), the discard pile at the exchange, the
cards seen passed (from 120x40), the trick's empty places in the bidding, the empty hand's place.  The
stock's pile stands beside its top card at every size (it takes no row).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .faces import LARGE, SIZES, SMALL, CardSize, fits, pile_width, smaller

HAND = 13  # the widest hand: the size must fit it fanned, whatever the hand holds now
SEEN_FROM = (120, 40)  # terminal size from which the cards seen passed are shown
GAP = 2  # columns between a card and what stands beside it


@dataclass(frozen=True)
class Content:
    """What one screen shows, as the planner counts it."""

    opponent: bool = False  # the opponent's row (its name line and its backs)
    opponent_cards: int = 0
    table_rows: int = 0  # rows of cards in the middle
    caption: int = 0  # columns of the widest caption beside a table card
    text_rows: int = 0  # the news, the prompt, the choices, the hint and any sheet, wrapped, with their gaps
    hand: bool = False
    hand_cards: int = 0
    extras: tuple[str, ...] = ()  # those this screen has, of EXTRAS


# Rows each extra takes at a card size (the piles and places stand beside the table cards or take
# its rows; the cards seen passed are a row of small cards under their caption, a gap above).
EXTRAS = ("piles", "discards", "seen", "places", "empty")


def extra_rows(name: str, size: CardSize, content: Content) -> int:
    if name == "places":
        return 2 * size.height
    if name == "discards":
        return size.height
    if name == "seen":
        return SMALL.height + 2
    if name == "empty":  # the places of an empty hand and of the opponent's empty side
        return (size.height + 1 if content.hand and not content.hand_cards else 0) + \
               (size.height if content.opponent and not content.opponent_cards else 0)
    return 0


@dataclass(frozen=True)
class Plan:
    card: CardSize = SMALL
    back: CardSize = SMALL
    extras: frozenset[str] = field(default_factory=frozenset)


def rows_needed(content: Content, card: CardSize, back: CardSize) -> int:
    rows = content.text_rows + content.table_rows * card.height
    if content.opponent:
        rows += 1 + (back.height if content.opponent_cards else 0)
    if content.hand:
        rows += 1 + (card.height + 1 if content.hand_cards else 0)
    return rows


def _wide_enough(content: Content, card: CardSize, width: int) -> bool:
    table = pile_width(card) + GAP + card.width + GAP + content.caption if content.table_rows else 0
    return fits(HAND, width, card) and table <= width


def plan(content: Content, width: int, height: int, screen: tuple[int, int]) -> Plan:
    """The card size and the extras for a main area ``width`` x ``height`` on a ``screen`` (columns, rows)."""
    chosen = Plan()
    for card in SIZES:
        if card is not SMALL and not _wide_enough(content, card, width):
            continue
        back = next((b for b in (card, smaller(card)) if rows_needed(content, card, b) <= height), None)
        if back is not None:
            chosen = Plan(card, back)
            break
    rows = rows_needed(content, chosen.card, chosen.back)
    extras = set()
    for name in EXTRAS:
        if name not in content.extras:
            continue
        if name == "piles" and chosen.card is not LARGE:
            continue
        if name == "seen" and (screen[0] < SEEN_FROM[0] or screen[1] < SEEN_FROM[1]):
            continue
        more = extra_rows(name, chosen.card, content)
        if rows + more <= height:
            rows += more
            extras.add(name)
    return Plan(chosen.card, chosen.back, frozenset(extras))


def text_rows(texts: list[str], width: int) -> int:
    """Rows a few texts take wrapped at ``width`` (each line of each text at least one row)."""
    width = max(1, width)
    total = 0
    for text in texts:
        for line in text.split("\n"):
            total += max(1, -(-len(line) // width))
    return total
