"""The review of a finished hand as the review screen shows it: a pure function from the seat's view.

The hand judged double dummy (``solver/analysis.py``) in words: both hands, what each player's card play
cost, the bids, the draft, then the hand trick by trick.  No Textual here.  The solver loads with the first
review, not with the game: its modules are imported where a review is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from ..i18n.language import _, ngettext
from ..session.view import BidValue, Card, SeatView
from .notation import sort_hand

if TYPE_CHECKING:  # a review's type only: the solver loads with the first review, not at start-up
    from ..solver.analysis import HandReview


@dataclass(frozen=True)
class ReviewTrick:
    """One step of the review: a trick, both hands as they stood before it, each play's cards valued."""

    title: str  # "Trick 5 of 13"
    hands: tuple[tuple[str, tuple[Card, ...]], ...]  # each player's label and cards before the trick
    played: tuple[Card, ...]  # the trick's cards (marked in the hands)
    lines: tuple[str, ...]  # the trick in words, then each play's legal cards with their margins


@dataclass(frozen=True)
class ReviewView:
    """A finished hand judged double dummy: both hands (no secret any more), then the costly plays."""

    title: str
    hands: tuple[tuple[str, tuple[Card, ...]], ...]  # each player's label and cards at the first lead
    totals: tuple[str, ...]  # what each player's card play cost, in words
    plays: tuple[str, ...]  # each costly play in words
    bids: tuple[str, ...] = ()  # each bid beside what the hand could make
    draft: tuple[str, ...] = ()  # the draft turns whose other card would have changed the tricks
    tricks: tuple[ReviewTrick, ...] = ()  # the hand trick by trick
    legend: str = ""  # what the numbers are
    chances: tuple[str, ...] = ()  # the other side's costly plays (against a bot: its errors)
    titles: tuple[str, str] = ("", "")  # the titles of ``plays`` and ``chances``


def review_view(seat_view: SeatView) -> Optional[ReviewView]:
    """Only once the hand is over (the view carries a review only then), and to both players in hot-seat.
    Judged by points (``review_content``); against a bot, the person's seat is "you"."""
    review = seat_view.review
    if review is None:
        return None
    return review_content(review, seat_view.names, seat_view.seat if seat_view.vs_bot else None)


def margin_legend(other: Optional[str]) -> str:
    """What the review's numbers are: against a bot, the person's margin over ``other`` (the bot's name);
    hot-seat (None), the player's over the other's."""
    if other is None:
        return _("Points are margins: the player's hand points minus the other's, bags, Nil and the bag limit "
                 "included, with both playing perfectly from there, all cards face up.")
    return _("Points are margins: your hand points minus {player}'s, bags, Nil and the bag limit included, with "
             "both playing perfectly from there, all cards face up.").format(player=other)


def _review_label(name: str, bid: Optional[BidValue], won: Optional[int] = None) -> str:
    """A hand's label: ``Ada, bid 4``, and in a trick ``Ada, bid 4, 2 tricks won so far``."""
    from ..solver.wording import bid_words  # in here: the solver loads with the first review, not the game

    if won is None:
        return _("{player}, {bid}").format(player=name, bid=bid_words(bid))
    return ngettext("{player}, {bid}, {count} trick won so far", "{player}, {bid}, {count} tricks won so far",
                    won).format(player=name, bid=bid_words(bid), count=won)


def review_content(review: HandReview, names: tuple[str, str], you: Optional[int] = None) -> ReviewView:
    """The review screen's content from one reviewed hand: by points, then the bids and the draft, then each
    trick.  ``you``: the seat called "you" (the person against a bot); None names both (hot-seat)."""
    from ..solver.wording import YOU  # in here: the solver loads with the first review
    from ..solver.words import review_words, trick_words

    # Against a bot: the person is YOU (the solver's words have sentences of their own for "you", a verb agreeing
    # with its person) and the bot "the bot", a name in the player's language; hot-seat, both by name.
    who = tuple(YOU if p == you else _("the bot") if you is not None else names[p] for p in (0, 1))
    whose = who  # the solver's words no longer read it (solver/words.py)
    h = review.analysis
    words = review_words(h, who, whose)
    hands = tuple((_review_label(names[p], h.bids[p]), tuple(sort_hand(review.hands[p]))) for p in (0, 1))
    steps = []
    tricks = review.tricks
    for t in tricks:
        won = t.plays[0].won
        steps.append(ReviewTrick(
            _("Hand {hand}, trick {number} of {count}").format(hand=review.hand, number=t.number, count=len(tricks)),
            tuple((_review_label(names[p], h.bids[p], won[p]), tuple(sort_hand(t.hands[p]))) for p in (0, 1)),
            tuple(p.card for p in t.plays),
            trick_words(t, who, whose)))
    me = you if you is not None else 0
    legend = margin_legend(names[1 - me] if you is not None else None)
    return ReviewView(_("Hand {hand}, judged by the score with all cards face up").format(hand=review.hand),
                      hands, words.totals,
                      words.plays, words.bids, words.draft, tuple(steps), legend, words.chances, words.titles)
