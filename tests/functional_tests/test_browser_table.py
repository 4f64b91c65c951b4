"""Two browsers play one game at a table held by 'spades-tui serve' ("Play a friend" and its link), a
browser watches a table by its watch code ("Watch a table"), and a browser plays a stranger rated ("Play a
stranger on this server (rated)") and resigns, in Chromium.  Without Playwright or Chromium this
skips and says why (as test_browser.py does)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional

import pytest

from spades_tui.engine.record import replay
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import load_record
from spades_tui.table.run import bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.finder import Lobby
from tests.support.serve import (
    ROOT,
    TIMEOUT,
    Served,
    choose_from_the_end,
    needs_browser,
    open_game,
    press_and_see,
    press_until,
    settled_screen,
)
from tests.support.table import SHORT, Recorder, check_frames
from tests.support.wait import BOUND, Deadline, until

# Every test here is marked slow (browsers, whole games): left out of the quick check.

GAME_BOUND = 3 * BOUND  # a short game through two browsers: three steps' bound


def owner_code(seats: list[Path]) -> Optional[str]:
    for path in seats:
        found = re.search(r"owner_([a-z2-9]{4})_([a-z2-9]{4})_([a-z2-9]{4})", path.name)
        if found:
            return "-".join(found.groups())
    return None


def table_record(games: Path) -> Any:
    for path in games.glob("game-*.json"):
        try:
            record = load_record(path)
        except Exception:
            continue
        if record.players is not None and [p.kind for p in record.players] == ["remote", "remote"]:
            return record
    return None


@pytest.mark.slow
@needs_browser
def test_two_browsers_play_one_game_at_a_served_table(browser: Any, tmp_path: Path) -> None:
    served = Served(tmp_path, "--rules", "target=60")
    try:
        host_page = open_game(browser, served.url)
        # "Play a friend on another machine": then play a stranger, find, watch, the two challenges, help and quit.
        choose_from_the_end(host_page, 7, "Play a friend")
        # Enter again until it opens: a private table (the choice's first); the wait screen takes no Enter.
        press_until(host_page, "Enter", lambda: owner_code(served.seat_files()) is not None, "a table opened")
        code = owner_code(served.seat_files())
        friend_page = open_game(browser, f"{served.url}?table={code}")
        deadline = Deadline("the game to end", GAME_BOUND)
        while True:
            record = table_record(served.games)
            if record is not None and replay(record).phase is Phase.GAME_OVER:
                break
            if deadline.passed():
                # Where it stopped: each page's screen beside the test's files, and the record's phase.
                for name, page in (("host", host_page), ("friend", friend_page)):
                    page.screenshot(path=str(tmp_path / f"{name}.png"))
                where = "no record" if record is None else f"{replay(record).phase}, {len(record.actions)} actions"
                raise AssertionError(f"{deadline.fail()} ({where}; the pages' screens in {tmp_path}; "
                                     f"the server said: {served.text()[-2000:]!r})")
            for page in (host_page, friend_page):
                page.keyboard.press("Enter")
            time.sleep(0.05)  # key presses paced for the page, not a timing assertion
        assert [p.kind for p in record.players] == ["remote", "remote"]
        seats = [json.loads(p.read_text()) for p in served.seat_files()]
        assert len(seats) == 2 and sorted(s["seat"] for s in seats) == [0, 1]
        # Each browser's seat is in that browser's own folder (a visitor of its own: table/wire/visitors.py).
        assert len({p.parent.parent for p in served.seat_files()}) == 2
        until(lambda: all(json.loads(p.read_text()).get("over") for p in served.seat_files()),
              "every seat to hear the game was over")
        for path in served.seat_files():
            verified = json.loads(path.read_text())["verified"]
            assert verified and all(problem is None for problem in verified.values()), verified
    finally:
        served.close()


def watchers_at(url: str) -> int:
    """How many watch the tables of the server at ``url``, as its lobby says (every table here is public)."""
    async def listed() -> int:
        lobby = Lobby(url)
        try:
            return sum(t.watchers for t in await lobby.connect())
        finally:
            await lobby.close()

    # In a thread of its own: Playwright's synchronous API keeps an event loop running in this one.
    out: list[int] = []
    asker = threading.Thread(target=lambda: out.append(asyncio.run(listed())))
    asker.start()
    asker.join(TIMEOUT)
    assert out, "the lobby did not answer"
    return out[0]


@pytest.mark.slow
@needs_browser
def test_a_browser_watches_a_table_by_its_watch_code_to_the_end(browser: Any, tmp_path: Path) -> None:
    """The serve page's "Watch a table": a watch code typed in, and the tab watches a table two bot seats play
    there to its end; a watcher beside it checks every frame a watcher gets for hidden cards."""
    served = Served(tmp_path)
    url = f"ws://127.0.0.1:{served.port}/table"
    codes: list[str] = []
    go, abandon = threading.Event(), threading.Event()
    found: dict[str, Any] = {}

    async def play() -> None:
        opener = TableClient(url, name="Ada", seat_file=tmp_path / "a" / "tables" / "seat.json",
                             create=(Rules.from_json(SHORT), 0), public=True)
        opening = asyncio.ensure_future(bot_client(opener, "easy", out=io.StringIO(), err=io.StringIO()))
        # The table waits for the tab as long as the test does: the test's own bound ends the wait (abandon),
        # never one of this thread's that could run out first (as it did, ending the table, on a loaded CI).
        while opener.invite is None or not go.is_set():
            if opener.invite is not None and not codes:
                codes.append(opener.invite[1])
            await asyncio.sleep(0.05)  # polling the other thread's word
        if abandon.is_set():
            return
        assert opener.invite is not None
        watcher = Recorder(url, name="Wes", watch=opener.invite[1])
        await watcher.connect()
        watching = asyncio.ensure_future(watcher.keep())
        guest = TableClient(url, code=opener.invite[0], name="Gus", seat_file=tmp_path / "g" / "tables" / "s.json")
        found["guest"] = await asyncio.wait_for(bot_client(guest, "easy", out=io.StringIO(), err=io.StringIO()),
                                                GAME_BOUND)
        found["opener"] = await asyncio.wait_for(opening, GAME_BOUND)
        await asyncio.wait_for(watcher.finished.wait(), GAME_BOUND)
        found["frames"] = watcher.frames
        await watcher.stop()
        watching.cancel()

    bots = threading.Thread(target=lambda: asyncio.run(play()), daemon=True)
    try:
        bots.start()
        until(lambda: bool(codes), "the table opened")
        page = open_game(browser, served.url)
        # The code's form comes up in the tab's game, whose screen a test cannot read: each key is seen to land
        # (the screen moves) before the next, and the code is typed once the form is drawn.  (Typing after a
        # guessed pause lost the code to the menu whenever the form took longer, as on a loaded CI.)
        choose_from_the_end(page, 4, "Watch a table")  # ... watch, the two challenges, help, quit
        page.keyboard.type(codes[0])
        page.keyboard.press("Enter")

        def where() -> str:
            page.screenshot(path=str(tmp_path / "tab.png"))
            return f"the tab's screen in {tmp_path}; the server said: {served.text()[-2000:]!r}"

        until(lambda: watchers_at(url) >= 1, "the tab watching", poll=0.5, detail=where)
        go.set()
        bots.join(GAME_BOUND)
        assert not bots.is_alive() and found.get("guest") == 0 and found.get("opener") == 0, found
        frames = found["frames"]
        over = next(f for f in frames if f["type"] == "over")
        check_frames(frames, None, over["record"])  # type: ignore[arg-type]
    finally:
        if not go.is_set():  # the tab never watched: the bots' thread leaves its table
            abandon.set()
            go.set()
        served.close()


def _quick_bot(home: Path, port: int, name: str) -> subprocess.Popen[str]:
    """``spades-tui quick --bot`` from a data folder of its own: registers ``name`` there, seeks and plays."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(home / "data"),
               XDG_CONFIG_HOME=str(home / "config"))
    return subprocess.Popen([sys.executable, "-m", "spades_tui", "quick", f"127.0.0.1:{port}", "--name", name,
                             "--bot", "normal"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _in_play(seats: list[Path]) -> bool:
    """A tab's seat at a table whose first hand has been dealt (its file has the hand)."""
    for path in seats:
        try:
            if (json.loads(path.read_text()).get("hand") or 0) >= 1:
                return True
        except (OSError, ValueError):
            continue
    return False


@pytest.mark.slow
@needs_browser
def test_a_browser_plays_a_stranger_on_its_server_rated_and_resigns(browser: Any, tmp_path: Path) -> None:
    """The serve page's "Play a stranger on this server (rated)": the tab registers (its key in its visitor's
    folder on the server), is paired with a quick-play bot, resigns from the game menu, and the server rates it."""
    served = Served(tmp_path)
    bot: Optional[subprocess.Popen[str]] = None
    page: Any = None
    try:
        page = open_game(browser, served.url)
        choose_from_the_end(page, 6, "Play a stranger")  # ... stranger, find, watch, the two challenges, help, quit
        until(lambda: bool(list(served.visitors.glob("*/server-keys/this-server-*.json"))), "the tab registered")
        bot = _quick_bot(tmp_path / "bob", served.port, "Bob")
        until(lambda: _in_play(served.seat_files()), "paired, and the first hand dealt")
        settled_screen(page, "the game screen")
        # Esc: the game menu (resume, invite and watch code, resign, ...); Resign; asked again (keep playing first).
        for key in ("Escape", "ArrowDown", "ArrowDown", "Enter", "ArrowDown", "Enter"):
            press_and_see(page, key, f"the resignation: {key}")
        assert bot.stdout is not None
        said = bot.communicate(timeout=BOUND)[0]
        # (It exits 1 all the same: a game that ended before its first hand was scored has no shuffle verified.)
        assert "Game over: Bob wins" in said, said
        found = subprocess.run([sys.executable, "-m", "spades_tui", "players", f"127.0.0.1:{served.port}", "Bob",
                                "--json"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                               capture_output=True, text=True, timeout=BOUND)
        page_of_bob = json.loads(found.stdout)
        assert [(r["won"], r["how"]) for r in page_of_bob["results"]] == [(True, "resign")], page_of_bob
        [key_file] = served.visitors.glob("*/server-keys/this-server-*.json")
        assert key_file.stat().st_mode & 0o777 == 0o600
    except BaseException:
        if page is not None:
            page.screenshot(path=str(tmp_path / "tab.png"))
        print(f"The tab's screen is in {tmp_path}; the server said: {served.text()[-2000:]!r}")
        raise
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait(TIMEOUT)
        served.close()
