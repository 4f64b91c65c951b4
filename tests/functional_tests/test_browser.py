"""``spades-tui serve`` in a real browser: headless Chromium from the system, driven by Playwright.

Each test starts the real server on a free port with its own data directory, opens the page, plays
by keys, and checks from outside: the screenshot, the game's autosave record (it grows and replays
legally), the processes left.  Without Playwright or Chromium these tests skip and say why
(``.ci/run`` installs Chromium where apt can).  The checks that need no browser (refusals, the game
under the web driver, foreign pages) run everywhere textual-serve is installed.
"""

from __future__ import annotations

import functools
import http.client
import importlib.util
import io
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Sequence
from urllib.parse import parse_qs, urlsplit

import pytest

from spades_tui.engine.record import replay
from spades_tui.keep.slots import SlotDirectory
from tests.support.cli import alive, run_spades, saved
from tests.support.serve import (
    ROOT,
    TIMEOUT,
    Served,
    actions,
    choose_from_the_end,
    drawn_share,
    needs_browser,
    open_game,
    press_until,
)
from tests.support.wait import until

# Every test here is marked slow (browsers): left out of the quick check.
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the server's tests use POSIX signals")
needs_serve = pytest.mark.skipif(importlib.util.find_spec("textual_serve") is None,
                                 reason="textual-serve is not installed (pip install .)")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Start ``spades-tui serve ARGS``; whatever a failing test leaves running is stopped."""
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(Served(tmp_path, *args))
        return started[-1]

    yield start
    for server in started:
        server.close()


def tricks_done(path: Path) -> int:
    """Tricks finished in the game the record holds, replayed by the engine (an illegal record fails)."""
    record = saved(path)
    if record is None:
        return -1
    state = replay(record)
    return 13 * max(state.hand_number - 1, 0) + (len(state.hand.tricks) if state.hand is not None else 0)


@pytest.mark.slow
@needs_browser
def test_a_tab_starts_a_game_by_keys_and_plays_whole_tricks(browser: Any, serve: Callable[..., Served]) -> None:
    served = serve()
    page = open_game(browser, served.url)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.reload()  # once more, watching every request the page makes
    page.wait_for_selector("body.-first-byte", timeout=TIMEOUT * 1000)
    page.click("#terminal")
    # The start screen: "Learn to play" is first for a new visitor, then "New game against the bot", eleven above
    # the last (hot-seat, settings, statistics, play a friend, play a stranger, find, watch, the challenge, the
    # server's challenge, help, quit; no "Load" in a browser); the form's Start button has the focus.
    choose_from_the_end(page, 11, "New game against the bot")
    press_until(page, "Enter", lambda: bool(served.game_files()), "the new game's autosave")
    [slot] = served.game_files()  # in this browser's own folder
    first = actions(slot)
    # A whole draft, the bids and two tricks by Enter alone, each key through the browser: beside another test
    # worker on two cores this took 50 to 60 s, so its bound is three times the usual one.
    press_until(page, "Enter", lambda: tricks_done(slot) >= 2, "two whole tricks played", bound=3 * TIMEOUT)
    record = saved(slot)
    assert record is not None and len(record.actions) > first
    assert record.players is not None and record.players[1].kind == "bot:normal"  # the form's default level
    assert drawn_share(page.screenshot()) > 0.02, "the page looks blank"
    # Offline: the page, its script, style sheet and font all come from this server.
    assert requests and all(url.startswith(served.url) for url in requests), requests
    assert any(url.endswith(".ttf") for url in requests), "the page's font did not load from the server"


@pytest.mark.slow
@needs_browser
def test_a_small_window_starts_with_a_smaller_font_so_80x24_cells_fit(browser: Any,
                                                                      serve: Callable[..., Served]) -> None:
    served = serve()
    sizes, cells = {}, {}
    for width, height in ((1280, 800), (640, 400)):
        page = browser.new_page(viewport={"width": width, "height": height})
        sockets: list[str] = []
        page.on("websocket", lambda ws, found=sockets: found.append(ws.url))
        page.goto(served.url)
        page.wait_for_selector("body.-first-byte", timeout=TIMEOUT * 1000)
        sizes[width] = float(page.evaluate("document.getElementById('terminal').dataset.fontSize"))
        query = parse_qs(urlsplit(sockets[0]).query)  # the page asks for the cells that fit the window
        cells[width] = (int(query["width"][0]), int(query["height"][0]))
        page.close()
    assert sizes[1280] == 16 and sizes[640] < 16
    assert cells[640][0] >= 80 and cells[640][1] >= 24, cells  # the game, not "this window is too small"
    assert cells[1280][0] > 100, cells


def _went_on(before: dict[Path, int], slots: Sequence[Path], moves: int) -> bool:
    """A tab's game went ``moves`` actions on since ``before``."""
    return any(actions(s) >= before[s] + moves for s in slots)


def two_tabs_playing(browser: Any, served: Served, moves: int) -> tuple[list[Any], list[Path]]:
    """Two tabs, each with its own slot, each played by Enter until some slot has grown by ``moves``
    actions (which tab holds which slot is the server's business)."""
    pages = [open_game(browser, served.url), open_game(browser, served.url)]
    until(lambda: len(served.game_files()) == 2, "a slot for each tab")
    slots = served.game_files()
    for page in pages:
        before = {slot: actions(slot) for slot in slots}
        press_until(page, "Enter", functools.partial(_went_on, before, slots, moves), "a tab's game to go on")
    return pages, slots


@pytest.mark.slow
@needs_browser
def test_two_tabs_play_two_games_with_two_records(browser: Any, serve: Callable[..., Served]) -> None:
    served = serve("--bot", "easy", "--bot-pause", "0")
    pages, slots = two_tabs_playing(browser, served, 6)
    records = [saved(slot) for slot in slots]
    assert all(r is not None for r in records)
    assert all(len(r.actions) >= 6 for r in records if r is not None)
    ids = {dict(r.metadata).get("game_id") for r in records if r is not None}
    assert len(ids) == 2, "the two tabs share one game"
    for r in records:
        assert r is not None
        replay(r)  # legal throughout
    # A closed tab's game ends (saved after its last move): no process is left behind per tab.
    games = served.game_processes()
    assert len(games) == 2
    pages[0].close()
    until(lambda: sum(alive(pid) for pid in games) == 1, "the closed tab's game to end")


@pytest.mark.slow
@needs_browser
@pytest.mark.parametrize("group", [True, False], ids=["ctrl-c-to-the-group", "sigint-to-the-server"])
def test_ctrl_c_stops_the_server_and_every_game_each_saved(browser: Any, serve: Callable[..., Served],
                                                           group: bool) -> None:
    server = serve("--bot", "easy", "--bot-pause", "0")
    _pages, slots = two_tabs_playing(browser, server, 1)  # the tabs stay open until the server stops
    played = {slot: actions(slot) for slot in slots}
    processes = server.descendants()
    assert len(processes) >= 2, "each tab runs its own game process"
    assert server.stop(group=group) == 0
    left = [pid for pid in processes if alive(pid)]
    assert not left, f"processes outlived the server: {left}"
    for slot in slots:
        record = saved(slot)
        assert record is not None and len(record.actions) >= played[slot]
        replay(record)
        SlotDirectory(slot.parent).open_game(slot)[0].release()  # its lock was let go
    assert "Stopping 2 games" in server.text() and "Traceback" not in server.text()


# ------------------------------------------------------------ no browser needed


@pytest.mark.slow
@needs_serve
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--bot", "cmd:python3 -m something"], "cannot start an external program"),
        (["--load", "game.json"], "cannot load a file by path"),
        (["--port", "70000"], "must be a port number from 1 to 65535"),
        (["--rules", "target=lots"], "rule target must be a whole number"),
    ],
)
def test_serve_refuses_what_a_browser_may_not_choose(args: list[str], needle: str) -> None:
    result = run_spades("serve", *args)
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@needs_serve
def test_a_port_in_use_is_said_plainly() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_spades("serve", "--port", str(port))
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1 port {port}: Address already in use" in result.stderr
    assert "Spades is served" not in result.stdout and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--served", "--load", "x.json"], ["--served", "--bot", "cmd:true"]])
def test_a_served_game_refuses_them_too(args: list[str]) -> None:
    result = run_spades(*args)
    assert result.returncode == 2 and "served to a browser" in result.stderr


@pytest.mark.slow
@needs_serve
def test_another_host_is_warned_about(serve: Callable[..., Served]) -> None:
    server = serve("--host", "0.0.0.0")
    assert "anyone who can reach this address can open the page and play" in server.text()
    # The page's addresses follow the address the browser used, not 0.0.0.0.
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    conn.request("GET", "/")
    page = conn.getresponse().read().decode()
    assert f'ws://127.0.0.1:{server.port}/ws' in page and "0.0.0.0" not in page
    assert "googleapis" not in page
    assert server.stop() == 0


@pytest.mark.slow
@needs_serve
def test_a_page_from_another_site_cannot_start_a_game(serve: Callable[..., Served]) -> None:
    served = serve()
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=TIMEOUT)
    conn.request("GET", "/ws", headers={
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://elsewhere.example"})
    assert conn.getresponse().status == 403
    assert served.descendants() == []


@pytest.mark.slow
def test_under_the_web_driver_the_game_runs_without_a_terminal_and_shows_suits(tmp_path: Path) -> None:
    """What textual-serve does for a tab, by hand: stdin and stdout are pipes, the locale plain C
    (which in a terminal means ASCII letters), and still the start screen comes up with its ♠."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path), LC_ALL="C", TERM="dumb",
               TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver", COLUMNS="100", ROWS="32")
    game = subprocess.Popen([sys.executable, "-m", "spades_tui", "--served"], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert game.stdin is not None and game.stdout is not None
    output = bytearray()

    def drain() -> None:
        assert game.stdout is not None
        stdout = game.stdout
        assert isinstance(stdout, io.BufferedReader)  # read1: what has come, without waiting for more
        for chunk in iter(lambda: stdout.read1(65536), b""):
            output.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        until(lambda: "♠ Spades for two ♠".encode() in output or game.poll() is not None, "the start screen")
        assert output.startswith(b"__GANGLION__\n"), output[:200]
        assert "♠ Spades for two ♠".encode() in output, output.decode("utf-8", "replace")
        quit_packet = json.dumps({"type": "quit"}).encode()
        game.stdin.write(b"M" + len(quit_packet).to_bytes(4, "big") + quit_packet)
        game.stdin.flush()
        assert game.wait(TIMEOUT) == 0
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
        reader.join(5)
