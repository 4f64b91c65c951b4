"""A server's limits (docs/table-protocol.md, "A server's limits"), each tried with the attack that broke it
(issue 34): half-sent requests under a low descriptor limit, a flood of creates from one address, wrong codes
behind a proxy, a link to /dev/zero and a FIFO among the saved tables, file modes, a host that welcomes and
drops at once, and tables nobody joined or everyone left.  All network on 127.0.0.0/8 (each address of it
is this machine, so 127.0.0.2 stands for another client); every wait has a bound that fails the test."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import selectors
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, AsyncIterator, Iterator, Optional

import aiohttp
import pytest
from aiohttp import web

from spades_tui.engine.actions import is_chance
from spades_tui.engine.rules import Rules
from spades_tui.keep.slots import SlotDirectory
from spades_tui.table.guard import Limits
from spades_tui.table.lobby import ABANDONED_AFTER, UNJOINED_AFTER, WAITING_PER_ADDRESS, TableLobby
from spades_tui.table.pending import PENDING_DIR
from spades_tui.table.seat.client import TableClient
from spades_tui.table.server import serve_tables
from spades_tui.table.wire import protocol as p
from tests.support.table import SHORT, free_port, receive_json, two_seats

BOUND = 20.0
posix = pytest.mark.skipif(os.name != "posix", reason="links, FIFOs, descriptor limits and modes are POSIX's")


@contextlib.asynccontextmanager
async def serving(data: Path, **options: Any) -> AsyncIterator[tuple[str, io.StringIO]]:
    """``serve --tables-only`` in this process (the real ``serve_tables``) on a free port: its URL and its output."""
    port, out, stop = free_port(), io.StringIO(), asyncio.Event()
    task = asyncio.ensure_future(serve_tables(data, "127.0.0.1", port, out=out, stop=stop, **options))
    deadline = time.monotonic() + BOUND
    while "Tables are served" not in out.getvalue():
        assert not task.done(), f"the server stopped: {out.getvalue()} {task.exception()}"
        assert time.monotonic() < deadline, f"the server did not listen within {BOUND} s: {out.getvalue()}"
        await asyncio.sleep(0.02)  # polling the other task's output for a condition, bounded
    try:
        yield f"ws://127.0.0.1:{port}/table", out
    finally:
        stop.set()
        await asyncio.wait_for(task, BOUND)


async def first_answer(url: str, first: dict[str, Any], source: str = "127.0.0.1",
                       headers: Optional[dict[str, str]] = None) -> dict[str, Any]:
    """Connect from ``source`` (another address of this machine), send one first frame, read the answer."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        async with session.ws_connect(url, headers=headers or {}) as ws:
            await ws.send_json(first)
            answer = await receive_json(ws, BOUND)
    assert answer is not None, first
    return answer


def create(public: bool = False) -> dict[str, Any]:
    return {"type": "create", "protocol": p.PROTOCOL, "name": "Ada", "rules": SHORT, "first": 0, "public": public}


# ------------------------------------------------------------ connections


HALF_SENT_SERVER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
from spades_tui.cli import main
sys.exit(main(["serve", "--tables-only", "--port", sys.argv[1]]))
"""


@posix
def test_half_sent_requests_under_a_low_descriptor_limit_leave_an_honest_create_its_table(tmp_path: Path) -> None:
    """Issue 34: 300 half-sent requests under ``ulimit -n 256`` held every descriptor, an honest create timed out
    and the server wrote 44 MB of tracebacks in 20 s.  Now one address holds at most 16 connections (the rest
    get a 503 at once), another address's create gets its table, and the server says little, in lines."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-c", HALF_SENT_SERVER, str(port)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # the announcement: it listens
        assert "Tables are served" in line, line
        refused = 0
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=BOUND, source_address=("127.0.0.2", 0))
            s.sendall(b"GET /table HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")  # never ends its headers
            held.append(s)
        # Past the cap each is answered with a plain 503 and closed at once; at most 16 stay open (half-sent).
        selector = selectors.DefaultSelector()
        for s in held:
            selector.register(s, selectors.EVENT_READ)
        still, deadline = set(held), time.monotonic() + BOUND
        while len(still) > 16 and time.monotonic() < deadline:
            for key, _ in selector.select(0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock.recv(64).startswith(b"HTTP/1.1 503"):
                    refused += 1
                selector.unregister(sock)
                still.discard(sock)
        selector.close()
        assert refused >= 300 - 16, refused
        started = time.monotonic()
        answer = asyncio.run(first_answer(f"ws://127.0.0.1:{port}/table", create(), source="127.0.0.3"))
        assert answer["type"] == "welcome", answer
        assert time.monotonic() - started < 5.0  # at once, not after the half-sent ones timed out
    finally:
        for s in held:
            s.close()
        server.terminate()
        _, err = server.communicate(timeout=BOUND)
    assert "Traceback" not in err and len(err) < 2000, err[:2000]


async def test_a_flood_of_creates_from_one_address_leaves_room_for_another(tmp_path: Path) -> None:
    """Issue 34: 60 creates in 0.2 s, each connection closed at once, made 50 tables and every honest create was
    refused, for good.  Now one address has at most 3 tables waiting; another's create still gets one; and
    --max-tables bounds them all."""
    async with serving(tmp_path / "data", max_tables=6) as (url, _):
        answers: list[dict[str, Any]] = []
        for _ in range(6):  # ten at once, under the per-address connection cap (past it: a 503, tested above)
            answers += await asyncio.gather(*(first_answer(url, create(), source="127.0.0.2") for _ in range(10)))
        welcomed = [a for a in answers if a["type"] == "welcome"]
        assert len(welcomed) == WAITING_PER_ADDRESS
        assert all("waiting for a friend already" in a["reason"] for a in answers if a["type"] == "error")
        assert (await first_answer(url, create(), source="127.0.0.3"))["type"] == "welcome"
        # The friend sits down at one of the flood's tables: that address may open one more.
        joined = await first_answer(url, {"type": "join", "protocol": p.PROTOCOL, "code": welcomed[0]["code"],
                                          "name": "Gus"}, source="127.0.0.4")
        assert joined["type"] == "welcome" and joined["seat"] == 1
        assert (await first_answer(url, create(), source="127.0.0.2"))["type"] == "welcome"
        assert (await first_answer(url, create(), source="127.0.0.5"))["type"] == "welcome"  # 6 of 6
        full = await first_answer(url, create(), source="127.0.0.6")
        assert full["type"] == "error" and "too many tables" in full["reason"]


@pytest.mark.parametrize("trusted", [True, False])
async def test_wrong_codes_behind_a_proxy_count_against_the_forwarded_address_only_when_trusted(
        tmp_path: Path, trusted: bool) -> None:
    """Issue 34: behind a proxy every player came from 127.0.0.1, so 5 wrong codes from anyone locked every
    join and watch.  With --trust-proxy the proxy's last X-Forwarded-For entry is the address counted; the
    header from any other peer (127.0.0.2 is not the proxy) is not believed; a token is never refused."""
    async with serving(tmp_path / "data", trust_proxy=trusted) as (url, _):
        opened = await first_answer(url, create())
        wrong = {"type": "join", "protocol": p.PROTOCOL, "code": "aaaa-bbbb-cccc", "name": "Eve"}
        for _ in range(p.WRONG_CODES):
            answer = await first_answer(url, wrong, headers={"X-Forwarded-For": "198.51.100.9, 203.0.113.5"})
            assert answer == {"type": "error", "reason": "wrong code"}
        honest = await first_answer(url, {"type": "watch", "protocol": p.PROTOCOL, "code": opened["watch"],
                                          "name": "Wes"}, headers={"X-Forwarded-For": "203.0.113.6"})
        if trusted:
            assert honest["type"] == "watching", honest  # another player behind the same proxy
            locked = await first_answer(url, wrong | {"code": opened["watch"]},
                                        headers={"X-Forwarded-For": "203.0.113.5"})
            assert "too many wrong codes" in locked["reason"]  # the guesser is locked out
        else:
            assert "too many wrong codes" in honest["reason"]  # the header is not believed: 127.0.0.1 is locked
        other = await first_answer(url, {"type": "watch", "protocol": p.PROTOCOL, "code": opened["watch"],
                                         "name": "Wes"}, source="127.0.0.2")
        assert other["type"] == "watching"  # another address is never refused for them
        back = await first_answer(url, {"type": "rejoin", "protocol": p.PROTOCOL, "token": opened["token"]},
                                  headers={"X-Forwarded-For": "203.0.113.5"})
        assert back["type"] == "welcome"  # a lock never refuses a token
        # A header sent by a peer that is not the proxy is not believed: 127.0.0.2's own guesses lock 127.0.0.2.
        for n in range(p.WRONG_CODES):
            await first_answer(url, wrong, source="127.0.0.7", headers={"X-Forwarded-For": f"192.0.2.{n}"})
        spoofed = await first_answer(url, wrong | {"code": opened["watch"], "type": "watch"}, source="127.0.0.7",
                                     headers={"X-Forwarded-For": "192.0.2.200"})
        assert "too many wrong codes" in spoofed["reason"]


async def test_behind_a_trusted_proxy_connections_are_capped_per_forwarded_address(tmp_path: Path) -> None:
    """With --trust-proxy every connection comes from the proxy: the per-address cap applies to the address it
    names, so one client behind it cannot hold them all, and another behind it is not refused."""
    limits = Limits(per_address=3)
    async with serving(tmp_path / "data", trust_proxy=True, limits=limits) as (url, _):
        async with aiohttp.ClientSession() as session:
            held = [await session.ws_connect(url, headers={"X-Forwarded-For": "203.0.113.5"}) for _ in range(3)]
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url, headers={"X-Forwarded-For": "203.0.113.5"})
            assert refused.value.status == 503
            other = await session.ws_connect(url, headers={"X-Forwarded-For": "203.0.113.6"})
            await other.send_json(create())
            answer = await receive_json(other, BOUND)
            assert answer is not None and answer["type"] == "welcome"
            for ws in [*held, other]:
                await ws.close()


# ------------------------------------------------------------ files


@posix
async def test_a_link_to_dev_zero_and_a_fifo_among_the_saved_tables_are_said_and_set_aside(tmp_path: Path) -> None:
    """Issue 34: a saved-table file that linked to /dev/zero made the server read without end (3 GB in 8 s,
    never listening), and a FIFO blocked its start.  Now each is said, set aside and skipped; the good table is
    there again."""
    data = tmp_path / "data"
    first = TableLobby(SlotDirectory(data / "games"))
    good = first.new_table("Ada", Rules.from_json(SHORT), 0)
    assert good is not None and good.pending_file is not None
    folder = data / PENDING_DIR
    (folder / "table-zzzz-zzzz-zzz1.json").symlink_to("/dev/zero")
    os.mkfifo(folder / "table-zzzz-zzzz-zzz2.json")
    (folder / "table-zzzz-zzzz-zzz3.json").write_bytes(b" " * (200 * 1024))  # too big
    (folder / "table-zzzz-zzzz-zzz4.json").symlink_to(good.pending_file)  # a link, even to a good file
    (data / "games").mkdir(mode=0o700, exist_ok=True)
    (data / "games" / "game-90.json").symlink_to("/dev/zero")
    os.mkfifo(data / "games" / "game-91.json")
    first.close()
    started = time.monotonic()
    async with serving(data) as (url, out):
        said = out.getvalue()
        assert time.monotonic() - started < BOUND
        for name in ("zzz1", "zzz2", "zzz3", "zzz4"):
            assert f"table-zzzz-zzzz-{name}.json" in said, said
        assert "1 table kept from before" in said
        assert "game-90.json" in said and "game-91.json" in said  # the games' slots read as safely
        answer = await first_answer(url, {"type": "join", "protocol": p.PROTOCOL, "code": good.code, "name": "G"})
        assert answer["type"] == "welcome"
    names = sorted(os.listdir(folder))
    assert not any(n.startswith("table-zzzz") and n.endswith("zzz1.json") for n in names)  # set aside
    assert sum(1 for n in names if ".corrupt-" in n) == 4, names
    for n in names:
        assert not stat.S_ISREG(os.lstat(folder / n).st_mode) or stat.S_IMODE(os.lstat(folder / n).st_mode) == 0o600
    async with serving(data) as (_, out):  # set aside for good: not read, not said again
        assert "zzzz" not in out.getvalue()


@pytest.fixture()
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@posix
async def test_a_servers_data_folder_and_a_damaged_game_set_aside_are_private_under_umask_022(
        tmp_path: Path, umask_022: None) -> None:
    """Issue 34: the data folder ``spades-tui/`` was made 0755, and a damaged game set aside kept 0644."""
    data = tmp_path / "xdg" / "spades-tui"
    (data / "games").mkdir(parents=True, mode=0o755)
    os.chmod(data, 0o755)  # as an older version made it
    damaged = data / "games" / "game-4.json"
    damaged.write_text("{not a record", encoding="utf-8")
    os.chmod(damaged, 0o644)
    async with serving(data) as (url, out):
        assert "game-4.json" in out.getvalue()
        assert (await first_answer(url, create()))["type"] == "welcome"  # a table file written
    found = {str(path.relative_to(data)): stat.S_IMODE(path.lstat().st_mode) for path in data.rglob("*")}
    found["."] = stat.S_IMODE(data.stat().st_mode)
    wrong = {name: oct(mode) for name, mode in found.items()
             if mode != (0o700 if (data / name).is_dir() else 0o600)}
    assert not wrong, wrong
    assert any(".corrupt-" in name for name in found), found


# ------------------------------------------------------------ a host that welcomes and drops


async def test_a_host_that_welcomes_and_drops_at_once_gets_a_growing_backoff(tmp_path: Path) -> None:
    """Issue 34: a host that welcomed and closed at once got a reconnect every second, for ever.  Three such
    drops in a row within a minute and the waits grow as for a table that is gone."""
    welcomes = 0

    async def welcome_and_drop(request: web.Request) -> web.WebSocketResponse:
        nonlocal welcomes
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.receive()
        welcomes += 1
        await ws.send_json({"type": "welcome", "seat": 1, "token": "t" * 32, "rules": Rules().to_json(),
                            "players": [{"name": "A", "kind": "remote"}, {"name": "B", "kind": "remote"}],
                            "code": "aaaa-bbbb-cccc", "watch": "cccc-dddd-eeee"})
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get(p.PATH, welcome_and_drop)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    client = TableClient(f"ws://127.0.0.1:{port}/table", code="aaaa-bbbb-cccc", name="Gus",
                         seat_file=tmp_path / "tables" / "seat.json", retry_first=0.02)
    keeping = asyncio.ensure_future(client.keep())
    try:
        deadline = time.monotonic() + BOUND
        while welcomes < 7:
            assert not keeping.done() and time.monotonic() < deadline, welcomes
            await asyncio.sleep(0.01)  # polling the count of welcomes, bounded
    finally:
        await client.stop()
        keeping.cancel()
        await runner.cleanup()
    waits = [float(line.split("trying again in ")[1].split(" s")[0]) for line in client.talk.events
             if "trying again in" in line]
    assert waits[:6] == [0.02, 0.02, 0.04, 0.08, 0.16, 0.32], waits


# ------------------------------------------------------------ tables that close by themselves


async def test_a_table_nobody_joined_closes_after_30_minutes_also_after_a_restart(tmp_path: Path) -> None:
    now = [1_000_000.0]
    lobby = TableLobby(SlotDirectory(tmp_path / "games"), clock=lambda: now[0])
    waiting = lobby.new_table("Ada", Rules.from_json(SHORT), 0)
    assert waiting is not None and waiting.pending_file is not None and waiting.pending_file.exists()
    now[0] += UNJOINED_AFTER - 60
    assert lobby.expire() == [] and lobby.tables == [waiting]
    # Killed and started again: the table's opening time is in its file.
    again = TableLobby(SlotDirectory(tmp_path / "games"), clock=lambda: now[0])
    again.restore()
    assert [t.code for t in again.tables] == [waiting.code]
    now[0] += 120
    (line,) = again.expire()
    assert "nobody sat down" in line and again.tables == []
    assert not waiting.pending_file.exists()  # its saved table file removed
    lobby.close()
    again.close()


async def test_a_table_with_neither_seat_for_7_days_closes_and_its_record_is_kept_marked_abandoned(
        tmp_path: Path) -> None:
    now = [1_000_000.0]
    lobby = TableLobby(SlotDirectory(tmp_path / "data" / "games"), clock=lambda: now[0])
    app = web.Application()
    app.router.add_get(p.PATH, lobby.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    url = f"ws://127.0.0.1:{port}/table"
    try:
        # The friend from another address, and a card played: a table sat at from one address alone, or never
        # played on, closes 10 minutes after its seats left (test_table_holes.py).
        opener, guest, listening = await two_seats(url, tmp_path, guest_from="127.0.0.2")
        (host,) = lobby.tables
        deadline = time.monotonic() + BOUND
        while not (opener.legal or guest.legal):  # both nonces in: the game began, in its slot, a seat to move
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)  # polling the table's state, bounded
        mover = opener if opener.legal else guest
        await mover.act(mover.legal[0])
        while host.record is None or all(is_chance(a) for a in host.record.actions):  # the table was played on
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)  # polling the table's state, bounded
        assert host.slot is not None
        path = host.slot.path
        now[0] += ABANDONED_AFTER + 1
        assert lobby.expire() == []  # both seats connected: not abandoned, however old
        await opener.stop()
        await guest.stop()
        await asyncio.wait(listening, timeout=BOUND)
        deadline = time.monotonic() + BOUND
        while any(host.connected):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)  # the table sees both seats gone
        now[0] += ABANDONED_AFTER - 60
        assert lobby.expire() == []
        now[0] += 120
        (line,) = lobby.expire()
        assert "abandoned" in line and lobby.tables == []
        kept = tmp_path / "data" / "games" / "finished" / path.name
        assert not path.exists() and kept.exists()
        record = json.loads(kept.read_text(encoding="utf-8"))
        assert record["abandoned"]["reason"] == "neither seat connected for 7 days"
        again = TableLobby(SlotDirectory(tmp_path / "data" / "games"))
        again.restore()
        assert again.tables == []  # not resumed on a restart
        again.close()
    finally:
        await runner.cleanup()
        lobby.close()
