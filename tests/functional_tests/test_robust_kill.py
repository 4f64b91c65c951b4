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

import fcntl
import os
import pty
import random
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Optional, Sequence

import pytest

from spades_tui.engine.record import GameRecord, replay
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import load_record

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("SPADES_KILLS", "4"))
KILL_SEED = int(os.environ.get("SPADES_KILL_SEED", "1"))
START_TIMEOUT = 60.0  # seconds: a generous bound on a loaded machine, not a timing assertion

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


class Game:
    """The program running in a pseudo-terminal, its output drained by a thread."""

    def __init__(self, args: list[str], data_home: Path, extra_env: Optional[dict[str, str]] = None,
                 launcher: Sequence[str] = ("-m", "spades_tui")) -> None:
        # The preferences too live under data_home (never the user's own): data_home/config/spades-tui.
        env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(data_home), TERM="xterm-256color",
                   LANG="C.UTF-8", XDG_CONFIG_HOME=str(data_home / "config"))
        # COLUMNS and LINES win over the terminal's own size, and pytest-xdist's workers have them (80x24):
        # the game must read the pseudo-terminal's size, set below.
        for name in ("NO_COLOR", "LC_ALL", "LC_CTYPE", "PYTHONIOENCODING", "SPADES_TUI_ASCII", "COLUMNS", "LINES"):
            env.pop(name, None)
        env.update(extra_env or {})
        pid, fd = pty.fork()
        if pid == 0:  # the child: becomes the game
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
                os.chdir(ROOT)
                os.execve(sys.executable, [sys.executable, *launcher, *args], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.output.extend(chunk)

    def seen(self, text: bytes, since: int = 0) -> bool:
        """Whether ``text`` was drawn, at or after offset ``since`` of the output (``mark()``)."""
        with self._lock:
            return self.output.find(text, since) >= 0

    def mark(self) -> int:
        """Where the output is now: what is drawn after it answers the keys sent after it."""
        with self._lock:
            return len(self.output)

    def wait_for(self, text: bytes, timeout: float = START_TIMEOUT, since: int = 0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.seen(text, since):
                return True
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                return self.seen(text, since)
            time.sleep(0.02)
        return False

    def press(self, key: bytes, then: bytes, timeout: float = START_TIMEOUT) -> bool:
        """Send ``key`` and wait until the screen it brings up shows ``then`` (drawn after the key), so the
        next key goes to that screen: a key that lands while a screen is replaced is dropped on purpose
        (``GameScreen.on_key``)."""
        since = self.mark()
        self.send(key)
        return self.wait_for(then, timeout, since)

    def wait_exit(self, timeout: float = START_TIMEOUT) -> Optional[int]:
        """The exit status once the game has ended by itself, or None if it is still running."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.pid = -1
                self.close()
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.02)
        return None

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def children(self) -> list[int]:
        kids = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.pid:
                    kids.append(int(entry))
        return kids

    def kill(self) -> list[int]:
        """SIGKILL the game; returns the child processes it had."""
        kids = self.children()
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        self.close()
        return kids

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass
        self._reader.join(5)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _saved(path: Path) -> Optional[GameRecord]:
    try:
        return load_record(path)
    except Exception:
        return None


KEYS = [b"\r"] * 8 + [b"\x1b[C", b"\x1b[D", b" ", b"1", b"3"]


def _slot_number(path: Path) -> int:
    return int(path.name.split(".")[0].removeprefix("game-"))


def _latest_unfinished(games: Path) -> Optional[Path]:
    """The game the start screen offers first: the most recently played unfinished one."""
    found = []
    for path in games.glob("game-*.json"):
        record = _saved(path)
        if record is not None and replay(record).phase is not Phase.GAME_OVER:
            found.append((path.stat().st_mtime, path))
    return max(found)[1] if found else None


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
            acked = _saved(autosave)
            assert acked is not None
            for _ in range(rng.randint(0, 60)):
                game.send(rng.choice(KEYS))
                if rng.random() < 0.3:
                    time.sleep(rng.random() * 0.05)  # let some keys land while others queue
                    now = _saved(autosave)
                    if now is not None and len(now.actions) > len(acked.actions):
                        acked = now
            time.sleep(rng.random() * 0.4)  # a random moment: mid-key, mid-save, mid-bot-thought
            kids = game.kill()
        finally:
            if game.pid > 0 and _alive(game.pid):
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
        while any(_alive(k) for k in kids) and time.monotonic() < end:
            time.sleep(0.05)
        left = [k for k in kids if _alive(k)]
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
