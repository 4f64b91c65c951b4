"""Kill -9 either side of a table in the middle of a game (two real processes, 127.0.0.1): start it
again (``host --resume``, ``join`` with no code) and the game goes on from the same action, with
nothing lost and nothing dealt twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from spades_tui.engine.record import replay
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import load_record
from tests.support.table import free_port
from tests.support.wait import BOUND, until

ROOT = Path(__file__).resolve().parents[2]

# Every test here is marked slow (processes killed and resumed): left out of the quick check.
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


@pytest.mark.slow
def test_kill_the_host_then_the_client_and_the_game_goes_on(tmp_path: Path) -> None:
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    # Two hands at least (a hand has 57 actions; 200 points need two): room for the 60 actions before the
    # kill and the 40 after the resume, and less game to play out after the last kill than a 300-point one.
    common = ["--rules", "target=200", "--bot", "easy"]
    host = spades(["host", *common], host_home)  # any free port: resumed, it listens there again
    assert host.stdout is not None
    invite = host.stdout.readline().split()
    assert invite[:2] == ["spades-tui", "join"] and invite[2].startswith("127.0.0.1:")
    join = spades(["join", invite[2], invite[3], "--bot", "easy"], join_home)
    try:
        until(lambda: slot_actions(host_home) >= 60, "the game got going")
        host.send_signal(signal.SIGKILL)
        host.wait(BOUND)
        saved = load_record(host_home / "spades-tui" / "games" / "game-1.json")
        host = spades(["host", "--resume", *common], host_home)
        assert host.stdout is not None
        assert host.stdout.readline().split() == invite  # the same table: the same code, the same address and port
        # The guest was never restarted: it reconnects by itself and the game goes on from the same action.
        until(lambda: slot_actions(host_home) >= len(saved.actions) + 40, "the resumed game went on")
        assert join.poll() is None
        join.send_signal(signal.SIGKILL)
        join.wait(BOUND)
        said = join.stderr.read() if join.stderr else ""
        assert "Lost the table" in said and "Back at the table." in said, said
        assert said.index("Lost the table") < said.index("Back at the table.")
        join = spades(["join", "--bot", "easy"], join_home)  # no address, no code: the last seat's token
        out, err = join.communicate(timeout=BOUND)
        assert join.returncode == 0, err
        assert "Shuffle verified for all" in out
        assert "Game over:" in err and "scored:" in err  # one line per event on standard error
        host.wait(BOUND)
        host_said = host.stderr.read() if host.stderr else ""
        assert "is back at the table." in host_said and "left the table" in host_said, host_said
        final = load_record(host_home / "spades-tui" / "games" / "game-1.json")
        assert final.actions[:len(saved.actions)] == saved.actions  # nothing lost, nothing dealt again
        assert replay(final).phase is Phase.GAME_OVER
    finally:
        for process in (host, join):
            if process.poll() is None:
                process.kill()
                process.wait()


def server_actions(home: Path) -> int:
    games = home / "spades-tui" / "games"
    try:
        return max((len(load_record(path).actions) for path in games.glob("game-*.json")), default=0)
    except Exception:  # caught between writes, or not there yet
        return 0


@pytest.mark.slow
def test_kill_the_server_and_its_tables_are_there_again_and_the_game_goes_on(tmp_path: Path) -> None:
    server_home, a_home, b_home = tmp_path / "server", tmp_path / "a", tmp_path / "b"
    port = free_port()
    serve = ["serve", "--tables-only", "--port", str(port)]
    server = spades(serve, server_home)
    assert server.stdout is not None
    assert "Tables are served on" in server.stdout.readline()
    opener = spades(["host", "--server", f"127.0.0.1:{port}", "--rules", "target=300", "--bot", "easy"], a_home)
    assert opener.stdout is not None
    invite = opener.stdout.readline().split()
    watch = opener.stdout.readline().split()
    assert invite[:3] == ["spades-tui", "join", f"127.0.0.1:{port}"], invite
    assert watch[:4] == ["To", "watch:", "spades-tui", "watch"] and watch[-1] != invite[-1]
    join = spades(["join", invite[2], invite[3], "--bot", "easy"], b_home)
    processes = [server, opener, join]
    try:
        until(lambda: server_actions(server_home) >= 60, "the game got going")
        server.send_signal(signal.SIGKILL)
        server.wait(BOUND)
        saved = server_actions(server_home)
        # A damaged file beside the tables: said and set aside; no table is harmed.
        (server_home / "spades-tui" / "games" / "game-9.json").write_text("{not json", encoding="utf-8")
        server = spades(serve, server_home)
        processes.append(server)
        assert server.stdout is not None
        told = [server.stdout.readline() for _ in range(2)]
        assert any("game-9" in line for line in told), told
        assert any("(1 table kept from before)" in line for line in told), told
        # Neither seat was restarted: both reconnect by themselves and play the game to its end.
        # Twice the bound: a retry may be a minute away on a loaded machine, then the rest of the game.
        _out, err = opener.communicate(timeout=2 * BOUND)
        assert opener.returncode == 0, err
        assert "Lost the table" in err and "Back at the table." in err and "Game over:" in err
        assert join.wait(BOUND) == 0
        final = max((load_record(path) for path in (server_home / "spades-tui" / "games").rglob("game-*.json")
                     if "corrupt" not in path.name and path.name != "game-9.json"),
                    key=lambda record: len(record.actions))
        assert len(final.actions) > saved and replay(final).phase is Phase.GAME_OVER
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
