"""Two browsers play one game at a table held by 'spades-tui serve' ("Play a friend" and its link), in
Chromium.  Without Playwright or Chromium this skips and says why (as test_browser.py does)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Optional

import pytest

from spades_tui.engine.record import replay
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import load_record
from tests.support.serve import Served, needs_browser, open_game
from tests.support.wait import BOUND, Deadline, until

pytestmark = pytest.mark.slow  # two browsers, a whole game: left out of the quick check

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


@needs_browser
def test_two_browsers_play_one_game_at_a_served_table(browser: Any, tmp_path: Path) -> None:
    served = Served(tmp_path, "--rules", "target=60")
    try:
        host_page = open_game(browser, served.url)
        for _ in range(4):  # bot, hot-seat, settings, statistics (no "Load" in a browser), then:
            host_page.keyboard.press("ArrowDown")
        host_page.keyboard.press("Enter")  # "Play a friend on another machine"
        until(lambda: owner_code(served.seat_files()) is not None, "a table opened")
        code = owner_code(served.seat_files())
        friend_page = open_game(browser, f"{served.url}?table={code}")
        deadline = Deadline("the game to end", GAME_BOUND)
        while True:
            record = table_record(served.games)
            if record is not None and replay(record).phase is Phase.GAME_OVER:
                break
            if deadline.passed():
                raise deadline.fail()
            for page in (host_page, friend_page):
                page.keyboard.press("Enter")
            time.sleep(0.05)  # key presses paced for the page, not a timing assertion
        assert [p.kind for p in record.players] == ["remote", "remote"]
        seats = [json.loads(p.read_text()) for p in served.seat_files()]
        assert len(seats) == 2 and sorted(s["seat"] for s in seats) == [0, 1]
        # Each browser's seat is in that browser's own folder (a visitor of its own: table/served.py).
        assert len({p.parent.parent for p in served.seat_files()}) == 2
        until(lambda: all(json.loads(p.read_text()).get("over") for p in served.seat_files()),
              "every seat to hear the game was over")
        for path in served.seat_files():
            verified = json.loads(path.read_text())["verified"]
            assert verified and all(problem is None for problem in verified.values()), verified
    finally:
        served.close()
