"""The real program in a pseudo-terminal, for the tests that type at it as a person would (POSIX only).

``Game(args, data_home)`` starts ``python -m spades_tui ARGS`` in a new pseudo-terminal of 100x32, its data
and preferences under ``data_home`` (never the user's own), and drains what it draws in a thread.  Waits
are for text drawn after a mark, bounded by ``tests.support.wait.BOUND``.
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Optional, Sequence

from tests.support.cli import ROOT
from tests.support.wait import BOUND, POLL

START_TIMEOUT = BOUND  # the bound on one step of a game in a terminal (kept for the tests that name it)


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
            time.sleep(POLL)
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
            time.sleep(POLL)
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
