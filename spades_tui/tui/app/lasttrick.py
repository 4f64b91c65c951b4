"""The hand's last trick kept on the table until it has been seen, before the hand's summary.

Every other finished trick stays on the table until the next card is led, and before a bot leads it waits
until seen (``pacing.py``: ``TRICK_SEEN`` bot pauses, or a key).  The 13th has no next lead: without this the
screen would go from "your turn" straight to the hand's summary, its last card never shown.  So the view of
the hand just over is shown as the play screen (``SeatView.trick_held``) for the same time, or until a key.

Only where one person plays at this keyboard (against a bot, a seat at a network table): in hot-seat the
hand-off screen comes between the players' cards, and a watcher has no seat.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Optional

from textual.app import App
from textual.timer import Timer

from ..pacing import TRICK_SEEN

if TYPE_CHECKING:
    from ...session.view import SeatView


def hand_just_over(before: Optional[SeatView], seat_view: SeatView) -> bool:
    """``seat_view`` is the first view after the last card of a hand that ``before`` showed in play."""
    from ...session.view import Phase  # in here: the view loads with the first game (test_start_imports.py)

    if before is None or seat_view.seat is None or all(seat_view.persons) or not any(seat_view.persons):
        return False
    obs = seat_view.observation
    return (before.phase is Phase.PLAY and before.seat == seat_view.seat
            and before.observation.hand_number == obs.hand_number
            and obs.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and bool(obs.tricks) and not obs.trick
            and seat_view.forfeit is None)


class LastTrick:
    """``pause()`` is the bot pause in seconds (the setting; 0: no wait); ``release()`` shows the view as it is
    once the trick has been seen."""

    def __init__(self, app: App[Any], pause: Callable[[], float], release: Callable[[], None]) -> None:
        self.app = app
        self._pause = pause
        self._release = release
        self._held: Optional[tuple[int, int]] = None  # (hand number, actions) of the view held
        self._timer: Optional[Timer] = None

    @staticmethod
    def _key(seat_view: SeatView) -> tuple[int, int]:
        return (seat_view.observation.hand_number, seat_view.actions)

    @property
    def holding(self) -> bool:
        return self._held is not None

    def view(self, before: Optional[SeatView], seat_view: SeatView) -> SeatView:
        """``seat_view`` as the screen shows it now: held while the hand's last trick has not been seen."""
        key = self._key(seat_view)
        if self._held is not None and self._held != key:
            self._stop()  # the game moved on meanwhile (a take-back, a new game): nothing left to hold
        if self._held is None and hand_just_over(before, seat_view) and self._pause() > 0:
            self._held = key
            self._timer = self.app.set_timer(TRICK_SEEN * self._pause(), self.seen)
        return replace(seat_view, trick_held=True) if self._held == key else seat_view

    def seen(self) -> None:
        """A key pressed (or the time up) while the last trick is shown: on to the hand's summary."""
        if self._held is not None:
            self._stop()
            self._release()

    def _stop(self) -> None:
        self._held = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
