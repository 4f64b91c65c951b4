"""The browser's "Watch a table" form (tui/screens/lobby.py WatchCodeScreen): a code is taken as typed (in one
burst with its Enter too, as the table server's address is: tui/screens/table.py ServerAddressScreen), cleaned
of control characters even when Enter comes before the field's own cleaning has run, and anything else is
refused with the shape a code has, the form kept."""

from __future__ import annotations

from typing import Callable, Optional

from textual import events
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Input

from spades_tui.tui.screens.lobby import WatchCodeScreen
from spades_tui.tui.screens.table import ServerAddressScreen
from tests.support.pilot import screen_text, until


class FormApp(App[None]):
    def __init__(self, form: Callable[[], ModalScreen[Optional[str]]] = WatchCodeScreen) -> None:
        super().__init__()
        self.form = form
        self.results: list[Optional[str]] = []

    def on_mount(self) -> None:
        self.push_screen(self.form(), self.results.append)


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


def burst(app: App[None], keys: str) -> None:
    """Keys as a terminal or a browser tab sends them in one burst: each reaches the app before the field has
    taken the one before (``pilot.press`` waits between keys, and so hides the race)."""
    for key in keys:
        app.post_message(events.Key(key, key))
    app.post_message(events.Key("enter", "\r"))


async def test_a_code_sent_in_one_burst_with_its_enter_is_taken_whole() -> None:
    # Enter is a priority binding (so that the footer shows it): it ran as its key reached the app, before the
    # field had taken the code's last keys, and the form said "That is not a watch code" (a browser tab on a
    # loaded machine, CI's watch test).
    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WatchCodeScreen), "the form")
        burst(app, "brd8-vkjg-bzb7")
        await until(pilot, lambda: bool(app.results) or "not a watch code" in screen_text(app), "the form's answer")
        assert app.results == ["brd8-vkjg-bzb7"]


async def test_a_servers_address_sent_in_one_burst_with_its_enter_is_taken_whole() -> None:
    # The same race in the table server's form opened the table at a cut address ("127.0.0.1:70").
    app = FormApp(ServerAddressScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServerAddressScreen), "the form")
        burst(app, "spades.example.org:7000")
        await until(pilot, lambda: bool(app.results), "the form's answer")
        assert app.results == ["spades.example.org:7000"]
