"""A game served to a browser (``--served``), in Textual's test pilot: what the page may not do.

(Kept apart from test_browser.py: Playwright's synchronous API holds an event loop there for the
whole module, where these asyncio tests cannot run.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.serve import saved


@pytest.mark.parametrize("served", [False, True])
async def test_the_start_screen_offers_loading_a_file_only_outside_a_browser(tmp_path: Path, served: bool) -> None:
    from textual.widgets import OptionList

    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp

    app = SpadesApp(LaunchOptions(served=served, bot_pause=0, hints=False), data_dir=tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ("load" in ids) is not served
        assert "bot" in ids and "hotseat" in ids


async def test_a_served_game_leaves_a_saved_game_against_an_external_bot_as_it_is(tmp_path: Path) -> None:
    from textual.widgets import OptionList, Static

    from spades_tui.engine.rules import Rules
    from spades_tui.keep.storage import save_record
    from spades_tui.session.session import new_record
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp

    games = tmp_path / "games"
    games.mkdir()
    record = new_record(Rules(), 0, ("You", "Outside bot"), bot="cmd:python3 my_bot.py", seed=3)
    save_record(games / "game-1.json", record)
    app = SpadesApp(LaunchOptions(served=True, bot_pause=0, hints=False), data_dir=tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        assert menu.get_option_at_index(0).id == "resume-0"
        menu.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.session is None  # not started, so not forfeited
        assert "external program" in str(app.screen.query_one("#message", Static).render())
    assert saved(games / "game-1.json") == record


@pytest.mark.parametrize("served", [False, True])
def test_the_palette_offers_loading_a_file_only_outside_a_browser(served: bool) -> None:
    from spades_tui.tui.app.commands import PaletteContext, Where, game_commands

    for in_game in (False, True):
        names = [c.name for c in game_commands(PaletteContext(in_game=in_game, served=served), Where())]
        assert ("Load a game record" in names) is not served
        assert "New game against the bot" in names


async def test_a_served_game_ignores_the_load_action(tmp_path: Path) -> None:
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp
    from spades_tui.tui.screens.load import LoadScreen

    app = SpadesApp(LaunchOptions(served=True, bot_pause=0, hints=False), data_dir=tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await app.run_action("load_record")
        await pilot.pause()
        assert not isinstance(app.screen, LoadScreen)


async def test_a_second_enter_while_a_served_table_opens_opens_no_second_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter pressed again while the server is still opening the table lands on the wait screen, not on the
    start screen's menu (where it opened a second table and left the first, whose link was already given)."""
    import asyncio

    from textual.widgets import OptionList

    from spades_tui.settings.options import LaunchOptions
    from spades_tui.table.seat import link
    from spades_tui.tui.app.app import SpadesApp
    from spades_tui.tui.screens.start import StartScreen
    from spades_tui.tui.screens.table import TableWaitScreen
    from tests.support.pilot import until

    asked: list[bool] = []
    answer = asyncio.Event()

    async def slow_server(base: str, key: str, name: str, rules: object, *, tab: object = None,
                          public: bool = False) -> tuple[str, str, str, None]:
        asked.append(public)
        await answer.wait()  # the server is slow to answer: the test says when
        raise link.TableError("the test's server closed")

    monkeypatch.setattr(link, "open_served_table", slow_server)
    monkeypatch.setenv("SPADES_TUI_TABLES", "http://127.0.0.1:9")
    monkeypatch.setenv("SPADES_TUI_TABLES_KEY", "k")
    app = SpadesApp(LaunchOptions(served=True, bot_pause=0, hints=False), data_dir=tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        menu.highlighted = next(i for i in range(menu.option_count) if menu.get_option_at_index(i).id == "table")
        await pilot.press("enter")  # "Play a friend": private or public?
        await pilot.pause()
        await pilot.press("enter")  # a private table
        await until(pilot, lambda: bool(asked), "the table asked of the server")
        for _ in range(3):  # a player who thinks nothing happened
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, TableWaitScreen) and "Opening the table" in app.screen.text
        assert asked == [False]  # one table asked for, private
        answer.set()
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "back at the start screen")
        assert asked == [False]
