"""Network tables, measured (not a test; the figures go in the issue's note).

    python tests/functional_tests/table_measure.py keys [GAMES]
        The host's screen and the join screen in one process (two Pilots, one loop, a real socket on
        127.0.0.1): the time from Enter on one side to the other side's screen showing the card played,
        over whole games, both directions; median and worst.
    python tests/functional_tests/table_measure.py tables N [N ...]
        N tables in one serving process (the lobby of 'spades-tui serve', both seats clients), 2N bot
        clients in a second process, all moving at once: whether every game ends, and the time from an
        act to its seat's update (median, 99th percentile, worst).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from spades_tui.engine import Play, Rules  # noqa: E402
from spades_tui.session import LaunchOptions, SlotDirectory  # noqa: E402
from spades_tui.table.client import SeatFile, TableClient  # noqa: E402
from spades_tui.table.lobby import TableLobby  # noqa: E402
from spades_tui.table.run import Listener  # noqa: E402


def text_of(app: Any) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def keys(games: int) -> None:
    from spades_tui.tui.app import SpadesApp

    samples: dict[str, list[float]] = {"host→client": [], "client→host": []}
    for game in range(games):
        tmp = Path(tempfile.mkdtemp())
        host_app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp / "h", config_dir=tmp / "c",
                             host_options=dict(name="Hana", rules=Rules(target=200)))
        async with host_app.run_test(size=(100, 32)) as hp:
            while host_app.listener is None or host_app.listener.runner is None or host_app.table is None:
                await hp.pause()
            url = f"ws://127.0.0.1:{host_app.listener.port}/table"
            client = TableClient(url, code=host_app.table.code, name="Cato")
            join_app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp / "j", config_dir=tmp / "c",
                                 client=client)
            async with join_app.run_test(size=(100, 32)) as jp:
                table = host_app.table
                while table.session is None or join_app.session is None:
                    await hp.pause()
                    await jp.pause()
                session = table.session
                while session.outcome is None:
                    to_act = session.state.to_act
                    before = session.actions
                    mover, watcher, mp, wp = ((host_app, join_app, hp, jp) if to_act == 0 else
                                              (join_app, host_app, jp, hp))
                    playing = session.state.phase.value == "play" and to_act is not None
                    t0 = time.perf_counter()
                    await mp.press("enter")
                    if to_act is None:  # between hands: both read the summary
                        await wp.press("enter")
                        await mp.pause()
                        continue
                    for _ in range(2000):
                        if session.actions != before:
                            break
                        await mp.pause()
                    if not playing or session.actions == before:
                        continue
                    action = session.store.record.actions[before]
                    if not isinstance(action, Play):
                        continue
                    label = action.card.label()
                    for _ in range(2000):
                        if label in text_of(watcher):
                            samples["host→client" if to_act == 0 else "client→host"].append(
                                (time.perf_counter() - t0) * 1000)
                            break
                        await wp.pause(0.001)
        print(f"game {game + 1}: {sum(len(v) for v in samples.values())} cards timed so far", flush=True)
    for direction, values in samples.items():
        if values:
            print(f"{direction}: {len(values)} cards, median {statistics.median(values):.1f} ms, "
                  f"worst {max(values):.1f} ms")


def _clients(seats: list[tuple[str, str, int]], out: Any) -> None:
    """The load process: one bot client per seat, all at once; the act→update times back on ``out``."""
    from spades_tui.bots import make_bot

    async def one(url: str, secret: str, seat: int) -> list[float]:
        tmp = Path(tempfile.mkdtemp())
        if secret.startswith("code:"):
            client = TableClient(url, code=secret[5:], name="B")
        else:
            path = tmp / "seat.json"
            path.write_text(json.dumps(SeatFile(url, secret, 0, ("", "")).to_json()))
            client = TableClient(url, seat_file=path)
        changed = asyncio.Event()
        client.on_change = changed.set
        await client.connect()
        listening = asyncio.ensure_future(client.listen())
        bot = make_bot("easy", None)
        assert client.seat is not None and client.rules is not None
        bot.start(client.seat, client.rules)
        times: list[float] = []
        sent_at, t0 = -1, 0.0
        while client.outcome is None and not listening.done():
            await asyncio.wait([listening, asyncio.ensure_future(changed.wait())], return_when=asyncio.FIRST_COMPLETED)
            changed.clear()
            if sent_at >= 0 and client.at != sent_at:
                times.append((time.perf_counter() - t0) * 1000)
                sent_at = -1
            if client.legal and client.at != sent_at and sent_at < 0:
                action = bot.decide(client.observation, client.legal)
                sent_at, t0 = client.at, time.perf_counter()
                await client.act(action)
        await client.close()
        return times if client.outcome is not None else [-1.0]

    async def main() -> list[list[float]]:
        return await asyncio.gather(*(one(*s) for s in seats))

    out.send(asyncio.run(main()))


async def tables(n: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    lobby = TableLobby(SlotDirectory(tmp / "games"), max_tables=n)
    hosts = [lobby.new_table("A", Rules(target=200)) for _ in range(n)]
    app_host = hosts[0]
    assert app_host is not None
    from aiohttp import web

    app = web.Application()
    app.router.add_get("/table", lobby.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = f"ws://127.0.0.1:{port}/table"
    seats = []
    for host in hosts:
        assert host is not None and host.owner_token is not None
        seats += [(url, host.owner_token, 0), (url, "code:" + host.code, 1)]
    receive, send = multiprocessing.Pipe(duplex=False)
    start = time.perf_counter()
    load = multiprocessing.Process(target=_clients, args=(seats, send))
    load.start()
    loop = asyncio.get_running_loop()
    results = await loop.run_in_executor(None, receive.recv)
    load.join()
    wall = time.perf_counter() - start
    finished = sum(1 for h in hosts if h is not None and h.session is not None and h.session.outcome is not None)
    flat = sorted(t for r in results for t in r if t >= 0)
    actions = sum(h.session.actions for h in hosts if h is not None and h.session is not None)
    print(f"{n} tables: {finished}/{n} games ended in {wall:.1f} s, {actions} actions ({actions / wall:.0f}/s); "
          f"act→update median {statistics.median(flat):.1f} ms, p99 {flat[int(len(flat) * 0.99)]:.1f} ms, "
          f"worst {flat[-1]:.1f} ms", flush=True)
    await runner.cleanup()
    lobby.close()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "keys"
    if what == "keys":
        asyncio.run(keys(int(sys.argv[2]) if len(sys.argv) > 2 else 1))
    else:
        for count in sys.argv[2:] or ["10"]:
            asyncio.run(tables(int(count)))
