"""A public server that one client cannot take down (issue 49; docs/table-protocol.md, "A server's limits"): each
test is an attack that took ``serve --tables-only`` down on 14a068c, tried again.  All network on 127.0.0.0/8
(each address of it is this machine, so 127.0.0.x stands for another client), bounded in count and in time;
every wait is for a condition, with a bound that fails the test."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, AsyncIterator, Optional

import aiohttp
import pytest
from aiohttp import web

from spades_tui.engine.rules import Rules
from spades_tui.keep.slots import SlotDirectory
from spades_tui.table.guard import Limits
from spades_tui.table.lobby import LEFT_AFTER, LOBBIES_PER_ADDRESS, TABLES_PER_ADDRESS, TableLobby
from spades_tui.table.seat import finder
from spades_tui.table.seat.finder import Lobby
from spades_tui.table.server import tables_application
from spades_tui.table.wire import protocol as p
from tests.functional_tests.test_table_limits import create, first_answer, serving
from tests.support.table import SHORT, free_port, receive_json, two_seats
from tests.support.wait import until_async

BOUND = 30.0
posix = pytest.mark.skipif(os.name != "posix", reason="the server's memory is read from /proc, kill -9 is POSIX's")
SERVER = [sys.executable, "-m", "spades_tui", "serve", "--tables-only", "--port"]


# ------------------------------------------------------------ a server of its own, and raw WebSockets


@contextlib.contextmanager
def server_process(data: Path, port: int, *options: str) -> Any:
    """``spades-tui serve --tables-only`` as a process of its own on ``port``, its data in ``data``."""
    env = {**os.environ, "XDG_DATA_HOME": str(data), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([*SERVER, str(port), *options], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the announcement: it listens
        assert "Tables are served" in line, line + (process.stderr.read() if process.stderr else "")
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        process.communicate(timeout=BOUND)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def frame_head(length: int, opcode: int = 0x1, fin: bool = True) -> bytes:
    """A client's frame header (masked, with a zero mask: the payload goes as it is) declaring ``length``."""
    first = bytes([(0x80 if fin else 0) | opcode])
    if length < 126:
        size = bytes([0x80 | length])
    elif length < 1 << 16:
        size = bytes([0x80 | 126]) + length.to_bytes(2, "big")
    else:
        size = bytes([0x80 | 127]) + length.to_bytes(8, "big")
    return first + size + b"\0\0\0\0"


def text_frame(text: str) -> bytes:
    data = text.encode()
    return frame_head(len(data)) + data


def raw_websocket(port: int, source: str) -> socket.socket:
    """A WebSocket opened by hand from ``source`` (its handshake answered), blocking, bounded."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND, source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /table HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, answer
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def closed_by_server(sock: socket.socket, bound: float = BOUND) -> bool:
    """Whether the server closes ``sock`` within ``bound`` seconds (what it sends meanwhile read and dropped)."""
    sock.settimeout(bound)
    deadline = time.monotonic() + bound
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


# ------------------------------------------------------------ self-joined tables (high)


def self_join(url: str, source: str) -> Optional[str]:
    """One round of the attack: a table opened from ``source``, its second seat taken from there too with the code
    the welcome gave, both left; the refusal instead, if the create was refused."""

    async def attack() -> Optional[str]:
        connector = aiohttp.TCPConnector(local_addr=(source, 0))
        async with aiohttp.ClientSession(connector=connector) as session:
            async with session.ws_connect(url) as opener:
                await opener.send_json(create(public=True))
                welcome = await receive_json(opener, BOUND)
                assert welcome is not None
                if welcome["type"] != "welcome":
                    return str(welcome["reason"])
                async with session.ws_connect(url) as guest:
                    await guest.send_json({"type": "join", "protocol": p.PROTOCOL, "code": welcome["code"],
                                           "name": "Guest"})
                    seated = await receive_json(guest, BOUND)
                    assert seated is not None and seated["type"] == "welcome", seated
        return None

    return asyncio.run(attack())


@posix
@pytest.mark.slow
def test_self_joined_tables_from_one_address_leave_an_honest_create_welcome_also_after_kill_9(tmp_path: Path) -> None:
    """Issue 49: one address opened a table, sat at its second seat itself and left, again and again: every place
    was taken ("too many tables are open here" for every address), and after kill -9 and a restart still, for 7
    days.  Now its tables count against it while they are open, joined or not, restart or not."""
    port, url = free_port(), ""
    with server_process(tmp_path / "data", port, "--max-tables", "20") as server:
        url = f"ws://127.0.0.1:{port}/table"
        refusals = [self_join(url, "127.0.0.2") for _ in range(20)]
        made = refusals.index(next(r for r in refusals if r is not None))
        assert made == TABLES_PER_ADDRESS, refusals
        assert "tables open here already" in str(refusals[made])
        honest = asyncio.run(first_answer(url, create(), source="127.0.0.3"))
        assert honest["type"] == "welcome", honest
        server.send_signal(signal.SIGKILL)
        server.wait(BOUND)
    with server_process(tmp_path / "data", port, "--max-tables", "20"):
        again = self_join(url, "127.0.0.2")  # its tables still count against it: kept with them
        assert again is not None and "tables open here already" in again, again
        honest = asyncio.run(first_answer(url, create(), source="127.0.0.4"))
        assert honest["type"] == "welcome", honest


@contextlib.asynccontextmanager
async def lobby_server(tmp: Path, **options: Any) -> AsyncIterator[tuple[TableLobby, str]]:
    """A table server in this process (its clock and timeouts the test's): the lobby and its URL."""
    lobby = TableLobby(SlotDirectory(tmp / "games"), **options)
    runner = web.AppRunner(tables_application(lobby), access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield lobby, f"ws://127.0.0.1:{port}/table"
    finally:
        await runner.cleanup()
        lobby.close()


@pytest.mark.parametrize("guest_from", ["127.0.0.1", "127.0.0.2"], ids=["one-address", "never-played"])
async def test_a_table_sat_at_from_one_address_or_never_played_closes_10_minutes_after_its_seats_left(
        tmp_path: Path, guest_from: str) -> None:
    """Issue 49: such tables stayed 7 days.  Now 10 minutes after both seats left (a table two addresses played
    on still waits 7 days: test_table_limits.py); and while nobody is there, the lobby does not list it."""
    now = [1_000_000.0]
    async with lobby_server(tmp_path, clock=lambda: now[0]) as (lobby, url):
        opener, guest, listening = await two_seats(url, tmp_path, public=True, guest_from=guest_from)
        (host,) = lobby.tables
        await until_async(lambda: host.session is not None, "the game began (both nonces in)")
        assert [e["watch"] for e in lobby.listing()] == [host.watch_code]  # someone there: listed
        for client in (opener, guest):
            await client.stop()
        await asyncio.wait(listening, timeout=BOUND)
        await until_async(lambda: not any(host.connected), "the table sees both seats gone")
        assert lobby.listing() == []  # nobody there: not listed (issue 52's "Ada 0 – 0 Bo, hand 1")
        assert host.slot is not None
        path = host.slot.path
        now[0] += LEFT_AFTER - 60
        assert lobby.expire() == []
        now[0] += 120
        (line,) = lobby.expire()
        why = "both seats came from one address" if guest_from == "127.0.0.1" else "nobody played on it"
        assert why in line and lobby.tables == []
        assert not path.exists()  # never played on: nothing kept


async def test_a_table_in_play_is_listed_only_while_someone_is_there(tmp_path: Path) -> None:
    """Issue 52: after both players left, the lobby still listed "Ada 0 – 0 Bo, hand 1" (nobody to watch)."""
    async with lobby_server(tmp_path) as (lobby, url):
        opener, guest, listening = await two_seats(url, tmp_path, ("Ada", "Bo"), public=True, guest_from="127.0.0.2")
        (host,) = lobby.tables
        await until_async(lambda: host.session is not None, "the game began")
        finding = Lobby(url)
        assert [t.players for t in await finding.connect()] == [("Ada", "Bo")]
        await guest.stop()
        await until_async(lambda: not host.connected[1], "the table sees Bo gone")
        assert [e["players"] for e in lobby.listing()] == [["Ada", "Bo"]]  # Ada is there: still listed
        await opener.stop()
        await asyncio.wait(listening, timeout=BOUND)
        await until_async(lambda: not any(host.connected), "the table sees both seats gone")
        assert lobby.listing() == []
        await finding.close()


# ------------------------------------------------------------ oversized frames (high)


@posix
@pytest.mark.slow
def test_64_connections_sending_16_mib_frames_leave_the_server_small_and_none_of_them_open(tmp_path: Path) -> None:
    """Issue 49: the server read up to 16 MiB of a frame before it looked at its size, and a frame whose last byte
    never came was never cut: 64 lobby connections from four addresses took it from 40 to 1,064 MiB, all still
    open after 30 s, and the memory was not given back.  Now a frame over 64 KiB is refused from its header."""
    port = free_port()
    declared = 16 * 1024 * 1024 - 1
    chunk = b"\0" * (1024 * 1024)
    with server_process(tmp_path / "data", port) as server:
        before = rss_mib(server.pid)
        sockets: list[socket.socket] = []
        try:
            for n in range(64):  # 16 addresses, 4 lobby lists each (the lobby's cap an address)
                sock = raw_websocket(port, f"127.0.3.{1 + n // LOBBIES_PER_ADDRESS}")
                sock.sendall(text_frame('{"type":"lobby","protocol":2}'))
                sockets.append(sock)
            for sock in sockets:
                with contextlib.suppress(OSError):  # refused from its header: the rest may meet a closed socket
                    sock.sendall(frame_head(declared))
                    for _ in range(declared // len(chunk)):  # all of it but its last bytes: never whole
                        sock.sendall(chunk)
            held = rss_mib(server.pid)
            # Closed at once; 15 s in all is far past that, and short of the heartbeat's close (20 s, then its
            # answer's wait), which closed them on 14a068c only because this test stops sending.
            deadline = time.monotonic() + 15.0
            still_open = [n for n, sock in enumerate(sockets)
                          if not closed_by_server(sock, max(0.1, deadline - time.monotonic()))]
            assert still_open == [], f"{len(still_open)} of 64 still open"
            assert held < 200, f"{before:.0f} MiB before, {held:.0f} MiB with 64 frames of 16 MiB sent"
        finally:
            for sock in sockets:
                sock.close()
        after = rss_mib(server.pid)
        assert after < 200, f"{after:.0f} MiB once they closed"


async def test_a_frame_whose_bytes_trickle_is_cut_at_the_frame_deadline(tmp_path: Path) -> None:
    """Issue 49: a frame whose bytes kept coming (one every 2 s, which kept the heartbeat content too) was never
    cut.  Now a frame begun must be whole within the frame deadline (0.5 s here); a connection that sends whole
    frames and pings, with pauses longer than that between them, is left alone."""
    async with serving(tmp_path / "data", limits=Limits(frame_timeout=0.5)) as (url, _):
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        # The server is in this process: a blocking socket's handshake waits in a thread (a send of a few bytes
        # never blocks).
        honest = await asyncio.to_thread(raw_websocket, port, "127.0.0.2")
        honest.sendall(text_frame('{"type":"lobby","protocol":2}'))
        trickling = await asyncio.to_thread(raw_websocket, port, "127.0.0.3")
        trickling.sendall(text_frame('{"type":"lobby","protocol":2}') + frame_head(1000))
        honest.sendall(frame_head(0, opcode=0x9))  # a whole ping between two whole frames: it ends nothing
        started, sent, cut = time.monotonic(), 0, False
        while sent < 1000 and not cut:
            try:
                trickling.sendall(b"{")  # the attack's pace, not a wait: a byte every tenth of a second
                sent += 1
            except OSError:
                cut = True
            await asyncio.sleep(0.1)
            assert time.monotonic() - started < BOUND, "the trickled frame was never cut"
        assert cut or await asyncio.to_thread(closed_by_server, trickling, BOUND)
        assert sent < 100  # cut within a second or so, not after the 1,000 bytes
        # The honest connection, quiet for longer than the deadline between whole frames, is still answered.
        honest.sendall(text_frame('{"type":"say","text":"hi"}'))
        honest.settimeout(BOUND)
        assert b"lobby connection sends nothing" in await asyncio.to_thread(_read_until, honest, b"sends nothing")
        for sock in (honest, trickling):
            sock.close()


def _read_until(sock: socket.socket, wanted: bytes) -> bytes:
    got = b""
    while wanted not in got:
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


# ------------------------------------------------------------ held lobby connections (medium)


async def test_lobby_lists_and_plain_connections_held_by_16_addresses_leave_an_honest_lobby_and_create_served(
        tmp_path: Path) -> None:
    """Issue 49: eight addresses holding 16 lobby connections each filled the lobby for everyone, for ever, and
    eight more holding plain connections made every honest create a 503.  Now an address holds at most 4 lists,
    and when every place is taken, one of the address holding the most makes room for an address holding fewer."""
    async with serving(tmp_path / "data") as (url, _):
        sessions: list[aiohttp.ClientSession] = []
        held: list[aiohttp.ClientWebSocketResponse] = []
        try:
            for a in range(16):  # every place taken: 16 addresses, 16 connections each, 256 in all
                session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.4.{a + 1}", 0)))
                sessions.append(session)
                for n in range(17):  # as many lists as an address may hold (one more refused); the rest plain
                    ws = await session.ws_connect(url)
                    if n <= LOBBIES_PER_ADDRESS:
                        await ws.send_json({"type": "lobby", "protocol": p.PROTOCOL})
                        listed = await receive_json(ws, BOUND)
                        assert listed is not None
                        if n == LOBBIES_PER_ADDRESS:  # a fifth list: refused, and that connection closed
                            assert "lists of tables open here already" in listed["reason"], listed
                            await ws.close()
                            continue
                        assert listed["type"] == "tables", listed
                    held.append(ws)
            assert sum(not ws.closed for ws in held) == 256
            honest = await first_answer(url, {"type": "lobby", "protocol": p.PROTOCOL}, source="127.0.5.1")
            assert honest["type"] == "tables", honest
            made = await first_answer(url, create(), source="127.0.5.2")
            assert made["type"] == "welcome", made
        finally:
            for ws in held:
                await ws.close()
            for session in sessions:
                await session.close()


async def test_a_lobby_list_lasts_its_time_and_the_finder_connects_again(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49: a lobby connection had no deadline after its first frame.  Now the server ends it after its time
    (10 minutes; 0.5 s here), and the finder (``spades-tui lobby``'s, the start screen's) connects again by itself,
    the list going on."""
    monkeypatch.setattr(finder, "AGAIN_AFTER", 0.2)
    async with lobby_server(tmp_path, lobby_idle=0.5) as (lobby, url):
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as ws:
                await ws.send_json({"type": "lobby", "protocol": p.PROTOCOL})
                first = await receive_json(ws, BOUND)
                assert first is not None and first["type"] == "tables"
                ended = await receive_json(ws, BOUND)
                assert ended is not None and "lasts" in ended["reason"] and await receive_json(ws, BOUND) is None
        seen: list[str] = []
        served = lobby._lobby

        async def counted(ws: web.WebSocketResponse, address: str) -> None:
            seen.append(address)
            await served(ws, address)

        monkeypatch.setattr(lobby, "_lobby", counted)
        finding = Lobby(url)
        assert await finding.connect() == []
        following = asyncio.ensure_future(finding.follow())
        await until_async(lambda: len(seen) >= 3, "the finder connected again, twice, as each list ended")
        assert not following.done() and finding.problem is None
        waiting = lobby.new_table("Ada", public=True)
        assert waiting is not None
        waiting.links[0].ws = _Here()  # its opener there (a connection that stands for one), so it is listed
        await until_async(lambda: [t.players[0] for t in finding.tables or []] == ["Ada"], "Ada's table listed")
        waiting.links[0].ws = None
        await finding.close()
        await asyncio.wait_for(following, BOUND)


class _Here:
    closed = False


# ------------------------------------------------------------ not yet tried, by reading (low)


async def test_a_watcher_that_reads_nothing_is_let_go_with_its_frames_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49: a watcher's frames waiting were unbounded (a watcher that read nothing cost memory without end).
    Now past ``WATCHER_BACKLOG`` waiting it is let go: its frames dropped, told why if it reads, then cut."""
    from spades_tui.table import sockets
    from spades_tui.table.sockets import SLOW_WATCHER, WATCHER_BACKLOG, Watcher

    monkeypatch.setattr(sockets, "TOLD_WITHIN", 0.1)  # the reason's time to go out (5 s), short here

    class Stuck:  # a connection whose peer reads nothing: every send waits for ever
        closed = False

        def __init__(self) -> None:
            self.transport = self
            self.said: list[str] = []

        async def send_str(self, text: str) -> None:
            self.said.append(text)
            await asyncio.Event().wait()

        async def close(self, **_: Any) -> bool:
            return True

        def is_closing(self) -> bool:
            return self.closed

        def abort(self) -> None:
            self.closed = True

    stuck = Stuck()
    watcher = Watcher(stuck, asyncio.Queue(), "Wes")  # type: ignore[arg-type]
    for n in range(10 * WATCHER_BACKLOG):
        watcher.put(f"frame {n}")
        assert watcher.outbox.qsize() <= WATCHER_BACKLOG
    assert watcher.dropping is not None
    await asyncio.wait_for(watcher.dropping, BOUND)  # told why (the send never goes out), then cut
    assert stuck.closed and SLOW_WATCHER in stuck.said[0]
    assert watcher.outbox.get_nowait() is None  # its writer ends; nothing of the dropped frames is kept


def test_a_saved_game_that_is_a_link_is_set_aside_and_never_read(tmp_path: Path) -> None:
    """Issue 49: a saved game that was a symbolic link (to a good record elsewhere) was followed, listed and
    resumed (and its slot written through); table files refused links already.  Now it is set aside, said."""
    from spades_tui.engine.record import GameRecord, PlayerInfo
    from spades_tui.keep.storage import save_record

    elsewhere = tmp_path / "elsewhere.json"
    save_record(elsewhere, GameRecord(Rules(), 0, (PlayerInfo("Ann", "human"), PlayerInfo("Bot", "bot:easy"))))
    games = tmp_path / "games"
    games.mkdir(mode=0o700)
    (games / "game-5.json").symlink_to(elsewhere)
    listing = SlotDirectory(games).scan()
    assert listing.games == []
    (said,) = listing.messages
    assert "game-5.json" in said and "link" in said
    assert not os.path.lexists(games / "game-5.json") and elsewhere.exists()  # the link set aside, its target kept
    assert SlotDirectory(games).scan().messages == []  # set aside for good


async def test_a_friend_seated_before_the_game_began_keeps_the_seat_after_a_restart(tmp_path: Path) -> None:
    """Kept with the table's count: the friend's seat (its token's hash, its name, from which address) is in the
    table's file once taken, so a restarted server neither hands the code out again nor forgets whose it is."""
    first = TableLobby(SlotDirectory(tmp_path / "games"), nonce_timeout=60)
    host = first.new_table("Ada", Rules.from_json(SHORT), 0, address="127.0.0.2")
    assert host is not None
    host.token_hash, host.joined_name, host.one_address = "ab" * 32, "Gus", True
    from spades_tui.table.pending import keep_joined

    keep_joined(host)
    first.close()
    again = TableLobby(SlotDirectory(tmp_path / "games"))
    again.restore()
    (back,) = again.tables
    assert (back.token_hash, back.joined_name, back.one_address, back.creator) == ("ab" * 32, "Gus", True,
                                                                                   "127.0.0.2")
    assert again.open_of("127.0.0.2") == 1 and again.waiting_of("127.0.0.2") == 0
    again.close()


def test_a_server_of_tables_has_room_for_every_tables_two_seats() -> None:
    """Found measuring 200 tables in play (benchmarks/table_measure.py): 256 connections in all left the last 72
    friends a 503.  A server of N tables has room for 2N seats and 128 more (the descriptor limit permitting)."""
    from spades_tui.table.server import room_for

    assert room_for(200).total == 2 * 200 + 128 and room_for(10).total == 256
    assert room_for(200).per_address == Limits().per_address
