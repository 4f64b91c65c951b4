"""A typed field's value read once its keys are in (the forms' Enter: tui/screens/lobby.py, table.py).  A module of
its own, light: the forms that use it are loaded beside the start screen, which loads no engine (issue 21)."""

from __future__ import annotations

from typing import Callable

from textual.widget import Widget


def once_typed(field: Widget, then: Callable[[], None]) -> None:
    """Run ``then`` once ``field`` has taken every key sent to it before now.  A priority binding's action (the
    form's Enter, a priority so that the footer shows it) runs as its key reaches the app, while the keys before
    it may still wait in the field's own queue (typed fast, pasted, or a browser tab's burst over a slow link):
    the value read at once would be cut short.  A callback posted to the field runs after those keys."""
    field.call_later(then)
