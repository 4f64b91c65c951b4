"""One seat's review of the hand just finished: asked once per hand, worked out off the interface's thread,
kept for that hand only.

A game at this keyboard (``Session``) and a seat at another's table (``table.seat.remote_seat.RemoteSeat``) share it;
each says which hand is just over and how to judge it (from its record; from the host's reveal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from .seat import Job

if TYPE_CHECKING:
    from ..solver.analysis import HandReview

Review = Callable[[], Optional["HandReview"]]


class ReviewDesk:
    """``hand_over`` gives the number of the hand just finished (0 while one is in play); ``judge(hand)`` the
    work that reviews it, or None while it cannot be judged yet (asked again later); ``changed`` is called when
    a review has come."""

    def __init__(self, hand_over: Callable[[], int], judge: Callable[[int], Optional[Review]],
                 changed: Callable[[], None] = lambda: None) -> None:
        self._hand_over = hand_over
        self._judge = judge
        self._changed = changed
        self._review: Optional[HandReview] = None
        self._asked = 0

    def current(self) -> Optional[HandReview]:
        """The review of the hand just finished, once it has come."""
        review = self._review
        return review if review is not None and review.hand == self._hand_over() else None

    def request(self) -> Optional[Review]:
        """Once per hand: the work that reviews the hand just finished (all its cards may be shown now: it is
        scored), for ``answer``."""
        hand = self._hand_over()
        if not hand or self._asked == hand:
            return None
        judge = self._judge(hand)
        if judge is not None:
            self._asked = hand
        return judge

    def job(self) -> Optional[Job[Optional[HandReview]]]:
        """``request`` as a job, run in the background while the summary is read."""
        judge = self.request()
        return Job("review", lambda: _never_raising(judge), self.answer) if judge is not None else None

    def answer(self, review: Optional[HandReview]) -> None:
        """Keep ``review`` if it is of the hand still just finished."""
        if review is not None and review.hand == self._hand_over():
            self._review = review
            self._changed()

    def forget(self) -> None:
        """A replayed hand: its review is asked again once it is over."""
        self._review, self._asked = None, 0


def _never_raising(judge: Review) -> Review:
    def run() -> Optional[HandReview]:
        try:
            return judge()
        except Exception:  # a review is a bonus: without it the game goes on
            return None

    return run
