"""``spades-tui serve`` from tests and the measuring script: the server process, the browser, checks.

The browser is the system's Chromium driven by Playwright (its own browser download is not
reachable everywhere): ``SPADES_TEST_CHROMIUM`` names it, else ``chromium`` on the PATH.
"""

from __future__ import annotations

import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from tests.support.cli import saved
from tests.support.table import free_port
from tests.support.wait import BOUND, Deadline, until

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = BOUND  # the one bound (tests/support/wait.py), for Playwright's own waits too

# Headless, and quiet on a closed network (no update checks, sync or QUIC probes to wait on).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> Optional[str]:
    named = os.environ.get("SPADES_TEST_CHROMIUM")
    if named:
        return named if os.access(named, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browser_missing() -> Optional[str]:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install '.[test]')"
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        return "textual-serve is not installed (pip install .)"
    if chromium_path() is None:
        return ("no Chromium found (apt-get install chromium, or set SPADES_TEST_CHROMIUM to its path); "
                "Playwright's own browser download is not used")
    return None


# The browser tests' mark: skipped, with the reason, where Playwright, textual-serve or Chromium is missing.
needs_browser = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))


class Served:
    """``spades-tui serve`` on a free port, with its own data and config directories, in its own
    process group (so a test can send the group Ctrl+C's SIGINT, as a terminal does)."""

    def __init__(self, home: Path, *args: str) -> None:
        self.port = free_port()
        self.data = home / "data"
        self.games = self.data / "spades-tui" / "games"  # the server's own: the records of its tables
        self.visitors = self.data / "spades-tui" / "visitors"  # each browser's folder (table/wire/visitors.py)
        env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(self.data),
                   XDG_CONFIG_HOME=str(home / "config"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "spades_tui", "serve", "--port", str(self.port), *args],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.output = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        until(lambda: b"Spades is served on" in self.output or self.process.poll() is not None, "the server")
        assert self.process.poll() is None, f"the server stopped: {self.text()}"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def game_files(self) -> list[Path]:
        """The saved games of every visitor (each browser's tabs save in that browser's folder)."""
        return sorted(self.visitors.glob("*/games/game-*.json"))

    def seat_files(self) -> list[Path]:
        """The seats at tables of every visitor."""
        return sorted(self.visitors.glob("*/tables/seat-*.json"))

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.extend(line)

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")

    def game_processes(self) -> list[int]:
        """The server's own child processes: one game per open tab."""
        kids: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").glob("*"):
            try:
                kids += [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                pass
        return kids

    def descendants(self) -> list[int]:
        """Every process below the server (the games and their bots)."""
        found: list[int] = []
        todo = [self.process.pid]
        while todo:
            pid = todo.pop()
            for task in Path(f"/proc/{pid}/task").glob("*"):
                try:
                    kids = [int(k) for k in (task / "children").read_text().split()]
                except OSError:
                    continue
                found += kids
                todo += kids
        return found

    def stop(self, group: bool = True) -> int:
        """Ctrl+C: SIGINT to the whole process group as a terminal sends it (or to the server alone)."""
        if self.process.poll() is None:
            if group:
                os.killpg(self.process.pid, signal.SIGINT)
            else:
                self.process.send_signal(signal.SIGINT)
        code = self.process.wait(TIMEOUT)
        self._reader.join(5)
        return code

    def close(self) -> None:
        """Whatever a failed test left: stop it all."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
            self.process.wait(TIMEOUT)


def actions(path: Path) -> int:
    record = saved(path)
    return len(record.actions) if record is not None else -1


def launch_browser(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


def open_game(browser: Any, url: str, width: int = 1280, height: int = 800) -> Any:
    """A new tab on the page, its game drawn, the terminal focused for keys."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector("body.-first-byte", timeout=TIMEOUT * 1000)  # the game's first screen arrived
    page.click("#terminal")
    return page


def press_until(page: Any, key: str, check: Callable[[], bool], what: str, bound: float = BOUND) -> None:
    """Press ``key`` until ``check()`` holds; another press whenever a quarter second passes without it
    (Enter is always a legal choice, so an extra press only plays on)."""
    deadline = Deadline(what, bound)
    while not check():
        if deadline.passed():
            raise deadline.fail()
        page.keyboard.press(key)
        nudge = time.monotonic() + 0.25
        while not check() and time.monotonic() < nudge:
            time.sleep(0.02)


SCREEN_POLL = 0.1  # seconds between two looks at the tab's screen: a poll, not a timing


def settled_screen(page: Any, what: str, bound: float = BOUND) -> bytes:
    """The tab's screen once two looks in a row agree (a frame caught half drawn is never a baseline)."""
    deadline = Deadline(f"{what}: the tab's screen to settle", bound)
    last: bytes = page.screenshot()
    while True:
        time.sleep(SCREEN_POLL)
        now: bytes = page.screenshot()
        if now == last:
            return now
        if deadline.passed():
            raise deadline.fail()
        last = now


def press_and_see(page: Any, key: str, what: str, bound: float = BOUND, *, again: bool = False) -> None:
    """Press ``key`` and return once the tab's screen has changed for it: the game in a tab is a picture a test
    cannot read, so a key is known to have landed when its screen moves.  ``again``: the key is idempotent
    (End, Home), so ``press_until`` presses it again while nothing shows (a key sent before the game's first
    screen took keys is lost); any other key is pressed once and waited for."""
    before = settled_screen(page, what, bound)

    def moved() -> bool:
        return bool(page.screenshot() != before)

    if again:
        press_until(page, key, moved, what, bound)
    else:
        page.keyboard.press(key)
        until(moved, what, bound, poll=SCREEN_POLL)


def choose_from_the_end(page: Any, ups: int, what: str) -> None:
    """Open the start menu's entry ``ups`` above its last one, each key seen to land before the next is sent:
    End (pressed until the menu moves: the game takes keys from then on), Up ``ups`` times, then Enter, seen
    once the chosen screen is drawn, so what is typed next reaches it and not the menu."""
    until(lambda: drawn_share(page.screenshot()) > 0.02, f"{what}: the start screen drawn", poll=SCREEN_POLL)
    press_and_see(page, "End", f"{what}: the menu's last entry", again=True)
    for step in range(ups):
        press_and_see(page, "ArrowUp", f"{what}: the menu's entry {step + 2} from the end")
    press_and_see(page, "Enter", f"{what}: its screen")
    # The first change after Enter may be the screen half drawn (a loaded machine draws the form in steps): what
    # is typed next waits until two looks agree, so it reaches the form, not a screen still coming up.
    settled_screen(page, f"{what}: its screen drawn")


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of an 8-bit RGB or RGBA PNG (what Chromium's screenshots are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), f"unexpected PNG kind: depth {depth}, colour type {colour}"
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * step
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind_byte = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up = previous[x]
            corner = previous[x - step] if x >= step else 0
            if kind_byte == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind_byte == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind_byte == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind_byte == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line) if step == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        previous = line
    return width, height, rows


def drawn_share(png: bytes) -> float:
    """The share of pixels not of the page's most common colour (its background)."""
    _, _, rows = png_pixels(png)
    counts: dict[bytes, int] = {}
    for row in rows[::4]:  # every fourth row and column is plenty
        for x in range(0, len(row), 12):
            pixel = row[x:x + 3]
            counts[pixel] = counts.get(pixel, 0) + 1
    total = sum(counts.values())
    return 1 - max(counts.values()) / total
