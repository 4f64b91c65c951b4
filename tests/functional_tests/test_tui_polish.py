"""The table a player can follow (issue 21): the game menu, the first take-back asked, the load list, the
ASCII footer, the bids in one row, the game-over table at 80x24, this hand's tricks in the panel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_tui.engine.record import PlayerInfo
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.tui.app.startup import Resume
from spades_tui.tui.screens.choice import ChoiceScreen
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.load import LoadScreen
from spades_tui.tui.screens.start import StartScreen
from tests.support.pilot import (
    VS_BOT,
    game_state,
    game_store,
    make_app,
    record_until,
    screen_text,
    settle,
    store_of,
)


@pytest.mark.slow
async def test_escape_opens_the_game_menu_and_it_goes_back_to_the_start_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and "esc Menu" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        text = screen_text(app)
        for choice in ("Resume the game", "Settings", "Help", "Back to the start screen", "Quit"):
            assert choice in text
        await pilot.press("escape")  # Esc again: back to the game, nothing changed
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape", "down", "down", "down", "enter")  # Back to the start screen
        await settle(pilot, app)
        assert isinstance(app.screen, StartScreen) and "Resume hand 1" in screen_text(app)  # the game is kept


@pytest.mark.slow
async def test_the_first_take_back_asks_and_says_what_it_means_for_the_statistics(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(6):
            await pilot.press("enter")
            await settle(pilot, app)
        store = game_store(app)
        assert store is not None
        before = store.record.actions
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        text = " ".join(screen_text(app).split())
        assert "practice game" in text and "hands already scored still count" in text
        await pilot.press("down", "enter")  # Keep playing: nothing taken back
        await settle(pilot, app)
        assert store_of(app).record.actions == before
        await pilot.press("u", "enter")  # asked again, and taken back
        await settle(pilot, app)
        assert len(store_of(app).record.actions) < len(before)
        assert "PRACTICE (1 take-back)" in screen_text(app)
        for _ in range(4):
            await pilot.press("enter")
            await settle(pilot, app)
        await pilot.press("u")  # a practice game already: no question
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and "PRACTICE (2 take-backs)" in screen_text(app)


@pytest.mark.slow
async def test_load_lists_the_saved_games_and_the_records_here(tmp_path: Path, monkeypatch: object) -> None:
    import pytest

    mp = monkeypatch
    assert isinstance(mp, pytest.MonkeyPatch)
    here = tmp_path / "here"
    here.mkdir()
    record = record_until(lambda s: s.phase is Phase.BIDDING, players=(PlayerInfo("Zoe"), PlayerInfo("Yan")))
    (here / "zoe.json").write_text(record.dumps(), encoding="utf-8")
    (here / "notes.json").write_text(json.dumps({"not": "a record"}), encoding="utf-8")
    mp.chdir(here)
    first = make_app(tmp_path, bot="easy")  # a saved game in the data folder
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot, first)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("down", "down", "down", "down", "enter")  # resume, bot, learn, hot-seat, Load a game record
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        text = screen_text(app)
        assert "zoe.json: Zoe 0 – Yan 0, hand 1" in text and "game-1.json: " in text
        assert "notes.json" not in text  # not a record: not offered
        assert "Or the path of a record" in text  # a typed path still works
        labels = [f.label for f in app.screen.found]
        await pilot.press(*["down"] * labels.index(next(lb for lb in labels if lb.startswith("zoe"))), "enter")
        await settle(pilot, app)
        store = game_store(app)
        assert store is not None and store.record.actions == record.actions and store.names() == ("Zoe", "Yan")


async def test_the_ascii_screen_spells_enter_in_the_footer(tmp_path: Path) -> None:
    app = make_app(tmp_path, hotseat=True)
    app.ascii_screen = True
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "Enter Confirm" in " ".join(screen_text(app).split())


async def test_the_bids_fit_one_row_and_the_footer_keeps_help_at_80x24(tmp_path: Path) -> None:
    record = record_until(lambda s: s.phase is Phase.BIDDING and s.to_act == 0, players=VS_BOT)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        lines = screen_text(app).splitlines()
        assert any("Nil" in line and " 13 " in line for line in lines)  # Nil to 13 on one row
        assert "f1 Help" in lines[-1]


async def test_game_over_at_80x24_shows_every_column(tmp_path: Path) -> None:
    from tests.support.games import bid_one  # bids of 1: the game reaches its target of 1

    record = record_until(lambda s: s.phase is Phase.GAME_OVER, players=VS_BOT, rules=Rules(target=1),
                          policy=bid_one)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        state = game_state(app)
        assert state is not None and state.phase is Phase.GAME_OVER
        text = screen_text(app)
        for header in ("Hand", "First", "Bids", "Won", "Points", "Score"):
            assert header in text
        h = state.history[-1]
        assert f"{h.scores_after[0]} · {h.scores_after[1]}".replace("-", "\u2212") in text
        assert "Spades to" not in text  # the panel gives the table its room below 110 columns


async def test_this_hands_tricks_are_listed_where_the_panel_has_room(tmp_path: Path) -> None:
    record = record_until(lambda s: s.phase is Phase.PLAY and s.to_act == 0 and s.hand is not None
                          and len(s.hand.tricks) >= 3, players=VS_BOT)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        state = game_state(app)
        assert state is not None and state.hand is not None
        text = screen_text(app)
        assert "Tricks (led card first)" in text
        for n, trick in enumerate(state.hand.tricks, 1):
            assert f"{n:>2}  {trick[0].card.label():>3} {trick[1].card.label():>3}" in text


async def test_a_trick_the_bot_won_stays_until_a_key_is_pressed(tmp_path: Path) -> None:
    """Before, the bot's next lead replaced it after the bot pause alone (0.6 s): the player needed t."""
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp

    record = record_until(lambda s: s.phase is Phase.PLAY and s.to_act == 1 and s.hand is not None
                          and bool(s.hand.tricks) and not s.hand.trick, players=VS_BOT)
    options = LaunchOptions(bot_pause=60, hints=False, show_hints=False)  # a minute: only a key ends it
    app = SpadesApp(options, data_dir=tmp_path, start=Resume(record), config_dir=tmp_path / "config")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        store = game_store(app)
        assert store is not None and len(store.record.actions) == len(record.actions)  # still on the table
        assert "won trick" in screen_text(app)
        await pilot.press("t")  # any key: the player has seen it
        await settle(pilot, app)
        assert len(store_of(app).record.actions) > len(record.actions)


@pytest.mark.slow
async def test_the_settings_offer_every_theme_the_palette_does(tmp_path: Path) -> None:
    from textual.widgets import Select

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f2")
        await pilot.pause()
        select = app.screen.query_one("#theme", Select)
        assert len(select._options) == len(app.available_themes)
