"""The job runner (tui/app/jobs.py) holds the jobs asked for before the first screen is drawn, then starts them in
order (issue 33: a bot's first decision came back and redrew the table twice before anything was on the screen)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, Optional

from spades_tui.session.seat import Job
from spades_tui.tui.app.jobs import JobRunner


class FakeApp:
    """A JobsApp that records what the runner asks of it; workers run at once, on this thread."""

    def __init__(self) -> None:
        self.seat: object = object()
        self.bot_pause = 0.0
        self.log: list[str] = []
        self.after_refresh: list[Callable[[], Any]] = []

    @property
    def seat_in_play(self) -> Any:
        return self.seat

    def bot_started(self, seat: object) -> None:
        self.log.append("thinking")

    def job_done(self) -> None:
        self.log.append("published")

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool:
        self.after_refresh.append(lambda: callback(*args))
        return True

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Any:
        raise AssertionError("no pause expected")

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any:
        return callback(*args)

    def run_worker(self, work: Callable[[], None], *, thread: bool, group: str, exclusive: bool,
                   exit_on_error: bool) -> Any:
        work()
        return None


def job(app: FakeApp, kind: str, name: str) -> Job[str]:
    def start() -> Optional[Callable[[], str]]:
        app.log.append(f"start {name}")
        return lambda: name

    return Job(kind, start, lambda result: app.log.append(f"done {result}"))  # type: ignore[arg-type]


VIEW: Any = SimpleNamespace(trick_just_finished=False)


def test_jobs_asked_for_before_the_first_paint_start_after_it_in_order() -> None:
    app = FakeApp()
    runner = JobRunner(app)
    runner.run(app.seat, job(app, "bot", "bid"), VIEW)  # type: ignore[arg-type]
    runner.run(app.seat, job(app, "review", "review"), VIEW)  # type: ignore[arg-type]
    assert app.log == []  # nothing ran, nothing redrew, before the screen was drawn
    runner.painted()
    assert app.log == ["start bid", "done bid", "published", "thinking",
                       "start review", "done review", "published"]


def test_after_the_first_paint_jobs_start_at_once() -> None:
    app = FakeApp()
    runner = JobRunner(app)
    runner.painted()
    runner.run(app.seat, job(app, "bot", "play"), VIEW)  # type: ignore[arg-type]
    assert app.log[:2] == ["start play", "done play"]
    runner.painted()  # a second paint changes nothing
    runner.run(app.seat, job(app, "hint", "hint"), VIEW)  # type: ignore[arg-type]
    assert "start hint" not in app.log and len(app.after_refresh) == 1  # a hint still waits for its repaint
    app.after_refresh.pop()()
    assert app.log[-2:] == ["done hint", "published"]


def test_a_job_held_for_the_paint_is_dropped_if_its_seat_left_meanwhile() -> None:
    app = FakeApp()
    runner = JobRunner(app)
    runner.run(app.seat, job(app, "bot", "bid"), VIEW)  # type: ignore[arg-type]
    app.seat = object()  # a new game started before the first paint
    runner.painted()
    assert app.log == []
