"""The walk of a guest's card to the host and back, traced (not a test; the figure for issue 50's note).

    python benchmarks/table_walk.py           # the walk of one card, traced
    python benchmarks/table_walk.py time [N]  # N of the guest's cards (Enter on each), key to repaint: wall, CPU

A table in this process (its host's seat the host's bot, on 127.0.0.1) and a guest's app (Textual, headless)
seated at it.  At the guest's first card of the play, Enter is pressed; every call into spades_tui from then until
the guest's screen has repainted with that card played is recorded (sys.setprofile).  Printed: the stops (calls
into spades_tui functions, in order, the same function called again in a row counted once), the rooms (the
packages visited) and the climbs (a call from a lower layer into a higher one: cli > tui > table > session >
keep > bots > solver > engine; within table/, run > server > host | seat > wire), with the first few of each.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path
from typing import Any, AsyncIterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LAYERS = ["engine", "solver", "bots", "keep", "session", "settings", "table", "arena", "tui", "cli"]


def _room(module: str) -> str:
    parts = module.split(".")
    if len(parts) < 2:
        return module
    if parts[1] == "table" and len(parts) > 2 and parts[2] in ("host", "seat", "wire"):
        return f"table/{parts[2]}"
    if parts[1] == "tui" and len(parts) > 2 and parts[2] in ("app", "screens", "widgets"):
        return f"tui/{parts[2]}"
    return parts[1]


def _rank(room: str) -> float:
    top = room.split("/")[0]
    rank = float(LAYERS.index(top)) if top in LAYERS else -1.0
    sub = {"table/wire": 0.1, "table/host": 0.2, "table/seat": 0.2, "tui/widgets": 0.1, "tui/screens": 0.2,
           "tui/app": 0.3}
    return rank + sub.get(room, 0.25 if top in ("table", "tui") else 0.0)


@contextlib.asynccontextmanager
async def guest_at_a_table(target: int) -> AsyncIterator[tuple[Any, Any]]:
    """A table in this process (its host's seat the host's bot, drafting first) and a guest's app seated at it,
    running headless at 100x32: (the app, its pilot)."""
    from spades_tui.engine.rules import Rules
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp
    from spades_tui.tui.app.startup import JoinTable
    from tests.support.table import table, url_of

    try:
        from spades_tui.table.seat.client import TableClient
    except ImportError:  # before issue 50
        from spades_tui.table.client import TableClient  # type: ignore[no-redef]

    tmp = Path(tempfile.mkdtemp())
    async with table(tmp, rules=Rules(target=target), names=("Botty", "x"), first=1) as (host, listener):
        client = TableClient(url_of(listener), code=host.code, name="Cleo")
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp / "data", config_dir=tmp / "cfg",
                        start=JoinTable(client))
        async with app.run_test(size=(100, 32)) as pilot:
            yield app, pilot


async def timed(cards: int) -> None:
    """Key to repaint at a network table, in this process (no tmux, no polling of files): Enter on the guest's
    card until its screen shows it played, ``cards`` times (the host's bot answers between); the process's CPU
    time as well as the wall time, since other work on a shared machine stretches the wall time only."""
    import statistics
    import time

    from tests.support.pilot import until

    walls: list[float] = []
    cpus: list[float] = []
    async with guest_at_a_table(500) as (app, pilot):
        presses = 0
        while len(walls) < cards and presses < 5000:
            view = app.seat_view
            presses += 1
            if view is None or not (view.my_turn and view.phase.value == "play"):
                await pilot.press("enter")
                await pilot.pause()
                continue
            at = view.actions
            for _ in range(3):
                await pilot.pause()
            wall, cpu = time.perf_counter(), time.process_time()
            await pilot.press("enter")
            await until(pilot, lambda at=at: app.seat_view is not None and app.seat_view.actions > at, "the card")
            await pilot.pause()  # the repaint
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    print(f"{len(walls)} of the guest's cards, key to repaint: wall median {statistics.median(walls) * 1000:.1f} ms "
          f"(max {max(walls) * 1000:.1f}), CPU median {statistics.median(cpus) * 1000:.1f} ms "
          f"(mean {statistics.mean(cpus) * 1000:.1f})")


async def walk() -> None:
    from tests.support.pilot import until

    async with guest_at_a_table(200) as (app, pilot):
        def my_card() -> bool:
            view = app.seat_view
            return view is not None and view.my_turn and view.phase.value == "play"

        for _ in range(400):  # Enter through the draft and the bids, to the guest's first card
            if my_card():
                break
            await pilot.press("enter")
            await pilot.pause()
        await until(pilot, my_card, "the guest's first card")
        for _ in range(5):
            await pilot.pause()
        at = app.seat_view.actions if app.seat_view is not None else 0
        calls: list[tuple[str, str, str]] = []  # (caller's module, callee's module, callee)

        def profile(frame: Any, event: str, arg: Any) -> None:
            if event == "call":
                module = frame.f_globals.get("__name__", "")
                if module.startswith("spades_tui"):
                    back = frame.f_back
                    caller = back.f_globals.get("__name__", "") if back is not None else ""
                    calls.append((caller, module, frame.f_code.co_qualname))

        sys.setprofile(profile)
        try:
            await pilot.press("enter")
            await until(pilot, lambda: app.seat_view is not None and app.seat_view.actions > at,
                        "the card played, on the guest's screen")
            await pilot.pause()  # the repaint
        finally:
            sys.setprofile(None)
    functions = {(module, name) for _, module, name in calls}
    rooms = {_room(module) for _, module, _ in calls}
    crossings = [(_room(caller), _room(module), name) for caller, module, name in calls
                 if caller.startswith("spades_tui") and _room(caller) != _room(module)]
    climbs = [(a, b, name) for a, b, name in crossings if _rank(b) > _rank(a)]
    entries = [(caller.split(".")[0] or "?", _room(module), name) for caller, module, name in calls
               if not caller.startswith("spades_tui")]
    print(f"{len(calls)} calls into spades_tui ({len(functions)} distinct functions), {len(rooms)} rooms: "
          f"{', '.join(sorted(rooms))}")
    print(f"{len(crossings)} calls from one room into another, {len(climbs)} of them climbs (a lower layer calling "
          f"a higher one); {len(entries)} entries from outside (Textual, asyncio, aiohttp calling in)")
    for title, found in (("climbs", climbs), ("crossings down", [c for c in crossings if c not in climbs])):
        counted: dict[tuple[str, str], set[str]] = {}
        for a, b, name in found:
            counted.setdefault((a, b), set()).add(name)
        print(f"{title}:")
        for (a, b), names in sorted(counted.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            n = sum(1 for x, y, _ in found if (x, y) == (a, b))
            print(f"  {a} -> {b}: {n} calls ({', '.join(sorted(names)[:6])}{' ...' if len(names) > 6 else ''})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["time"]:
        asyncio.run(timed(int(sys.argv[2]) if len(sys.argv) > 2 else 60))
    else:
        asyncio.run(walk())
