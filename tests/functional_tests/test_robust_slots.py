"""Two copies of the real program at once, in two pseudo-terminals, sharing one data directory.

They used to share one autosave file, and the last writer won.  Now each plays in its own slot:
both keep a record that replays; a SIGKILL of one while the other is in the middle of a save
(held there, between writing its temporary file and renaming it) loses nothing of either; a third
copy started meanwhile leaves the live copy's temporary file alone, lists both games and refuses
to resume the one still open.  No sleeps: the paused copy waits on a FIFO the test opens.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import pytest

from spades_tui.engine.record import GameRecord, replay
from spades_tui.keep.slots import SlotDirectory
from tests.support.cli import alive, saved
from tests.support.terminal import Game
from tests.support.wait import POLL, Deadline, until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

# The real program, with os.replace held up once the test arms it: the copy stops in the middle of
# an autosave (its temporary file written and synced, not yet renamed) until the test opens the FIFO.
PAUSING = """
import os, runpy, sys
from pathlib import Path
control = Path(os.environ["SPADES_TEST_PAUSE"])
real_replace = os.replace
def replace(src, dst, *args, **kwargs):
    if str(src).endswith(".tmp") and (control / "arm").exists():
        (control / "arm").unlink()
        # Whole or not at all: the test reads it as soon as it exists (a plain write showed it empty once).
        (control / "saving.part").write_text(str(src))
        real_replace(control / "saving.part", control / "saving")
        with open(control / "go") as fifo:  # blocks until the test opens the other end
            fifo.read()
    return real_replace(src, dst, *args, **kwargs)
os.replace = replace
sys.argv = ["spades-tui", *sys.argv[1:]]
runpy.run_module("spades_tui", run_name="__main__", alter_sys=True)
"""


def _actions(path: Path) -> int:
    record = saved(path)
    return len(record.actions) if record is not None else -1


# What each screen of a hot-seat draft shows first: the hand-off, the Double Nil question, a draft turn.
PROMPTS = (b"Pass to ", b"Declare Double Nil", b"draft turn")


def _press_until(game: Game, check: Callable[[], bool], what: str) -> None:
    """Press Enter until ``check()`` holds.  Enter is always a legal choice, so extra presses only play
    on.  Each goes in once the screen the last one brought up is drawn (its prompt, after that key): a key
    that lands while a screen is replaced is dropped on purpose, and would be waited for in vain."""
    deadline = Deadline(what)
    while not check():
        since = game.mark()
        game.send(b"\r")
        while not check() and not any(game.seen(prompt, since) for prompt in PROMPTS):
            if deadline.passed():
                raise deadline.fail()
            time.sleep(POLL)


def _play(game: Game, path: Path, at_least: int) -> GameRecord:
    """Play on until the game's slot holds ``at_least`` actions; its record then."""
    _press_until(game, lambda: _actions(path) >= at_least, f"{path.name} to reach {at_least} actions")
    record = saved(path)
    assert record is not None
    return record


@pytest.mark.slow
def test_two_copies_at_once_keep_two_games_and_a_kill_of_one_loses_nothing(tmp_path: Path) -> None:
    games = tmp_path / "spades-tui" / "games"
    control = tmp_path / "control"
    control.mkdir()
    os.mkfifo(control / "go")
    a = Game(["--hotseat", "--seed", "1"], tmp_path, {"SPADES_TEST_PAUSE": str(control)}, launcher=["-c", PAUSING])
    b: Optional[Game] = None
    c: Optional[Game] = None
    try:
        assert a.wait_for(b"Hand "), "copy A did not start"
        b = Game(["--hotseat", "--seed", "2"], tmp_path)
        assert b.wait_for(b"Hand "), "copy B did not start"
        slot_a, slot_b = games / "game-1.json", games / "game-2.json"
        # Both play, turn about; each record grows in its own file.
        for n in (3, 6, 9):
            _play(a, slot_a, n)
            acked_b = _play(b, slot_b, n)
        acked_a = saved(slot_a)
        assert acked_a is not None and dict(acked_a.metadata)["seed"] == 1 and dict(acked_b.metadata)["seed"] == 2
        assert acked_a.actions != acked_b.actions

        # A stops in the middle of a save; B is killed meanwhile.
        (control / "arm").touch()
        _press_until(a, (control / "saving").exists, "copy A to start a save")
        temp_a = Path((control / "saving").read_text())
        assert temp_a.exists() and temp_a.parent == games
        b.kill()
        stray_b = games / ".game-2.json.killed.tmp"  # what a kill during B's save would have left
        stray_b.write_text("half", encoding="utf-8")

        # A third copy, started while A is mid-save: it cleans B's stray, not A's file, and lists both games.
        c = Game([], tmp_path)
        assert c.wait_for(b"open in another window: continue it there"), "A's game is not shown as open"
        assert c.seen(b"Resume hand 1: Player 1")
        assert temp_a.exists() and not stray_b.exists()
        c.send(b"\x1b[B\r")  # down to A's game (listed after the free one) and Enter: refused
        assert c.wait_for(b"That game is open in another window"), "resuming A's game was not refused"

        with open(control / "go", "w"):  # A goes on: its save completes
            pass
        until(lambda: _actions(slot_a) > len(acked_a.actions), "copy A to finish its save")
        assert not temp_a.exists()
        c.send(b"\r")  # the start screen again: B's game, free since the kill, resumes in copy C
        assert c.wait_for(b"Pass to "), "copy C did not resume B's game"
        until(lambda: SlotDirectory(games).held_elsewhere(slot_b), "copy C to hold B's slot")

        for game in (a, c):
            game.send(b"\x11")  # Ctrl+Q
            assert game.wait_exit() == 0
    finally:
        for left in (a, b, c):
            if left is not None and left.pid > 0 and alive(left.pid):
                left.kill()

    # Two records, each in its own file, each legal, each holding every action it acknowledged.
    record_a, record_b = saved(slot_a), saved(slot_b)
    assert record_a is not None and record_b is not None
    assert record_a.actions[: len(acked_a.actions)] == acked_a.actions and len(record_a.actions) > len(acked_a.actions)
    assert record_b.actions == acked_b.actions
    replay(record_a), replay(record_b)
    assert sorted(p.name for p in games.glob("*.json")) == ["game-1.json", "game-2.json"]
    assert not list(games.glob(".*.tmp")) and not SlotDirectory(games).is_held(slot_a)
