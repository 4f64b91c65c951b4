"""A table server for pictures: in a thread of its own, reached at a fixed name (``WHERE``), so that a screen that
names the server (an invite, the lobby's title) is drawn the same in every run.

A snapshot's app runs its own event loop (``App.run``), so the server cannot live in the test's: it runs in a
thread with a loop of its own, and ``call`` runs a coroutine there.  The server listens on a free port of
127.0.0.1; ``fixed_names`` makes every aiohttp connector of the process resolve ``NAME`` (at ``SHOWN_PORT``) to it,
as a DNS name would to a real server, and refuses every other name: nothing leaves loopback.  What the player
sees is what a player of a server at that name sees: the app connects by the name, and its words come from the
server's frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from pathlib import Path
from typing import Any, Coroutine, Iterator, Optional, TypeVar

import aiohttp
import aiohttp.connector
import pytest
from aiohttp.abc import AbstractResolver, ResolveResult

from spades_tui.table.seat.client import TableClient
from spades_tui.table.server.tables import TableServer
from tests.support.rated import rated_server
from tests.support.table import free_port
from tests.support.wait import BOUND

NAME = "spades.example.org"  # a name for documentation (RFC 2606): never looked up here
SHOWN_PORT = 7000
WHERE = f"{NAME}:{SHOWN_PORT}"
URL = f"ws://{WHERE}/table"
CLOSED = f"{NAME}:{SHOWN_PORT + 1}"  # the server's name at a port nothing listens on

T = TypeVar("T")


class FixedNames(AbstractResolver):
    """``NAME`` is 127.0.0.1: at ``SHOWN_PORT`` the server (at ``port``), at any other port a port nobody listens
    on (``closed``); any other name is not known, as a typo's would be (no DNS is asked)."""

    def __init__(self, port: int, closed: int) -> None:
        self.port, self.closed = port, closed

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
                      ) -> list[ResolveResult]:
        if host != NAME:
            raise socket.gaierror(socket.EAI_NONAME, f"{host} is not a name of these tests")
        return [ResolveResult(hostname=host, host="127.0.0.1", port=self.port if port == SHOWN_PORT else self.closed,
                              family=socket.AF_INET, proto=0, flags=socket.AI_NUMERICHOST)]

    async def close(self) -> None:
        pass


class ServerThread:
    """A table server keeping players (``serve --tables-only``'s, with rated play), its files under ``tmp``, in a
    thread of its own; the clients ``seat`` starts there stay connected until the server stops."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.loop = asyncio.new_event_loop()
        self.server: Optional[TableServer] = None
        self.port = 0
        self._up = threading.Event()
        self._stop: Optional[asyncio.Event] = None
        self._clients: list[tuple[TableClient, asyncio.Future[Any]]] = []
        self._failed: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self._serve())
        except BaseException as exc:  # said to the test by start()
            self._failed = exc
            self._up.set()
        finally:
            self.loop.close()

    async def _serve(self) -> None:
        async with rated_server(self.tmp) as (server, port):
            self.server, self.port, self._stop = server, port, asyncio.Event()
            self._up.set()
            await self._stop.wait()
            for client, task in self._clients:
                await client.stop()
                await asyncio.gather(task, return_exceptions=True)

    def start(self) -> None:
        self._thread.start()
        if not self._up.wait(BOUND) or self._failed is not None:
            raise AssertionError(f"the table server did not start: {self._failed!r}")

    def stop(self) -> None:
        if self._stop is not None and self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(BOUND)

    def call(self, work: Coroutine[Any, Any, T]) -> T:
        """``work`` run in the server's loop; its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(BOUND)

    async def seat(self, client: TableClient) -> TableClient:
        """(In the server's loop) ``client`` connected, and listening until the server stops."""
        await client.connect()
        self._clients.append((client, asyncio.ensure_future(client.listen())))
        return client


@contextlib.contextmanager
def named_server(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    """A table server reached at ``WHERE`` by every aiohttp connection of this process, for the test's length."""
    served = ServerThread(tmp)
    served.start()
    try:
        closed = free_port()  # free a moment ago, and nothing here listens on it
        monkeypatch.setattr(aiohttp.connector, "DefaultResolver", lambda *a, **k: FixedNames(served.port, closed))
        yield served
    finally:
        served.stop()

