"""Help (F1, ?): one help screen per topic, its guide parsed and laid out off the interface's thread before it
is first asked for, and laid out again after a resize."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Optional

from textual.app import App
from textual.timer import Timer

from ...i18n.language import current
from ..textualprivate import app_closing

DEFAULT_TOPIC = "start"  # help's first topic over a screen that names none (tui/app/guide.py TOPICS)


def topic_of(screen: object) -> str:
    """The guide's topic that help shows first over ``screen`` (a screen or its class): its ``HELP_TOPIC``."""
    topic = getattr(screen, "HELP_TOPIC", DEFAULT_TOPIC)
    topic = topic if isinstance(topic, str) else DEFAULT_TOPIC
    # A game screen at a network table: its phase's sections, then the table's (who is where, the invite).
    table: object = getattr(getattr(screen, "seat_view", None), "table", None)
    if topic != "table" and table:
        topic += "+table"
    return topic


class HelpScreens:
    """``closed`` is called when a help screen closes (the game may have moved on beneath it)."""

    def __init__(self, app: App[Any], closed: Callable[[], None]) -> None:
        self.app = app
        self._closed = closed
        self._timer: Optional[Timer] = None  # the guide is laid out again once a resize stops
        self._ready: set[tuple[str, int, str]] = set()  # (topic, width, language) laid out or being laid out
        self._painted = False  # nothing is laid out before the first screen is drawn (test_start_imports.py)
        self._waiting: Optional[str] = None  # the topic asked for before that

    def painted(self) -> None:
        """The first screen is drawn: the topic asked for meanwhile is laid out now (half a second on)."""
        self._painted = True
        if self._waiting is not None:
            topic, self._waiting = self._waiting, None
            self.soon(topic)

    def soon(self, topic: str) -> None:
        """Help's guide for ``topic`` laid out half a second after the screen it is for comes up (the likeliest
        first F1 there), once per topic and width: one topic at a time, so the work is spread over the game rather
        than all at its start. Before the first screen is drawn, the latest topic waits for it: on a slow machine
        the half second can pass before the first frame, and the guide must not load ahead of it."""
        if not self._painted:
            self._waiting = topic
            return
        key = (topic, self.app.size.width, current())
        if key not in self._ready:
            self._ready.add(key)
            self.app.set_timer(0.5, lambda: self._prepare(*key[:2]) if self._wanted() else None)

    def _prepare(self, topic: str, width: int) -> None:
        from .guide import prepare_guide  # in here: Markdown loads when help is first needed

        self.app.run_worker(partial(prepare_guide, [topic], self.app.console, width), thread=True, group="prepare",
                            exit_on_error=False)

    def _wanted(self) -> bool:
        """Not while the app closes: a timer may fire after its last screen went."""
        app = self.app
        return app.is_running and bool(app.screen_stack) and not app_closing(app)

    def resized(self) -> None:
        """The guide laid out again for the new width, once the resizing stops (the other topics when next shown)."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.app.set_timer(0.5, self.after_resize)

    def after_resize(self) -> None:
        if self._wanted():
            self.soon(topic_of(self.app.screen))

    def show(self) -> None:
        """Help for the screen beneath, over it; over help, F1 closes it.  The app's F1 has priority, so it reaches
        here over every screen, a modal one too (Textual leaves a modal screen's keys to it alone): over the game
        menu, the settings or the statistics, help is the topic of the nearest screen beneath that names one."""
        from ..screens.help import HelpScreen
        from .guide import guide_markdown  # in here: Markdown loads only when help is first opened

        app = self.app
        if isinstance(app.screen, HelpScreen):
            app.screen.action_close()
        else:
            topic = next((topic_of(s) for s in reversed(app.screen_stack) if hasattr(s, "HELP_TOPIC")), DEFAULT_TOPIC)
            # One help screen per topic, kept once built: the guide is parsed and laid out once, not on every F1.
            name = f"help-{topic}-{current()}"  # and per language: one chosen in the settings reaches help
            if not app.is_screen_installed(name):
                app.install_screen(HelpScreen(topic, guide_markdown(topic)), name)  # the guide read here, not by it
            app.push_screen(name, lambda _: self._closed())
