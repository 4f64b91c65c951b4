"""The browser's "Watch a table" form (tui/screens/lobby.py WatchCodeScreen): a code is taken as typed, cleaned
of control characters even when Enter comes before the field's own cleaning has run, and anything else is
refused with the shape a code has, the form kept."""

from __future__ import annotations

from typing import Optional

from textual.app import App
from textual.widgets import Input

from spades_tui.tui.screens.lobby import WatchCodeScreen
from tests.support.pilot import screen_text, until


class FormApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.results: list[Optional[str]] = []

    def on_mount(self) -> None:
        self.push_screen(WatchCodeScreen(), self.results.append)


async def test_a_typed_code_is_taken_lowercase_and_cleaned() -> None:
    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WatchCodeScreen), "the form")
        await pilot.press(*"AB2C-defg-hjk")
        # What the field holds before its Changed handler runs: a control character the terminal let through.
        field = app.screen.query_one("#watchcode", Input)
        with field.prevent(Input.Changed):
            field.value = "\x07" + field.value + "m"
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.results), "the form's answer")
        assert app.results == ["ab2c-defg-hjkm"]


async def test_a_wrong_shape_is_refused_and_the_form_stays() -> None:
    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WatchCodeScreen), "the form")
        await pilot.press(*"abcd-efgh", "enter")
        await pilot.pause()
        assert app.results == [] and isinstance(app.screen, WatchCodeScreen)
        assert "That is not a watch code" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: bool(app.results), "the form's answer")
        assert app.results == [None]
