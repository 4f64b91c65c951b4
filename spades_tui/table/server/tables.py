"""Many tables in one process (``spades-tui serve``, ``serve --tables-only``): one ``/table`` endpoint, and each
connection sent to its table by the code or the token of its first frame, or to the lobby's list.

A served table's both seats are clients: each browser tab is a game process of its own, which sits at
the table over loopback (the first with the owner's token it was given, the friend with the code), so a
terminal may sit at a served table as well (``spades-tui join``).

A server's limits (docs/table-protocol.md, "A server's limits"), whatever a client does:
- a table counts against the address that opened it (its ``creator``, kept across restarts) for as long as it
  is open, waiting or in play: at most ``TABLES_PER_ADDRESS`` open and ``WAITING_PER_ADDRESS`` of them waiting
  for their second seat per address, ``max_tables`` in all;
- a table nobody joined closes after ``UNJOINED_AFTER``; one whose two seats came from one address, or on which
  nobody played, ``LEFT_AFTER`` after both seats left (one address could otherwise open, sit at and leave tables
  until every place was taken for a week); any other with neither seat connected for ``ABANDONED_AFTER``.  A
  played table's record is kept with the finished games (marked ``abandoned``); closing removes its saved table
  file.  ``clock`` (seconds since the epoch) is injectable, so that tests need not wait;
- wrong codes are counted per address (``guard.client_address``: behind a trusted proxy, the forwarded one),
  never against another address, and never refusing a seat's token.
The lobby (``lobby`` first frame): the public tables with someone there, at most ``MAX_LISTED``, a fresh list
when it changes, at most one a second; a lobby connection says nothing after its first frame, lasts
``lobby_idle`` seconds (the client reconnects), and one address holds at most ``LOBBIES_PER_ADDRESS`` of them.
When ``MAX_LOBBIES`` are open, a newcomer from an address holding fewer takes the place of the oldest of the
address holding the most, so that addresses holding lists cannot shut out everyone else.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from pathlib import Path
from typing import Any, Callable, Optional

from aiohttp import WSMsgType, web

from ...engine.actions import is_chance
from ...engine.record import is_served_table
from ...engine.rules import Rules
from ...i18n.language import _
from ...keep.slots import SlotDirectory
from ...keep.storage import StorageError, private_dir, tighten
from ..host.sockets import code_bytes, hash_token, log, open_socket, refuse
from ..host.table import TableHost
from ..wire import protocol as p
from ..wire import reasons as r
from ..wire.guard import client_address, keep_connection
from .pending import PENDING_DIR, keep_joined, keep_pending, pending_tables
from .rated import RatedDesk

MAX_TABLES = 200  # open at once in one process (--max-tables): each holds a session, its slot, its sockets
WAITING_PER_ADDRESS = 3  # tables one address opened that wait for their second seat
TABLES_PER_ADDRESS = 6  # tables one address opened that are open, waiting or in play (a few friends' games)
UNJOINED_AFTER = 30 * 60.0  # seconds a table may wait for its second seat
LEFT_AFTER = 10 * 60.0  # seconds a table sat at from one address alone, or never played on, outlives its seats
ABANDONED_AFTER = 7 * 24 * 3600.0  # seconds a begun table may have neither seat connected
SWEEP_EVERY = 60.0  # seconds between two looks for tables to close
MAX_LISTED = 100  # tables in a lobby's list
LOBBY_EVERY = 1.0  # seconds between two lists sent to one lobby connection, at least
MAX_LOBBIES = 128  # lobby connections at once (each is bounded by the guard's caps too)
LOBBIES_PER_ADDRESS = 4  # lobby connections at once from one address (a few windows)
LOBBY_IDLE = 10 * 60.0  # seconds a lobby connection lasts: the list is pushed, a client that wants more reconnects
CLOSED_UNJOINED = r.CLOSED_UNJOINED


def keep_private(data_dir: Path) -> None:
    """The server's data folder and its folders, the user's alone (0700), whatever an older version made them."""
    private_dir(data_dir)
    for folder in (data_dir, data_dir / "games", data_dir / "games" / "finished", data_dir / PENDING_DIR):
        tighten(folder)


class TableServer:
    """The server of many tables in one process: each connection sent to its table by the code or token of its
    first frame, a new table opened by ``create`` (or ``new_table``), the list of public tables (the lobby) to
    whoever asks, and a server's limits kept whatever its clients do."""

    def __init__(self, slots: Optional[SlotDirectory], *, max_tables: int = MAX_TABLES,
                 hello_timeout: float = p.HELLO_TIMEOUT, nonce_timeout: float = p.NONCE_TIMEOUT,
                 peer_of: Optional[Callable[[web.Request], Optional[str]]] = None, trust_proxy: bool = False,
                 clock: Callable[[], float] = time.time, lobby_idle: float = LOBBY_IDLE,
                 desk: Optional[RatedDesk] = None) -> None:
        """``peer_of``: the address a connection stands for when it is not its own (a served tab's browser);
        ``trust_proxy``: a proxy on this machine says whose a connection is (``guard.client_address``);
        ``desk``: its players and their ratings (rated play, table/server/rated.py), None for a server that keeps
        none."""
        self.slots = slots
        self.peer_of = peer_of
        self.trust_proxy = trust_proxy
        self.clock = clock
        self.max_tables = max_tables
        self.hello_timeout = hello_timeout
        self.nonce_timeout = nonce_timeout
        self.tables: list[TableHost] = []
        self._wrong: dict[str, list[float]] = {}
        self.lobby_idle = lobby_idle
        self._lobbies: dict[str, list[web.WebSocketResponse]] = {}  # lobby connections now, by address, oldest first
        self._listed: tuple[float, Optional[list[dict[str, Any]]]] = (0.0, None)
        self._sweeper: Optional[asyncio.Task[None]] = None
        self._closing: set[asyncio.Future[Any]] = set()
        self.desk = desk
        if desk is not None:  # quick play's tables are the server's doing: no address's count, the total's only
            desk.count_wrong = lambda address: self._wrong.setdefault(address, []).append(time.monotonic())
            desk.open_table = lambda name: self.new_table(name, Rules(), None, public=True)

    def _sweep(self) -> None:
        """Tables whose game is over and whose seats have left are let go (their records stay)."""
        for host in list(self.tables):
            if host.done.is_set() and not any(host.connected[s] for s in host.remotes):
                host.close()
                self.tables.remove(host)

    def address_of(self, request: web.Request) -> str:
        """The address a connection counts against: a served tab's browser, or its own (behind a trusted proxy,
        the one the proxy names)."""
        return (self.peer_of(request) if self.peer_of is not None else None) or client_address(request,
                                                                                              self.trust_proxy)

    def waiting_of(self, address: str) -> int:
        return sum(1 for t in self.tables if t.creator == address and t.token_hash is None and not t.done.is_set())

    def open_of(self, address: str) -> int:
        """The tables ``address`` opened that are open now, waiting or in play."""
        return sum(1 for t in self.tables if t.creator == address and not t.done.is_set())

    def refusal(self, address: Optional[str]) -> Optional[str]:
        """Why ``address`` may not open a table now (None: it may)."""
        self._sweep()
        if len(self.tables) >= self.max_tables:
            return r.TABLES_FULL
        if address is not None and self.waiting_of(address) >= WAITING_PER_ADDRESS:
            return r.WAITING_PER_ADDRESS.format(count=WAITING_PER_ADDRESS)
        if address is not None and self.open_of(address) >= TABLES_PER_ADDRESS:
            return r.TABLES_PER_ADDRESS.format(count=TABLES_PER_ADDRESS)
        return None

    def new_table(self, name: str, rules: Optional[Rules] = None, first: Optional[int] = None, *,
                  keep: bool = True, address: Optional[str] = None, public: bool = False) -> Optional[TableHost]:
        """A new table, its first seat for whoever holds ``owner_token``; None when ``address`` may not open one
        (``refusal`` says why)."""
        if self.refusal(address) is not None:
            return None
        host = TableHost(rules=rules, first=first, names=(p.clean_name(name, "Host"), "Guest"), host_kind=None,
                         slots=self.slots, nonce_timeout=self.nonce_timeout, hello_timeout=self.hello_timeout)
        host.creator, host.public = address, public
        host.seated = lambda: keep_joined(host)  # the friend's seat kept in the table's file, as the table is
        host.opened_at = host.last_seen = self.clock()
        if self.desk is not None:
            self.desk.hook(host)
        if keep:
            self._keep_pending(host)
        self.tables.append(host)
        return host

    # ------------------------------------------------------------ tables that close by themselves

    def expire(self) -> list[str]:
        """Close the tables nobody joined within ``UNJOINED_AFTER``, those sat at from one address alone or never
        played on whose seats left ``LEFT_AFTER`` ago, and those with neither seat connected for
        ``ABANDONED_AFTER`` (a played table's record kept with the finished games, marked abandoned); one line
        each."""
        now = self.clock()
        said: list[str] = []
        for host in list(self.tables):
            if host.done.is_set():
                continue  # over: let go by _sweep once its seats left
            if host.token_hash is None and host.game is None:
                if now - host.opened_at >= UNJOINED_AFTER:
                    self._close(host, CLOSED_UNJOINED)
                    said.append(_("Table {code} closed: nobody sat down within 30 minutes.").format(code=host.code))
                continue
            if any(host.connected[s] for s in host.remotes):
                host.last_seen = now
                continue
            played = _played(host)
            if (host.one_address or not played) and now - host.last_seen >= LEFT_AFTER:
                said.append(self._left(host, now, played))
                continue
            if now - host.last_seen >= ABANDONED_AFTER:
                self._abandon(host, now)
                said.append(_("Table {code} closed: neither seat connected for 7 days (its record is kept with the "
                              "finished games, marked abandoned).").format(code=host.code))
        return said

    def _left(self, host: TableHost, now: float, played: bool) -> str:
        """A table both seats left ``LEFT_AFTER`` ago that was never played on (let go, nothing kept) or whose two
        seats came from one address (its record kept, marked abandoned): closed; the line that says so (``why``, in
        the record and to its connections, is English: data and the protocol)."""
        why = "both seats came from one address" if host.one_address else "nobody played on it"
        if played:
            self._abandon(host, now, f"{why}, and its seats left")
            return _("Table {code} closed: both seats came from one address, and its seats left 10 minutes ago (its "
                     "record is kept with the finished games, marked abandoned).").format(code=host.code)
        gone = host.slot.path if host.slot is not None else None
        self._close(host, f"this table is closed: {why}, and its seats left")  # its slot released
        if gone is not None:
            gone.unlink(missing_ok=True)
        closed = _("Table {code} closed: both seats came from one address, and its seats left 10 minutes ago.") \
            if host.one_address else _("Table {code} closed: nobody played on it, and its seats left 10 minutes ago.")
        return closed.format(code=host.code)

    def _close(self, host: TableHost, reason: str) -> None:
        """Let a table go: its connections told why and closed, its saved table file removed."""
        if host in self.tables:
            self.tables.remove(host)
        sockets = [seat.ws for seat in host.links.values() if seat.ws is not None] + [w.ws for w in host.watchers]
        for ws in sockets:
            self._refuse_later(ws, reason)
        if host.pending_file is not None:
            host.pending_file.unlink(missing_ok=True)
            host.pending_file = None
        host.close()

    def _abandon(self, host: TableHost, now: float, why: str = "neither seat connected for 7 days") -> None:
        session, slot = host.game, host.slot
        path = slot.path if slot is not None else None
        if session is not None:
            try:
                session.store.set_meta(abandoned={"at": int(now), "reason": why})
            except StorageError:
                pass  # the record as last saved is kept all the same
        self._close(host, f"this table is closed: {why}")
        if path is not None and self.slots is not None:
            self.slots.keep_finished(path)

    def attach(self, app: web.Application) -> None:
        """Look for tables to close once a minute while ``app`` runs (and once at its start)."""
        async def start(_: web.Application) -> None:
            self._sweeper = asyncio.ensure_future(self._sweeping())

        async def stop(_: web.Application) -> None:
            if self._sweeper is not None:
                self._sweeper.cancel()

        app.on_startup.append(start)
        app.on_cleanup.append(stop)

    async def _sweeping(self) -> None:
        while True:
            for line in self.expire():
                log.warning(line)
            self._sweep()
            await asyncio.sleep(SWEEP_EVERY)

    # ------------------------------------------------------------ the lobby

    def listing(self, fresh: bool = True) -> list[dict[str, Any]]:
        """The public tables with someone there: those waiting for a player first (with their join code), then
        those in play; names, rules, scores, the hand, the watchers. Nothing of any hand.  Not ``fresh`` (a lobby
        connection's look each second): made once for every connection that looks within the same half second."""
        now = self.clock()
        made, cached = self._listed
        if not fresh and cached is not None and 0 <= now - made < LOBBY_EVERY / 2:
            return cached
        found = self._list(now)
        self._listed = (now, found)
        return found

    def _list(self, now: float) -> list[dict[str, Any]]:
        waiting, playing = [], []
        for host in self.tables:
            if not host.public or host.done.is_set() or not any(host.connected[s] for s in host.remotes):
                continue  # private, over, or nobody there: nobody to play with, nothing to watch
            names = [p.clean_name(pl.name, "?") for pl in host.players()]
            session = host.game
            rules = session.store.record.rules if session is not None else host.rules
            scores = list(session.state.scores) if session is not None else [0, 0]
            hand = len(session.state.history) + 1 if session is not None else 0
            entry: dict[str, Any] = {"watch": host.watch_code, "players": names, "rules": rules.to_json(),
                                     "since": max(0, int(now - host.opened_at)), "scores": scores, "hand": hand,
                                     "watchers": len(host.watchers)}
            if host.rated.rated:
                entry["rated"] = True  # a registered player's key sits down there (rated play)
            if host.token_hash is None:
                entry["code"] = host.code
                waiting.append(entry)
            else:
                playing.append(entry)
        return (waiting + playing)[:MAX_LISTED]

    @property
    def lobbies(self) -> int:
        """Lobby connections now."""
        return sum(len(held) for held in self._lobbies.values())

    def _lobby_refusal(self, address: str) -> Optional[str]:
        """Why a lobby connection from ``address`` is refused (None: it is taken, after making room if need be)."""
        if len(self._lobbies.get(address, ())) >= LOBBIES_PER_ADDRESS:
            return f"you have {LOBBIES_PER_ADDRESS} lists of tables open here already: close one"
        if self.lobbies < MAX_LOBBIES:
            return None
        # Full: the address holding the most gives its oldest list up, if it holds more than this one would.
        mine = len(self._lobbies.get(address, ()))
        most = max(self._lobbies, key=lambda a: len(self._lobbies[a]), default=None)
        if most is None or len(self._lobbies[most]) <= mine + 1:
            return r.LOBBY_FULL
        oldest = self._lobbies[most].pop(0)
        self._refuse_later(oldest, "the lobby is full: this list made room for another (look again later)")
        return None

    def _refuse_later(self, ws: web.WebSocketResponse, reason: str) -> None:
        if not ws.closed:
            task = asyncio.ensure_future(refuse(ws, reason))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _lobby(self, ws: web.WebSocketResponse, address: str) -> None:
        refused = self._lobby_refusal(address)
        if refused is not None:
            await refuse(ws, refused)
            return
        held = self._lobbies.setdefault(address, [])
        held.append(ws)
        reader = asyncio.ensure_future(_lobby_reader(ws))
        sent: Optional[list[dict[str, Any]]] = None
        loop = asyncio.get_running_loop()
        ends = loop.time() + self.lobby_idle
        try:
            while not ws.closed and not reader.done() and ws in held:
                if loop.time() >= ends:  # the list is pushed: a client that wants it longer connects again
                    await refuse(ws, f"a list of tables lasts {self.lobby_idle / 60:g} minutes: connect again")
                    break
                listing = self.listing(fresh=sent is None)
                same = [{k: v for k, v in e.items() if k != "since"} for e in listing]
                if same != sent:  # "since" alone changes every second: a list only when something else did
                    sent = same
                    await ws.send_str(p.dumps({"type": "tables", "tables": listing}))
                await asyncio.wait([reader], timeout=min(LOBBY_EVERY, max(0.0, ends - loop.time())))
        except (ConnectionError, RuntimeError):
            pass
        finally:
            reader.cancel()
            if ws in held:
                held.remove(ws)
            if not held and self._lobbies.get(address) is held:
                del self._lobbies[address]

    # ------------------------------------------------------------ tables terminals open, kept across restarts

    def restore(self) -> list[str]:
        """The tables this server held when it stopped (kill -9 included): each unfinished served table's
        game from its slot, and each table opened but not yet begun from its small file; the same codes and
        tokens.  What could not be read is said (one line each) and left aside, harming no other table."""
        said: list[str] = []
        if self.slots is None:
            return said
        listing = self.slots.scan()
        said += listing.messages
        if self.desk is not None:
            said += self.desk.rate_finished(self.slots, self.clock())
        codes: set[str] = set()
        for found in self.slots.open_unfinished([g for g in listing.games if is_served_table(g.players)],
                                                "A table's game"):
            if isinstance(found, str):
                said.append(found)
                continue
            slot, record = found
            try:
                host = TableHost(record=record, slot=slot, nonce_timeout=self.nonce_timeout,
                                 hello_timeout=self.hello_timeout)
            except (StorageError, ValueError) as exc:
                slot.release()
                said.append(_("A table's game could not be resumed ({file}): {problem}").format(file=slot.path.name,
                                                                                                problem=exc))
                continue
            codes.add(host.code)
            if self.desk is not None:
                self.desk.hook(host)
            # The last time a seat was there is not kept: the last save (every action) stands for it.
            host.opened_at = host.last_seen = _mtime(slot.path, self.clock())
            self.tables.append(host)
        for path, pending in pending_tables(self.slots.root.parent):
            if pending.code in codes:  # begun since: its game is in its slot
                path.unlink(missing_ok=True)
                continue
            if pending.broken is not None:
                said.append(pending.broken)
                continue
            opened = self.new_table(pending.names[0], pending.rules, pending.first, keep=False, public=pending.public)
            if opened is not None:
                opened.code, opened.owner_hash = pending.code, pending.owner_hash
                opened.creator = pending.creator  # it counts against its opener's address again
                if pending.token_hash is not None:  # the friend sat down before the game began: its seat still
                    opened.token_hash, opened.joined_name = pending.token_hash, pending.names[1]
                    opened.one_address = pending.one_address
                # A rated table stays rated: waiting for its player (its opener kept), or with both players known.
                opened.rated.opener, opened.rated.players = pending.rated_by, pending.rated
                opened.restore_watch_code(pending.watch)
                opened.pending_file = path
                opened.opened_at = opened.last_seen = pending.opened or _mtime(path, self.clock())
        return said

    def created(self, data: dict[str, Any], address: Optional[str] = None) -> TableHost | str:
        """A ``create`` frame from ``address``: a new table whose seat 0 is its sender's, or the reason there is
        none."""
        version = p.version_problem(data)  # the one check of every first frame (open_socket made it already)
        if version is not None:
            return version
        first = data.get("first")
        if first is not None and (type(first) is not int or first not in (0, 1)):
            return "'first' is 0, 1 or null (a cut)"
        raw = data.get("rules")
        if raw is not None and not isinstance(raw, dict):
            return "'rules' is an object, as in a record"
        try:
            rules = Rules.from_json(raw) if raw is not None else Rules()
        except (ValueError, TypeError, KeyError) as exc:
            return f"those rules cannot be played: {str(exc)[:200]}"
        refused = self.refusal(address)
        if refused is not None:
            return refused
        host = self.new_table(p.clean_name(data.get("name"), "Host"), rules, first, address=address,
                              public=data.get("public") is True)
        if host is None:
            return r.TABLES_FULL
        return host

    def _find(self, data: dict[str, Any]) -> Optional[TableHost]:
        if data.get("type") in ("join", "watch"):
            code = data.get("code")
            if not isinstance(code, str):
                return None
            wanted = code_bytes(code.strip().lower())
            # Either code finds its table: the table says which code the frame should have carried.
            return next((t for t in self.tables if hmac.compare_digest(wanted, code_bytes(t.code))
                         or hmac.compare_digest(wanted, code_bytes(t.watch_code))), None)
        token = data.get("token")
        if not isinstance(token, str):
            return None
        found = hash_token(token)
        hosts: list[TableHost] = list(self.tables)
        if self.desk is not None and self.desk.challenges is not None:  # a challenge's seat, by its token only
            hosts += self.desk.challenges.tables
        for host in hosts:
            for known in (host.token_hash, host.owner_hash):
                if known is not None and hmac.compare_digest(found, known):
                    return host
        return None

    def _too_many_wrong(self, address: str) -> bool:
        now = time.monotonic()
        if len(self._wrong) > 4096:  # addresses that guessed once and went: forgotten, not kept for ever
            self._wrong = {a: ts for a, ts in self._wrong.items() if ts and now - ts[-1] < p.WRONG_CODE_WINDOW}
        recent = [t for t in self._wrong.get(address, []) if now - t < p.WRONG_CODE_WINDOW]
        if recent:
            self._wrong[address] = recent
        else:
            self._wrong.pop(address, None)  # an address that stopped guessing is forgotten
        return len(recent) >= p.WRONG_CODES

    async def handle(self, request: web.Request) -> web.StreamResponse:
        opened = await open_socket(request, self.hello_timeout)
        if opened is None:
            return web.Response(status=400)
        ws, data, _ = opened
        # A served tab's game comes from loopback like every other tab's: the address counted is its browser's.
        address = self.address_of(request)
        if data.get("type") == "lobby":
            await self._lobby(ws, address)
            return ws
        if self.desk is not None and data.get("type") in p.RATED_FIRST + ("create", "join"):  # rated play's
            refused = self.desk.refusal(data, address, self._too_many_wrong(address))
            if refused is not None:
                await refuse(ws, refused)
                return ws
            if data.get("type") in ("quick", "challenge"):
                keep_connection(request)  # a seat to be
            if await self.desk.take(ws, data, address, self._serve):
                return ws
        elif data.get("type") in p.RATED_FIRST:
            await refuse(ws, r.NO_RATINGS)
            return ws
        keep_connection(request)  # a seat, a watcher or a create: not one a full server lets go for another
        joining = data.get("type") in ("join", "watch")
        # A seat's token is looked at before any count of wrong codes: whoever holds it is never locked out.
        if joining and self._too_many_wrong(address):
            await refuse(ws, r.TOO_MANY_WRONG)
            return ws
        if data.get("type") == "create":
            rated = self.desk is not None and data.get("rated") is True
            made = self.desk.create(data, address, self.created) if rated and self.desk else self.created(data, address)
            if rated and not isinstance(made, str):
                self._keep_pending(made)  # its file says it is rated: a restart keeps it so
            if isinstance(made, str):
                await refuse(ws, made)
                return ws
            assert made.owner_token is not None
            await self._serve(made, ws, {"type": "rejoin", "protocol": p.PROTOCOL, "token": made.owner_token},
                              address)
            return ws
        host = self._find(data)
        if host is None:
            if joining:
                self._wrong.setdefault(address, []).append(time.monotonic())
            await refuse(ws, r.WRONG_CODE if joining else r.UNKNOWN_TOKEN)
            return ws
        refused = self.desk.join(host, data, address) if self.desk is not None else None
        if refused is not None:  # a rated table's seat is a registered player's
            await refuse(ws, refused)
            return ws
        await self._serve(host, ws, data, address)
        return ws

    async def _serve(self, host: TableHost, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        try:
            await host.serve(ws, data, address)
        finally:
            host.last_seen = self.clock()  # a seat (or a watcher) was there until now

    def _keep_pending(self, host: TableHost) -> None:
        """A table opened and not yet begun is kept in a small file, so a restarted server has it too."""
        if self.slots is None or host.owner_hash is None:
            return
        try:
            host.pending_file = keep_pending(self.slots.root.parent, host)
        except (OSError, StorageError):
            host.pending_file = None  # it lives as long as this process: said nowhere, harms nothing

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for host in self.tables:
            host.close()
        self.tables.clear()


def _played(host: TableHost) -> bool:
    """Whether anyone played on the table: an action of a seat (not of chance) in its record."""
    record = host.record
    return record is not None and any(not is_chance(action) for action in record.actions)


def _mtime(path: Path, default: float) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return default


async def _lobby_reader(ws: web.WebSocketResponse) -> None:
    """A lobby connection's frames after its first: each gets an error; a few, and it is closed."""
    told = 0
    async for message in ws:
        if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
            continue
        told += 1
        if told >= p.MAX_BAD_FRAMES:
            await refuse(ws, "a lobby connection sends nothing after its first frame (closing)")
            return
        await ws.send_str(p.dumps(p.error("a lobby connection sends nothing after its first frame")))
