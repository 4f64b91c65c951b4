"""The host of a network table (docs/table-protocol.md): the game driven, the record and the slot.

``TableHost`` owns the ``Session`` (the remote seat's kind is ``remote``), the autosave slot and the table's
codes and tokens; it answers ``/table`` (a join with the code, or a rejoin with a seat's token, takes the seat;
a watcher with the watch code gets the public view, the reveals, the chat and the end, and may say nothing) and
runs in an asyncio loop (aiohttp's, or Textual's for the host's own screen).  An ``act`` of the sender's seat
is checked where it enters (``_handle``: ``at``, the sender's seat and turn) and then by the reducer; after every
change ``sync`` sends what changed.  It owns its parts, each built with the few things it needs: the shuffle's
ledger (``ledger.HostLedger``: the secrets, the nonces, the dealer's keys), the sockets
(``connections.Connections``), the chat and the events (``talk.HostTalk``); what each seat is sent is
``updates``' (pure functions of the session).

The host's own seat is played in this process: by a person on the host's screen (``host_seat.HostSeat``, which
the app plays as any seat, and which calls ``sync`` after each change it makes) or by a built-in bot
(``host --bot``), played as any session's bot seat (``Session.bot_job``) with its decision in a thread so that
the socket stays responsive.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from pathlib import Path
from typing import Any, Callable, Optional

from aiohttp import web

from ...engine.actions import CHANCE_TYPES, action_from_json
from ...engine.errors import RecordError
from ...engine.record import HUMAN, GameRecord, PlayerInfo, SeatKind
from ...engine.rules import Rules
from ...engine.state import Phase
from ...i18n.language import _, in_source
from ...keep.meta import HandSecret, RecordMeta, TableMeta, with_meta
from ...keep.slots import Slot, SlotDirectory
from ...keep.storage import StorageError
from ...session.session import Session
from ..wire import protocol as p
from ..wire import reasons as r
from ..wire.guard import keep_connection
from ..wire.shuffle import cut, parse_nonce
from . import updates
from .connections import Connections
from .ledger import HostLedger
from .rated import RatedSeats
from .sockets import GuestLink, Watcher, code_bytes, failed, hash_token, open_socket, refuse
from .talk import HostTalk


class TableHost:
    """One table.  New: ``TableHost(rules=..., names=...)``; resumed: ``TableHost(record=..., slot=...)``.

    ``host_kind`` is the host seat's player kind: ``human`` (a person on this screen), ``bot:LEVEL``, or None:
    that seat is a client too (a table in ``spades-tui serve``: each tab a game process), seated by ``owner_token``.
    ``on_change`` is called after a change the host's screen did not make (the remote seat acted,
    connected or dropped).  ``first`` None: the random cut, from hand 1's key.
    """

    session_class: type[Session] = Session  # a challenge table's plays its expert through the server's pool
    ledger_class: Callable[..., HostLedger] = HostLedger  # a challenge table's deals the server's keys

    def __init__(self, *, rules: Optional[Rules] = None, first: Optional[int] = None,
                 names: tuple[str, str] = ("Host", "Guest"), host_kind: Optional[str] = HUMAN,
                 record: Optional[GameRecord] = None, slots: Optional[SlotDirectory] = None,
                 slot: Optional[Slot] = None, on_change: Callable[[], None] = lambda: None,
                 nonce_timeout: float = p.NONCE_TIMEOUT, hello_timeout: float = p.HELLO_TIMEOUT,
                 session_options: Optional[dict[str, Any]] = None) -> None:
        self.rules = rules or Rules()
        self.first = first
        self.host_seat, self.remote = 0, 1
        self.names = names
        self.host_kind = host_kind
        self.owner_token: Optional[str] = p.new_token() if host_kind is None else None
        self.owner_hash = hash_token(self.owner_token) if self.owner_token is not None else None
        self.slots = slots
        self.slot = slot
        self.on_change = on_change
        self.nonce_timeout = nonce_timeout
        self.hello_timeout = hello_timeout
        self.session_options = session_options or {}
        self.game: Optional[Session] = None  # the game (a Session) once hand 1 is dealt; None before
        self.on_event: Callable[[str], None] = lambda line: None  # an event said (the screen, host --bot)
        self.on_said: Callable[[dict[str, Any]], None] = lambda message: None  # a line said at the table

        # The parts, each with what it needs; a frame out goes through ``_send`` (looked up when sent: a test
        # may wrap it), what is said through ``on_event`` and ``on_said`` (set after the table is made).
        def send(message: dict[str, Any], only: Optional[int] = None) -> None:
            self._send(message, only)

        self.ledger = self.ledger_class(remotes=lambda: self.remotes, nonce_timeout=nonce_timeout, send=send,
                                        keep=self._save_meta, fixed=self._fixed)
        self.connections = Connections(self.remotes)
        self.talk = HostTalk(self.players, send, on_event=lambda line: self.on_event(line),
                             on_said=lambda message: self.on_said(message))
        self.code = p.new_code()
        self.token_hash: Optional[str] = None
        self._over_sent = False
        self.host_ready = not self.host_person  # a bot (or a client) deals on at once; a person presses Enter
        self.problem: Optional[str] = None  # a save problem, said on the host's screen
        self.done = asyncio.Event()  # the game is over (or ended): a headless host stops
        self._bot_task: Optional[asyncio.Task[None]] = None
        self.joined_name: Optional[str] = None
        self.listening: Optional[tuple[str, int]] = None  # (address, port) once listened on: kept to resume there
        self.invite = ""  # the invite line the host's screen shows while the friend's seat is empty
        self.watch_invite = ""  # and the command that watches the table, shown beside it at any time
        self._watch_code = p.new_code()
        self.pending_file: Optional[Path] = None  # a server table not begun (server/pending.py)
        # A server's table (table/server/tables.py): listed in its lobby; who opened it, when, and when a seat was last
        # connected (seconds since the epoch, the lobby's clock): a table nobody joins, or everyone left, expires.
        self.public = False
        self.creator: Optional[str] = None
        self.one_address = False  # its second seat was taken from the creator's address: it closes soon once left
        self.seated: Callable[[], None] = lambda: None  # the friend sat down before the game began (a server keeps it)
        self.opened_at = self.last_seen = time.time()
        self.rated = RatedSeats(self.remotes)  # a rated table's players, resignations and claims
        if record is not None:
            self._resume(record)

    # ------------------------------------------------------------ reading

    @property
    def record(self) -> Optional[GameRecord]:
        return self.game.store.record if self.game is not None else None

    @property
    def remotes(self) -> tuple[int, ...]:
        """The seats played by clients over the socket."""
        return (self.remote,) if self.host_kind is not None else (0, 1)

    @property
    def connected(self) -> tuple[bool, bool]:
        return self.connections.connected

    @property
    def links(self) -> dict[int, GuestLink]:
        """Each remote seat's connection now (the server's sweep reads them)."""
        return self.connections.links

    @property
    def watchers(self) -> list[Watcher]:
        return self.connections.watchers

    @property
    def hands(self) -> dict[int, HandSecret]:
        """Each hand's secret (and nonces, once fixed), as the record keeps them."""
        return self.ledger.hands

    @property
    def chat(self) -> list[dict[str, Any]]:
        return self.talk.chat

    @property
    def events(self) -> list[str]:
        return self.talk.events

    def say(self, seat: int, text: object) -> Optional[str]:
        """The host's own line to the table, typed on its screen: None once said, else why not, in its language."""
        return r.shown(problem) if (problem := self.talk.say(seat, text)) is not None else None

    @property
    def host_person(self) -> bool:
        """The host's seat is a person's on this screen (not a bot's, nor a client's at a server)."""
        return self.host_kind is not None and SeatKind.of(self.host_kind) is SeatKind.PERSON

    @property
    def started(self) -> bool:
        return self.game is not None

    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        if self.game is not None:
            return self.game.store.players
        guest = self.joined_name or self.names[1]
        name = self.names[0]
        host = PlayerInfo(name, self.host_kind) if self.host_kind is not None else PlayerInfo.remote(name)
        return (host, PlayerInfo.remote(guest))

    def _meta(self) -> TableMeta:
        address, port = self.listening if self.listening is not None else (None, None)
        return TableMeta(self.code, self.remote, self.token_hash, tuple(sorted(self.hands.values(),
                                                                               key=lambda h: h.hand)),
                         self.owner_hash, address, port, self._watch_code, self.public, self.creator,
                         self.one_address, self.rated.players)

    @property
    def watch_code(self) -> str:
        return self._watch_code

    def restore_watch_code(self, code: Optional[str]) -> None:
        if code:
            self._watch_code = code

    def listened(self, address: str, port: int, invite: str, watch: str = "") -> None:
        """The table listens at ``address:port`` (kept in the record: resumed, it listens there again); ``invite``
        and ``watch`` are the commands that sit down at it and watch it."""
        self.listening, self.invite, self.watch_invite = (address, port), invite, watch
        self._save_meta()
        self.sync()

    def saved_place(self) -> Optional[tuple[str, int]]:
        """Where a resumed table listened before (None for a new table or an older record)."""
        record = self.record
        meta = TableMeta.of(record) if record is not None else None
        return (meta.address, meta.port) if meta is not None and meta.address and meta.port else None

    # ------------------------------------------------------------ starting and resuming

    def _resume(self, record: GameRecord) -> None:
        meta = TableMeta.of(record)
        if meta is None:
            raise StorageError("that game is not a network table's")
        self.code, self.remote, self.token_hash = meta.code, meta.remote, meta.token_hash
        self.owner_hash, self.owner_token = meta.owner_hash, None
        if meta.watch is not None:
            self._watch_code = meta.watch
        self.public, self.creator, self.one_address = meta.public, meta.opened_by, meta.one_address
        self.host_seat = 1 - self.remote
        self.rated = RatedSeats(self.remotes, meta.rated)
        self.ledger.restore(meta.hands, RecordMeta.of(record).seed)
        players = record.players
        if players is not None:
            player = players[self.host_seat]
            self.host_kind = None if player.is_remote else player.kind
            self.names = (players[0].name, players[1].name)
            self.joined_name = players[self.remote].name
        self.host_ready = not self.host_person
        self.connections = Connections(self.remotes)
        self.game = self.session_class(record, dealer=self.ledger.dealer,
                                       autosave=self.slot.path if self.slot else None, **self.session_options)
        st = self.game.state
        self.ledger.revealed = len(st.history)  # a client that missed a reveal gets the last one again on rejoin
        self._over_sent = False
        self.talk.told = (len(st.history), False)  # hands scored before the restart were told then

    def _fixed(self, hand: int, key: bytes) -> None:
        """Hand ``hand``'s nonces are in (or late), its key the dealer's: hand 1 begins the game, a later hand is
        dealt once the host's person is ready."""
        if self.game is None:
            self._begin(key)
        else:
            self._save_meta()
            if self.host_ready:
                self.game.next_hand()
        self._changed()

    def _begin(self, key: bytes) -> None:
        """Hand 1's ``key`` is fixed: the cut (if left to chance), the record, the session, the slot."""
        first = self.first if self.first is not None else cut(key)
        players = self.players()
        record = GameRecord(self.rules, first, players)
        record = with_meta(record, **{TableMeta.KEY: self._meta().to_json()})
        if self.slot is None and self.slots is not None:
            try:
                self.slot = self.slots.claim_new()
            except StorageError as exc:
                self.problem = _("Autosave failed: {problem}").format(problem=exc)
        dealer = self.ledger.dealer
        dealer.seed = RecordMeta.of(record).seed or dealer.seed
        self.game = self.session_class(record, dealer=dealer, autosave=self.slot.path if self.slot else None,
                                       **self.session_options)
        if self.problem is not None:
            self.game.note_save_problem(self.problem)
        if self.pending_file is not None and self.slot is not None:
            self.pending_file.unlink(missing_ok=True)  # the game is in its slot now
            self.pending_file = None

    def _save_meta(self) -> None:
        if self.game is not None:
            self.game.store.set_meta(**{TableMeta.KEY: self._meta().to_json()})

    # ------------------------------------------------------------ after every change

    def next_hand(self) -> None:
        """The host's person is ready for the next hand (dealt as soon as its nonces are in)."""
        self.host_ready = True
        if self.game is not None and self._next_hand_number() in self.ledger.dealer.keys:
            self.game.next_hand()
        self.sync()

    def _changed(self) -> None:
        self.sync()
        self.on_change()

    def sync(self) -> None:
        """Send what changed: updates, the reveal of a scored hand, the next commit, the end."""
        session = self.game
        if session is None:
            return
        st = session.state
        self._update()
        scored = len(st.history)
        while self.ledger.revealed < scored:
            self.ledger.revealed += 1
            self.ledger.send_reveal(self.ledger.revealed)
            self.host_ready = not self.host_person  # a person starts each hand from the summary
        self.talk.tell_results(session)
        if session.outcome is not None:
            if not self._over_sent:
                self._over_sent = True
                self.rated.over()  # rated first: ``over`` tells each seat's rating change
                self._send(updates.over(session, self.rated.ratings))
                self.done.set()
            return
        if st.phase is Phase.SHUFFLE and scored:
            if self.host_ready and self._next_hand_number() in self.ledger.dealer.keys:
                session.next_hand()  # its key was fixed before (a resumed host)
                self._update()
            else:
                self.ledger.prepare(self._next_hand_number())
        if session.bot_due() is not None:
            self._start_bot()

    def _next_hand_number(self) -> int:
        return len(self.game.state.history) + 1 if self.game is not None else 1

    def _update(self) -> None:
        """Each seat's update and the watchers', where the game or a seat's connection changed since the last."""
        session = self.game
        if session is None:
            return
        seats, watchers = self.connections.due(session.actions)
        for seat in seats:
            self._send(self.update_for(seat), seat)
        if watchers:
            names = [pl.name for pl in self.players()]
            self.connections.to_watchers(watchers, updates.update(session, None, self.connected, names))

    def update_for(self, seat: int) -> dict[str, Any]:
        """The ``update`` of ``seat``: from its own view only."""
        assert self.game is not None
        return updates.update(self.game, seat, self.connected, [pl.name for pl in self.players()])

    def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None:
        """A frame to ``only`` that seat, or to every connected one (and the watchers: the reveal, the end, a line
        said)."""
        self.connections.send(message, only)

    def _handle(self, data: dict[str, Any], seat: int) -> Optional[str]:
        """A frame from the seated client: None if it was applied, else the reason (nothing changed)."""
        kind = data["type"]
        if kind in ("join", "rejoin", "watch", "create"):
            return "this connection already has its seat"
        if kind == "say":
            return self.talk.say(seat, data.get("text"))
        if kind in ("resign", "claim"):  # a rated table's: the game ends, and is rated
            return self.rated.give_up(seat, kind == "claim", self.game, self.connected, self.players(),
                                      self._changed)
        if kind == "nonce":
            hand, raw = p.whole(data.get("hand")), data.get("nonce")
            if hand is None:
                return "a nonce names its hand"
            nonce = parse_nonce(raw)
            if nonce is None:  # not counted: the seat may still send a good one before the timeout
                return "a nonce is exactly 64 hex digits [0-9a-fA-F] (32 random bytes), nothing else"
            return self.ledger.got_nonce(seat, hand, nonce)
        session = self.game
        at = p.whole(data.get("at"))
        if session is None:
            return r.NOT_BEGUN
        if at is None:
            return "an act carries 'at', the record length it answers"
        if at != session.actions:
            return r.STALE.format(at=session.actions, sent=at)
        with in_source():  # a refusal goes on the wire in the protocol's words, whatever the host speaks
            try:
                action = action_from_json(data.get("action"))
            except RecordError as exc:
                return f"not an action: {exc}"
            if isinstance(action, CHANCE_TYPES):  # (narrows it to a player's action)
                return "chance actions are the dealer's"
            if getattr(action, "player", None) != seat:
                return r.NOT_YOUR_SEAT
            if session.outcome is not None:
                return r.GAME_OVER
            if session.state.to_act != seat:
                return r.NOT_YOUR_TURN
            problem = session.act(action)  # the reducer's own check: nothing changes if it is not allowed
        if problem is not None:
            return r.NOT_ALLOWED.format(problem=problem)
        self._changed()
        return None

    # ------------------------------------------------------------ the friend's line on the host's screen

    def note(self) -> str:
        """The host's panel line about the friend; while their seat is empty, the invite; once they sat and dropped,
        what takes them back (``join`` with no code, at this address: the same unless its port could not be had)."""
        guest = self.players()[self.remote].name
        chat = self.talk.chat
        said = f"\n{p.chat_line(chat[-1]['name'], chat[-1]['text'])}" if chat else ""
        if self.connected[self.remote]:
            return _("{player} connected").format(player=guest) + said
        if self.token_hash is None:
            state, how, line = _("Waiting for your friend"), _("Their invite:"), self.invite
        else:
            state, how = _("{player} disconnected").format(player=guest), _("They come back with:")
            line = p.way_back(self.invite)
        return (f"{state}\n{how}\n{line}" if self.invite else state) + said

    @property
    def invite_taken(self) -> Optional[int]:
        """The seat the invite's code sat down, once it did (None while it is empty): the code seats no one else."""
        return self.remote if self.token_hash is not None else None

    # ------------------------------------------------------------ connections: seats taken, watchers

    def application(self) -> web.Application:
        app = web.Application()
        app.router.add_get(p.PATH, self.handle)
        return app

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
            await refuse(ws, r.NOT_A_SERVER)
            return
        if data.get("type") == "watch":
            await self.watch(ws, data, address)
            return
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
            mine, join = sat, data["type"] == "join"
            came = _("{player} sat down at the table.") if join else _("{player} is back at the table.")
            self.talk.event(came.format(player=self.players()[mine].name))
            self._changed()
            seat = mine
            await self.connections.read(ws, lambda frame: self._handle(frame, seat), seated=True)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            if self.connections.left(mine, ws) and mine is not None:
                self.rated.left(mine)  # a rated table's claim counts from here
                if self.game is None or self.game.outcome is None:
                    self.talk.event(_("{player} left the table (disconnected).").format(
                        player=self.players()[mine].name))
                self._changed()  # the other side sees the seat disconnected

    def _sit(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> int | str:
        """A join or rejoin: the seat this connection now has, or the reason it has none."""
        version = p.version_problem(data)
        if version is not None:
            return version
        if data["type"] == "join":
            if self.connections.too_many_wrong(address):
                return r.TOO_MANY_WRONG
            code = data.get("code")
            given = code_bytes(code.strip().lower()) if isinstance(code, str) else None
            if given is not None and hmac.compare_digest(given, code_bytes(self._watch_code)):
                return r.WATCH_CODE
            if given is None or not hmac.compare_digest(given, code_bytes(self.code)):
                self.connections.wrong_code(address)
                return r.WRONG_CODE
            if self.token_hash is not None:
                return r.CODE_USED
            token = p.new_token()
            self.token_hash = hash_token(token)
            self.one_address = self.creator is not None and address == self.creator
            number = self.remote
            name = p.clean_name(data.get("name"), "Guest")
            # Two seats of one name could not be told apart on either screen.
            self.joined_name = name if name.lower() != self.names[0].lower() else f"{name[:14]} 2"
            if self.game is not None:  # a resumed table whose friend never sat down
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
                return r.UNKNOWN_TOKEN
            assert isinstance(given, str)
            token = given
        self.connections.take(number, ws)
        self.rated.back(number)
        players = self.players()
        rules = self.game.store.record.rules if self.game is not None else self.rules
        self._send({"type": "welcome", "seat": number, "token": token,
                    "players": [pl.to_json() for pl in players], "rules": rules.to_json(),
                    "code": self.code, "watch": self._watch_code, **self.rated.welcome()}, number)
        if self.game is None:
            if self.token_hash is not None:  # the friend sat down: hand 1 is committed to
                self.ledger.prepare_first(number)
        else:
            self._update()
            # Every scored hand's reveal again: the seat may have missed any of them (a host that stopped after
            # scoring a hand and dealt the next on resume); a client keeps the verdicts it already has.
            for hand in range(1, min(self.ledger.revealed, len(self.game.state.history)) + 1):
                self.ledger.send_reveal(hand, number)
            if self.game.outcome is not None:
                self._send(updates.over(self.game, self.rated.ratings), number)
            elif self.ledger.pending is not None:
                self.ledger.send_commit(number)
        return number

    async def watch(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A watcher's connection: the public view, the reveals and the end; it may not act, nonce or say."""
        refused = self._watcher_refused(data, address)
        if refused is not None:
            await refuse(ws, refused)
            return
        watcher = self.connections.watch(ws, p.clean_name(data.get("name"), "Watcher"))
        outbox = watcher.outbox
        rules = self.game.store.record.rules if self.game is not None else self.rules
        outbox.put_nowait(p.dumps({"type": "watching", "players": [pl.to_json() for pl in self.players()],
                                   "rules": rules.to_json()}))
        for line in self.talk.chat:
            outbox.put_nowait(p.dumps(line))
        if self.game is not None:
            self._update()
            st = self.game.state
            if st.history and (st.phase is Phase.SHUFFLE or self.game.outcome is not None):
                reveal = self.ledger.reveal(len(st.history))
                if reveal is not None:
                    outbox.put_nowait(p.dumps(reveal))
            if self.game.outcome is not None:
                outbox.put_nowait(p.dumps(updates.over(self.game, self.rated.ratings)))

        def answer(frame: dict[str, Any]) -> str:
            kind = frame["type"]
            return (r.WATCHERS_SAY if kind == "say" else
                    "a watcher does not play: it may not act or send a nonce" if kind in ("act", "nonce") else
                    "this connection already watches")

        try:
            await self.connections.read(ws, answer, seated=False, reply=watcher.put)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.connections.unwatch(watcher)

    def _watcher_refused(self, data: dict[str, Any], address: str) -> Optional[str]:
        """Why a watch is refused (an old protocol, too many wrong codes, a wrong code, a full table), or None."""
        version = p.version_problem(data)  # open_socket checked it already; a watch handed in directly too
        if version is not None:
            return version
        if self.connections.too_many_wrong(address):
            return r.TOO_MANY_WRONG
        code = data.get("code")
        given = code_bytes(code.strip().lower()) if isinstance(code, str) else b""
        if hmac.compare_digest(given, code_bytes(self.code)):
            return r.JOIN_CODE
        if not hmac.compare_digest(given, code_bytes(self._watch_code)):
            self.connections.wrong_code(address)
            return r.WRONG_CODE
        if len(self.connections.watchers) >= p.MAX_WATCHERS:
            return r.WATCHERS_FULL.format(count=p.MAX_WATCHERS)
        return None

    # ------------------------------------------------------------ the host's bot

    def _start_bot(self) -> None:
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.ensure_future(self._drive_bot())

    async def _drive_bot(self) -> None:
        """The host's bot plays as a bot seat of any session does (``Session.bot_job``), its decision in a thread
        so that a thinking bot does not stall the socket; a failing bot forfeits (the client hears it in 'over')."""
        loop = asyncio.get_running_loop()
        while self.game is not None:
            session = self.game
            job = session.bot_job()
            work = job.start() if job is not None else None
            if job is None or work is None:
                return
            answer = await loop.run_in_executor(None, work)
            if session is not self.game:
                return
            job.done(answer)
            self._changed()

    # ------------------------------------------------------------ the end

    def close(self) -> None:
        self.ledger.close()
        if self.game is not None:
            self.game.close_all()
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()

