"""What keeps a listening table (``spades-tui host``, the tables of ``spades-tui serve``) up and quiet whatever
reaches its port (docs/table-protocol.md, "Transport": nothing a client sends can crash the host or stall it).

- A connection has ``header_timeout`` seconds to send a whole HTTP request (the WebSocket handshake); one
  left half-sent is closed, so that sockets held open mid-header cannot pile up.
- At most ``per_address`` connections at once from one address and ``total`` in all (kept under the
  process's descriptor limit): one more is answered ``503`` and closed at once, before it costs anything;
  but when ``total`` are open and the newcomer's address holds fewer than the address holding the most (by
  more than one), that address's oldest connection not yet kept (``keep_connection``: a seat, a watcher, a
  create; not a lobby's list, nor one still before its first frame) makes room, so that connections held
  from many addresses leave room for an honest one.  An IPv6 address counts as its /64 (``address_key``:
  one subscriber holds a whole /64).
- Once a WebSocket is open, a frame (or a message in fragments) begun must be whole within
  ``frame_timeout`` seconds (``FrameClock``): its bytes trickled one by one would hold the connection for ever.
- Repeated failures (the accept loop out of descriptors, a broken connection's error) are said at most once
  a second, in one line, with the number left out, never as a traceback per event.
- Behind a reverse proxy on this machine (``trust_proxy``): a connection from the loopback address counts
  against the total only when it is made, and once its request is in, against the address its last
  ``X-Forwarded-For`` entry names (``client_address``, the one address every count of a server uses:
  connections, waiting tables, wrong codes).  From any other peer the header is not believed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import sys
import time
from dataclasses import dataclass, replace
from typing import Any, Awaitable, Callable, Optional, TextIO, cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

HEADER_TIMEOUT = 10.0  # seconds for the whole request line and headers: a handshake is a few hundred bytes
FRAME_TIMEOUT = 10.0  # seconds for a whole WebSocket frame once begun: a client's frame is at most 64 KiB
PER_ADDRESS = 16  # connections at once from one address (two seats and their watchers, reconnecting)
TOTAL = 256  # connections at once in all
SPARE_DESCRIPTORS = 64  # kept free under the descriptor limit: slots, the database, bots' pipes
PROXY_PEERS = ("127.0.0.1", "::1")  # a proxy on this machine connects from here (127.0.0.2 is not a proxy)
FORWARDED = "X-Forwarded-For"


def address_key(address: str) -> str:
    """The address a connection counts against: an IPv4 address as it is (an IPv4-mapped IPv6 one as IPv4), an
    IPv6 address as its /64, which one subscriber holds whole (``2001:db8::/64``); anything else as it is."""
    try:
        found = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


def client_address(request: web.BaseRequest, trust_proxy: bool) -> str:
    """The address a request counts against (``address_key``): its peer's, or behind a trusted proxy on this
    machine (the peer is the loopback address) the last ``X-Forwarded-For`` entry, the one the proxy added."""
    peer = request.remote or "?"
    if not trust_proxy or peer not in PROXY_PEERS:
        return address_key(peer)
    header = request.headers.get(FORWARDED, "")
    last = header[-200:].rsplit(",", 1)[-1].strip().strip("[]")
    try:
        return address_key(str(ipaddress.ip_address(last)))
    except ValueError:
        return address_key(peer)  # no header, or not an address: the proxy's own


def keep_connection(request: web.BaseRequest) -> None:
    """This connection is a seat's, a watcher's or a create's: never the one a full server lets go for another."""
    protocol = request.protocol
    if isinstance(protocol, GuardedHandler):
        protocol.kept = True


@dataclass(frozen=True)
class Limits:
    header_timeout: float = HEADER_TIMEOUT
    per_address: int = PER_ADDRESS
    total: int = TOTAL
    trust_proxy: bool = False
    frame_timeout: float = FRAME_TIMEOUT

    def within_descriptors(self) -> Limits:
        """These limits, with ``total`` lowered to fit the process's descriptor limit (with some to spare),
        so that the cap refuses a connection before the accept loop runs out of descriptors."""
        try:
            soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        except (OSError, ValueError):
            return self
        if soft == resource.RLIM_INFINITY:
            return self
        room = max(4, (soft - SPARE_DESCRIPTORS) // 2 if soft > 2 * SPARE_DESCRIPTORS else soft // 4)
        return replace(self, per_address=min(self.per_address, room), total=min(self.total, room))


def _refusal(reason: str) -> bytes:
    body = f"{reason}\n".encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Retry-After: 10\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


class GuardedServer(web.Server):
    """aiohttp's server, whose connections are counted per address and given a deadline for their request."""

    def __init__(self, *args: Any, limits: Limits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits
        self.by_address: dict[str, int] = {}
        self.held: dict[str, list[GuardedHandler]] = {}  # each address's connections, oldest first
        self.open = 0
        self.refused = 0
        self.timed_out = 0
        self.evicted = 0

    def __call__(self) -> RequestHandler:
        return GuardedHandler(self, loop=self._loop, **self._kwargs)

    def proxied(self, peer: str) -> bool:
        """Connections from ``peer`` are a trusted proxy's: counted per address once their request says whose
        they are."""
        return self.limits.trust_proxy and peer in PROXY_PEERS

    def admit(self, address: str, handler: Optional[GuardedHandler] = None, proxied: bool = False) -> Optional[str]:
        """Count a new connection from ``address`` (``proxied``: a trusted proxy's, counted per address later);
        the reason it is refused instead (not counted)."""
        if not proxied and self.by_address.get(address, 0) >= self.limits.per_address:
            return "Too many connections from your address at once."
        if self.open >= self.limits.total and not self._make_room(address):
            return "This table has too many connections now: try again in a moment."
        self.open += 1
        if not proxied:
            self._count(address, handler)
        return None

    def _make_room(self, address: str) -> bool:
        """All places taken: the oldest connection not kept of the address holding the most goes, if that
        address holds more than one more than ``address`` does; whether one went."""
        mine = self.by_address.get(address, 0)
        for other in sorted(self.held, key=lambda a: -self.by_address.get(a, 0)):
            if self.by_address.get(other, 0) <= mine + 1:
                return False
            victim = next((h for h in self.held[other] if not h.kept), None)
            if victim is not None:
                victim.let_go()
                self.evicted += 1
                return True
        return False

    def _count(self, address: str, handler: Optional[GuardedHandler]) -> None:
        self.by_address[address] = self.by_address.get(address, 0) + 1
        if handler is not None:
            self.held.setdefault(address, []).append(handler)

    def admit_forwarded(self, address: str, handler: Optional[GuardedHandler] = None) -> bool:
        """A proxied connection's request names ``address``: counted against it; False past its cap."""
        if self.by_address.get(address, 0) >= self.limits.per_address:
            return False
        self._count(address, handler)
        return True

    def forget(self, address: str, handler: Optional[GuardedHandler] = None) -> None:
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        held = self.held.get(address)
        if held is not None and handler is not None and handler in held:
            held.remove(handler)
        if held is not None and not held:
            del self.held[address]

    def release(self, address: str, handler: Optional[GuardedHandler] = None, proxied: bool = False) -> None:
        self.open -= 1
        if not proxied:
            self.forget(address, handler)


class GuardedHandler(RequestHandler):
    """One connection: refused at once past the caps; closed when its request is not whole in time, or when a
    WebSocket frame begun is not whole in time."""

    _address: Optional[str] = None  # the address counted (``address_key`` of the peer)
    _proxied = False  # from a trusted proxy: counted per the address its request names
    _forwarded: Optional[str] = None  # behind a trusted proxy: the address its request named, counted
    _deadline: Optional[asyncio.TimerHandle] = None
    requested = False  # a whole request came (its handler was called): the deadline no longer applies
    kept = False  # a seat's, a watcher's or a create's (``keep_connection``): never let go to make room
    last_data = 0.0  # when bytes last came (the loop's clock): a frame refused lingers until they stop

    def data_received(self, data: bytes) -> None:
        self.last_data = self._loop.time()
        super().data_received(data)

    def forwarded_for(self, address: str) -> bool:
        """A proxied connection's request names ``address``; False once that address has too many."""
        manager = self._manager
        if not isinstance(manager, GuardedServer) or self._address is None or not self._proxied:
            return True
        if self._forwarded == address:
            return True
        if self._forwarded is not None:  # a proxy's kept-alive connection now carries another's request
            manager.forget(self._forwarded, self)
            self._forwarded = None
        if not manager.admit_forwarded(address, self):
            manager.refused += 1
            return False
        self._forwarded = address
        return True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        manager = self._manager
        assert isinstance(manager, GuardedServer)
        peer = transport.get_extra_info("peername")
        raw = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"
        address, proxied = address_key(raw), manager.proxied(raw)
        refused = manager.admit(address, self, proxied)
        if refused is not None:
            manager.refused += 1
            self._manager = None  # never started: connection_lost has nothing to undo
            try:
                cast(asyncio.Transport, transport).write(_refusal(refused))
            finally:
                transport.close()
            return
        self._address, self._proxied = address, proxied
        super().connection_made(transport)
        self._deadline = self._loop.call_later(manager.limits.header_timeout, self._request_late)

    def set_parser(self, parser: Any, data_received_cb: Optional[Callable[[], None]] = None) -> None:
        """The WebSocket's frames from here on: each begun must be whole within the frame timeout."""
        manager = self._manager
        if isinstance(manager, GuardedServer) and manager.limits.frame_timeout > 0:
            parser = FrameClock(parser, manager.limits.frame_timeout, self._frame_late, self._loop)
        super().set_parser(parser, data_received_cb)

    def _frame_late(self) -> bool:
        """A frame begun is not whole in time: closed, unless this side stopped reading (a flood read at its
        pace): then the clock starts again."""
        if getattr(self, "_reading_paused", False):
            return False
        manager = self._manager
        if isinstance(manager, GuardedServer):
            manager.timed_out += 1
        self.force_close()
        return True

    def _request_late(self) -> None:
        """No whole request yet (a half-sent one, or none): the connection is closed."""
        self._deadline = None
        if not self.requested and self.transport is not None:
            manager = self._manager
            if isinstance(manager, GuardedServer):
                manager.timed_out += 1
            self.force_close()

    def let_go(self) -> None:
        """Closed to make room for another address's connection: no longer counted from now."""
        self._uncount()
        self.force_close()

    def _uncount(self) -> None:
        manager, address = self._manager, self._address
        if address is not None and isinstance(manager, GuardedServer):
            self._address = None
            manager.release(address, self, self._proxied)
            if self._forwarded is not None:
                manager.forget(self._forwarded, self)
                self._forwarded = None

    def connection_lost(self, exc: Optional[BaseException]) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        parser = getattr(self, "_payload_parser", None)
        if isinstance(parser, FrameClock):
            parser.stop()
        self._uncount()
        if self._manager is None:
            return
        super().connection_lost(exc)


class FrameClock:
    """A WebSocket reader's stand-in that follows where each frame begins and ends (RFC 6455, section 5.2: a
    header of 2 to 14 bytes, then the payload) and calls ``late`` when a frame, or a message sent in fragments,
    is not whole ``timeout`` seconds after its first byte (``late`` False: not cut, the time starts again).
    Every byte goes on to the real reader unchanged."""

    def __init__(self, reader: Any, timeout: float, late: Callable[[], bool], loop: asyncio.AbstractEventLoop) -> None:
        self.reader, self.timeout, self.late, self.loop = reader, timeout, late, loop
        self.head = b""  # the header read so far
        self.payload = 0  # payload bytes of the current frame still to come
        self.fragments = False  # a data message's first fragment came, its last not yet
        self.since: Optional[float] = None  # when the frame (or the message in fragments) now coming began
        self._timer: Optional[asyncio.TimerHandle] = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)

    def feed_eof(self) -> Any:
        self.stop()
        return self.reader.feed_eof()

    def feed_data(self, data: bytes) -> Any:
        self.count(bytes(data))
        return self.reader.feed_data(data)

    def count(self, data: bytes) -> None:
        at, now = 0, self.loop.time()
        while at < len(data):
            if self.since is None:
                self.since = now
            if self.payload:
                taken = min(self.payload, len(data) - at)
                self.payload -= taken
                at += taken
                if not self.payload:
                    self._frame_done()
                continue
            need = self._header_length()
            taken = min(need - len(self.head), len(data) - at)
            self.head += data[at:at + taken]
            at += taken
            if len(self.head) == self._header_length():
                self.payload = self._payload_length()
                if not self.payload:
                    self._frame_done()
        if self.since is not None and self._timer is None:
            self._timer = self.loop.call_at(self.since + self.timeout, self._check)

    def _header_length(self) -> int:
        if len(self.head) < 2:
            return 2
        size = self.head[1] & 0x7F
        return 2 + (2 if size == 126 else 8 if size == 127 else 0) + (4 if self.head[1] & 0x80 else 0)

    def _payload_length(self) -> int:
        size = self.head[1] & 0x7F
        if size == 126:
            return int.from_bytes(self.head[2:4], "big")
        if size == 127:
            return int.from_bytes(self.head[2:10], "big")
        return size

    def _frame_done(self) -> None:
        fin, opcode = self.head[0] & 0x80, self.head[0] & 0x0F
        if opcode < 0x8:  # a data frame (a control frame may come between two fragments: it ends nothing)
            self.fragments = not fin
        self.head = b""
        if not self.fragments:
            self.since = None

    def _check(self) -> None:
        self._timer = None
        if self.since is None:
            return
        if self.loop.time() >= self.since + self.timeout:
            if not self.late():  # not read from meanwhile: the frame's time starts again
                self.since = self.loop.time()
                self._timer = self.loop.call_at(self.since + self.timeout, self._check)
        else:
            self._timer = self.loop.call_at(self.since + self.timeout, self._check)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class GuardedRunner(web.AppRunner):
    """An ``AppRunner`` whose server is a ``GuardedServer``; aiohttp's keep-alive timeout is the header
    timeout too (an idle connection between requests costs a descriptor as much as a half-sent one)."""

    def __init__(self, app: web.Application, limits: Optional[Limits] = None, **kwargs: Any) -> None:
        self.limits = (limits or Limits()).within_descriptors()
        kwargs.setdefault("keepalive_timeout", self.limits.header_timeout)
        super().__init__(app, **kwargs)

    async def _make_server(self) -> web.Server:
        plain = await super()._make_server()
        handle = plain.request_handler

        trust = self.limits.trust_proxy

        async def handled(request: web.BaseRequest) -> web.StreamResponse:
            protocol = request.protocol
            if isinstance(protocol, GuardedHandler):
                protocol.requested = True
                if trust and not protocol.forwarded_for(client_address(request, True)):
                    return web.Response(status=503, text="Too many connections from your address at once.\n",
                                        headers={"Retry-After": "10", "Connection": "close"})
            return await handle(request)

        return GuardedServer(handled, request_factory=plain.request_factory,
                             handler_cancellation=plain.handler_cancellation, loop=plain._loop, limits=self.limits,
                             **plain._kwargs)

    @property
    def guarded(self) -> Optional[GuardedServer]:
        server = self.server
        return server if isinstance(server, GuardedServer) else None


class GuardedSite(web.TCPSite):
    """A TCP site whose TLS handshake has the header timeout too (asyncio's own is 60 s, and a connection
    is counted against the caps only once its handshake is done)."""

    def __init__(self, runner: GuardedRunner, host: str, port: int, *, ssl_context: Any = None) -> None:
        super().__init__(runner, host, port, ssl_context=ssl_context)
        self.handshake_timeout = runner.limits.header_timeout

    async def start(self) -> None:
        if self._ssl_context is None:
            await super().start()
            return
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            server, self._host, self._port, ssl=self._ssl_context, backlog=self._backlog,
            reuse_address=self._reuse_address, reuse_port=self._reuse_port,
            ssl_handshake_timeout=self.handshake_timeout)
        sockets = self._server.sockets
        self._bound_port = sockets[0].getsockname()[1] if sockets else self._port


# ------------------------------------------------------------ quiet failures


class Throttle:
    """At most one line a second: the first of a burst is said, the others counted and said with the next."""

    def __init__(self, write: Callable[[str], None], every: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.write, self.every, self.clock = write, every, clock
        self._last: Optional[float] = None
        self.left_out = 0

    def say(self, line: str) -> bool:
        """Say ``line`` unless a line was said less than ``every`` seconds ago; whether it was said."""
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            self.left_out += 1
            return False
        self._last = now
        if self.left_out:
            line = f"{line} ({self.left_out} more like it left out)"
            self.left_out = 0
        self.write(line)
        return True


def one_line(message: str, exc: Optional[BaseException]) -> str:
    """A failure in one line: what failed and the exception's kind and words (no traceback)."""
    text = " ".join(str(message).split())
    if exc is not None:
        text = f"{text}: {type(exc).__name__}: {' '.join(str(exc).split())}" if text else \
            f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return text[:300]


class ThrottledHandler(logging.Handler):
    """A logging handler that writes each record as one line, at most one a second (``Throttle``)."""

    def __init__(self, throttle: Throttle) -> None:
        super().__init__()
        self.throttle = throttle

    def emit(self, record: logging.LogRecord) -> None:
        try:
            exc = record.exc_info[1] if record.exc_info else None
            self.throttle.say(one_line(record.getMessage(), exc))
        except Exception:  # a log line must never become a failure of its own
            self.handleError(record)


LOGGERS = ("spades-tui.table", "asyncio", "aiohttp.server", "aiohttp.web", "aiohttp.websocket", "aiohttp.access",
           "textual-serve")


def quiet_failures(prefix: str, stream: Optional[TextIO] = None,
                   loop: Optional[asyncio.AbstractEventLoop] = None) -> Throttle:
    """Route the event loop's and aiohttp's failure reports through one ``Throttle`` writing ``prefix: LINE``
    to ``stream`` (standard error): at most a line a second, never a traceback."""
    out = stream if stream is not None else sys.stderr

    def write(line: str) -> None:
        try:
            print(f"{prefix}: {line}", file=out, flush=True)
        except (OSError, ValueError):  # no standard error left (closed, or the disk full): nothing to say it on
            pass

    throttle = Throttle(write)
    handler = ThrottledHandler(throttle)
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            if isinstance(old, ThrottledHandler):
                logger.removeHandler(old)
        logger.addHandler(handler)
        logger.propagate = False
    if loop is not None:
        def report(_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            exc = context.get("exception")
            throttle.say(one_line(str(context.get("message", "")), exc if isinstance(exc, BaseException) else None))

        loop.set_exception_handler(report)
    return throttle


async def serve_until_stopped(app: Awaitable[web.Application], host: str, port: int, *, limits: Limits,
                              stopped: asyncio.Event, announce: Callable[[str], None],
                              shutdown_timeout: float, ssl_context: Any = None) -> None:
    """What ``web.run_app`` does, with a ``GuardedRunner``: listen, announce, wait for ``stopped``, shut down
    (the application's on_shutdown included).  OSError if the address cannot be listened on."""
    runner = GuardedRunner(await app, limits, access_log=None, handle_signals=False, shutdown_timeout=shutdown_timeout)
    await runner.setup()
    try:
        site = GuardedSite(runner, host, port, ssl_context=ssl_context)
        await site.start()
        announce(site.name)
        await stopped.wait()
    finally:
        await runner.cleanup()
