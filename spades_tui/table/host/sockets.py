"""A table's connections at the host's end (docs/table-protocol.md): the socket, its first frame, its frames out.

``GuestLink`` is one remote seat's connection now and ``Watcher`` one watcher's; each connection's frames go out
in order from one task (``write_frames``) and are read under a ``FrameBudget`` (a token bucket against floods,
and a count of bad frames).  ``open_socket`` accepts a connection and reads its first frame; ``refuse`` says
why a connection is closed.  Codes and tokens are compared and hashed as bytes (``code_bytes``, ``hash_token``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from aiohttp import WSCloseCode, WSMsgType, web

from ..wire import protocol as p
from ..wire import reasons as r

log = logging.getLogger("spades-tui.table")
LINGER = 2.0  # seconds the rest of a frame refused from its header is read and dropped, at most
QUIET = 0.2  # ... until no byte of it came for this long



@dataclass
class GuestLink:
    """One remote seat's connection now."""

    ws: Optional[web.WebSocketResponse] = None
    sent: Optional[tuple[int, tuple[bool, bool]]] = None  # the (at, connected) of the last update sent
    outbox: Optional[asyncio.Queue[Optional[str]]] = None  # frames in order, written by one task
    writer: Optional[asyncio.Future[None]] = None  # that task


WATCHER_BACKLOG = 100  # frames waiting for one watcher: past that it cannot keep up, and is let go
SLOW_WATCHER = r.SLOW_WATCHER
TOLD_WITHIN = 5.0  # seconds a connection let go has to take the reason, before it is cut


@dataclass
class Watcher:
    """One watcher's connection: the public view only; its frames waiting are bounded (``put``)."""

    ws: web.WebSocketResponse
    outbox: asyncio.Queue[Optional[str]]
    name: str
    sent: Optional[tuple[int, tuple[bool, bool]]] = None
    dropping: Optional[asyncio.Future[None]] = None  # let go: the task telling it why and closing it

    def put(self, text: str) -> None:
        """A frame for this watcher; one past ``WATCHER_BACKLOG`` waiting, and it is let go instead (its frames
        dropped, told why, closed), so that a watcher that reads nothing costs a bounded amount."""
        if self.dropping is not None:
            return
        if self.outbox.qsize() < WATCHER_BACKLOG:
            self.outbox.put_nowait(text)
            return
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)
        self.dropping = asyncio.ensure_future(let_go(self.ws, SLOW_WATCHER))


@dataclass
class FrameBudget:
    """A connection's frames: a token bucket against floods, and a count of bad frames."""

    tokens: float = p.FLOOD_BURST
    at: float = field(default_factory=time.monotonic)
    bad: int = 0

    def wait(self) -> float:
        """Take one frame's token: how long to wait first (0 unless the connection floods)."""
        now = time.monotonic()
        self.tokens = min(p.FLOOD_BURST, self.tokens + (now - self.at) * p.FLOOD_RATE) - 1
        self.at = now
        return 0.0 if self.tokens >= 0 else -self.tokens / p.FLOOD_RATE


class TableSocket(web.WebSocketResponse):
    """aiohttp closes a too-big frame with 1009 before the handler sees it; the spec's answer to it
    is an ``error`` and 1008, so that is what a close for that reason becomes."""

    transport: Optional[asyncio.BaseTransport] = None  # the connection's, once prepared: cut if it stops reading
    request: Optional[web.BaseRequest] = None

    async def prepare(self, request: web.BaseRequest) -> Any:
        self.transport, self.request = request.transport, request
        return await super().prepare(request)

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            try:
                await self.send_str(p.dumps(p.error(f"a frame may hold at most {p.MAX_FRAME} bytes")))
            except Exception:  # the peer is gone: the close says the rest
                pass
            await self._linger()
            code, message = p.CLOSE_POLICY, b"frame too big"
        return await super().close(code=code, message=message, drain=drain)

    async def _linger(self) -> None:
        """The rest of a frame refused from its header is still coming: read and dropped (guard.GuardedHandler)
        until it stops or ``LINGER`` seconds pass, so that the close reaches a client still sending it (a
        socket closed with bytes unread is reset, and its peer may never read the error)."""
        from ..wire.guard import GuardedHandler  # in here: the guard is the server's; a client never lingers

        protocol = self.request.protocol if self.request is not None else None
        if not isinstance(protocol, GuardedHandler) or self.transport is None:
            return
        loop = asyncio.get_running_loop()
        ends = loop.time() + LINGER
        while loop.time() < ends and not self.transport.is_closing() and loop.time() - protocol.last_data < QUIET:
            await asyncio.sleep(QUIET / 4)  # a bounded look at the bytes still coming, not a wait for a result


async def open_socket(request: web.Request, hello_timeout: float
                      ) -> Optional[tuple[web.WebSocketResponse, dict[str, Any], str]]:
    """Accept a table connection and read its first frame, which must be a join or a rejoin: the socket,
    that frame and the peer's address; None once refused (said to the peer, the connection closed)."""
    ws = TableSocket(max_msg_size=p.READ_LIMIT, heartbeat=20, autoping=True)
    if not ws.can_prepare(request).ok:
        raise web.HTTPUpgradeRequired(text="This is a spades-tui table: connect with 'spades-tui join'.\n",
                                      headers={"Upgrade": "websocket"})
    await ws.prepare(request)
    try:
        first = await asyncio.wait_for(ws.receive(), hello_timeout)
    except TimeoutError:
        await refuse(ws, f"no join or rejoin within {hello_timeout:g} s")
        return None
    if first.type is not WSMsgType.TEXT:
        await refuse(ws, "the first frame must be a join or rejoin (a JSON text frame)")
        return None
    data, problem = p.parse_frame(first.data)
    if data is None or data.get("type") not in p.FIRST_TYPES:
        await refuse(ws, problem or "the first frame must be a join, rejoin, watch or create")
        return None
    version = p.version_problem(data)  # before any code or token is looked at: an old client hears it first
    if version is not None:
        await refuse(ws, version)
        return None
    return ws, data, request.remote or "?"


def code_bytes(text: str) -> bytes:
    """A code or token as bytes to compare or hash: a lone surrogate (JSON's "\\ud800") is no UTF-8 and would
    raise; as it is in no code or token the table made, it is kept as is only to be refused."""
    return text.encode("utf-8", "surrogatepass")


def hash_token(token: str) -> str:
    return hashlib.sha256(code_bytes(token)).hexdigest()


async def write_frames(ws: web.WebSocketResponse, outbox: asyncio.Queue[Optional[str]]) -> None:
    """One connection's frames, written in the order they were made."""
    while True:
        text = await outbox.get()
        if text is None or ws.closed:
            return
        try:
            await ws.send_str(text)
        except Exception:  # a connection going away: its handler cleans up
            return


async def retire(ws: web.WebSocketResponse, writer: Optional[asyncio.Future[None]]) -> None:
    """A connection whose seat was taken back elsewhere: its last frames (the error saying so) out, then closed."""
    if writer is not None:
        try:
            await asyncio.wait_for(asyncio.shield(writer), 5.0)
        except Exception:  # a writer that failed: the close below still comes
            pass
    try:
        await ws.close(code=p.CLOSE_POLICY, message=b"seat taken from another window")
    except Exception:  # already gone
        pass


async def let_go(ws: web.WebSocketResponse, reason: str) -> None:
    """Tell a connection that reads nothing why it is closed, if that goes out within ``TOLD_WITHIN`` seconds;
    then cut it (a close that waits for a peer that does not read would wait for ever)."""
    try:
        await asyncio.wait_for(refuse(ws, reason), TOLD_WITHIN)
    except Exception:  # not read in time: cut below
        pass
    transport = getattr(ws, "transport", None)
    if transport is not None and not transport.is_closing():
        transport.abort()


def failed(what: str, exc: BaseException) -> None:
    """A failure the checks did not foresee, for the host's console: one line (guard.quiet_failures)."""
    log.error(what, exc_info=exc)


async def refuse(ws: web.WebSocketResponse, reason: str) -> None:
    try:
        await ws.send_str(p.dumps(p.error(reason)))
        # A close reason is at most 123 bytes of UTF-8: cut at a character, not inside one.
        await ws.close(code=p.CLOSE_POLICY, message=reason.encode()[:120].decode("utf-8", "ignore").encode())
    except Exception:
        pass
