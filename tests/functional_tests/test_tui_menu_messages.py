"""The start screen's and the game menu's entries reach the app as messages (tui/messages.py, handled with @on):
each opens what it names. They ran the app's actions by name before, which the type checker could not follow."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList

from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.pacing import DEFAULT_PACE, Pace
from spades_tui.tui.screens.choice import ChoiceScreen
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.help import HelpScreen
from spades_tui.tui.screens.load import LoadScreen
from spades_tui.tui.screens.settings import SettingsScreen
from spades_tui.tui.screens.start import StartScreen
from spades_tui.tui.screens.stats import StatsScreen
from tests.support.pilot import make_app, settle, until


async def _choose(app: SpadesApp, pilot: Pilot[int], option: str) -> None:
    """Highlight the option of id ``option`` in the screen's list, then Enter."""
    menu = app.screen.query_one(OptionList)
    menu.highlighted = menu.get_option_index(option)
    await pilot.press("enter")


@pytest.mark.parametrize(("option", "opened"), [("settings", SettingsScreen), ("stats", StatsScreen),
                                                ("help", HelpScreen), ("load", LoadScreen)])
async def test_each_start_screen_entry_opens_its_screen(tmp_path: Path, option: str,
                                                        opened: type[Screen[object]]) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending, "the start screen")
        await _choose(app, pilot, option)
        await until(pilot, lambda: isinstance(app.screen, opened), f"{opened.__name__} from the start screen")


@pytest.mark.slow  # a game begun against the bot
@pytest.mark.parametrize(("item", "opened"), [("settings", SettingsScreen), ("help", HelpScreen)])
async def test_the_game_menu_opens_the_settings_and_help(tmp_path: Path, item: str,
                                                         opened: type[Screen[object]]) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen) and app.screen.name == "menu", "the game menu")
        await _choose(app, pilot, item)
        await until(pilot, lambda: isinstance(app.screen, opened), f"{opened.__name__} from the game menu")
        assert any(isinstance(s, GameScreen) for s in app.screen_stack)  # over the game, which goes on


def test_a_game_screen_is_given_its_pace() -> None:
    """The forced card and the bot pause come with the view (show_view), not from the app's attributes."""
    from spades_tui.tui.screens.play import PlayScreen

    screen = PlayScreen()
    assert screen.pace == DEFAULT_PACE and screen.given is None
    screen.show_view(None, Pace(forced_play=False, bot_pause=2.0))  # not mounted: kept for its first drawing
    assert screen.pace == Pace(forced_play=False, bot_pause=2.0) and screen.given is None


@pytest.mark.slow  # a game begun against the bot
async def test_a_setting_changed_in_a_game_reaches_its_screen_with_the_next_view(tmp_path: Path) -> None:
    """The game screen reads no setting of the app's: a change comes down with the view (the app's pace)."""
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.pace == Pace(forced_play=True, bot_pause=0.0)
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        settings = app.screen
        assert isinstance(settings, SettingsScreen)
        settings.dismiss(replace(app.prefs, forced_play=False, bot_pause=1.5))  # as its Save does
        await until(pilot, lambda: app.screen is screen, "back to the game")
        assert screen.pace == Pace(forced_play=False, bot_pause=1.5)
