"""Key mashing: a seeded random walk of key presses and terminal resizes through every screen.

After every key: no exception, the game in the store replays from its record to the very
state the app shows, no hidden card is on a game screen (docs/rules.md 10), and every observation
handed to the bot holds no card the bot may not know.  Sessions end by Ctrl+Q or the Quit
choice and the next one starts from the start screen (resume, new game, load), so resume is
mashed too.

CI runs a few thousand keys.  The same file runs the soak:
    SPADES_MASH_KEYS=25000 SPADES_MASH_SEED=7 nice -n 19 python -m pytest -q \
        tests/functional_tests/test_robust_keys.py
(SPADES_MASH_KEYS is the number of keys per test; each test has its own seed derived from
SPADES_MASH_SEED.)
"""

from __future__ import annotations

import asyncio
import os
import random
from collections import Counter, deque
from pathlib import Path
from typing import Optional

import pytest

from spades_tui.bots.base import Bot
from spades_tui.engine.record import replay
from spades_tui.engine.rules import Rules
from spades_tui.keep.storage import load_record
from spades_tui.session import session as session_module
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.help import HelpScreen
from tests.support.checking import CheckingBot, MashApp
from tests.support.pilot import (
    bot_thinking,
    check_frame,
    forfeit,
    game_state,
    game_store,
    screen_text,
    set_fine_grain,
    until,
    vs_bot,
)
from tests.support.wait import BOUND

# Every test here is marked slow (key soaks): left out of the quick check.

KEYS_PER_TEST = int(os.environ.get("SPADES_MASH_KEYS", "500"))
BASE_SEED = int(os.environ.get("SPADES_MASH_SEED", "1"))
STEP_TIMEOUT = BOUND  # one key's bound (tests/support/wait.py): only a stall reaches it
GRAIN = float(os.environ.get("SPADES_MASH_GRAIN", "0.003"))

USUAL = ["enter"] * 12 + ["left", "right", "up", "down"] * 3 + [
    "h", "j", "k", "l", "space", "space", "f1", "question_mark", "escape", "escape", "tab", "shift+tab", "q",
    *[str(d) for d in range(10)],
]
OTHER = ["backspace", "delete", "home", "end", "pageup", "pagedown", "ctrl+c", "insert",
         *[f"f{n}" for n in range(2, 13)], "minus", "plus", "comma", "full_stop", "slash"]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _key(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.80:
        return rng.choice(USUAL)
    if r < 0.90:
        return rng.choice(OTHER)
    if r < 0.995:
        return rng.choice(LETTERS)
    return "ctrl+q"


def _size(rng: random.Random) -> tuple[int, int]:
    if rng.random() < 0.4:
        return rng.randint(20, 79), rng.randint(8, 23)  # too small: the game hides and waits
    return rng.randint(80, 200), rng.randint(24, 60)


def _check(app: MashApp, tmp_path: Path, step: int) -> None:
    store = game_store(app)
    if store is not None:
        assert game_state(app) == store.state, "the screen's state is not the store's"
        assert replay(store.record) == store.state, "the record does not replay to the state"
        if step % 40 == 0 and store.save_error is None:
            assert app.autosave_path is not None and load_record(app.autosave_path).actions == store.record.actions
    if isinstance(app.screen, GameScreen) and game_state(app) is not None:
        check_frame(app, hotseat=not vs_bot(app))


async def _session(tmp_path: Path, rng: random.Random, budget: int, stats: Counter[str],
                   monkeypatch: pytest.MonkeyPatch) -> int:
    """One app run from the start screen; returns the keys it used."""
    app = MashApp(LaunchOptions(rules=Rules(target=rng.choice([1, 100, 200]))),
                  data_dir=tmp_path)
    bots: list[CheckingBot] = []

    def create_bot(spec: str, seed: Optional[int]) -> Bot:
        bot = CheckingBot(app, seed)
        bots.append(bot)
        return bot

    monkeypatch.setattr(session_module, "create_bot", create_bot)
    set_fine_grain(monkeypatch, GRAIN)  # the walk about three times faster (tests/support/pilot.py)
    used = 0
    size = (100, 32)
    history: deque[str] = deque(maxlen=12)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        while used < budget:
            if rng.random() < 0.03:
                size = _size(rng)
                await pilot.resize_terminal(*size)
                stats["resizes"] += 1
            key = _key(rng)
            try:
                # A stalled app must fail the walk, not hang it (one soak stalled once: see the report).
                await asyncio.wait_for(pilot.press(key), STEP_TIMEOUT)
            except TimeoutError:
                raise AssertionError(f"no answer to {key!r} within {STEP_TIMEOUT} s after {list(history)}, "
                                     f"screens {app.screen_stack!r}, running {app.is_running}") from None
            history.append(key)
            used += 1
            if bot_thinking(app):
                for _ in range(100):
                    await pilot.pause()
                    if not bot_thinking(app):
                        break
            if not app.is_running:
                stats["quits"] += 1
                break
            _check(app, tmp_path, used)
            # The bot's checks run in its worker thread, where a failure reads as a crash and a forfeit.
            ended = forfeit(app)
            assert ended is None or "crashed" not in ended, ended
            stats[type(app.screen).__name__] += 1
            if isinstance(app.screen, GameScreen):
                stats["game"] += 1
                stats[app.screen.pane] += 1
        if app.is_running:
            # Still answering: help opens over whatever screen is up (F1 toggles it, so close it first).
            await pilot.resize_terminal(100, 32)
            if isinstance(app.screen, HelpScreen):
                await pilot.press("escape")
                await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed before F1")
            await pilot.press("f1")
            try:
                await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help open")
            except AssertionError:
                raise AssertionError(f"help did not open: {app.screen_stack!r} after {list(history)}") from None
            # The guide's section for the screen beneath comes first; the keys are a page or two down.
            for _ in range(6):
                await pilot.pause()
                if "Keys" in screen_text(app):
                    break
                await pilot.press("pagedown")
            assert "Keys" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed by Escape")
            _check(app, tmp_path, 0)
    stats["bot decisions checked"] += sum(b.checked for b in bots)
    return used


@pytest.mark.slow
@pytest.mark.parametrize("walk", [0, 1])
async def test_key_mashing_through_every_screen(tmp_path: Path, walk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(f"{BASE_SEED}:{walk}")
    stats: Counter[str] = Counter()
    total = 0
    sessions = 0
    while total < KEYS_PER_TEST:
        total += await _session(tmp_path, rng, min(KEYS_PER_TEST - total, rng.randint(150, 1500)), stats,
                                monkeypatch)
        sessions += 1
    stats["sessions"] = sessions
    stats["keys"] = total
    print(f"\nmash walk {walk} seed {BASE_SEED}: {dict(stats)}")
    # The walk reaches the game itself, not just the menus.
    assert stats["game"] > 0 and total >= KEYS_PER_TEST
