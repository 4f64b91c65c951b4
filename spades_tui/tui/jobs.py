"""A seat's jobs (session/seat.py), run for the app: each in a worker thread, its result handed back to the seat
on the interface's thread while that seat is still the one in play.  Who made a job does not matter here."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Optional

from textual.app import App
from textual.timer import Timer

if TYPE_CHECKING:
    from ..session.seat import Job, Seat
    from ..session.view import SeatView

TRICK_SEEN = 2.5  # a finished trick the bot won stays this many bot pauses before its next lead


class Jobs:
    """``playing`` gives the seat in play; ``thinking(seat)`` shows its view once a bot's decision started;
    ``done()`` shows the seat once a result went back; ``pause()`` is the bot pause, in seconds (the setting)."""

    def __init__(self, app: App[Any], playing: Callable[[], Optional[Seat]], thinking: Callable[[Seat], None],
                 done: Callable[[], None], pause: Callable[[], float]) -> None:
        self.app = app
        self._playing = playing
        self._thinking = thinking
        self._done = done
        self._pause = pause
        # A finished trick is being shown before the bot leads: the timer, and the job it waits to start.
        self._pausing: Optional[tuple[Timer, Seat, Job[Any]]] = None

    def run(self, seat: Seat, job: Job[Any], snap: SeatView) -> None:
        """A hint after this repaint (the hint service's process must not delay the screen); a bot's decision,
        when a trick the bot won has just finished, once it has been seen: TRICK_SEEN times the bot pause, or
        until the player presses a key (``seen``; keys work meanwhile); a review now, beside the game."""
        if job.kind == "hint":
            self.app.call_after_refresh(self._start, seat, job)
        elif job.kind == "bot" and snap.trick_just_finished and self._pause() > 0:
            timer = self.app.set_timer(TRICK_SEEN * self._pause(), lambda: self._start(seat, job))
            self._pausing = (timer, seat, job)
        else:
            self._start(seat, job)

    def seen(self) -> None:
        """A key pressed while a finished trick is shown: the player has seen it, the bot may lead now."""
        pausing, self._pausing = self._pausing, None
        if pausing is not None:
            timer, seat, job = pausing
            timer.stop()
            self._start(seat, job)

    def _start(self, seat: Seat, job: Job[Any]) -> None:
        if self._pausing is not None and self._pausing[2] is job:
            self._pausing = None
        work = job.start() if seat is self._playing() else None  # else a new game started meanwhile
        if work is None:
            return
        self.app.run_worker(partial(self._work, seat, job, work), thread=True, group=job.kind,
                            exclusive=job.kind == "bot", exit_on_error=False)
        if job.kind == "bot":
            self._thinking(seat)  # the view now says the bot is thinking

    def _work(self, seat: Seat, job: Job[Any], work: Callable[[], Any]) -> None:
        result = work()  # in a worker thread: a bot's decision, a hint, a review (from what the seat may know)
        self.app.call_from_thread(self._back, seat, job, result)

    def _back(self, seat: Seat, job: Job[Any], result: Any) -> None:
        if seat is self._playing():  # else a new game started meanwhile
            job.done(result)
            self._done()
