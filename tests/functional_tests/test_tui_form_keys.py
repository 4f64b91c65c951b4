"""The new-game form's keys (issue 37): Tab visits only fields and buttons one can see, each with its label;
Enter in a typed field moves to the next field and starts nothing; Start, Enter on it, or Ctrl+S starts.
The settings form moves the same way (Save or Ctrl+S saves)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, OptionList

from spades_tui.tui.screens.forms import RULE_NUMBERS, RULE_SWITCHES
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.settings import SettingsScreen
from spades_tui.tui.screens.setup import SetupScreen
from tests.support.pilot import (
    make_app,
    screen_text,
    settle,
    store_of,
)

RULE_FIELDS = ["preset", "target", "bag_limit", "bag_penalty", *RULE_NUMBERS, *(key for key, _ in RULE_SWITCHES)]
NEW_GAME_BOT = ["start", "back", "name0", "level", "first", *RULE_FIELDS, "seed"]
NEW_GAME_HOTSEAT = ["start", "back", "name0", "name1", "first", *RULE_FIELDS, "seed"]
SETTINGS = ["theme", "language", "four_colour", "hints", "review", "forced_play", "bot_pause", "player_name",
            "bot_level", *RULE_FIELDS, "interface", "words", "table_server", "save", "back"]


async def open_form(pilot: Any, app: Any, which: str) -> None:
    await settle(pilot, app)
    if which == "settings":
        await pilot.press("f2")
    else:
        menu = app.screen.query_one(OptionList)
        menu.highlighted = menu.get_option_index(which)
        await pilot.press("enter")
    await settle(pilot, app)


def labelled(widget: Any) -> bool:
    """A button says what it is; a field stands in a row whose label says it."""
    if isinstance(widget, Button):
        return bool(str(widget.label).strip())
    row = widget.parent
    return isinstance(row, Horizontal) and row.has_class("row") and bool(str(row.query_one(Label).render()).strip())


@pytest.mark.parametrize(("which", "order"), [("bot", NEW_GAME_BOT), ("hotseat", NEW_GAME_HOTSEAT),
                                              ("settings", SETTINGS)])
async def test_tab_visits_only_the_labelled_fields_and_buttons_in_order(tmp_path: Path, which: str,
                                                                       order: list[str]) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_form(pilot, app, which)
        seen = []
        for _ in range(len(order) + 2):  # once round, and on to the first two again
            focused = app.focused
            assert focused is not None and focused.display and focused.region.area > 0, focused  # on the screen
            assert labelled(focused), focused
            seen.append(focused.id)
            await pilot.press("tab")
            await pilot.pause()
        assert seen == order + order[:2]  # no stop between the buttons and the first field (the form's scroll)
        for _ in range(len(order)):
            await pilot.press("shift+tab")
            await pilot.pause()
        assert app.focused is not None and app.focused.id == order[2]  # back round the same way


@pytest.mark.parametrize("which", ["bot", "hotseat"])
async def test_enter_in_a_field_moves_on_and_starts_nothing_start_starts(tmp_path: Path, which: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_form(pilot, app, which)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        name = screen.query_one("#name0", Input)
        name.focus()
        name.value = ""
        await pilot.press(*"Ada", "enter")  # a name typed and Enter, as a player does
        await settle(pilot, app)
        assert app.screen is screen and app.session is None  # no game yet
        assert app.focused is not None and app.focused.id == ("level" if which == "bot" else "name1")
        seed = screen.query_one("#seed", Input)
        seed.focus()
        await pilot.press(*"7", "enter")  # the last field: on to Start, still no game
        await settle(pilot, app)
        assert app.screen is screen and app.session is None
        assert app.focused is screen.query_one("#start", Button)
        assert "Start" in screen_text(app).splitlines()[-1] and "^s" in screen_text(app).splitlines()[-1]  # footer
        await pilot.press("enter")  # Enter on Start starts
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None and store_of(app).record.players is not None
        assert store_of(app).record.players[0].name == "Ada"


async def test_ctrl_s_starts_from_any_field_and_a_bad_field_is_said(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_form(pilot, app, "hotseat")
        screen = app.screen
        target = screen.query_one("#target", Input)
        target.focus()
        target.value = ""
        await pilot.press("x", "enter")  # Enter does not submit: nothing said yet, focus moved
        await settle(pilot, app)
        assert app.screen is screen and "target" not in str(screen.query_one("#message").render())
        await pilot.press("ctrl+s")  # the form is read: its wrong field said, no game
        await settle(pilot, app)
        message = str(screen.query_one("#message").render())
        assert app.screen is screen and "Target score must be a whole number" in message
        target.value = "300"
        screen.query_one("#name1", Input).focus()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and app.session is not None
        assert store_of(app).record.rules.target == 300


async def test_enter_in_a_settings_field_moves_on_and_ctrl_s_saves(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_form(pilot, app, "settings")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        name = screen.query_one("#player_name", Input)
        name.focus()
        name.value = ""
        await pilot.press(*"Bo", "enter")
        await settle(pilot, app)
        assert app.screen is screen and app.focused is not None and app.focused.id == "bot_level"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, SettingsScreen) and app.prefs.player_name == "Bo"


async def test_help_over_the_new_game_form_starts_with_its_section(tmp_path: Path) -> None:
    """F1 on the form: the guide's "A new game" (its keys, as above) first, then the rule options."""
    from spades_tui.tui.screens.help import HelpScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_form(pilot, app, "bot")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = [line.strip(" │╭╮╰╯─") for line in screen_text(app).splitlines() if line.strip(" │╭╮╰╯─")]
        assert lines[0] == "A new game"
        text = " ".join(" ".join(lines).split())
        assert "Enter in a field you type in moves to the next one" in text and "Ctrl+S starts the game" in text
        assert "Glossary" not in text  # the rest of the guide below
