"""F1 and ? open help over every screen, a modal one too (the game menu, settings, statistics): Textual leaves a
modal screen's keys to it alone, so the app's F1 has priority and each modal screen binds ?."""

from __future__ import annotations

from pathlib import Path

import pytest

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
