"""F1 and ? open help over every screen, a modal one too (the game menu, settings, statistics): Textual leaves a
modal screen's keys to it alone, so the app's F1 has priority and each modal screen binds ?."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from textual.screen import Screen

from spades_tui.tui.screens.help import HelpScreen
from tests.support.pilot import make_app, screen_text, settle, until


@pytest.mark.parametrize(("opening", "topic"), [(("escape",), "The draft"), (("f2",), "Settings"),
                                               (("ctrl+p", *"statistics", "enter"), "The draft")],
                         ids=["game-menu", "settings", "statistics"])
@pytest.mark.parametrize("key", ["f1", "question_mark"])
async def test_help_opens_over_a_modal_screen_and_closes_back_to_it(tmp_path: Path, opening: tuple[str, ...],
                                                                     topic: str, key: str) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press(*opening)
        await until(pilot, lambda: len(app.screen_stack) == 3, "the modal screen over the game")
        modal = app.screen
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help over it")
        # Its own topic (the settings'), else that of the nearest screen beneath that names one (the game's).
        assert topic in screen_text(app)
        await pilot.press(key)  # F1 (or ?) again closes help, back to the modal screen as it was
        await until(pilot, lambda: app.screen is modal, "help closed")


@pytest.mark.parametrize("form", ["server_address", "lobby", "watch_code", "tunnel"])
async def test_the_table_forms_footer_shows_f1(tmp_path: Path, form: str) -> None:
    """Issue 52's pictures: over a table's form F1 opened the help about tables, but the footer did not say so (a
    modal screen's footer shows its own keys only: each binds F1 to the app's help, as the settings do)."""
    from spades_tui.tui.screens.choice import TableChoiceScreen
    from spades_tui.tui.screens.lobby import LobbyScreen, WatchCodeScreen
    from spades_tui.tui.screens.table import ServerAddressScreen

    screens: dict[str, Callable[[], Screen[Any]]] = {
        "server_address": ServerAddressScreen, "lobby": lambda: LobbyScreen("spades.example.org:7000"),
        "watch_code": WatchCodeScreen,
        "tunnel": lambda: TableChoiceScreen("A tunnel with ssh", "ssh -N -L …", [("close", "Back")])}
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        shown = screens[form]()
        app.push_screen(shown)
        await until(pilot, lambda: app.screen is shown, "the form")
        assert "f1 Help" in screen_text(app).splitlines()[-1]
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help over it")
        assert "Playing a friend" in screen_text(app)
