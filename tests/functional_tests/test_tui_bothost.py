"""The bot seen from the app: a child process for built-in bots, observation only, forfeits."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Sequence

import pytest

from spades_tui.bots import Bot, BotError, make_bot
from spades_tui.bots.host import ProcessBot
from spades_tui.engine import Observation, Phase, PlayerAction, Rules, legal_actions, observe
from spades_tui.session import GameStore
from spades_tui.session import session as session_module

from .test_tui_support import HOTSEAT, make_app, screen_text, settle


def _failing_factory() -> Bot:
    raise RuntimeError("no such model")


def test_process_bot_answers_with_a_legal_action() -> None:
    store = GameStore.new(Rules(), 1, HOTSEAT, seed=1)
    store.deal()
    bot = ProcessBot(functools.partial(make_bot, "easy", 1))
    try:
        bot.start(1, store.state.rules)
        legal = legal_actions(store.state)
        assert bot.decide(observe(store.state, 1), legal) in legal
    finally:
        bot.close()


def test_process_bot_that_cannot_start_forfeits_with_a_message() -> None:
    store = GameStore.new(Rules(), 1, HOTSEAT, seed=1)
    store.deal()
    bot = ProcessBot(_failing_factory)
    try:
        with pytest.raises(BotError, match="no such model"):
            bot.decide(observe(store.state, 1), legal_actions(store.state))
    finally:
        bot.close()


class _Recorder(Bot):
    def __init__(self) -> None:
        self.seen: list[object] = []

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        self.seen.append(observation)
        return legal[0]


async def test_the_bot_gets_its_own_observation_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(session_module, "create_bot", lambda spec, seed=None: recorder)
    app = make_app(tmp_path, bot="easy", seed=6)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(30):
            await pilot.press("enter")
            await settle(pilot, app)
        assert recorder.seen
        for obs in recorder.seen:
            assert isinstance(obs, Observation) and obs.seat == 1


class _Crasher(Bot):
    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        raise BotError("the bot program exited with status 3")


async def test_a_forfeiting_bot_ends_the_game_with_its_message(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "create_bot", lambda spec, seed=None: _Crasher())
    app = make_app(tmp_path, bot="easy", seed=6)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(5):
            if app.forfeit:
                break
            await pilot.press("enter")
            await settle(pilot, app)
        text = screen_text(app)
        assert "forfeits: the bot program exited with status 3" in text
        assert "New game" in text
        await pilot.press("enter")  # New game: back to the start screen, no crash
        await pilot.pause()
        assert "New game against the bot" in screen_text(app)
        assert app.state is not None and app.state.phase is not Phase.GAME_OVER
