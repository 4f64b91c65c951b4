"""Help's guide is laid out half a second after a screen comes up, but never before the first screen is drawn:
on a slow machine that half second can pass before the first frame (test_start_imports.py checks the modules)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from spades_tui.tui.app.help import HelpScreens


class FakeApp:
    def __init__(self) -> None:
        self.size = SimpleNamespace(width=80)
        self.timers: list[tuple[float, Callable[[], Any]]] = []

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> None:
        self.timers.append((delay, callback))


def test_a_topic_asked_for_before_the_first_paint_waits_for_it() -> None:
    app = FakeApp()
    help_screens = HelpScreens(app, lambda: None)  # type: ignore[arg-type]
    help_screens.soon("start")
    help_screens.soon("draft")  # the game's screen replaced the start screen before the first frame
    assert app.timers == []
    help_screens.painted()
    assert [delay for delay, _ in app.timers] == [0.5] and help_screens._ready == {("draft", 80, "en")}  # latest only
    help_screens.soon("draft")  # already being laid out at this width
    help_screens.soon("bidding")
    assert len(app.timers) == 2
