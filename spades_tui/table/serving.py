"""A table serving its connections (docs/table-protocol.md): who sits where, and the watchers.

``HostServing`` (of ``host.TableHost``) answers ``/table``: a join with the code (or a rejoin with a seat's
token) takes the seat, and a window that had that seat hears it was taken; then every frame of the seat is
read under its budget and checked here (size, JSON object, known type) before the game sees it (``_handle``).
A watcher (with the watch code) gets the public view, the reveals, the chat and the end, and may say nothing.
Wrong codes are counted per address.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from aiohttp import WSMsgType, web

from ..engine.record import PlayerInfo
from ..engine.state import Phase
from . import protocol as p
from .guard import keep_connection
from .sockets import (
    FrameBudget,
    GuestLink,
    Watcher,
    code_bytes,
    failed,
    hash_token,
    open_socket,
    refuse,
    retire,
    write_frames,
)

if TYPE_CHECKING:
    from ..engine.rules import Rules
    from ..keep.meta import HandSecret
    from ..session.session import Session


class HostServing:
    """The table's connections: seats taken and taken back, their frames read, the watchers."""

    if TYPE_CHECKING:  # the host's, which this part reads and calls
        session: Optional[Session]
        rules: Rules
        names: tuple[str, str]
        remote: int
        host_seat: int
        code: str
        token_hash: Optional[str]
        owner_hash: Optional[str]
        joined_name: Optional[str]
        creator: Optional[str]
        one_address: bool
        seated: Callable[[], None]
        hello_timeout: float
        chat: list[dict[str, Any]]
        hands: dict[int, HandSecret]
        pending: Optional[HandSecret]
        _revealed: int
        _watch_code: str
        _writers: set[asyncio.Future[Any]]

        def players(self) -> tuple[PlayerInfo, PlayerInfo]: ...
        def _handle(self, data: dict[str, Any], seat: int) -> Optional[str]: ...
        def _changed(self) -> None: ...
        def _save_meta(self) -> None: ...
        def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None: ...
        def _update(self) -> None: ...
        def _send_reveal(self, hand: int, only: Optional[int] = None) -> None: ...
        def _send_over(self, only: Optional[int] = None) -> None: ...
        def _send_commit(self, only: Optional[int] = None) -> None: ...
        def _prepare_first(self, seat: int) -> None: ...
        def public_record(self) -> dict[str, Any]: ...
        def event(self, line: str) -> None: ...

    def _init_serving(self, remotes: tuple[int, ...]) -> None:
        self.links = {seat: GuestLink() for seat in remotes}  # each remote seat's connection now
        self.watchers: list[Watcher] = []
        self._wrong: dict[str, list[float]] = {}  # by address: when a wrong code came, the last minute's


    def application(self) -> web.Application:
        app = web.Application()
        app.router.add_get(p.PATH, self.handle)
        return app

    def _too_many_wrong(self, address: str) -> bool:
        now = time.monotonic()
        recent = [t for t in self._wrong.get(address, []) if now - t < p.WRONG_CODE_WINDOW]
        self._wrong[address] = recent
        return len(recent) >= p.WRONG_CODES

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """``/table``: one connection, from its join or rejoin to its end."""
        opened = await open_socket(request, self.hello_timeout)
        if opened is not None:
            keep_connection(request)  # a seat or a watcher: not one a full host lets go for another
            await self.serve(*opened)
        return opened[0] if opened is not None else web.Response(status=400)

    async def serve(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A connection whose first frame (a join or rejoin) is ``data``: the seat, then its frames."""
        if data.get("type") in ("create", "lobby"):
            await refuse(ws, "this is a table, not a server: open a table with 'spades-tui host --server ADDR:P' "
                              "at a 'spades-tui serve'")
            return
        if data.get("type") == "watch":
            await self.watch(ws, data, address)
            return
        budget = FrameBudget()
        mine: Optional[int] = None
        try:
            try:
                sat = self._sit(ws, data, address)
            except Exception as exc:  # a first frame no check foresaw: refused with the spec's error, said once
                failed("a first frame could not be handled", exc)
                sat = "the table could not take that frame"
            if isinstance(sat, str):
                await refuse(ws, sat)
                return
            mine = sat
            self._seat_event(mine, data.get("type") == "join")
            self._changed()
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    if message.type is WSMsgType.BINARY:
                        if not await self._bad(ws, budget, "frames are JSON text, not binary"):
                            break
                    continue
                pause = budget.wait()
                if pause > 0:  # a flood is read at the rate allowed, no faster: the table stays responsive
                    await asyncio.sleep(pause)
                found, problem = p.parse_frame(message.data)
                if found is None:
                    if problem and problem.startswith("a frame may hold"):
                        await refuse(ws, problem)
                        break
                    if not await self._bad(ws, budget, problem or "bad frame"):
                        break
                    continue
                budget.bad = 0  # only bad frames in a row close the connection
                try:
                    reason = self._handle(found, mine)
                except Exception as exc:  # a frame no check foresaw: answered, said once, the table goes on
                    failed("a frame could not be handled", exc)
                    reason = "the table could not take that frame (nothing changed)"
                if reason is not None:
                    await ws.send_str(p.dumps(p.error(reason)))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            seat = self.links.get(mine) if mine is not None else None
            if seat is not None and mine is not None and seat.ws is ws:
                if seat.outbox is not None:
                    seat.outbox.put_nowait(None)
                seat.ws, seat.outbox, seat.sent = None, None, None
                if self.session is None or self.session.outcome is None:
                    self.event(f"{self.players()[mine].name} left the table (disconnected).")
                self._changed()  # the other side sees the seat disconnected

    def _seat_event(self, seat: int, joined: bool) -> None:
        name = self.players()[seat].name
        self.event(f"{name} sat down at the table." if joined else f"{name} is back at the table.")

    async def _bad(self, ws: web.WebSocketResponse, budget: FrameBudget, reason: str) -> bool:
        """An error for a bad frame; False once there were too many and the connection is closed."""
        budget.bad += 1
        if budget.bad >= p.MAX_BAD_FRAMES:
            await refuse(ws, f"{reason} (too many bad frames: closing)")
            return False
        await ws.send_str(p.dumps(p.error(reason)))
        return True

    def _sit(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> int | str:
        """A join or rejoin: the seat this connection now has, or the reason it has none."""
        version = p.version_problem(data)
        if version is not None:
            return version
        if data["type"] == "join":
            if self._too_many_wrong(address):
                return "too many wrong codes from this address: wait a minute"
            code = data.get("code")
            given = code_bytes(code.strip().lower()) if isinstance(code, str) else None
            if given is not None and hmac.compare_digest(given, code_bytes(self._watch_code)):
                return "that is the table's watch code: watch with 'spades-tui watch ADDR:P CODE'"
            if given is None or not hmac.compare_digest(given, code_bytes(self.code)):
                self._wrong.setdefault(address, []).append(time.monotonic())
                return "wrong code"
            if self.token_hash is not None:
                return "that code has been used: the seat is taken (its player comes back with 'join' alone)"
            token = p.new_token()
            self.token_hash = hash_token(token)
            self.one_address = self.creator is not None and address == self.creator
            number = self.remote
            name = p.clean_name(data.get("name"), "Guest")
            # Two seats of one name could not be told apart on either screen.
            self.joined_name = name if name.lower() != self.names[0].lower() else f"{name[:14]} 2"
            if self.session is not None:  # a resumed table whose friend never sat down
                self._save_meta()
            else:  # a server's table not begun yet: the seat kept in its file (a restart keeps it the friend's)
                self.seated()
        else:
            given = data.get("token")
            found = hash_token(given) if isinstance(given, str) else ""
            if self.token_hash is not None and hmac.compare_digest(found, self.token_hash):
                number = self.remote
            elif self.owner_hash is not None and hmac.compare_digest(found, self.owner_hash):
                number = self.host_seat
            else:
                return "unknown seat token (that game is not at this table)"
            assert isinstance(given, str)
            token = given
        seat = self.links[number]
        old, old_box, old_writer = seat.ws, seat.outbox, seat.writer
        if old_box is not None:
            # The window that had the seat hears why it lost it (after what it was sent already), then the close.
            old_box.put_nowait(p.dumps(p.error(p.TAKEN)))
            old_box.put_nowait(None)
        if old is not None and not old.closed:
            retiring = asyncio.ensure_future(retire(old, old_writer))
            self._writers.add(retiring)
            retiring.add_done_callback(self._writers.discard)
        outbox: asyncio.Queue[Optional[str]] = asyncio.Queue()
        writer = asyncio.ensure_future(write_frames(ws, outbox))
        seat.ws, seat.outbox, seat.sent, seat.writer = ws, outbox, None, writer
        self._writers.add(writer)
        writer.add_done_callback(self._writers.discard)
        players = self.players()
        rules = self.session.store.record.rules if self.session is not None else self.rules
        self._send({"type": "welcome", "seat": number, "token": token,
                    "players": [pl.to_json() for pl in players], "rules": rules.to_json(),
                    "code": self.code, "watch": self._watch_code}, number)
        if self.session is None:
            if self.token_hash is not None:  # the friend sat down: hand 1 is committed to
                self._prepare_first(number)
        else:
            self._update()
            # Every scored hand's reveal again: the seat may have missed any of them (a host that stopped after
            # scoring a hand and dealt the next on resume); a client keeps the verdicts it already has.
            for hand in range(1, min(self._revealed, len(self.session.state.history)) + 1):
                self._send_reveal(hand, number)
            if self.session.outcome is not None:
                self._send_over(number)
            elif self.pending is not None:
                self._send_commit(number)
        return number

    async def watch(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A watcher's connection: the public view, the reveals and the end; it may not act, nonce or say."""
        version = p.version_problem(data)  # open_socket checked it already; a watch handed in directly too
        if version is not None:
            await refuse(ws, version)
            return
        if self._too_many_wrong(address):
            await refuse(ws, "too many wrong codes from this address: wait a minute")
            return
        code = data.get("code")
        given = code_bytes(code.strip().lower()) if isinstance(code, str) else b""
        if hmac.compare_digest(given, code_bytes(self.code)):
            await refuse(ws, "that is the table's join code, which sits down at the table: watch with the watch "
                              "code")
            return
        if not hmac.compare_digest(given, code_bytes(self._watch_code)):
            self._wrong.setdefault(address, []).append(time.monotonic())
            await refuse(ws, "wrong code")
            return
        if len(self.watchers) >= p.MAX_WATCHERS:
            await refuse(ws, f"this table has {p.MAX_WATCHERS} watchers already: try again later")
            return
        outbox: asyncio.Queue[Optional[str]] = asyncio.Queue()
        watcher = Watcher(ws, outbox, p.clean_name(data.get("name"), "Watcher"))
        self.watchers.append(watcher)
        writer = asyncio.ensure_future(write_frames(ws, outbox))
        self._writers.add(writer)
        writer.add_done_callback(self._writers.discard)
        rules = self.session.store.record.rules if self.session is not None else self.rules
        outbox.put_nowait(p.dumps({"type": "watching", "players": [pl.to_json() for pl in self.players()],
                                   "rules": rules.to_json()}))
        for line in self.chat:
            outbox.put_nowait(p.dumps(line))
        if self.session is not None:
            self._update()
            st = self.session.state
            if st.history and (st.phase is Phase.SHUFFLE or self.session.outcome is not None):
                found = self.hands.get(len(st.history))
                if found is not None and found.nonces is not None:
                    outbox.put_nowait(p.dumps({"type": "reveal", "hand": found.hand, "secret": found.secret.hex(),
                                               "nonces": [n.hex() if n is not None else None for n in found.nonces]}))
            if self.session.outcome is not None:
                outbox.put_nowait(p.dumps({"type": "over", "scores": list(self.session.outcome.scores),
                                           "winner": self.session.outcome.winner, "record": self.public_record()}))
        budget = FrameBudget()
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                pause = budget.wait()
                if pause > 0:
                    await asyncio.sleep(pause)
                found_frame, problem = p.parse_frame(message.data)
                if found_frame is None:
                    if not await self._bad(ws, budget, problem or "bad frame"):
                        break
                    continue
                kind = found_frame["type"]
                reason = ("watchers read but do not say" if kind == "say" else
                          "a watcher does not play: it may not act or send a nonce" if kind in ("act", "nonce") else
                          "this connection already watches")
                watcher.put(p.dumps(p.error(reason)))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            outbox.put_nowait(None)
            if watcher in self.watchers:
                self.watchers.remove(watcher)
