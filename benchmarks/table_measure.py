"""Network tables, measured (not a test; the figures go in the issue's note).

    python benchmarks/table_measure.py keys [GAMES]
        'spades-tui host' and 'spades-tui join' in two tmux terminals (100x32, 127.0.0.1): the time from
        Enter in one to the other's screen showing the card played (its pane polled), over whole games,
        both directions; median and worst.
    python benchmarks/table_measure.py tables N [N ...]
        N tables in one serving process (the lobby of 'spades-tui serve', both seats clients), 2N bot
        clients in a second process, all moving at once: whether every game ends, and the time from an
        act to its seat's update (median, 99th percentile, worst).
    python benchmarks/table_measure.py server N
        A real 'spades-tui serve --tables-only' process; N tables opened in it by 'create' (bot clients in
        this process), measured at rest (the server's memory per table, its CPU over 10 s with every
        table open and waiting), then both seats of each played by bots, all at once: every game's end,
        the act→update time (median, 99th percentile, worst), the server's peak memory and CPU.  The clients
        stand for many players: each connects from an address of its own in 127.0.0.0/8 (3 tables opened an
        address, each friend from another), as the server's per-address limits expect.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spades_tui.engine.actions import Play  # noqa: E402
from spades_tui.engine.rules import Rules  # noqa: E402
from spades_tui.keep.slots import SlotDirectory  # noqa: E402
from spades_tui.table.lobby import TableLobby  # noqa: E402
from spades_tui.table.seat.client import TableClient  # noqa: E402
from spades_tui.table.seat.seat_file import SeatFile  # noqa: E402

TMUX = ["tmux", "-L", "spades-table-measure"]  # a tmux server of its own: never another's sessions


def _pane(name: str) -> str:
    return subprocess.run([*TMUX, "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout


def keys(games: int) -> None:
    """Two real terminals (tmux, 100x32): Enter in one, then the other's screen polled for the card."""
    from spades_tui.engine.record import replay
    from spades_tui.keep.storage import load_record

    samples: dict[str, list[float]] = {"host→client": [], "client→host": []}
    for game in range(games):
        tmp = Path(tempfile.mkdtemp())
        env = f"XDG_DATA_HOME={tmp}/h XDG_CONFIG_HOME={tmp}/c"
        exe = f"{sys.executable} -m spades_tui"
        subprocess.run([*TMUX, "new", "-d", "-s", "mh", "-x", "100", "-y", "32",
                        f"cd {ROOT} && {env} {exe} host --name Hana --rules target=200; sleep 5"],
                       check=True)
        try:
            invite = None
            for _ in range(500):
                found = [line.strip() for line in _pane("mh").splitlines() if "spades-tui join" in line]
                if found:
                    invite = found[0].split()
                    break
                time.sleep(0.02)
            assert invite is not None, "no invite"
            subprocess.run([*TMUX, "new", "-d", "-s", "mj", "-x", "100", "-y", "32",
                            f"cd {ROOT} && XDG_DATA_HOME={tmp}/j XDG_CONFIG_HOME={tmp}/c {exe} join {invite[2]} "
                            f"{invite[3]} --name Cato; sleep 5"], check=True)
            slot = tmp / "h" / "spades-tui" / "games" / "game-1.json"
            while not slot.exists():
                time.sleep(0.02)
            while True:
                try:
                    record = load_record(slot)
                except Exception:
                    continue
                state = replay(record)
                if state.phase.value == "game_over":
                    break
                mover, watcher = ("mh", "mj") if state.to_act == 0 else ("mj", "mh")
                if state.to_act is None:
                    subprocess.run([*TMUX, "send-keys", "-t", "mh", "Enter"])
                    subprocess.run([*TMUX, "send-keys", "-t", "mj", "Enter"])
                    time.sleep(0.05)
                    continue
                before = len(record.actions)
                t0 = time.perf_counter()
                subprocess.run([*TMUX, "send-keys", "-t", mover, "Enter"])
                played = None
                for _ in range(2000):
                    try:
                        record = load_record(slot)
                    except Exception:
                        continue
                    if len(record.actions) > before:
                        played = record.actions[before]
                        break
                if not isinstance(played, Play):
                    continue
                label = played.card.label()
                for _ in range(2000):
                    if label in _pane(watcher):
                        samples["host→client" if mover == "mh" else "client→host"].append(
                            (time.perf_counter() - t0) * 1000)
                        break
        finally:
            subprocess.run([*TMUX, "kill-session", "-t", "mh"], capture_output=True)
            subprocess.run([*TMUX, "kill-session", "-t", "mj"], capture_output=True)
        print(f"game {game + 1}: {sum(len(v) for v in samples.values())} cards timed so far", flush=True)
    for direction, values in samples.items():
        if values:
            print(f"{direction}: {len(values)} cards, median {statistics.median(values):.1f} ms, "
                  f"worst {max(values):.1f} ms")


def _clients(seats: list[tuple[str, str, int]], out: Any) -> None:
    """The load process: one bot client per seat, all at once; the act→update times back on ``out``."""
    from spades_tui.bots.levels import make_bot

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


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _play(client: TableClient, times: list[float], listening: Any = None) -> bool:
    """One seat played by the easy bot to the end; each act's time to its update appended to ``times``."""
    from spades_tui.bots.levels import make_bot

    changed = asyncio.Event()
    client.on_change = changed.set
    if listening is None:
        await client.connect()
        listening = asyncio.ensure_future(client.listen())
    changed.set()  # the position now may be this seat's already
    bot = make_bot("easy", None)
    assert client.seat is not None and client.rules is not None
    bot.start(client.seat, client.rules)
    sent_at, t0 = -1, 0.0
    while client.outcome is None and not listening.done():
        waiter = asyncio.ensure_future(changed.wait())
        await asyncio.wait([listening, waiter], return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        changed.clear()
        if sent_at >= 0 and client.at != sent_at:
            times.append((time.perf_counter() - t0) * 1000)
            sent_at = -1
        if client.legal and sent_at < 0 and client.observation is not None:
            action = bot.decide(client.observation, client.legal)
            sent_at, t0 = client.at, time.perf_counter()
            await client.act(action)
    await client.close()
    listening.cancel()
    return client.outcome is not None


async def server(n: int) -> None:
    import os
    import socket

    tmp = Path(tempfile.mkdtemp())
    print(f"load average at the start {os.getloadavg()[0]:.2f}", flush=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp / "server"))
    proc = subprocess.Popen([sys.executable, "-m", "spades_tui", "serve", "--tables-only", "--port", str(port),
                             "--max-tables", str(n)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and "Tables are served" in proc.stdout.readline()
        url = f"ws://127.0.0.1:{port}/table"
        await asyncio.sleep(1.0)  # settled after start-up
        base = _rss_kib(proc.pid)
        creators = []
        for i in range(n):
            # A server takes at most 3 waiting tables and 16 connections an address: the clients stand for many
            # addresses of this machine (127.0.0.0/8), as many players would.
            c = TableClient(url, name=f"A{i}", seat_file=tmp / f"c{i}" / "tables" / "seat-x.json",
                            create=(Rules(target=120), None), source=f"127.0.{1 + i // 600}.{10 + i // 3 % 200}")
            await c.connect()
            creators.append(c)
        idle = [asyncio.ensure_future(c.listen()) for c in creators]
        await asyncio.sleep(2.0)
        opened = _rss_kib(proc.pid)
        cpu0, t0 = _cpu_seconds(proc.pid), time.perf_counter()
        await asyncio.sleep(10.0)
        rest_cpu = 100 * (_cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - t0)
        print(f"server at rest: {base / 1024:.1f} MiB with no table; {opened / 1024:.1f} MiB with {n} tables open "
              f"({(opened - base) / n:.0f} KiB per table); CPU at rest with {n} tables {rest_cpu:.2f}% of a core",
              flush=True)
        joiners = []
        for i, c in enumerate(creators):
            assert c.invite is not None
            joiners.append(TableClient(url, code=c.invite[0], name=f"B{i}", source=f"127.1.{i // 200}.{10 + i % 200}"))
        times: list[float] = []
        peak = 0
        start = time.perf_counter()

        async def sample() -> None:
            nonlocal peak
            while True:
                peak = max(peak, _rss_kib(proc.pid))
                await asyncio.sleep(0.5)

        sampler = asyncio.ensure_future(sample())
        cpu1 = _cpu_seconds(proc.pid)
        ended = await asyncio.gather(*(_play(c, times, task) for c, task in zip(creators, idle, strict=True)),
                                     *(_play(c, times) for c in joiners))
        sampler.cancel()
        wall = time.perf_counter() - start
        flat = sorted(times)
        print(f"{n} tables played at once: {sum(ended) // 2}/{n} games ended in {wall:.1f} s, {len(flat)} acts; "
              f"act→update median {statistics.median(flat):.1f} ms, 99th percentile "
              f"{flat[min(len(flat) - 1, int(len(flat) * 0.99))]:.1f} ms, worst {flat[-1]:.1f} ms; server peak "
              f"{peak / 1024:.1f} MiB ({(peak - base) / n:.0f} KiB per table in play); server CPU "
              f"{_cpu_seconds(proc.pid) - cpu1:.1f} s; load average at the end {os.getloadavg()[0]:.2f}",
              flush=True)
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "keys"
    if what == "keys":
        keys(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    elif what == "server":
        asyncio.run(server(int(sys.argv[2]) if len(sys.argv) > 2 else 50))
    else:
        for count in sys.argv[2:] or ["10"]:
            asyncio.run(tables(int(count)))
