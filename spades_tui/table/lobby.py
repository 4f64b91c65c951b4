"""Many tables in one process (``spades-tui serve``'s "Play a friend"): one ``/table`` endpoint, and each
connection sent to its table by the code or the token of its first frame.

A served table's both seats are clients: each browser tab is a game process of its own, which sits at
the table over loopback (the first with the owner's token it was given, the friend with the code), so a
terminal may sit at a served table as well (``spades-tui join``).
"""

from __future__ import annotations

import hmac
import time
from typing import Any, Callable, Optional

from aiohttp import web

from ..engine.rules import Rules
from ..keep.slots import SlotDirectory
from ..keep.storage import StorageError
from . import protocol as p
from .host import TableHost, _bytes, _hash, _refuse, open_socket
from .pending import keep_pending, pending_tables

MAX_TABLES = 50  # open at once in one process: each holds a session, its slot, its sockets


class TableLobby:
    def __init__(self, slots: Optional[SlotDirectory], *, max_tables: int = MAX_TABLES,
                 hello_timeout: float = p.HELLO_TIMEOUT, nonce_timeout: float = p.NONCE_TIMEOUT,
                 peer_of: Optional[Callable[[web.Request], Optional[str]]] = None) -> None:
        """``peer_of``: the address a connection stands for when it is not its own (a served tab's browser)."""
        self.slots = slots
        self.peer_of = peer_of
        self.max_tables = max_tables
        self.hello_timeout = hello_timeout
        self.nonce_timeout = nonce_timeout
        self.tables: list[TableHost] = []
        self._wrong: dict[str, list[float]] = {}

    def _sweep(self) -> None:
        """Tables whose game is over and whose seats have left are let go (their records stay)."""
        for host in list(self.tables):
            if host.done.is_set() and not any(host.connected[s] for s in host.remotes):
                host.close()
                self.tables.remove(host)

    def new_table(self, name: str, rules: Optional[Rules] = None, first: Optional[int] = None, *,
                  keep: bool = True) -> Optional[TableHost]:
        """A new table, its first seat for whoever holds ``owner_token``; None when too many are open."""
        self._sweep()
        if len(self.tables) >= self.max_tables:
            return None
        host = TableHost(rules=rules, first=first, names=(p.clean_name(name, "Host"), "Guest"), host_kind=None,
                         slots=self.slots, nonce_timeout=self.nonce_timeout, hello_timeout=self.hello_timeout)
        if keep:
            self._keep_pending(host)
        self.tables.append(host)
        return host

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
        codes: set[str] = set()
        for game in listing.games:
            kinds = [pl.kind for pl in game.players]
            if game.finished or game.held_elsewhere or kinds != ["remote", "remote"]:
                continue
            try:
                slot, record = self.slots.open_game(game.path)
            except StorageError as exc:
                said.append(f"A table's game could not be resumed: {exc}")
                continue
            try:
                host = TableHost(record=record, slot=slot, nonce_timeout=self.nonce_timeout,
                                 hello_timeout=self.hello_timeout)
            except (StorageError, ValueError) as exc:
                slot.release()
                said.append(f"A table's game could not be resumed ({game.path.name}): {exc}")
                continue
            codes.add(host.code)
            self.tables.append(host)
        for path, pending in pending_tables(self.slots.root.parent):
            if pending.code in codes:  # begun since: its game is in its slot
                path.unlink(missing_ok=True)
                continue
            if pending.broken is not None:
                said.append(pending.broken)
                continue
            opened = self.new_table(pending.names[0], pending.rules, pending.first, keep=False)
            if opened is not None:
                opened.code, opened.owner_hash = pending.code, pending.owner_hash
                opened.restore_watch_code(pending.watch)
                opened.pending_file = path
        return said

    def created(self, data: dict[str, Any]) -> TableHost | str:
        """A ``create`` frame: a new table whose seat 0 is its sender's, or the reason there is none."""
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
        host = self.new_table(p.clean_name(data.get("name"), "Host"), rules, first)
        if host is None:
            return "too many tables are open here: try again later"
        return host

    def _find(self, data: dict[str, Any]) -> Optional[TableHost]:
        if data.get("type") in ("join", "watch"):
            code = data.get("code")
            if not isinstance(code, str):
                return None
            wanted = _bytes(code.strip().lower())
            # Either code finds its table: the table says which code the frame should have carried.
            return next((t for t in self.tables if hmac.compare_digest(wanted, _bytes(t.code))
                         or hmac.compare_digest(wanted, _bytes(t.watch_code))), None)
        token = data.get("token")
        if not isinstance(token, str):
            return None
        found = _hash(token)
        for host in self.tables:
            for known in (host.token_hash, host.owner_hash):
                if known is not None and hmac.compare_digest(found, known):
                    return host
        return None

    def _too_many_wrong(self, address: str) -> bool:
        now = time.monotonic()
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
        ws, data, address = opened
        # A served tab's game comes from loopback like every other tab's: the address counted is its browser's.
        address = (self.peer_of(request) if self.peer_of is not None else None) or address
        joining = data.get("type") in ("join", "watch")
        # A seat's token is looked at before any count of wrong codes: whoever holds it is never locked out.
        if joining and self._too_many_wrong(address):
            await _refuse(ws, "too many wrong codes from this address: wait a minute")
            return ws
        if data.get("type") == "create":
            made = self.created(data)
            if isinstance(made, str):
                await _refuse(ws, made)
                return ws
            assert made.owner_token is not None
            await made.serve(ws, {"type": "rejoin", "protocol": p.PROTOCOL, "token": made.owner_token}, address)
            return ws
        host = self._find(data)
        if host is None:
            if joining:
                self._wrong.setdefault(address, []).append(time.monotonic())
            await _refuse(ws, "wrong code" if joining else "unknown seat token (that game is not at this table)")
            return ws
        await host.serve(ws, data, address)
        return ws

    def _keep_pending(self, host: TableHost) -> None:
        """A table opened and not yet begun is kept in a small file, so a restarted server has it too."""
        if self.slots is None or host.owner_hash is None:
            return
        try:
            host.pending_file = keep_pending(self.slots.root.parent, host)
        except (OSError, StorageError):
            host.pending_file = None  # it lives as long as this process: said nowhere, harms nothing

    def close(self) -> None:
        for host in self.tables:
            host.close()
        self.tables.clear()
