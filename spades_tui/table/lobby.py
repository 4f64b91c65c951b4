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
from . import protocol as p
from .host import TableHost, _bytes, _hash, _refuse, open_socket

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

    def new_table(self, name: str, rules: Optional[Rules] = None) -> Optional[TableHost]:
        """A new table, its first seat for whoever holds ``owner_token``; None when too many are open."""
        self._sweep()
        if len(self.tables) >= self.max_tables:
            return None
        host = TableHost(rules=rules, names=(p.clean_name(name, "Host"), "Guest"), host_kind=None, slots=self.slots,
                         nonce_timeout=self.nonce_timeout, hello_timeout=self.hello_timeout)
        self.tables.append(host)
        return host

    def _find(self, data: dict[str, Any]) -> Optional[TableHost]:
        if data.get("type") == "join":
            code = data.get("code")
            if not isinstance(code, str):
                return None
            wanted = _bytes(code.strip().lower())
            return next((t for t in self.tables if hmac.compare_digest(wanted, _bytes(t.code))), None)
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
        joining = data.get("type") == "join"
        # A seat's token is looked at before any count of wrong codes: whoever holds it is never locked out.
        if joining and self._too_many_wrong(address):
            await _refuse(ws, "too many wrong codes from this address: wait a minute")
            return ws
        host = self._find(data)
        if host is None:
            if joining:
                self._wrong.setdefault(address, []).append(time.monotonic())
            await _refuse(ws, "wrong code" if joining else "unknown seat token (that game is not at this table)")
            return ws
        await host.serve(ws, data, address)
        return ws

    def close(self) -> None:
        for host in self.tables:
            host.close()
        self.tables.clear()
