"""A language chosen on the settings screen speaks at once (docs/languages.md, "Choosing"): the screen under the
settings is drawn again in it (the start screen, a game's screen), and the palette and its Textual words follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from spades_tui.i18n.language import current
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.settings import SettingsScreen
from spades_tui.tui.screens.start import StartScreen
from tests.support.pilot import close_palette, make_app, screen_text, settle, until


async def choose_language(pilot: Pilot[int], app: SpadesApp, code: str) -> None:
    """F2, the language ``code`` chosen, Ctrl+S: as a player does (the Select's value set as its keys would)."""
    await pilot.press("f2")
    await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
    app.screen.query_one("#language", Select).value = code
    await pilot.press("ctrl+s")
    await pilot.pause()


@pytest.mark.slow
async def test_the_start_screen_speaks_the_language_chosen_and_back(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending, "the start screen")
        english = app.screen
        assert "Settings" in screen_text(app) and "Inställningar" not in screen_text(app)
        await choose_language(pilot, app, "sv")
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and app.screen is not english, "a new start")
        text = screen_text(app)
        assert current() == "sv" and "Inställningar" in text and "Statistik" in text and "Settings" not in text
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert "Sök bland kommandona" in screen_text(app) and "Search for commands" not in screen_text(app)
        await close_palette(pilot)
        await choose_language(pilot, app, "en")
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and "Settings" in screen_text(app),
                    "the start screen in English again")
        assert current() == "en" and "Inställningar" not in screen_text(app)


@pytest.mark.slow
async def test_a_game_screen_speaks_the_language_chosen_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        before = app.screen
        assert isinstance(before, GameScreen) and "Help" in screen_text(app)
        await choose_language(pilot, app, "sv")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen is not before, "a new game screen")
        assert type(app.screen) is type(before)  # the same decision, drawn again in the new language
        assert "Hjälp" in screen_text(app) and " Help" not in screen_text(app)  # the footer's F1
        await choose_language(pilot, app, "en")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and " Help" in screen_text(app), "English again")
