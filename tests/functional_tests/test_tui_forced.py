"""A forced card (the only legal one) plays itself after a short pause, the setting on (its default), and
waits for Enter with it off; never in the draft or bidding, never in hot-seat (issue 29)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from spades_tui.engine.actions import Play
from spades_tui.engine.record import replay
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.state import GameState, Phase
from spades_tui.settings.preferences import Preferences
from spades_tui.tui.screens.game import GameScreen
from tests.support.pilot import (
    HOTSEAT,
    VS_BOT,
    game_state,
    make_app,
    record_until,
    settle,
    store_of,
    until,
)
from tests.support.positions import forced_follow, last_trick


@pytest.mark.parametrize("when", [forced_follow, last_trick], ids=["follow", "last_trick"])
@pytest.mark.slow
async def test_a_forced_card_plays_itself_with_the_setting_on(tmp_path: Path,
                                                             when: Callable[[GameState], bool]) -> None:
    record = record_until(when, players=VS_BOT, seed=5)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        before = len(record.actions)
        store = store_of(app) if app.session is not None else None
        assert store is not None
        # The person presses nothing: the card goes after the pause.
        await until(pilot, lambda: any(isinstance(a, Play) and a.player == 0 for a in store.record.actions[before:]),
                    "the forced card to play itself")
        assert store.record.actions[before] == next(a for a in legal_actions(replay(record))
                                                    if isinstance(a, Play) and a.player == 0)
        await settle(pilot, app)  # the screen the card led to (after the last: the summary) is up before closing


async def test_a_forced_card_waits_for_enter_with_the_setting_off(tmp_path: Path) -> None:
    record = record_until(forced_follow, players=VS_BOT, seed=5)
    app = make_app(tmp_path, loaded=record, prefs=Preferences(forced_play=False))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.forced is None  # no pause begun: nothing will play
        state = game_state(app)
        assert state is not None and forced_follow(state)
        assert app.session is not None and len(store_of(app).record.actions) == len(record.actions)
        await pilot.press("enter")  # Enter plays it
        await until(pilot, lambda: app.session is not None and any(
            isinstance(a, Play) and a.player == 0 for a in store_of(app).record.actions[len(record.actions):]),
            "Enter to play the forced card")


async def test_no_forced_play_in_hot_seat_nor_outside_the_play(tmp_path: Path) -> None:
    record = record_until(forced_follow, players=HOTSEAT, seed=5)
    app = make_app(tmp_path, loaded=record, hotseat=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.forced is None
    # The draft: one of two choices is never forced; bidding always offers more than one bid.
    record = record_until(lambda s: s.phase is Phase.DRAFT and s.to_act == 0, players=VS_BOT, seed=5)
    app = make_app(tmp_path / "draft", loaded=record)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.forced is None
