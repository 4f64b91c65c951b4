"""The host of a network table (docs/table-protocol.md): the game, the dealer, the socket, the slot.

``TableHost`` owns the ``Session`` (the remote seat's kind is ``remote``), the table's fair dealer
and the autosave slot; it runs in an asyncio loop (aiohttp's, or Textual's for the host's own
screen).  Every frame a client sends is checked here (size, JSON object, known type, ``at``,
legal for the sender's seat) and only a legal ``act`` of that seat changes the game; after every
change each connected seat gets an ``update`` built from its own ``SeatView`` and nothing else.

The host's own seat is played in this process: by a person on the host's screen (the app drives
the session as it does any game, and calls ``sync`` after each change) or by a built-in bot
(``host --bot``), asked in a thread so that the socket stays responsive.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from aiohttp import WSCloseCode, WSMsgType, web

from ..engine.actions import action_from_json, is_chance
from ..engine.errors import IllegalActionError, RecordError
from ..engine.record import GameRecord, PlayerInfo
from ..engine.rules import Rules
from ..engine.state import Phase
from ..keep.meta import HandSecret, RecordMeta, TableMeta, with_meta
from ..keep.slots import Slot, SlotDirectory
from ..keep.storage import StorageError
from ..session.session import Session
from ..session.view import hand_to_json
from . import protocol as p
from .shuffle import SECRET_BYTES, FairDealer, commitment, cut, hand_key, parse_nonce

log = logging.getLogger("spades-tui.table")


@dataclass
class Seat:
    """One remote seat's connection now."""

    ws: Optional[web.WebSocketResponse] = None
    sent: Optional[tuple[int, tuple[bool, bool]]] = None  # the (at, connected) of the last update sent
    outbox: Optional[asyncio.Queue[Optional[str]]] = None  # frames in order, written by one task
    writer: Optional[asyncio.Future[None]] = None  # that task


@dataclass
class Watcher:
    """One watcher's connection: the public view only."""

    ws: web.WebSocketResponse
    outbox: asyncio.Queue[Optional[str]]
    name: str
    sent: Optional[tuple[int, tuple[bool, bool]]] = None


@dataclass
class _Budget:
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

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            try:
                await self.send_str(p.dumps(p.error(f"a frame may hold at most {p.MAX_FRAME} bytes")))
            except Exception:  # the peer is gone: the close says the rest
                pass
            code, message = p.CLOSE_POLICY, b"frame too big"
        return await super().close(code=code, message=message, drain=drain)


class TableHost:
    """One table.  New: ``TableHost(rules=..., names=...)``; resumed: ``TableHost(record=..., slot=...)``.

    ``host_kind`` is the host seat's player kind: ``human`` (a person on this screen), ``bot:LEVEL``, or
    None: that seat is a client too (a table in ``spades-tui serve``, where each browser tab is a game
    process of its own), which sits down with ``owner_token``.
    ``on_change`` is called after a change the host's screen did not make (the remote seat acted,
    connected or dropped).  ``first`` None: the random cut, from hand 1's key.
    """

    def __init__(self, *, rules: Optional[Rules] = None, first: Optional[int] = None,
                 names: tuple[str, str] = ("Host", "Guest"), host_kind: Optional[str] = "human",
                 record: Optional[GameRecord] = None, slots: Optional[SlotDirectory] = None,
                 slot: Optional[Slot] = None, on_change: Callable[[], None] = lambda: None,
                 nonce_timeout: float = p.NONCE_TIMEOUT, hello_timeout: float = p.HELLO_TIMEOUT,
                 session_options: Optional[dict[str, Any]] = None, leak: bool = False) -> None:
        self.rules = rules or Rules()
        self.first = first
        self.host_seat, self.remote = 0, 1
        self.names = names
        self.host_kind = host_kind
        self.owner_token: Optional[str] = p.new_token() if host_kind is None else None
        self.owner_hash = _hash(self.owner_token) if self.owner_token is not None else None
        self.slots = slots
        self.slot = slot
        self.on_change = on_change
        self.nonce_timeout = nonce_timeout
        self.hello_timeout = hello_timeout
        self.session_options = session_options or {}
        self._leak = leak  # tests only: a host that sends the whole state, which the leak check must catch
        self.session: Optional[Session] = None
        self.dealer = FairDealer()
        self.seats = {seat: Seat() for seat in self.remotes}
        self.code = p.new_code()
        self.token_hash: Optional[str] = None
        self.hands: dict[int, HandSecret] = {}
        self.pending: Optional[HandSecret] = None  # the committed hand whose nonces are awaited
        self._nonces: dict[int, bytes] = {}
        self._nonce_timer: Optional[asyncio.TimerHandle] = None
        self._revealed = 0
        self._over_sent = False
        self.host_ready = host_kind != "human"  # a bot (or a client) deals on at once; a person presses Enter
        self._wrong: dict[str, list[float]] = {}
        self.problem: Optional[str] = None  # a save problem, said on the host's screen
        self.done = asyncio.Event()  # the game is over (or ended): a headless host stops
        self._bot_task: Optional[asyncio.Task[None]] = None
        self.joined_name: Optional[str] = None
        self.listening: Optional[tuple[str, int]] = None  # (address, port) once listened on: kept to resume there
        self.invite = ""  # the invite line the host's screen shows while the friend's seat is empty
        self.events: list[str] = []  # what happened at the table, one line each (sat down, scored, left, back, over)
        self.on_event: Callable[[str], None] = lambda line: None
        self._watch_code = p.new_code()
        self.watchers: list[Watcher] = []
        self.chat: list[dict[str, Any]] = []  # the lines said, newest last (a watcher that comes gets them)
        self._said_at: dict[int, float] = {}
        self.on_said: Callable[[dict[str, Any]], None] = lambda message: None
        self.pending_file: Optional[Path] = None  # a server's table not begun yet (table/pending.py): gone once begun
        self._told: tuple[int, bool] = (0, False)  # (hands scored, outcome) already told as events
        # A server's table (table/lobby.py): listed in its lobby; who opened it, when, and when a seat was last
        # connected (seconds since the epoch, the lobby's clock): a table nobody joins, or everyone left, expires.
        self.public = False
        self.creator: Optional[str] = None
        self.opened_at = self.last_seen = time.time()
        self._writers: set[asyncio.Future[Any]] = set()
        if record is not None:
            self._resume(record)

    # ------------------------------------------------------------ reading

    @property
    def record(self) -> Optional[GameRecord]:
        return self.session.store.record if self.session is not None else None

    @property
    def remotes(self) -> tuple[int, ...]:
        """The seats played by clients over the socket."""
        return (self.remote,) if self.host_kind is not None else (0, 1)

    def _here(self, seat: int) -> bool:
        found = self.seats.get(seat)
        return found is None or (found.ws is not None and not found.ws.closed)

    @property
    def connected(self) -> tuple[bool, bool]:
        return (self._here(0), self._here(1))

    @property
    def started(self) -> bool:
        return self.session is not None

    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        if self.session is not None:
            return self.session.store.players
        guest = self.joined_name or self.names[1]
        return (PlayerInfo(self.names[0], self.host_kind or "remote"), PlayerInfo(guest, "remote"))

    def _meta(self) -> TableMeta:
        address, port = self.listening if self.listening is not None else (None, None)
        return TableMeta(self.code, self.remote, self.token_hash, tuple(sorted(self.hands.values(),
                                                                               key=lambda h: h.hand)),
                         self.owner_hash, address, port, self._watch_code, self.public)

    @property
    def watch_code(self) -> str:
        return self._watch_code

    def restore_watch_code(self, code: Optional[str]) -> None:
        if code:
            self._watch_code = code

    def listened(self, address: str, port: int, invite: str) -> None:
        """The table listens at ``address:port`` (kept in the record: resumed, it listens there again)."""
        self.listening, self.invite = (address, port), invite
        self._save_meta()
        self.sync()

    def saved_place(self) -> Optional[tuple[str, int]]:
        """Where a resumed table listened before (None for a new table or an older record)."""
        record = self.record
        meta = TableMeta.of(record) if record is not None else None
        return (meta.address, meta.port) if meta is not None and meta.address and meta.port else None

    def note(self) -> str:
        """The host's panel line about the friend; while their seat is empty or dropped, the invite to
        come back with (the same one, unless the port could not be had again)."""
        guest = self.players()[self.remote].name
        said = f"\n{p.chat_line(self.chat[-1]['name'], self.chat[-1]['text'])}" if self.chat else ""
        if self.connected[self.remote]:
            return f"{guest} connected{said}"
        state = f"{guest} disconnected" if self.token_hash is not None else "Waiting for your friend"
        return (state if not self.invite else f"{state}\nTheir invite:\n{self.invite}") + said

    def event(self, line: str) -> None:
        """One thing that happened at the table, for the host's screen and ``host --bot``'s standard error."""
        self.events.append(line)
        self.on_event(line)

    def _tell_results(self) -> None:
        """Each scored hand and the end, said once as events."""
        session = self.session
        if session is None:
            return
        history = session.state.history
        told, over = self._told
        names = [pl.name for pl in self.players()]
        for number in range(told + 1, len(history) + 1):
            result = history[number - 1]
            points = ", ".join(f"{names[s]} {result.points[s]:+d}" for s in (0, 1))
            after = result.scores_after
            self.event(f"Hand {number} scored: {points} (score {after[0]}-{after[1]}).")
        outcome = session.outcome
        if outcome is not None and not over:
            won = f"{names[outcome.winner]} wins" if outcome.winner is not None else "a draw"
            self.event(f"Game over: {won}, {outcome.scores[0]} to {outcome.scores[1]}.")
        self._told = (len(history), over or outcome is not None)

    # ------------------------------------------------------------ starting and resuming

    def _resume(self, record: GameRecord) -> None:
        meta = TableMeta.of(record)
        if meta is None:
            raise StorageError("that game is not a network table's")
        self.code, self.remote, self.token_hash = meta.code, meta.remote, meta.token_hash
        self.owner_hash, self.owner_token = meta.owner_hash, None
        if meta.watch is not None:
            self._watch_code = meta.watch
        self.public = meta.public
        self.host_seat = 1 - self.remote
        self.hands = {h.hand: h for h in meta.hands}
        self.dealer = FairDealer(RecordMeta.of(record).seed)
        for h in meta.hands:
            if h.nonces is not None:
                self.dealer.keys[h.hand] = hand_key(h.secret, h.nonces)
        players = record.players
        if players is not None:
            kind = players[self.host_seat].kind
            self.host_kind = None if kind == "remote" else kind
            self.names = (players[0].name, players[1].name)
            self.joined_name = players[self.remote].name
        self.host_ready = self.host_kind != "human"
        self.seats = {seat: Seat() for seat in self.remotes}
        self.session = Session(record, dealer=self.dealer, autosave=self.slot.path if self.slot else None,
                               **self.session_options)
        st = self.session.state
        self._revealed = len(st.history)  # a client that missed a reveal gets the last one again on rejoin
        self._over_sent = False
        self._told = (len(st.history), False)  # hands scored before the restart were told then

    def _begin(self, secret: HandSecret) -> None:
        """Hand 1's nonces are in: the cut (if left to chance), the record, the session, the slot."""
        key = hand_key(secret.secret, secret.nonces or (None, None))
        first = self.first if self.first is not None else cut(key)
        players = self.players()
        record = GameRecord(self.rules, first, players)
        record = with_meta(record, **{TableMeta.KEY: self._meta().to_json()})
        if self.slot is None and self.slots is not None:
            try:
                self.slot = self.slots.claim_new()
            except StorageError as exc:
                self.problem = f"Autosave failed: {exc}"
        self.dealer.keys[1] = key
        self.dealer.seed = RecordMeta.of(record).seed or self.dealer.seed
        self.session = Session(record, dealer=self.dealer, autosave=self.slot.path if self.slot else None,
                               **self.session_options)
        if self.problem is not None:
            self.session.note_save_problem(self.problem)
        if self.pending_file is not None and self.slot is not None:
            self.pending_file.unlink(missing_ok=True)  # the game is in its slot now
            self.pending_file = None

    def _save_meta(self) -> None:
        if self.session is not None:
            self.session.store.set_meta(**{TableMeta.KEY: self._meta().to_json()})

    # ------------------------------------------------------------ the shuffle

    def _next_hand_number(self) -> int:
        return len(self.session.state.history) + 1 if self.session is not None else 1

    def _prepare(self) -> None:
        """Commit to the next hand's secret if it is due and not yet committed (or resend the commit)."""
        hand = self._next_hand_number()
        if hand in self.dealer.keys:
            return
        known = self.hands.get(hand)
        if known is None:
            known = HandSecret(hand, secrets.token_bytes(SECRET_BYTES))
            self.hands[hand] = known
            self._save_meta()  # kept before it is sent: a resumed host commits to the same secret
        if self.pending is None or self.pending.hand != hand:
            self.pending = known
            self._nonces = {}
            if self._nonce_timer is not None:
                self._nonce_timer.cancel()
            self._nonce_timer = asyncio.get_running_loop().call_later(self.nonce_timeout, self._nonce_late, hand)
            self._send_commit()  # once; a seat that comes back gets it again (_sit)

    def _send_commit(self, only: Optional[int] = None) -> None:
        pending = self.pending
        if pending is None:
            return
        for seat in self.remotes:
            if seat not in self._nonces and only in (None, seat):
                self._send({"type": "commit", "hand": pending.hand, "commitment": commitment(pending.secret)}, seat)

    def _nonce_late(self, hand: int) -> None:
        if self.pending is None or self.pending.hand != hand:
            return
        for seat in self.remotes:
            if seat not in self._nonces:
                self._send(p.error(f"no nonce came within {self.nonce_timeout:g} s: hand {hand} is shuffled without "
                                   "yours (the host's secret alone; it was committed before)"), seat)
        self._fix(hand)

    def _got_nonce(self, seat: int, hand: int, nonce: bytes) -> Optional[str]:
        if self.pending is None or self.pending.hand != hand:
            return f"no nonce is awaited for hand {hand}"
        if seat in self._nonces:
            return "this seat's nonce for that hand is already in"
        self._nonces[seat] = nonce
        if all(s in self._nonces for s in self.remotes):
            self._fix(hand)
        return None

    def _fix(self, hand: int) -> None:
        """The nonces are in (or late): the hand's key is fixed, saved, and the hand may be dealt."""
        pending = self.pending
        if pending is None or pending.hand != hand:
            return
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
            self._nonce_timer = None
        nonces = (self._nonces.get(0), self._nonces.get(1))
        fixed = HandSecret(hand, pending.secret, nonces)
        self.hands[hand] = fixed
        self.pending = None
        if self.session is None:
            self._begin(fixed)
        else:
            self.dealer.keys[hand] = hand_key(fixed.secret, nonces)
            self._save_meta()
            if self.host_ready:
                self.session.next_hand()
        self._changed()

    def next_hand(self) -> None:
        """The host's person is ready for the next hand (dealt as soon as its nonces are in)."""
        self.host_ready = True
        if self.session is not None and self._next_hand_number() in self.dealer.keys:
            self.session.next_hand()
        self.sync()

    # ------------------------------------------------------------ after every change

    def _changed(self) -> None:
        self.sync()
        self.on_change()

    def sync(self) -> None:
        """Send what changed: updates, the reveal of a scored hand, the next commit, the end."""
        session = self.session
        if session is None:
            return
        st = session.state
        session.connected = self.connected
        if self.host_kind is not None:  # the host's own screen says whether the friend is there
            session.table_note = self.note()
        self._update()
        scored = len(st.history)
        while self._revealed < scored:
            self._revealed += 1
            self._send_reveal(self._revealed)
            self.host_ready = self.host_kind != "human"  # a person starts each hand from the summary
        self._tell_results()
        if session.outcome is not None:
            if not self._over_sent:
                self._over_sent = True
                self._send_over()
                self.done.set()
            return
        if st.phase is Phase.SHUFFLE and scored:
            if self.host_ready and self._next_hand_number() in self.dealer.keys:
                session.next_hand()  # its key was fixed before (a resumed host)
                self._update()
            else:
                self._prepare()
        if session.bot_due() is not None:
            self._start_bot()

    def _update(self) -> None:
        session = self.session
        if session is None:
            return
        at = session.actions
        for number, seat in self.seats.items():
            if seat.ws is None or seat.sent == (at, self.connected):
                continue
            seat.sent = (at, self.connected)
            self._send(self.update_for(number), number)
        fresh = [w for w in self.watchers if w.sent != (at, self.connected)]
        if fresh:
            text = p.dumps(self.public_update())
            for watcher in fresh:
                watcher.sent = (at, self.connected)
                watcher.outbox.put_nowait(text)

    def public_update(self) -> dict[str, Any]:
        """A watcher's ``update``: the public view only (no hand, no drawn card, no discard), no choice."""
        assert self.session is not None
        view = self.session.view(None)
        observation = view.observation.to_json()
        observation.update(seat=None, hand=[], drawn=None)
        observation.pop("seen_discards", None)
        return {"type": "update", "at": view.actions, "observation": observation, "legal": [],
                "hands": [hand_to_json(h) for h in view.hands], "connected": list(self.connected),
                "players": self._names()}

    def _names(self) -> list[str]:
        """The seats' names, in every update: a seat that sat down before its friend learns the friend's name."""
        return [pl.name for pl in self.players()]

    def update_for(self, seat: int) -> dict[str, Any]:
        """The ``update`` of ``seat``: from its own view only."""
        assert self.session is not None
        view = self.session.view(seat)
        message = {"type": "update", "at": view.actions, "observation": view.observation.to_json(),
                   "legal": [a.to_json() for a in view.legal], "hands": [hand_to_json(h) for h in view.hands],
                   "connected": list(self.connected), "players": self._names()}
        if self._leak:
            message["debug"] = self.session.view(1 - seat).observation.to_json()
        return message

    def _send_reveal(self, hand: int, only: Optional[int] = None) -> None:
        found = self.hands.get(hand)
        if found is None or found.nonces is None:
            return
        self._send({"type": "reveal", "hand": hand, "secret": found.secret.hex(),
                    "nonces": [n.hex() if n is not None else None for n in found.nonces]}, only)

    def public_record(self) -> dict[str, Any]:
        """The whole record for ``over``: everything is known by then, except the seat's token and the code."""
        assert self.session is not None
        data = self.session.store.record.to_json()
        table = data.get(TableMeta.KEY)
        if isinstance(table, dict):
            data[TableMeta.KEY] = {k: v for k, v in table.items() if k in ("remote", "hands")}  # not the tokens
        return data

    def _send_over(self, only: Optional[int] = None) -> None:
        assert self.session is not None
        outcome = self.session.outcome
        assert outcome is not None
        self._send({"type": "over", "scores": list(outcome.scores), "winner": outcome.winner,
                    "record": self.public_record()}, only)

    def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None:
        """To ``only`` that seat, or to every connected one (and the watchers: the reveal, the end, a line said)."""
        text = p.dumps(message)
        if only is None and message.get("type") in ("reveal", "over", "said"):
            for watcher in self.watchers:
                watcher.outbox.put_nowait(text)
        for number, seat in self.seats.items():
            ws, outbox = seat.ws, seat.outbox
            if only in (None, number) and ws is not None and not ws.closed and outbox is not None:
                outbox.put_nowait(text)

    # ------------------------------------------------------------ the host's bot

    def _start_bot(self) -> None:
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.ensure_future(self._drive_bot())

    async def _drive_bot(self) -> None:
        loop = asyncio.get_running_loop()
        while self.session is not None and self.session.bot_due() is not None:
            session = self.session
            token, seat, observation, legal = session.bot_request()
            bot = session.bots[seat]
            action, problem = None, None
            try:  # in a thread: a thinking bot must not stall the socket
                action = await loop.run_in_executor(None, bot.decide, observation, legal)
            except Exception as exc:  # the bot forfeits; the table says so to the client with 'over'
                problem = f"{type(exc).__name__}: {exc}"
            if session is not self.session:
                return
            session.bot_answer(token, seat, action, problem)
            self._changed()

    # ------------------------------------------------------------ the socket

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
            await self.serve(*opened)
        return opened[0] if opened is not None else web.Response(status=400)

    async def serve(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A connection whose first frame (a join or rejoin) is ``data``: the seat, then its frames."""
        if data.get("type") in ("create", "lobby"):
            await _refuse(ws, "this is a table, not a server: open a table with 'spades-tui host --server ADDR:P' "
                              "at a 'spades-tui serve'")
            return
        if data.get("type") == "watch":
            await self.watch(ws, data, address)
            return
        budget = _Budget()
        mine: Optional[int] = None
        try:
            try:
                sat = self._sit(ws, data, address)
            except Exception as exc:  # a first frame no check foresaw: refused with the spec's error, said once
                _failed("a first frame could not be handled", exc)
                sat = "the table could not take that frame"
            if isinstance(sat, str):
                await _refuse(ws, sat)
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
                        await _refuse(ws, problem)
                        break
                    if not await self._bad(ws, budget, problem or "bad frame"):
                        break
                    continue
                budget.bad = 0  # only bad frames in a row close the connection
                try:
                    reason = self._handle(found, mine)
                except Exception as exc:  # a frame no check foresaw: answered, said once, the table goes on
                    _failed("a frame could not be handled", exc)
                    reason = "the table could not take that frame (nothing changed)"
                if reason is not None:
                    await ws.send_str(p.dumps(p.error(reason)))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            seat = self.seats.get(mine) if mine is not None else None
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

    async def _bad(self, ws: web.WebSocketResponse, budget: _Budget, reason: str) -> bool:
        """An error for a bad frame; False once there were too many and the connection is closed."""
        budget.bad += 1
        if budget.bad >= p.MAX_BAD_FRAMES:
            await _refuse(ws, f"{reason} (too many bad frames: closing)")
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
            if isinstance(code, str) and hmac.compare_digest(_bytes(code.strip().lower()), _bytes(self._watch_code)):
                return "that is the table's watch code: watch with 'spades-tui watch ADDR:P CODE'"
            if not isinstance(code, str) or not hmac.compare_digest(_bytes(code.strip().lower()), _bytes(self.code)):
                self._wrong.setdefault(address, []).append(time.monotonic())
                return "wrong code"
            if self.token_hash is not None:
                return "that code has been used: the seat is taken (its player comes back with 'join' alone)"
            token = p.new_token()
            self.token_hash = _hash(token)
            number = self.remote
            name = p.clean_name(data.get("name"), "Guest")
            # Two seats of one name could not be told apart on either screen.
            self.joined_name = name if name.lower() != self.names[0].lower() else f"{name[:14]} 2"
            if self.session is not None:  # a resumed table whose friend never sat down
                self._save_meta()
        else:
            given = data.get("token")
            found = _hash(given) if isinstance(given, str) else ""
            if self.token_hash is not None and hmac.compare_digest(found, self.token_hash):
                number = self.remote
            elif self.owner_hash is not None and hmac.compare_digest(found, self.owner_hash):
                number = self.host_seat
            else:
                return "unknown seat token (that game is not at this table)"
            assert isinstance(given, str)
            token = given
        seat = self.seats[number]
        old, old_box, old_writer = seat.ws, seat.outbox, seat.writer
        if old_box is not None:
            # The window that had the seat hears why it lost it (after what it was sent already), then the close.
            old_box.put_nowait(p.dumps(p.error(p.TAKEN)))
            old_box.put_nowait(None)
        if old is not None and not old.closed:
            retire = asyncio.ensure_future(_retire(old, old_writer))
            self._writers.add(retire)
            retire.add_done_callback(self._writers.discard)
        outbox: asyncio.Queue[Optional[str]] = asyncio.Queue()
        writer = asyncio.ensure_future(_writer(ws, outbox))
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

    def _prepare_first(self, seat: int) -> None:
        if self.pending is None:
            self.pending = HandSecret(1, secrets.token_bytes(SECRET_BYTES))
            self.hands[1] = self.pending
            self._nonces = {}
            self._nonce_timer = asyncio.get_running_loop().call_later(self.nonce_timeout, self._nonce_late, 1)
            self._send_commit()
        else:
            self._send_commit(seat)

    def _handle(self, data: dict[str, Any], seat: int) -> Optional[str]:
        """A frame from the seated client: None if it was applied, else the reason (nothing changed)."""
        kind = data["type"]
        if kind in ("join", "rejoin", "watch", "create"):
            return "this connection already has its seat"
        if kind == "say":
            return self.say(seat, data.get("text"))
        if kind == "nonce":
            hand, raw = p.whole(data.get("hand")), data.get("nonce")
            if hand is None:
                return "a nonce names its hand"
            nonce = parse_nonce(raw)
            if nonce is None:  # not counted: the seat may still send a good one before the timeout
                return "a nonce is exactly 64 hex digits [0-9a-fA-F] (32 random bytes), nothing else"
            return self._got_nonce(seat, hand, nonce)
        session = self.session
        at = p.whole(data.get("at"))
        if session is None:
            return "the game has not begun: the first hand's shuffle is being fixed"
        if at is None:
            return "an act carries 'at', the record length it answers"
        if at != session.actions:
            return f"stale: the game is at action {session.actions}, not {at}"
        try:
            action = action_from_json(data.get("action"))
        except RecordError as exc:
            return f"not an action: {exc}"
        if is_chance(action):
            return "chance actions are the dealer's"
        if getattr(action, "player", None) != seat:
            return "that is not your seat"
        if session.outcome is not None:
            return "the game is over"
        if session.state.to_act != seat:
            return "it is not your turn"
        if action not in session.store.legal():
            return f"not allowed: {action.to_json()}"
        try:
            problem = session.act(action)
        except IllegalActionError as exc:  # pragma: no cover - checked just above
            problem = str(exc)
        if problem is not None:
            return problem
        self._changed()
        return None

    # ------------------------------------------------------------ watchers and what is said

    async def watch(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A watcher's connection: the public view, the reveals and the end; it may not act, nonce or say."""
        version = p.version_problem(data)  # open_socket checked it already; a watch handed in directly too
        if version is not None:
            await _refuse(ws, version)
            return
        if self._too_many_wrong(address):
            await _refuse(ws, "too many wrong codes from this address: wait a minute")
            return
        code = data.get("code")
        given = _bytes(code.strip().lower()) if isinstance(code, str) else b""
        if hmac.compare_digest(given, _bytes(self.code)):
            await _refuse(ws, "that is the table's join code, which sits down at the table: watch with the watch "
                              "code")
            return
        if not hmac.compare_digest(given, _bytes(self._watch_code)):
            self._wrong.setdefault(address, []).append(time.monotonic())
            await _refuse(ws, "wrong code")
            return
        if len(self.watchers) >= p.MAX_WATCHERS:
            await _refuse(ws, f"this table has {p.MAX_WATCHERS} watchers already: try again later")
            return
        outbox: asyncio.Queue[Optional[str]] = asyncio.Queue()
        watcher = Watcher(ws, outbox, p.clean_name(data.get("name"), "Watcher"))
        self.watchers.append(watcher)
        writer = asyncio.ensure_future(_writer(ws, outbox))
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
        budget = _Budget()
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
                outbox.put_nowait(p.dumps(p.error(reason)))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            outbox.put_nowait(None)
            if watcher in self.watchers:
                self.watchers.remove(watcher)

    def say(self, seat: int, text: object) -> Optional[str]:
        """A seat's line to the table: cleaned, bounded, one a second; None once said, else why not."""
        line, problem = p.clean_said(text)
        if line is None:
            return problem
        now = time.monotonic()
        if now - self._said_at.get(seat, -p.SAY_INTERVAL) < p.SAY_INTERVAL:
            return f"one line a second: wait a moment ({line[:30]!r} was not said)"
        self._said_at[seat] = now
        message = {"type": "said", "seat": seat, "name": self.players()[seat].name, "text": line}
        self.chat.append(message)
        del self.chat[:-p.CHAT_KEPT]
        self._send(message)
        self.on_said(message)
        return None

    # ------------------------------------------------------------ the end

    def close(self) -> None:
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
        if self.session is not None:
            self.session.close_all()
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()


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
        await _refuse(ws, f"no join or rejoin within {hello_timeout:g} s")
        return None
    if first.type is not WSMsgType.TEXT:
        await _refuse(ws, "the first frame must be a join or rejoin (a JSON text frame)")
        return None
    data, problem = p.parse_frame(first.data)
    if data is None or data.get("type") not in p.FIRST_TYPES:
        await _refuse(ws, problem or "the first frame must be a join, rejoin, watch or create")
        return None
    version = p.version_problem(data)  # before any code or token is looked at: an old client hears it first
    if version is not None:
        await _refuse(ws, version)
        return None
    return ws, data, request.remote or "?"


def _bytes(text: str) -> bytes:
    """A code or token as bytes to compare or hash: a lone surrogate (JSON's "\\ud800") is no UTF-8 and would
    raise; as it is in no code or token the table made, it is kept as is only to be refused."""
    return text.encode("utf-8", "surrogatepass")


def _hash(token: str) -> str:
    return hashlib.sha256(_bytes(token)).hexdigest()


async def _writer(ws: web.WebSocketResponse, outbox: asyncio.Queue[Optional[str]]) -> None:
    """One connection's frames, written in the order they were made."""
    while True:
        text = await outbox.get()
        if text is None or ws.closed:
            return
        try:
            await ws.send_str(text)
        except Exception:  # a connection going away: its handler cleans up
            return


async def _retire(ws: web.WebSocketResponse, writer: Optional[asyncio.Future[None]]) -> None:
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


def _failed(what: str, exc: BaseException) -> None:
    """A failure the checks did not foresee, for the host's console: one line (guard.quiet_failures)."""
    log.error(what, exc_info=exc)


async def _refuse(ws: web.WebSocketResponse, reason: str) -> None:
    try:
        await ws.send_str(p.dumps(p.error(reason)))
        # A close reason is at most 123 bytes of UTF-8: cut at a character, not inside one.
        await ws.close(code=p.CLOSE_POLICY, message=reason.encode()[:120].decode("utf-8", "ignore").encode())
    except Exception:
        pass


def slot_path(host: TableHost) -> Optional[Path]:
    return host.slot.path if host.slot is not None else None
