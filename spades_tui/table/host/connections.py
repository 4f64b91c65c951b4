"""A table's connections (docs/table-protocol.md): each remote seat's socket now, the watchers', the frames out.

``Connections`` (owned by ``table.TableHost``, built with the seats played over the socket) holds the sockets,
not the game: a seat's connection taken (and the window that had it told why it lost it), each frame read under
its budget and checked here (size, JSON object, known type) before the table answers it, each connection's
frames written in order by one task, a seat's ``update`` sent only when it changed, and the wrong codes
counted per address.  Who may sit where, and what a frame does, is the table's.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Optional

from aiohttp import WSMsgType, web

from ..wire import protocol as p
from .sockets import FrameBudget, GuestLink, Watcher, failed, refuse, retire, write_frames

DRAIN_WITHIN = 5.0  # seconds a stopping host waits for its last frames to be written
Answer = Callable[[dict[str, Any]], Optional[str]]  # a frame's answer: None if it was taken, else the error said


class Connections:
    """The sockets of a table's remote seats (``remotes``) and its watchers."""

    def __init__(self, remotes: tuple[int, ...]) -> None:
        self.links = {seat: GuestLink() for seat in remotes}  # each remote seat's connection now
        self.watchers: list[Watcher] = []
        self.wrong: dict[str, list[float]] = {}  # by address: when each wrong code came (the last minute)
        self._writers: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------ who is here

    def here(self, seat: int) -> bool:
        """``seat`` is connected (a seat played in this process always is)."""
        found = self.links.get(seat)
        return found is None or (found.ws is not None and not found.ws.closed)

    @property
    def connected(self) -> tuple[bool, bool]:
        return (self.here(0), self.here(1))

    def too_many_wrong(self, address: str) -> bool:
        now = time.monotonic()
        recent = [t for t in self.wrong.get(address, []) if now - t < p.WRONG_CODE_WINDOW]
        self.wrong[address] = recent
        return len(recent) >= p.WRONG_CODES

    def wrong_code(self, address: str) -> None:
        self.wrong.setdefault(address, []).append(time.monotonic())

    # ------------------------------------------------------------ taking a seat, watching, leaving

    def take(self, number: int, ws: web.WebSocketResponse) -> None:
        """``ws`` has seat ``number`` from now on: the window that had it hears why it lost it (after what it was
        sent already), then its connection is closed."""
        seat = self.links[number]
        old, old_box, old_writer = seat.ws, seat.outbox, seat.writer
        if old_box is not None:
            old_box.put_nowait(p.dumps(p.error(p.TAKEN)))
            old_box.put_nowait(None)
        if old is not None and not old.closed:
            self._keep(asyncio.ensure_future(retire(old, old_writer)))
        outbox: asyncio.Queue[Optional[str]] = asyncio.Queue()
        writer = asyncio.ensure_future(write_frames(ws, outbox))
        seat.ws, seat.outbox, seat.sent, seat.writer = ws, outbox, None, writer
        self._keep(writer)

    def left(self, number: Optional[int], ws: web.WebSocketResponse) -> bool:
        """The connection ``ws`` of seat ``number`` ended: True if it still had the seat (it is free now)."""
        seat = self.links.get(number) if number is not None else None
        if seat is None or seat.ws is not ws:
            return False
        if seat.outbox is not None:
            seat.outbox.put_nowait(None)
        seat.ws, seat.outbox, seat.sent = None, None, None
        return True

    def watch(self, ws: web.WebSocketResponse, name: str) -> Watcher:
        """A watcher's connection, its frames written in order from now on."""
        outbox: asyncio.Queue[Optional[str]] = asyncio.Queue()
        watcher = Watcher(ws, outbox, name)
        self.watchers.append(watcher)
        self._keep(asyncio.ensure_future(write_frames(ws, outbox)))
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        watcher.outbox.put_nowait(None)
        if watcher in self.watchers:
            self.watchers.remove(watcher)

    async def drain(self, bound: float = DRAIN_WITHIN) -> None:
        """Every frame made so far written, each connection's writer ended after its last (within ``bound``
        seconds: a peer that reads nothing holds no host up): a host that stops at the game's end closes no socket
        with the last hand's reveal and the ``over`` still queued (a guest then said its last hand unverified)."""
        for seat in self.links.values():
            if seat.outbox is not None:
                seat.outbox.put_nowait(None)
        for watcher in self.watchers:
            watcher.outbox.put_nowait(None)
        if self._writers:
            await asyncio.wait(list(self._writers), timeout=bound)

    def _keep(self, task: asyncio.Future[Any]) -> None:
        self._writers.add(task)
        task.add_done_callback(self._writers.discard)

    # ------------------------------------------------------------ frames out

    def send(self, message: dict[str, Any], only: Optional[int] = None) -> None:
        """To ``only`` that seat, or to every connected one (and the watchers: the reveal, the end, a line said)."""
        text = p.dumps(message)
        if only is None and message.get("type") in ("reveal", "over", "said"):
            for watcher in self.watchers:
                watcher.put(text)
        for number, seat in self.links.items():
            ws, outbox = seat.ws, seat.outbox
            if only in (None, number) and ws is not None and not ws.closed and outbox is not None:
                outbox.put_nowait(text)

    def due(self, at: int) -> tuple[list[int], list[Watcher]]:
        """The connected seats and the watchers whose last ``update`` was of another position (the record length
        ``at``, the seats' connections): each is counted as sent this one (the table sends it)."""
        now = (at, self.connected)
        seats = [number for number, seat in self.links.items() if seat.ws is not None and seat.sent != now]
        for number in seats:
            self.links[number].sent = now
        watchers = [w for w in self.watchers if w.sent != now]
        for watcher in watchers:
            watcher.sent = now
        return seats, watchers

    @staticmethod
    def to_watchers(watchers: list[Watcher], message: dict[str, Any]) -> None:
        text = p.dumps(message)
        for watcher in watchers:
            watcher.put(text)

    # ------------------------------------------------------------ frames in

    async def read(self, ws: web.WebSocketResponse, answer: Answer, *, seated: bool,
                   reply: Optional[Callable[[str], None]] = None) -> None:
        """Every frame of ``ws`` until it closes, under its budget: a good one to ``answer`` (its error, if any,
        said back), a bad one answered with an error, and too many bad ones in a row close it.  ``seated``: a
        seat's connection, where a binary frame is a bad one and a frame over the limit closes it at once (a
        watcher's binary frames are ignored); ``reply``: how an answer goes out in order with the connection's other
        frames (a watcher's ``put``), else at once."""
        budget = FrameBudget()
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                if seated and message.type is WSMsgType.BINARY:
                    if not await self.bad(ws, budget, "frames are JSON text, not binary"):
                        break
                continue
            pause = budget.wait()
            if pause > 0:  # a flood is read at the rate allowed, no faster: the table stays responsive
                await asyncio.sleep(pause)
            found, problem = p.parse_frame(message.data)
            if found is None:
                if seated and problem and problem.startswith("a frame may hold"):
                    await refuse(ws, problem)
                    break
                if not await self.bad(ws, budget, problem or "bad frame"):
                    break
                continue
            budget.bad = 0  # only bad frames in a row close the connection
            try:
                reason = answer(found)
            except Exception as exc:  # a frame no check foresaw: answered, said once, the table goes on
                failed("a frame could not be handled", exc)
                reason = "the table could not take that frame (nothing changed)"
            if reason is not None and reply is not None:
                reply(p.dumps(p.error(reason)))
            elif reason is not None:
                await ws.send_str(p.dumps(p.error(reason)))

    @staticmethod
    async def bad(ws: web.WebSocketResponse, budget: FrameBudget, reason: str) -> bool:
        """An error for a bad frame; False once there were too many and the connection is closed."""
        budget.bad += 1
        if budget.bad >= p.MAX_BAD_FRAMES:
            await refuse(ws, f"{reason} (too many bad frames: closing)")
            return False
        await ws.send_str(p.dumps(p.error(reason)))
        return True
