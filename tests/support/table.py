"""Network tables in tests: a host or a table server in this process on 127.0.0.1, recording clients,
the leak check."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from pathlib import Path
from typing import Any, AsyncIterator, Optional

import aiohttp
from aiohttp import web

from spades_tui.engine.cards import Card
from spades_tui.engine.record import GameRecord, parse_record, replay
from spades_tui.keep.slots import SlotDirectory
from spades_tui.table.host.table import TableHost
from spades_tui.table.run import Listener, bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.table.server.rated import RatedDesk
from spades_tui.table.server.tables import TableServer
from spades_tui.table.server.tables_only import tables_application
from tests.support.hidden import hidden_cards
from tests.support.wait import BOUND

SHORT = {"target": 120}  # two or three hands: whole games in a few seconds


@contextlib.asynccontextmanager
async def table_server(games: Path, desk: Optional[RatedDesk] = None) -> AsyncIterator[tuple[TableServer, int]]:
    """A table server (``serve --tables-only``'s tables) keeping its games in ``games`` (its players in ``desk``):
    it and its port."""
    lobby = TableServer(SlotDirectory(games), desk=desk)
    if desk is not None:
        lobby.restore()  # a finished rated game not rated yet is rated now
    runner = web.AppRunner(tables_application(lobby), access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield lobby, port
    finally:
        await runner.cleanup()
        lobby.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def table(tmp: Path, **options: Any) -> AsyncIterator[tuple[TableHost, Listener]]:
    """A table in this process, listening on 127.0.0.1 (a free port), its slots under ``tmp``."""
    options.setdefault("host_kind", "bot:easy")
    host = TableHost(slots=SlotDirectory(tmp / "games"), **options)
    listener = Listener(host, "127.0.0.1", 0)
    await listener.start()
    try:
        yield host, listener
    finally:
        await listener.stop()
        host.close()


def url_of(listener: Listener) -> str:
    return f"ws://127.0.0.1:{listener.port}/table"


class Recorder(TableClient):
    """A client that keeps every frame it receives, in order, as it came."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list[dict[str, Any]] = []

    def _handle(self, message: dict[str, Any]) -> None:
        self.frames.append(json.loads(json.dumps(message)))
        super()._handle(message)


async def play_with_bot(client: TableClient, level: str = "easy") -> int:
    """The seat played by a built-in bot to the end, with the output thrown away."""
    import io

    return await bot_client(client, level, out=io.StringIO())


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _ints(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [i for v in value.values() for i in _ints(v)]
    if isinstance(value, list):
        return [i for v in value for i in _ints(v)]
    return []


def cards_in(frame: dict[str, Any]) -> set[Card]:
    found = set()
    for text in _strings(frame):
        try:
            found.add(Card.parse(text))
        except ValueError:
            pass
    return found


def check_frames(frames: list[dict[str, Any]], seat: int, record_json: dict[str, Any]) -> None:
    """Every frame before a hand's reveal (and before ``over``) holds no card its seat may not know at
    that point of the game, nor any hand's secret or the seed; AssertionError naming the frame if not."""
    record: GameRecord = parse_record(record_json)
    table = record_json.get("table", {})
    secrets = {h["hand"]: h["secret"] for h in table.get("hands", [])}
    seed = record_json.get("seed")
    revealed: set[int] = set()
    at = 0
    for index, frame in enumerate(frames):
        kind = frame.get("type")
        if kind == "over":
            return
        if kind == "reveal":
            revealed.add(frame["hand"])
            continue
        for hand, secret in secrets.items():
            assert hand in revealed or secret not in _strings(frame), \
                f"frame {index} ({kind}) holds hand {hand}'s secret"
        assert seed is None or seed not in _ints(frame), f"frame {index} ({kind}) holds the seed"
        if kind == "update":
            at = frame["at"]
            state = replay(record.truncated(at))
            leaked = cards_in(frame) & hidden_cards(state, seat)
            assert not leaked, f"frame {index} (update at {at}) shows hidden cards {sorted(c.code for c in leaked)}"
        else:
            assert not cards_in(frame), f"frame {index} ({kind}) names cards"
    raise AssertionError("the game never ended with 'over'")


async def raw(listener: Listener) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(url_of(listener), max_msg_size=0)
    return session, ws


async def receive_json(ws: aiohttp.ClientWebSocketResponse, timeout: float = BOUND) -> Optional[dict[str, Any]]:
    """The next text frame as JSON, or None when the connection closed (``timeout``: the bound of one step)."""
    msg = await asyncio.wait_for(ws.receive(), timeout)
    if msg.type is not aiohttp.WSMsgType.TEXT:
        return None
    data = json.loads(msg.data)
    assert isinstance(data, dict)
    return data


async def next_frame(ws: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = BOUND) -> dict[str, Any]:
    """Frames until one of ``kind`` (an AssertionError if the connection closes first)."""
    while True:
        data = await receive_json(ws, timeout)
        assert data is not None, f"closed before a {kind!r} frame"
        if data.get("type") == kind:
            return data


async def two_seats(url: str, tmp: Path, names: tuple[str, str] = ("Ada", "Gus"), *, public: bool = False,
                    guest_from: str = "127.0.0.1") -> tuple[TableClient, TableClient, list[asyncio.Future[Any]]]:
    """A table opened at the server ``url`` by one client (from 127.0.0.1) and its second seat taken by another
    (from ``guest_from``), both listening: the two clients and their listening tasks."""
    from spades_tui.engine.rules import Rules

    opener = TableClient(url, name=names[0], seat_file=tmp / "a" / "tables" / "seat.json",
                         create=(Rules.from_json(SHORT), 0), public=public, source="127.0.0.1")
    await opener.connect()
    assert opener.invite is not None
    guest = TableClient(url, code=opener.invite[0], name=names[1], seat_file=tmp / "g" / "tables" / "seat.json",
                        source=guest_from)
    await guest.connect()
    return opener, guest, [asyncio.ensure_future(c.listen()) for c in (opener, guest)]
