"""What keeps a listening table (``spades-tui host``, the tables of ``spades-tui serve``) up and quiet whatever
reaches its port (docs/table-protocol.md, "Transport": nothing a client sends can crash the host or stall it).

- A connection has ``header_timeout`` seconds to send a whole HTTP request (the WebSocket handshake); one
  left half-sent is closed, so that sockets held open mid-header cannot pile up.
- At most ``per_address`` connections at once from one address and ``total`` in all (kept under the
  process's descriptor limit): one more is answered ``503`` and closed at once, before it costs anything.
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
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Optional, TextIO, cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

HEADER_TIMEOUT = 10.0  # seconds for the whole request line and headers: a handshake is a few hundred bytes
PER_ADDRESS = 16  # connections at once from one address (two seats and their watchers, reconnecting)
TOTAL = 256  # connections at once in all
SPARE_DESCRIPTORS = 64  # kept free under the descriptor limit: slots, the database, bots' pipes
PROXY_PEERS = ("127.0.0.1", "::1")  # a proxy on this machine connects from here (127.0.0.2 is not a proxy)
FORWARDED = "X-Forwarded-For"


def client_address(request: web.BaseRequest, trust_proxy: bool) -> str:
    """The address a request stands for: its peer's, or behind a trusted proxy on this machine (the peer is
    the loopback address) the last ``X-Forwarded-For`` entry, the one the proxy itself added."""
    peer = request.remote or "?"
    if not trust_proxy or peer not in PROXY_PEERS:
        return peer
    header = request.headers.get(FORWARDED, "")
    last = header[-200:].rsplit(",", 1)[-1].strip().strip("[]")
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return peer  # no header, or not an address: the proxy's own


@dataclass(frozen=True)
class Limits:
    header_timeout: float = HEADER_TIMEOUT
    per_address: int = PER_ADDRESS
    total: int = TOTAL
    trust_proxy: bool = False

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
        return Limits(self.header_timeout, min(self.per_address, room), min(self.total, room), self.trust_proxy)


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
        self.open = 0
        self.refused = 0
        self.timed_out = 0

    def __call__(self) -> RequestHandler:
        return GuardedHandler(self, loop=self._loop, **self._kwargs)

    def proxied(self, address: str) -> bool:
        """Connections from ``address`` are a trusted proxy's: counted per address once their request says
        whose they are."""
        return self.limits.trust_proxy and address in PROXY_PEERS

    def admit(self, address: str) -> Optional[str]:
        """Count a new connection from ``address``; the reason it is refused instead (not counted)."""
        if self.open >= self.limits.total:
            return "This table has too many connections now: try again in a moment."
        if not self.proxied(address) and self.by_address.get(address, 0) >= self.limits.per_address:
            return "Too many connections from your address at once."
        self.open += 1
        if not self.proxied(address):
            self._count(address)
        return None

    def _count(self, address: str) -> None:
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def admit_forwarded(self, address: str) -> bool:
        """A proxied connection's request names ``address``: counted against it; False past its cap."""
        if self.by_address.get(address, 0) >= self.limits.per_address:
            return False
        self._count(address)
        return True

    def forget(self, address: str) -> None:
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    def release(self, address: str) -> None:
        self.open -= 1
        if not self.proxied(address):
            self.forget(address)


class GuardedHandler(RequestHandler):
    """One connection: refused at once past the caps; closed when its request is not whole in time."""

    _address: Optional[str] = None
    _forwarded: Optional[str] = None  # behind a trusted proxy: the address its request named, counted
    _deadline: Optional[asyncio.TimerHandle] = None
    requested = False  # a whole request came (its handler was called): the deadline no longer applies

    def forwarded_for(self, address: str) -> bool:
        """A proxied connection's request names ``address``; False once that address has too many."""
        manager = self._manager
        if not isinstance(manager, GuardedServer) or self._address is None or not manager.proxied(self._address):
            return True
        if self._forwarded == address:
            return True
        if self._forwarded is not None:  # a proxy's kept-alive connection now carries another's request
            manager.forget(self._forwarded)
            self._forwarded = None
        if not manager.admit_forwarded(address):
            manager.refused += 1
            return False
        self._forwarded = address
        return True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        manager = self._manager
        assert isinstance(manager, GuardedServer)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"
        refused = manager.admit(address)
        if refused is not None:
            manager.refused += 1
            self._manager = None  # never started: connection_lost has nothing to undo
            try:
                cast(asyncio.Transport, transport).write(_refusal(refused))
            finally:
                transport.close()
            return
        self._address = address
        super().connection_made(transport)
        self._deadline = self._loop.call_later(manager.limits.header_timeout, self._request_late)

    def _request_late(self) -> None:
        """No whole request yet (a half-sent one, or none): the connection is closed."""
        self._deadline = None
        if not self.requested and self.transport is not None:
            manager = self._manager
            if isinstance(manager, GuardedServer):
                manager.timed_out += 1
            self.force_close()

    def connection_lost(self, exc: Optional[BaseException]) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        manager, address = self._manager, self._address
        if address is not None and isinstance(manager, GuardedServer):
            self._address = None
            manager.release(address)
            if self._forwarded is not None:
                manager.forget(self._forwarded)
                self._forwarded = None
        if manager is None:
            return
        super().connection_lost(exc)


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
