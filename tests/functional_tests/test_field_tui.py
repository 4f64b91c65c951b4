"""The day's challenge at the table server on the start screen and its end (docs/serving.md, "The day's
challenge"), with Pilot: the start screen offers it when a table server is set (and in a browser, on the page's
server); chosen, it registers under the settings' name, plays the four hands with no hints, and its end shows the
rank and percentage among the field so far and each hand against it.  A server in this process on 127.0.0.1
whose expert answers at once (the desk's work is tested here, not the expert)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
from textual.widgets import OptionList

from spades_tui.settings.options import LaunchOptions
from spades_tui.table.host.experts import ExpertPool
from spades_tui.table.server.challenge import ChallengeDesk
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.screens.start import StartScreen
from tests.functional_tests.test_field_desk import FirstLegal
from tests.functional_tests.test_rated_tui import _app, _choose
from tests.functional_tests.test_serve_visitors import COOKIE_C, Tab, served, tables  # noqa: F401 (served: a fixture)
from tests.support.pilot import screen_text, until
from tests.support.rated import rated_server
from tests.support.wait import BOUND, until_async


@contextlib.asynccontextmanager
async def field_server(tmp: Path) -> AsyncIterator[tuple[ChallengeDesk, int]]:
    async with rated_server(tmp) as (lobby, port):
        assert lobby.desk is not None
        desk = ChallengeDesk(lobby.desk, bytes(32), None, pool=ExpertPool(1, 1, make=FirstLegal))  # type: ignore[arg-type]
        try:
            yield desk, port
        finally:
            desk.close()


def _offered(app: SpadesApp) -> list[str]:
    menu = app.screen.query_one(OptionList)
    return [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]


async def test_the_start_screen_offers_the_servers_challenge_when_a_table_server_is_set(tmp_path: Path) -> None:
    app = _app(tmp_path, "127.0.0.1:7999")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert "The day's challenge at 127.0.0.1:7999, against the field" in _offered(app)
    plain = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "d2", config_dir=tmp_path / "c2")
    async with plain.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(plain.screen, StartScreen), "the start screen")
        assert not any("against the field" in option for option in _offered(plain))
    tab_app = SpadesApp(LaunchOptions(hints=False, bot_pause=0, served=True), data_dir=tmp_path / "d3",
                        config_dir=tmp_path / "c3")
    async with tab_app.run_test(size=(80, 24)) as pilot:  # a browser's tab on serve: the page's own server's
        await until(pilot, lambda: isinstance(tab_app.screen, StartScreen), "the start screen")
        assert "The day's challenge on this server, against the field" in _offered(tab_app)


@pytest.mark.slow
async def test_the_servers_challenge_is_played_to_its_end_against_the_field(tmp_path: Path) -> None:
    async with field_server(tmp_path / "server") as (desk, port):
        app = _app(tmp_path, f"127.0.0.1:{port}")
        async with app.run_test(size=(120, 40)) as pilot:  # the end's sentences on one line each
            await _choose(app, pilot, "field")
            await until(pilot, lambda: "Standard, 4 hands" in screen_text(app), "the challenge's table")
            table = desk.tables[0]
            assert table.player is not None and not table.practice  # registered as Cleo: an entry
            assert "h Hints" not in screen_text(app)
            for _ in range(400):
                if "The field so far" in screen_text(app):
                    break
                await pilot.press("enter")
                await pilot.pause(0.02)
            await until(pilot, lambda: "The field so far" in screen_text(app), "the field's end", BOUND)
            text = screen_text(app)
            assert "1st of 2 so far (your entry for the day)" in text or "2nd of 2 so far (your entry" in text
            assert "Cleo" in text and "Par" in text and text.count("%") >= 6  # the field, and each hand's percentage


@pytest.mark.slow
async def test_a_browsers_tab_on_serve_plays_the_servers_challenge_as_its_entry(served: Any) -> None:  # noqa: F811
    """The browser's start screen on ``serve``: its entry registers the visitor at the page's own server (a key in
    the visitor's own folder, as rated play's) and seats the tab at the day's challenge, as that player's entry;
    spoken to as the page's script does."""
    tab = await Tab(served, cookie=COOKIE_C).open()
    try:
        await until_async(lambda: tab.shows("The day's challenge on this server"), "the start screen")
        # learn, bot, hot-seat, settings, statistics, play a friend, play a stranger, find, watch, today's
        # challenge, then: this one
        await tab.keys("\x1b[B" * 10 + "\r")
        desk = served.server.challenges
        await until_async(lambda: bool(desk.tables), "the tab seated at the server's challenge")
        assert not desk.tables[0].practice and desk.tables[0].player is not None
        await until_async(lambda: tab.shows("Standard, 4 hands"), "the challenge's panel in the tab")
    finally:
        await tables(served, tab)
