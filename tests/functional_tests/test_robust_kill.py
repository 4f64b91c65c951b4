"""Killed mid-game: the real program in a pseudo-terminal, SIGKILLed at random moments.

Each round starts ``python -m spades_tui`` (``--hotseat`` or ``--bot easy`` for a new game in a
new slot, no option to resume the latest game from the start screen), sends random keys, and
kills it with SIGKILL after a random delay: between keys, during an autosave, while the bot
thinks.  The game's slot must then load and replay legally, hold every action the run had
saved before (nothing acknowledged is lost), and the next start must offer to resume it.  Bot
child processes must not outlive the killed game.

CI runs a few kills; the soak is the same file:
    SPADES_KILLS=150 SPADES_KILL_SEED=3 nice -n 19 python -m pytest -q tests/functional_tests/test_robust_kill.py
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import pytest

from spades_tui.engine.record import replay
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import load_record
from tests.support.cli import ROOT, alive, saved
from tests.support.terminal import Game

KILLS = int(os.environ.get("SPADES_KILLS", "4"))
KILL_SEED = int(os.environ.get("SPADES_KILL_SEED", "1"))

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


KEYS = [b"\r"] * 8 + [b"\x1b[C", b"\x1b[D", b" ", b"1", b"3"]


def _slot_number(path: Path) -> int:
    return int(path.name.split(".")[0].removeprefix("game-"))


def _latest_unfinished(games: Path) -> Optional[Path]:
    """The game the start screen offers first: the most recently played unfinished one."""
    found = []
    for path in games.glob("game-*.json"):
        record = saved(path)
        if record is not None and replay(record).phase is not Phase.GAME_OVER:
            found.append((path.stat().st_mtime, path))
    return max(found)[1] if found else None


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_saved(tmp_path: Path) -> None:
    rng = random.Random(KILL_SEED)
    games = tmp_path / "spades-tui" / "games"
    survived = orphans = resumed = with_bot = actions = 0
    for round_no in range(KILLS):
        latest = _latest_unfinished(games)
        if latest is not None and rng.random() < 0.6:
            game = Game([], tmp_path)  # the start screen: the latest game is the first choice
            assert game.wait_for(b"Resume hand "), "the next start does not offer to resume"
            game.send(b"\r")
            autosave = latest
            resumed += 1
        else:
            # A new game takes a new slot, numbered above every one in use.
            autosave = games / f"game-{max(map(_slot_number, games.glob('game-*')), default=0) + 1}.json"
            # Alternate: hot-seat, then a bot (the hard one thinks longest: kills land mid-thought).
            mode = ["--hotseat"] if round_no % 2 == 0 else ["--bot", rng.choice(["easy", "hard"])]
            game = Game([*mode, "--seed", str(rng.randrange(10**6))], tmp_path)
        try:
            assert game.wait_for(b"Hand "), "the game did not start"
            # The saved actions the run has acknowledged (written to disk) before the kill.
            acked = saved(autosave)
            assert acked is not None
            for _ in range(rng.randint(0, 60)):
                game.send(rng.choice(KEYS))
                if rng.random() < 0.3:
                    time.sleep(rng.random() * 0.05)  # let some keys land while others queue
                    now = saved(autosave)
                    if now is not None and len(now.actions) > len(acked.actions):
                        acked = now
            time.sleep(rng.random() * 0.4)  # a random moment: mid-key, mid-save, mid-bot-thought
            kids = game.kill()
        finally:
            if game.pid > 0 and alive(game.pid):
                game.kill()
        record = load_record(autosave)  # a complete, valid file: the old one or the new one
        state = replay(record)  # legal
        assert record.actions[: len(acked.actions)] == acked.actions, "an acknowledged action was lost"
        assert state is not None
        survived += 1
        with_bot += bool(kids)
        actions = len(record.actions)
        # A bot thinking in a child process must notice its game is gone.
        end = time.monotonic() + 20
        while any(alive(k) for k in kids) and time.monotonic() < end:
            time.sleep(0.05)
        left = [k for k in kids if alive(k)]
        for k in left:
            os.kill(k, signal.SIGKILL)
        orphans += len(left)
        assert not left, f"round {round_no}: bot processes outlived the killed game: {left}"
    print(f"\nkills survived: {survived} of {KILLS} (resumed {resumed}, {with_bot} with a bot "
          f"process), orphans {orphans}, seed {KILL_SEED}, {actions} actions in the final record")
    assert not list(games.glob("*.corrupt-*")), "a kill left a file the next start could not read"


SLOW_WRITER = """
import os, sys
from spades_tui.keep import storage
real_fsync, real_replace = os.fsync, os.replace
stage = sys.argv[2]
def fsync(fd):
    real_fsync(fd)
    if stage == "write":
        print("writing", flush=True); sys.stdin.readline()
def replace(a, b):
    real_replace(a, b)
    if stage == "replaced":
        print("writing", flush=True); sys.stdin.readline()
os.fsync, os.replace = fsync, replace
storage.atomic_write_text(sys.argv[1], "NEW " * 200000)
"""


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["write", "replaced"])
def test_a_write_killed_midway_leaves_the_old_file_or_the_new(tmp_path: Path, stage: str) -> None:
    target = tmp_path / "autosave.json"
    target.write_text("OLD", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target), stage], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
        proc.kill()
    finally:
        proc.wait(30)
    text = target.read_text(encoding="utf-8")
    assert text == ("OLD" if stage == "write" else "NEW " * 200000)
