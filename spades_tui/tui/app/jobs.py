"""A seat's jobs (session/seat.py), run for the app: each in a worker thread, its result handed back to the seat
on the interface's thread while that seat is still the one in play.  Who made a job does not matter here."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from textual.timer import Timer
from textual.worker import Worker

from ..pacing import TRICK_SEEN

if TYPE_CHECKING:
    from ...session.seat import Job, Seat
    from ...session.view import SeatView


class JobsApp(Protocol):
    """What the job runner asks of the app (the SpadesApp is one): Textual's timers and workers, the seat in
    play, the bot pause (the setting, in seconds), and two things to show."""

    @property
    def seat_in_play(self) -> Optional[Seat]: ...

    @property
    def bot_pause(self) -> float: ...

    def bot_started(self, seat: Seat) -> None:
        """A bot's decision began: the view now says the bot is thinking."""

    def job_done(self) -> None:
        """A job's result went back to the seat in play: show the seat as it is now."""

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...

    def run_worker(self, work: Callable[[], None], *, thread: bool, group: str, exclusive: bool,
                   exit_on_error: bool) -> Worker[None]: ...


class JobRunner:
    """Runs the seat in play's jobs for ``app``; a result for a seat no longer in play is dropped."""

    def __init__(self, app: JobsApp) -> None:
        self.app = app
        # A finished trick is being shown before the bot leads: the timer, and the job it waits to start.
        self._pausing: Optional[tuple[Timer, Seat, Job[Any]]] = None
        # Until the first screen is drawn, jobs wait for it (``painted``): a bot's first decision came back and
        # redrew the table twice before anything was on the screen, its worker holding the interpreter meanwhile.
        self._before_paint: Optional[list[tuple[Seat, Job[Any], SeatView]]] = []

    @property
    def held(self) -> bool:
        """Jobs are waiting for the first paint (a test that waits for the workers waits for these first)."""
        return bool(self._before_paint)

    def painted(self) -> None:
        """The first screen is drawn: the jobs asked for meanwhile start, in order."""
        waiting, self._before_paint = self._before_paint or [], None
        for seat, job, seat_view in waiting:
            self.run(seat, job, seat_view)

    def run(self, seat: Seat, job: Job[Any], seat_view: SeatView) -> None:
        """A hint after this repaint (the hint service's process must not delay the screen); a bot's decision,
        when a trick the bot won has just finished, once it has been seen: TRICK_SEEN times the bot pause, or
        until the player presses a key (``seen``; keys work meanwhile); a review now, beside the game."""
        if self._before_paint is not None:
            self._before_paint.append((seat, job, seat_view))
        elif job.kind == "hint":
            self.app.call_after_refresh(self._start, seat, job)
        elif job.kind == "bot" and seat_view.trick_just_finished and self.app.bot_pause > 0:
            timer = self.app.set_timer(TRICK_SEEN * self.app.bot_pause, lambda: self._start(seat, job))
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
        work = job.start() if seat is self.app.seat_in_play else None  # else a new game started meanwhile
        if work is None:
            return
        self.app.run_worker(partial(self._work, seat, job, work), thread=True, group=job.kind,
                            exclusive=job.kind == "bot", exit_on_error=False)
        if job.kind == "bot":
            self.app.bot_started(seat)

    def _work(self, seat: Seat, job: Job[Any], work: Callable[[], Any]) -> None:
        result = work()  # in a worker thread: a bot's decision, a hint, a review (from what the seat may know)
        self.app.call_from_thread(self._back, seat, job, result)

    def _back(self, seat: Seat, job: Job[Any], result: Any) -> None:
        if seat is self.app.seat_in_play:  # else a new game started meanwhile
            job.done(result)
            self.app.job_done()
