"""Kill -9 either side of a table in the middle of a game (two real processes, 127.0.0.1): start it
again (``host --resume``, ``join`` with no code) and the game goes on from the same action, with
nothing lost and nothing dealt twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spades_tui.engine.record import replay
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import load_record

from .table_support import free_port

ROOT = Path(__file__).resolve().parents[2]
BOUND = 120.0  # seconds: a generous bound on a loaded machine, not a timing assertion

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def spades(args: list[str], home: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home / "config"))
    return subprocess.Popen([sys.executable, "-m", "spades_tui", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def slot_actions(home: Path) -> int:
    path = home / "spades-tui" / "games" / "game-1.json"
    try:
        return len(load_record(path).actions)
    except Exception:  # not there yet, or caught between writes (they are atomic: the old one is read)
        return 0


def wait_for(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)  # polling a file another process writes, not timing anything


def test_kill_the_host_then_the_client_and_the_game_goes_on(tmp_path: Path) -> None:
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    port = free_port()
    # Two hands at least (a hand has 57 actions; 200 points need two): room for the 60 actions before the
    # kill and the 40 after the resume, and less game to play out after the last kill than a 300-point one.
    common = ["--port", str(port), "--rules", "target=200", "--bot", "easy"]
    host = spades(["host", *common], host_home)
    assert host.stdout is not None
    invite = host.stdout.readline().split()
    assert invite[:2] == ["spades-tui", "join"] and invite[2] == f"127.0.0.1:{port}"
    join = spades(["join", invite[2], invite[3], "--bot", "easy"], join_home)
    try:
        wait_for(lambda: slot_actions(host_home) >= 60, "the game got going")
        host.send_signal(signal.SIGKILL)
        host.wait(BOUND)
        saved = load_record(host_home / "spades-tui" / "games" / "game-1.json")
        assert join.wait(BOUND) == 1  # the table went away: said, and the seat kept
        assert "went away" in (join.stderr.read() if join.stderr else "")
        host = spades(["host", "--resume", *common], host_home)
        assert host.stdout is not None
        assert host.stdout.readline().split() == invite  # the same table: the same code, the same address
        join = spades(["join", invite[2], "--bot", "easy"], join_home)  # no code: the seat's token
        wait_for(lambda: slot_actions(host_home) >= len(saved.actions) + 40, "the resumed game went on")
        join.send_signal(signal.SIGKILL)
        join.wait(BOUND)
        join = spades(["join", "--bot", "easy"], join_home)  # no address either: the last seat
        out, err = join.communicate(timeout=BOUND)
        assert join.returncode == 0, err
        assert "Shuffle verified for all" in out
        host.wait(BOUND)
        final = load_record(host_home / "spades-tui" / "games" / "game-1.json")
        assert final.actions[:len(saved.actions)] == saved.actions  # nothing lost, nothing dealt again
        assert replay(final).phase is Phase.GAME_OVER
    finally:
        for process in (host, join):
            if process.poll() is None:
                process.kill()
                process.wait()
