"""The bot seen from the app: a child process for built-in bots, observation only, forfeits."""

from __future__ import annotations

import functools
import os
import sys
import time
from pathlib import Path
from typing import Sequence

import pytest

from spades_tui.bots.base import Bot, BotError
from spades_tui.bots.levels import make_bot
from spades_tui.bots.process import ProcessBot
from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.observation import Observation, observe
from spades_tui.engine.record import GameRecord
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase, new_game
from spades_tui.session import session as session_module
from spades_tui.session.dealer import Dealer
from spades_tui.session.store import GameStore
from tests.support.cli import alive
from tests.support.pilot import HOTSEAT, forfeit, make_app, screen_text, settle
from tests.support.wait import POLL, Deadline


def _failing_factory() -> Bot:
    raise RuntimeError("no such model")


def test_process_bot_answers_with_a_legal_action() -> None:
    store = GameStore(GameRecord(Rules(), 1, HOTSEAT), seed=1)
    store.deal()
    bot = ProcessBot(functools.partial(make_bot, "easy", 1))
    try:
        bot.start(1, store.state.rules)
        legal = legal_actions(store.state)
        assert bot.decide(observe(store.state, 1), legal) in legal
    finally:
        bot.close()


def test_process_bot_that_cannot_start_forfeits_with_a_message() -> None:
    store = GameStore(GameRecord(Rules(), 1, HOTSEAT), seed=1)
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


@pytest.mark.slow
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
            if forfeit(app):
                break
            await pilot.press("enter")
            await settle(pilot, app)
        text = screen_text(app)
        assert "forfeits: the bot program exited with status 3" in text
        assert "New game" in text
        await pilot.press("enter")  # New game: back to the start screen, no crash
        await pilot.pause()
        assert "New game against the bot" in screen_text(app)
        # The forfeited game ended without reaching its target (its last view, kept by the app).
        assert app.seat_view is not None and app.seat_view.phase is not Phase.GAME_OVER


def _bidding_state() -> GameState:
    state = new_game(Rules(), 0)
    dealer = Dealer(4)
    while state.phase is not Phase.BIDDING:
        chance = dealer.chance_action(state)
        state = reduce(state, chance if chance is not None else legal_actions(state)[0])
    return state


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out |= {int(x) for x in f.read().split()}
    return out


def _wait_gone(pids: set[int]) -> set[int]:
    """The pids still alive once each had time to end (a bounded wait, not a timing test): the caller asserts
    none is, naming them."""
    deadline = Deadline("the processes to end")
    while (left := {p for p in pids if alive(p)}) and not deadline.passed():
        time.sleep(POLL)
    return left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["close", "kill"])
def test_the_expert_bots_worker_processes_end_with_it(how: str) -> None:
    state = _bidding_state()
    seat = state.to_act
    assert seat is not None
    bot = ProcessBot(functools.partial(make_bot, "expert:iters=12,workers=2", 1))
    try:
        bot.start(seat, state.rules)
        legal = legal_actions(state)
        assert bot.decide(observe(state, seat), legal) in legal
        process = bot._process
        assert process is not None
        child = process.pid
        workers = _children(child)
        assert len(workers) == 2  # the pool lives in the bot's process
        if how == "kill":  # killed mid-game: the workers must not outlive it
            process.kill()
            process.wait()
    finally:
        bot.close()
    assert not _wait_gone(workers)
