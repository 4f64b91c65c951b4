"""The host of a network table (docs/table-protocol.md): the game driven, the record and the slot.

``TableHost`` owns the ``Session`` (the remote seat's kind is ``remote``), the table's fair dealer and the
autosave slot; it runs in an asyncio loop (aiohttp's, or Textual's for the host's own screen).  Only a legal
``act`` of the sender's seat changes the game (``_handle``: ``at``, turn, legal for that seat); after every
change ``sync`` sends what changed.  Its parts are by job: the shuffle (``ledger.HostLedger``), the
connections and watchers (``serving.HostServing``), what each seat is sent (``updates.HostUpdates``), and the
chat and events (``talk.HostTalk``).

The host's own seat is played in this process: by a person on the host's screen (``hosted.HostedSeat``, which
the app plays as any seat, and which calls ``sync`` after each change it makes) or by a built-in bot
(``host --bot``), asked in a thread so that the socket stays responsive.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Callable, Optional

from ..engine.actions import action_from_json, is_chance
from ..engine.errors import IllegalActionError, RecordError
from ..engine.record import HUMAN, GameRecord, PlayerInfo, SeatKind
from ..engine.rules import Rules
from ..engine.state import Phase
from ..keep.meta import HandSecret, RecordMeta, TableMeta, with_meta
from ..keep.slots import Slot, SlotDirectory
from ..keep.storage import StorageError
from ..session.session import Session
from . import protocol as p
from .ledger import HostLedger
from .serving import HostServing
from .shuffle import cut, parse_nonce
from .sockets import GuestLink, hash_token
from .talk import HostTalk
from .updates import HostUpdates


class TableHost(HostLedger, HostServing, HostUpdates, HostTalk):
    """One table.  New: ``TableHost(rules=..., names=...)``; resumed: ``TableHost(record=..., slot=...)``.

    ``host_kind`` is the host seat's player kind: ``human`` (a person on this screen), ``bot:LEVEL``, or
    None: that seat is a client too (a table in ``spades-tui serve``, where each browser tab is a game
    process of its own), which sits down with ``owner_token``.
    ``on_change`` is called after a change the host's screen did not make (the remote seat acted,
    connected or dropped).  ``first`` None: the random cut, from hand 1's key.
    """

    def __init__(self, *, rules: Optional[Rules] = None, first: Optional[int] = None,
                 names: tuple[str, str] = ("Host", "Guest"), host_kind: Optional[str] = HUMAN,
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
        self.owner_hash = hash_token(self.owner_token) if self.owner_token is not None else None
        self.slots = slots
        self.slot = slot
        self.on_change = on_change
        self.nonce_timeout = nonce_timeout
        self.hello_timeout = hello_timeout
        self.session_options = session_options or {}
        self._leak = leak  # tests only: a host that sends the whole state, which the leak check must catch
        self.session: Optional[Session] = None
        self._init_ledger()
        self._init_serving(self.remotes)
        self._init_talk()
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
        self.pending_file: Optional[Path] = None  # a server's table not begun yet (table/pending.py): gone once begun
        # A server's table (table/lobby.py): listed in its lobby; who opened it, when, and when a seat was last
        # connected (seconds since the epoch, the lobby's clock): a table nobody joins, or everyone left, expires.
        self.public = False
        self.creator: Optional[str] = None
        self.one_address = False  # its second seat was taken from the creator's address: it closes soon once left
        self.seated: Callable[[], None] = lambda: None  # the friend sat down before the game began (a server keeps it)
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
        found = self.links.get(seat)
        return found is None or (found.ws is not None and not found.ws.closed)

    @property
    def connected(self) -> tuple[bool, bool]:
        return (self._here(0), self._here(1))

    @property
    def host_person(self) -> bool:
        """The host's seat is a person's on this screen (not a bot's, nor a client's at a server)."""
        return self.host_kind is not None and SeatKind.of(self.host_kind) is SeatKind.PERSON

    @property
    def started(self) -> bool:
        return self.session is not None

    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        if self.session is not None:
            return self.session.store.players
        guest = self.joined_name or self.names[1]
        name = self.names[0]
        host = PlayerInfo(name, self.host_kind) if self.host_kind is not None else PlayerInfo.remote(name)
        return (host, PlayerInfo.remote(guest))

    def _meta(self) -> TableMeta:
        address, port = self.listening if self.listening is not None else (None, None)
        return TableMeta(self.code, self.remote, self.token_hash, tuple(sorted(self.hands.values(),
                                                                               key=lambda h: h.hand)),
                         self.owner_hash, address, port, self._watch_code, self.public, self.creator,
                         self.one_address)

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
        self._restore_ledger(meta.hands, RecordMeta.of(record).seed)
        players = record.players
        if players is not None:
            player = players[self.host_seat]
            self.host_kind = None if player.is_remote else player.kind
            self.names = (players[0].name, players[1].name)
            self.joined_name = players[self.remote].name
        self.host_ready = not self.host_person
        self.links = {seat: GuestLink() for seat in self.remotes}
        self.session = Session(record, dealer=self.dealer, autosave=self.slot.path if self.slot else None,
                               **self.session_options)
        st = self.session.state
        self._revealed = len(st.history)  # a client that missed a reveal gets the last one again on rejoin
        self._over_sent = False
        self._told = (len(st.history), False)  # hands scored before the restart were told then

    def _begin(self, secret: HandSecret, key: bytes) -> None:
        """Hand 1's nonces are in, its ``key`` fixed: the cut (if left to chance), the record, the session, the slot."""
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

    # ------------------------------------------------------------ after every change

    def next_hand(self) -> None:
        """The host's person is ready for the next hand (dealt as soon as its nonces are in)."""
        self.host_ready = True
        if self.session is not None and self._next_hand_number() in self.dealer.keys:
            self.session.next_hand()
        self.sync()

    def _changed(self) -> None:
        self.sync()
        self.on_change()

    def sync(self) -> None:
        """Send what changed: updates, the reveal of a scored hand, the next commit, the end."""
        session = self.session
        if session is None:
            return
        st = session.state
        self._update()
        scored = len(st.history)
        while self._revealed < scored:
            self._revealed += 1
            self._send_reveal(self._revealed)
            self.host_ready = not self.host_person  # a person starts each hand from the summary
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

    # ------------------------------------------------------------ the end

    def close(self) -> None:
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
        if self.session is not None:
            self.session.close_all()
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()


def slot_path(host: TableHost) -> Optional[Path]:
    return host.slot.path if host.slot is not None else None
