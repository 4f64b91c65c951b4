"""A seat's link to its table (docs/table-protocol.md): the connection, its pacing, and taking the seat back.

``ClientLink`` is the connection of a ``client.TableClient``, which owns it: the handshake (no HTTP redirect is
followed: the code or token would go to the redirect's target), the first answer, the frames read at a bounded rate
(under a flood, redrawn at a bounded rate too), and, while the game is not over, the seat taken back by
itself at growing intervals when the link drops.  What a frame means is the client's (its ``handle``).
``open_served_table`` asks a ``spades-tui serve`` for a new table over HTTP.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import ssl
import time
from collections import deque
from errno import ECONNREFUSED, EHOSTUNREACH, ENETUNREACH
from typing import TYPE_CHECKING, Any, Callable, Optional
from urllib.parse import urlsplit

import aiohttp

from ...engine.rules import Rules
from ...i18n.language import _, translated
from ..wire import frames as f
from ..wire import protocol as p
from ..wire import reasons as r
from ..wire.visitors import TAB_HEADER

if TYPE_CHECKING:
    from .talk import SeatTalk

MAX_HOST_FRAME = 4 * 1024 * 1024  # bytes of one host frame at most ('over' holds the whole record)
FRAME_RATE = 100.0  # host frames read a second at most, on average ...
FRAME_BURST = 400.0  # ... after a burst of this many (a whole fast game between bots stays under it)
FLOOD_REDRAW = 0.1  # seconds between redraws while the host floods
REDIRECTS = (301, 302, 303, 307, 308)


class Redirected(aiohttp.ClientError):
    """The table's address answered the handshake with a redirect (never followed)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


async def no_redirects(request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType) -> aiohttp.ClientResponse:
    """aiohttp's ws_connect follows a redirect by itself (it takes no allow_redirects): this session middleware
    sees each response first and stops at a redirect, so no second request (and no code or token) goes out."""
    response = await handler(request)
    if response.status in REDIRECTS:
        response.close()
        raise Redirected(response.status)
    return response


def why_unreachable(exc: BaseException) -> str:
    """Why a connection was not made, in a player's words (aiohttp's own read "Cannot connect to host ...
    ssl:default [Connect call failed ...]")."""
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return _("no answer within 10 s (a firewall on the way, or a wrong address?)")
    cause = exc.os_error if isinstance(exc, aiohttp.ClientConnectorError) else exc
    if isinstance(cause, socket.gaierror):
        return _("that name is not known (is the address typed right?)")
    errno = getattr(cause, "errno", None)
    if errno == ECONNREFUSED:
        return _("nothing is listening there (is the table or the server still open, and the port right?)")
    if errno in (EHOSTUNREACH, ENETUNREACH):
        return _("that address cannot be reached from this machine")
    if errno:
        return os.strerror(errno)
    return str(exc) or type(exc).__name__


class TableError(Exception):
    """The table cannot be reached or refused the seat; the reason in plain words."""


class TableRefused(TableError):
    """The table answered and refused the seat (a wrong code, an unknown token): trying again will not help."""


RETRY_FIRST = 1.0  # seconds before the first try to reconnect; each next wait doubles ...
RETRY_MAX = 60.0  # ... up to a minute apart
QUICK_DROP = 10.0  # seconds: a connection welcomed and gone sooner was dropped "at once" ...
QUICK_DROPS = 3  # ... and this many in a row within FLAP_WINDOW are not a fresh start each: the waits go on growing
FLAP_WINDOW = 60.0


def table_url(address: str) -> str:
    """``ADDR:PORT``, ``ws://ADDR:PORT`` or ``wss://ADDR:PORT`` as the table's WebSocket URL."""
    text = address.strip()
    if "://" not in text:
        text = "ws://" + text
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:  # "host:not-a-number": said as any other bad address, not raised
        port = None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or port is None:
        raise TableError(_("not a table address: {address} (expected ADDR:PORT, or wss://ADDR:PORT)").format(
            address=repr(address)))
    return f"{parts.scheme}://{parts.netloc}{p.PATH}"


def table_address(url: str) -> str:
    """A table's WebSocket URL as a player writes it (``table_url``'s inverse): ADDR:PORT, or wss://ADDR:PORT."""
    where = url.removesuffix(p.PATH)
    return where.removeprefix("ws://") if where.startswith("ws://") else where


class ClientLink:
    """The connection of one seat (or watcher), owned by its ``client.TableClient`` and built with what it needs:
    the first frame to send (``hello()``), what to do with each frame read (``handle``), what the seat has to say
    (``talk``: the link's warnings and events), whether the game is over (``over()``: no retrying then), what
    to do when the table no longer knows the seat (``refused``), and ``on_change()``, called after what changed
    the seat's view."""

    def __init__(self, url: str, *, insecure: bool, retry_first: float, source: Optional[str], talk: SeatTalk,
                 hello: Callable[[], Optional[dict[str, Any]]], handle: Callable[[dict[str, Any]], None],
                 over: Callable[[], bool], refused: Callable[[], None], on_change: Callable[[], None]) -> None:
        self._talk = talk
        self._hello = hello
        self._handle = handle
        self._over = over
        self._refused = refused
        self.source = source
        self.url = url
        self.retry_first = retry_first
        self.insecure = insecure
        self.on_change = on_change
        self.dropped = 0  # host frames dropped as malformed
        self.headers: dict[str, str] = {}  # sent with the handshake (a served tab's own, see cli/webserver.py)
        self.closed_reason: Optional[str] = None
        self.taken = False  # our seat was taken back from another window (the host said so)
        self.link_up = False  # our own connection to the host
        self._tokens = FRAME_BURST
        self._tokens_at = time.monotonic()
        self.flooded = False  # the host sends faster than a game needs: read and redrawn slower
        self._redraw: Optional[asyncio.Handle] = None
        self._redrawn = 0.0
        self._ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self._session: Optional[aiohttp.ClientSession] = None
        self.retry: Optional[tuple[int, float]] = None  # (try, seconds to it) while reconnecting by itself
        self.gave_up: Optional[str] = None  # why it stopped trying (the table refused the seat)
        self._stopping = asyncio.Event()

    async def connect(self) -> None:
        """Connect and take the seat (join with the code, or rejoin with the saved token); TableError if not."""
        ssl_context: Any = True  # aiohttp's default checks
        if self.url.startswith("wss://"):
            ssl_context = ssl.create_default_context()
            if self.insecure:
                ssl_context.check_hostname = False
                ssl_context.verify_mode = ssl.CERT_NONE
        connector = aiohttp.TCPConnector(local_addr=(self.source, 0)) if self.source else None
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, connect=10),
                                              middlewares=(no_redirects,), connector=connector)
        try:
            self._ws = await self._session.ws_connect(self.url, max_msg_size=MAX_HOST_FRAME, heartbeat=20,
                                                      ssl=ssl_context, headers=self.headers)
        except Redirected as exc:
            await self.close()
            raise TableError(_("{url} answered with a redirect (HTTP {status}) instead of a table: not followed, and "
                               "neither your code nor your seat's token was sent").format(
                url=self.url, status=exc.status)) from None
        except aiohttp.WSServerHandshakeError as exc:
            await self.close()
            raise TableError(_("{url} is not a spades-tui table (it answered HTTP {status})").format(
                url=self.url, status=exc.status)) from None
        except aiohttp.ClientConnectorCertificateError as exc:
            await self.close()
            raise TableError(_("the table's certificate is not trusted ({problem}); for a self-signed certificate you "
                               "trust, add --insecure").format(problem=exc.certificate_error)) from None
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            await self.close()
            raise TableError(_("cannot reach the table at {address}: {why}").format(
                address=table_address(self.url), why=why_unreachable(exc))) from None
        first = self._hello()
        if first is None:
            await self.close()
            raise TableError(_("no code and no saved seat for that table"))
        await self._ws.send_str(p.dumps(first))
        self.link_up = True
        answer: object = None
        message: Optional[dict[str, Any]] = None
        bad = 0
        while bad < 3:  # a malformed frame first is said and dropped, as any other
            message = await self._receive_one()
            try:
                answer = f.read(message) if message is not None else None
            except f.FrameError as exc:
                bad += 1
                self.dropped += 1
                self._talk.warn(_("WARNING: the host sent a frame this client cannot use ({problem}); it was dropped")
                                .format(problem=exc))
                continue
            if not isinstance(answer, f.Seeking) or message is None:
                break
            self._handle(message)  # quick play: how the search for a stranger goes, until the welcome
        if not isinstance(answer, (f.Welcome, f.Watching)):
            reason = answer.reason if isinstance(answer, f.Error) else None  # cleaned and bounded by frames.error
            await self.close()
            if reason is not None and "unknown seat token" in reason:
                self._refused()
            if reason is not None and f"protocol {p.PROTOCOL}" not in reason and "protocol" in reason:
                raise TableRefused(_("the table refused the seat: {reason} (this spades-tui speaks protocol "
                                     "{version}: the table's and yours differ)").format(reason=r.shown(reason),
                                                                                        version=p.PROTOCOL))
            if reason is not None:
                raise TableRefused(_("the table refused the seat: {reason}").format(reason=r.shown(reason)))
            raise TableError(_("the table closed the connection (not a spades-tui table?)"))
        assert message is not None
        self._handle(message)

    async def _receive_one(self) -> Optional[dict[str, Any]]:
        assert self._ws is not None
        try:
            msg = await self._ws.receive()
        except (TimeoutError, aiohttp.ClientError, OSError):
            return None
        if msg.type is not aiohttp.WSMsgType.TEXT:
            if msg.type is not aiohttp.WSMsgType.BINARY:  # the close (or its start): the end of the frames
                reason = self._ws.close_code
                said = msg.extra if isinstance(msg.extra, str) else ""
                if "taken" in said:
                    self.taken = True
                self.closed_reason = (translated(p.TAKEN) if self.taken else
                                      _("the connection was closed ({code})").format(code=reason) if reason
                                      else _("the connection dropped"))
                return None
            return {}  # a binary frame: not a message (said and dropped)
        try:
            data = json.loads(msg.data)
        except (ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    async def _paced(self) -> None:
        """One frame's share of the read rate: a host that floods is read slower (TCP holds the rest back)."""
        now = time.monotonic()
        self._tokens = min(FRAME_BURST, self._tokens + (now - self._tokens_at) * FRAME_RATE) - 1
        self._tokens_at = now
        if self._tokens < 0:
            if not self.flooded:
                self.flooded = True
                self._talk.note(_("WARNING: the host is sending frames faster than any game needs; they are read more "
                                  "slowly and the screen redrawn less often (the game goes on)"))
            await asyncio.sleep(-self._tokens / FRAME_RATE)
        elif self.flooded and self._tokens >= FRAME_BURST / 2:
            self.flooded = False

    async def listen(self) -> None:
        """Handle messages until the connection ends (the game over, or the link dropped)."""
        try:
            while self._ws is not None and not self._ws.closed:
                message = await self._receive_one()
                if message is None:
                    break
                self._handle(message)
                await self._paced()
        finally:
            self.link_up = False
            self._talk.flush_warnings()
            await self.close()
            if self._redraw is not None:
                self._redraw.cancel()
                self._redraw = None
            self.on_change()

    async def keep(self) -> None:
        """Connect, listen, and while the game is not over, when the link drops take the seat back by itself
        at growing intervals (up to a minute apart) until it is back, the table refuses the seat, or
        ``stop``.  The first connection's TableError is raised: a wrong invite is said at once.  Each try is
        ``connect``'s (no redirect followed) and each connection is ``listen``'s (the same bounded reading)."""
        if self._ws is None:
            await self.connect()
        attempt = 0
        quick: deque[float] = deque(maxlen=QUICK_DROPS)  # when the last connections that dropped at once ended
        while True:
            began = time.monotonic()
            await self.listen()
            if self._over() or self._stopping.is_set():
                return
            ended = time.monotonic()
            if ended - began < QUICK_DROP:
                quick.append(ended)
            else:
                quick.clear()
            # A table that welcomes and drops at once, again and again, is not a table back: the waits grow on.
            if len(quick) < QUICK_DROPS or ended - quick[0] > FLAP_WINDOW:
                attempt = 0
            if self.taken:  # taken back from another window: taking it again would only take it from there
                self.gave_up = _("the table refused the seat: {reason}").format(reason=translated(p.TAKEN))
                self._talk.event(_("Stopped trying: {reason}.").format(reason=translated(p.TAKEN)))
                self.on_change()
                return
            while not self._stopping.is_set():
                attempt += 1
                delay = min(RETRY_MAX, self.retry_first * 2 ** min(attempt - 1, 10))
                self.retry = (attempt, delay)
                self._talk.event(_("Lost the table ({reason}): trying again in {seconds} s (try {attempt}).").format(
                    reason=self.closed_reason or _("the connection dropped"), seconds=p.decimal(delay),
                    attempt=attempt))
                self.on_change()
                try:  # waiting for the next try, or for the player to leave
                    await asyncio.wait_for(self._stopping.wait(), delay)
                    return
                except TimeoutError:
                    pass
                try:
                    await self.connect()
                except TableRefused as exc:
                    self.gave_up, self.retry = str(exc), None
                    self._talk.event(_("Stopped trying: {reason}.").format(reason=exc))
                    self.on_change()
                    return
                except TableError:
                    continue
                break
            self.retry = None

    async def stop(self) -> None:
        """The player leaves the table: no more tries, the connection closed."""
        self._stopping.set()
        await self.close()

    def changed(self) -> None:
        """``on_change``, coalesced: frames read together are one redraw, and under a flood at most one a
        FLOOD_REDRAW seconds (the screen's own keys, F1 among them, stay answered)."""
        if self._redraw is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test that hands frames in directly): at once
            self.on_change()
            return
        wait = self._redrawn + FLOOD_REDRAW - loop.time() if self.flooded else 0.0
        self._redraw = loop.call_later(wait, self._redraw_now) if wait > 0 else loop.call_soon(self._redraw_now)

    def seat_taken(self) -> None:
        """The host said our seat was taken from another window: said once the connection closes."""
        self.taken = True
        self.closed_reason = translated(p.TAKEN)

    def _redraw_now(self) -> None:
        self._redraw = None
        self._redrawn = asyncio.get_running_loop().time()
        self.on_change()

    async def close(self) -> None:
        ws, session = self._ws, self._session
        self._ws, self._session = None, None
        if ws is not None:
            await ws.close()
        if session is not None:
            await session.close()

    async def send(self, message: dict[str, Any]) -> bool:
        ws = self._ws
        if ws is None or ws.closed:
            return False
        try:
            await ws.send_str(p.dumps(message))
        except (aiohttp.ClientError, ConnectionError, RuntimeError):
            return False
        return True



async def open_served_table(base: str, key: str, name: str, rules: Optional[Rules], *, tab: Optional[str] = None,
                            public: bool = False) -> tuple[str, str, str, Optional[str]]:
    """Ask ``spades-tui serve`` (at ``base``) for a table: its WebSocket URL, its code, the first seat's token and
    its watch code.  ``tab``: this tab's token, so that the table counts against the browser's address."""
    headers = {"X-Spades-Key": key, **({TAB_HEADER: tab} if tab else {})}
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            async with session.post(f"{base}/tables/new", headers=headers,
                                    data=json.dumps({"name": name, "rules": rules.to_json() if rules else None,
                                                     "public": public}),
                                    allow_redirects=False) as response:
                if response.status != 200:
                    raise TableError(_("the server cannot open a table now ({reason})").format(
                        reason=(await response.text())[:200]))
                data = await response.json()
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
        raise TableError(_("the server's tables cannot be reached: {problem}").format(
            problem=exc or type(exc).__name__)) from None
    url, code, token, watch = data.get("url"), data.get("code"), data.get("token"), data.get("watch")
    if not all(isinstance(x, str) for x in (url, code, token)):
        raise TableError(_("the server answered something other than a table"))
    return url, code, token, watch if isinstance(watch, str) and len(watch) < 40 else None
