"""What the day's challenge at a server costs (issue 54; docs/serving.md, "The day's challenge").

    python -m benchmarks.field_measure [--iters N] [--players 4] [--bot normal]

Starts ``serve --tables-only`` on 127.0.0.1 in a temporary data folder with ``--challenge-workers 1`` and the
expert's samples ``--iters`` (default: the challenge's, 200), registers its players (from 127.0.0.2 to .4: three
an address an hour), and measures, the players' seats played by ``--bot`` in this process:

1. the day's first challenge, the par computed beside it, until the par is known (not measured: the warm-up);
2. one player's challenge alone: the server's CPU seconds (the server and its expert's child, from /proc) and
   its memory (the resident size of both, their peaks and at the end), and the player's wall time;
3. ``--players`` players starting at once: each one's wall time and how long it waited for the expert's turn
   (from its ``queued`` frames), against one alone's.

Linux only (/proc).  Give ``uptime``'s load with the figures: they are only as quiet as the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from spades_tui.keep.serverkeys import ServerKey, save_key
from spades_tui.table.run import bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.table.wire import frames as f

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


class Timed(TableClient):
    """A seat that notes when its expert's waits began and ended."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waited = 0.0
        self.longest = 0.0
        self._since: float | None = None

    def _queued(self, news: f.Queued) -> None:
        now = time.monotonic()
        if news.waiting and self._since is None:
            self._since = now
        elif not news.waiting and self._since is not None:
            self.waited += now - self._since
            self.longest = max(self.longest, now - self._since)
            self._since = None
        super()._queued(news)


def cpu_and_memory(pid: int) -> tuple[float, int, int]:
    """CPU seconds, resident KiB now, and peak resident KiB of ``pid`` and its children."""
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                                                       text=True).stdout.split()]
    print("  (processes: " + ", ".join(f"{p} {cpu_of(p):.1f} s {rss_of(p) / 1024:.0f} MiB" for p in pids) + ")",
          file=sys.stderr)
    cpu, rss, peak = 0.0, 0, 0
    for each in pids:
        try:
            stat = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(stat[11]) + int(stat[12])) / TICK
            status = dict(line.split(":", 1) for line in Path(f"/proc/{each}/status").read_text().splitlines()
                          if ":" in line)
            rss += int(status["VmRSS"].split()[0])
            peak += int(status["VmHWM"].split()[0])
        except (OSError, KeyError, IndexError):
            pass
    return cpu, rss, peak


def cpu_of(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(stat[11]) + int(stat[12])) / TICK


def rss_of(pid: int) -> int:
    try:
        found = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmRSS"))
    except (OSError, StopIteration):
        return 0
    return int(found.split()[1])


async def register(port: int, name: str, source: str, home: Path) -> str:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0))) as session:
        async with session.ws_connect(f"ws://127.0.0.1:{port}/table") as ws:
            await ws.send_str(json.dumps({"type": "register", "protocol": 2, "name": name}))
            answer = json.loads((await ws.receive()).data)
    assert answer["type"] == "registered", answer
    save_key(home, ServerKey(f"127.0.0.1:{port}", answer["player"], answer["name"], answer["key"]))
    return str(answer["key"])


async def play(port: int, name: str, key: str, source: str, home: Path, bot: str) -> tuple[float, Timed]:
    client = Timed(f"ws://127.0.0.1:{port}/table", name=name, seat_file=home / f"{name}.json", key=key,
                   challenge=True, source=source)
    began = time.monotonic()
    await bot_client(client, bot, out=io.StringIO(), err=io.StringIO())
    return time.monotonic() - began, client


async def par_known(port: int) -> bool:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"ws://127.0.0.1:{port}/table") as ws:
            await ws.send_str(json.dumps({"type": "standings", "protocol": 2}))
            return bool(json.loads((await ws.receive()).data)["par"])


async def measure(ns: argparse.Namespace, port: int, home: Path, server: subprocess.Popen[bytes]) -> None:
    names = [f"P{i}" for i in range(2 + ns.players)]
    keys = {}
    for i, name in enumerate(names):
        keys[name] = await register(port, name, f"127.0.0.{2 + i // 3}", home)
    first, one, *field = names
    print("warm-up: the day's first challenge, the par beside it...", file=sys.stderr)
    await play(port, first, keys[first], "127.0.0.2", home, ns.bot)
    while not await par_known(port):
        await asyncio.sleep(1)
    cpu0, _, _ = cpu_and_memory(server.pid)
    wall, _ = await play(port, one, keys[one], "127.0.0.2", home, ns.bot)
    cpu1, rss, peak = cpu_and_memory(server.pid)
    print(f"one player's challenge: server CPU {cpu1 - cpu0:.1f} s (server and expert child), wall {wall:.1f} s; "
          f"resident now {rss / 1024:.0f} MiB, peaks {peak / 1024:.0f} MiB (server + child)")
    bots = ns.bots.split(",")
    results = await asyncio.gather(*(play(port, name, keys[name], f"127.0.0.{2 + (i % 3)}", home, bots[i % len(bots)])
                                     for i, name in enumerate(field)))
    cpu2, _, _ = cpu_and_memory(server.pid)
    print(f"{ns.players} at once: server CPU {cpu2 - cpu1:.1f} s; their games "
          f"{'all differ' if len({c.hands for _, c in results}) == len(results) else 'are not all different'}")
    for name, (took, client) in zip(field, results, strict=True):
        print(f"{name}: wall {took:.1f} s ({took / wall:.1f}x one alone), waited {client.waited:.1f} s for the "
              f"expert's turn, longest wait {client.longest:.2f} s")
    _, rss, peak = cpu_and_memory(server.pid)
    print(f"after {ns.players} at once: resident {rss / 1024:.0f} MiB, peaks {peak / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iters", type=int, default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="normal", help="the lone player's bot")
    parser.add_argument("--bots", default="easy,normal,hard:budget=0.05,easy",
                        help="the bots of the players at once, in turn (different games: the same bot would make "
                             "the same game)")
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        port = 7600 + os.getpid() % 300
        args = ["serve", "--tables-only", "--port", str(port), "--challenge-workers", "1"]
        args += ["--challenge-iters", str(ns.iters)] if ns.iters else []
        env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(home / "server"))
        server = subprocess.Popen([sys.executable, "-m", "spades_tui", *args], env=env, stdout=subprocess.PIPE)
        try:
            assert server.stdout is not None and b"served" in server.stdout.readline()
            asyncio.run(measure(ns, port, home / "players", server))
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
