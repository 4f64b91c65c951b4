"""How heavy a browser game is under ``spades-tui serve``: start-up, memory, games held at once.

Not a test (no ``test_`` prefix; timings are measured and reported, never asserted).  Starts the
real server (``--bot easy --bot-pause 0``: each tab's game starts at once), opens tabs in the
system's headless Chromium one by one, then plays a move in every tab in turn and times how long
each tab's record takes to grow:

    PYTHONPATH=. python benchmarks/serve_measure.py --tabs 1,8 --rounds 30
    PYTHONPATH=. python benchmarks/serve_measure.py --tabs 24,48 --rounds 4

Then every tab presses Enter at the same moment, a few times, and the time until every record has
grown is taken.  Start-up: from opening the page to the game's first screen drawn in it (the page's first bytes)
and to its autosave written.  Memory: resident set of the server and of each game process with
its bot child processes (/proc), in MiB.  Held: every tab's record grew in every round.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.serve import (  # noqa: E402
    TIMEOUT,
    Served,
    actions,
    browser_missing,
    launch_browser,
)


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def open_tab(browser, server: Served, known: set[Path]) -> tuple[object, Path, float, float]:
    """A new tab; its slot, seconds to its first screen, seconds to its autosave."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    start = time.monotonic()
    page.goto(server.url)
    page.wait_for_selector("body.-first-byte", timeout=TIMEOUT * 1000)
    drawn = time.monotonic() - start
    end = start + TIMEOUT
    while not (new := set(server.game_files()) - known):
        assert time.monotonic() < end, "no autosave appeared"
        time.sleep(0.01)
    saved = time.monotonic() - start
    page.click("#terminal")
    return page, new.pop(), drawn, saved


def measure(browser, tabs: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="spades-serve-") as home:
        server = Served(Path(home), "--bot", "easy", "--bot-pause", "0")
        try:
            opened = []
            known: set[Path] = set()
            for _ in range(tabs):
                page, slot, drawn, saved = open_tab(browser, server, known)
                known.add(slot)
                opened.append((page, slot))
                if tabs == 1:
                    print(f"  start-up: first screen {drawn:.2f} s, first autosave {saved:.2f} s after opening")
            games = children(server.process.pid)
            own = [rss_mib(g) for g in games]
            with_bots = [rss_mib(g) + sum(rss_mib(k) for k in children(g)) for g in games]
            print(f"  server {rss_mib(server.process.pid):.0f} MiB; game process {statistics.median(own):.0f} MiB "
                  f"(median of {len(games)}), with its bot processes {statistics.median(with_bots):.0f} MiB; "
                  f"all {rss_mib(server.process.pid) + sum(with_bots):.0f} MiB")
            waits: list[float] = []
            held = True
            for _ in range(rounds):
                for page, slot in opened:
                    before = actions(slot)
                    start = time.monotonic()
                    page.keyboard.press("Enter")
                    while actions(slot) <= before and time.monotonic() - start < 10:
                        time.sleep(0.01)
                    if actions(slot) <= before:
                        held = False
                    waits.append(time.monotonic() - start)
            after = [rss_mib(g) + sum(rss_mib(k) for k in children(g)) for g in games]
            print(f"  after the moves: a game with its bot processes {statistics.median(after):.0f} MiB (median), "
                  f"largest {max(after):.0f} MiB")
            waits.sort()
            print(f"  {tabs} tabs: every record grew each round: {held}; a move answered in median "
                  f"{statistics.median(waits):.2f} s, 90th percentile {waits[int(len(waits) * 0.9)]:.2f} s, "
                  f"slowest {waits[-1]:.2f} s ({len(waits)} moves)")
            # Every tab moves at the same moment: how long until every record has grown.
            bursts: list[float] = []
            for _ in range(min(rounds, 5)):
                before = {slot: actions(slot) for _, slot in opened}
                start = time.monotonic()
                for page, _ in opened:
                    page.keyboard.press("Enter")
                while any(actions(slot) <= before[slot] for _, slot in opened) and time.monotonic() - start < 30:
                    time.sleep(0.01)
                held = held and all(actions(slot) > before[slot] for _, slot in opened)
                bursts.append(time.monotonic() - start)
            print(f"  all {tabs} tabs pressing Enter at once: every record grown after median "
                  f"{statistics.median(bursts):.2f} s, slowest {max(bursts):.2f} s ({len(bursts)} bursts); "
                  f"every move answered: {held}")
            for page, _ in opened:
                page.close()
        finally:
            code = server.stop()
            print(f"  stopped (exit {code}); games left running: "
                  f"{sum(1 for g in games if Path(f'/proc/{g}').exists())}")
            server.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", default="1,4,8", help="tab counts to try, comma-separated")
    parser.add_argument("--rounds", type=int, default=6, help="moves played in each tab")
    args = parser.parse_args()
    missing = browser_missing()
    if missing:
        print(f"cannot measure: {missing}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_browser(playwright)
        for tabs in (int(t) for t in args.tabs.split(",")):
            print(f"{tabs} tab{'s' if tabs != 1 else ''}:", flush=True)
            measure(browser, tabs, args.rounds)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
