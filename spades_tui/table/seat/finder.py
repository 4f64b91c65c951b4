"""Finding a table at a server (docs/table-protocol.md, "Public tables and the lobby"): the lobby's list, read
by a client that trusts nothing, for ``spades-tui lobby`` and the start screen's "Find a table".

A ``lobby`` first frame gets ``tables`` frames: each entry is checked field by field and bounded before use
(a code and a watch code of the invite's shape only, names cleaned as for ``say`` and cut to a name's
length, the rules readable, numbers whole and in range), and a bad entry is left out, never the list.  The
connection reads at most one frame a ``PACE`` seconds on average (a server that floods is read slower),
and frames of at most ``MAX_LOBBY_FRAME`` bytes.
"""

from __future__ import annotations

import asyncio
import json
import re
import ssl
from dataclasses import dataclass
from typing import Any, Callable, Optional

import aiohttp

from ...engine.rules import Rules
from ...engine.text import num
from ...i18n.language import SOURCE, _, current, ngettext
from ...settings.rulewords import option_label
from ..wire import frames as f
from ..wire import protocol as p
from ..wire import reasons as r
from .link import Redirected, no_redirects, table_address, why_unreachable

MAX_LOBBY_FRAME = 1024 * 1024  # 100 entries of a few hundred bytes each
MAX_ENTRIES = 100
PACE = 0.2  # seconds between two lists read, on average (the server sends at most one a second)
FIRST_LIST = 30.0  # seconds for the first list once connected
AGAIN_AFTER = 30.0  # a connection the server ended after this long is made again (its lists last 10 minutes)
CODE = re.compile(r"^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$")  # protocol.new_code's shape
MAX_SINCE = 10 * 365 * 24 * 3600


@dataclass(frozen=True)
class ListedTable:
    """One public table as the lobby lists it: a code only while it waits for a player."""

    code: Optional[str]
    watch: str
    players: tuple[str, str]
    rules: Rules
    since: int
    scores: tuple[int, int]
    hand: int
    watchers: int
    rated: bool = False  # a rated table: its seat is a registered player's (rated play)

    @property
    def waiting(self) -> bool:
        return self.code is not None

    def line(self) -> str:
        """One line, every outside string cleaned already: who, the rules, the state, how long."""
        rules = rules_words(self.rules)
        if self.waiting:
            waits = _("{player} waits for a player ({age}), rated, {rules}") if self.rated else \
                _("{player} waits for a player ({age}), {rules}")
            return waits.format(player=self.players[0], age=_age(self.since), rules=rules)
        if self.watchers:
            line = ngettext("{first} {first_score} – {second_score} {second}, hand {hand}, {count} watching, rated, "
                            "{rules}", "{first} {first_score} – {second_score} {second}, hand {hand}, {count} "
                            "watching, rated, {rules}", self.watchers) if self.rated else \
                ngettext("{first} {first_score} – {second_score} {second}, hand {hand}, {count} watching, {rules}",
                         "{first} {first_score} – {second_score} {second}, hand {hand}, {count} watching, {rules}",
                         self.watchers)
        else:
            line = _("{first} {first_score} – {second_score} {second}, hand {hand}, rated, {rules}") if self.rated \
                else _("{first} {first_score} – {second_score} {second}, hand {hand}, {rules}")
        return line.format(first=self.players[0], first_score=num(self.scores[0]), second_score=num(self.scores[1]),
                           second=self.players[1], hand=self.hand, count=self.watchers, rules=rules)


def rules_words(rules: Rules) -> str:
    """A table's rules in a few words: the target, and which options are not standard."""
    changed = [key for key in rules.changed() if key != "target"]
    if not changed:
        return _("to {target}, standard rules").format(target=rules.target)
    # The rules' own names as the preferences write them; in another language, each option's label (its key is
    # English words).
    names = ", ".join(k.replace("_", " ") if current() == SOURCE else option_label(k) for k in changed[:4])
    house = _("to {target}, house rules: {rules} and more") if len(changed) > 4 else \
        _("to {target}, house rules: {rules}")
    return house.format(target=rules.target, rules=names)


def _age(seconds: int) -> str:
    if seconds < 60:
        return _("just now")
    if seconds < 3600:
        return _("{minutes} min").format(minutes=seconds // 60)
    if seconds < 48 * 3600:
        return _("{hours} h").format(hours=seconds // 3600)
    return ngettext("{count} day", "{count} days", seconds // 86400).format(count=seconds // 86400)


def entry(value: object) -> ListedTable:
    """One entry of a ``tables`` frame; ``FrameError`` if it is not one."""
    m = f._object(value, "a table")
    code = m.get("code")
    if code is not None and (not isinstance(code, str) or not CODE.match(code)):
        raise f.FrameError("a table's code is not a code")
    watch = m.get("watch")
    if not isinstance(watch, str) or not CODE.match(watch):
        raise f.FrameError("a table's watch code is not a code")
    names = f._list(m.get("players"), "players", 2)
    if len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise f.FrameError("a table's players are not two names")
    players = (p.clean_name(names[0][:400], "?"), p.clean_name(names[1][:400], "?"))
    return ListedTable(code, watch, players, f.rules_of(m.get("rules")), f._int(m.get("since"), "since", 0, MAX_SINCE),
                       f._pair(m.get("scores"), "scores", -100_000, 100_000), f._int(m.get("hand"), "hand", 0, 10_000),
                       f._int(m.get("watchers"), "watchers", 0, 1000), m.get("rated") is True)


def tables(message: object) -> list[ListedTable]:
    """A ``tables`` frame's list (entries that cannot be read left out); ``FrameError`` if it is not one."""
    m = f._object(message, "a frame")
    if m.get("type") != "tables":
        raise f.FrameError("not a list of tables")
    found = []
    for raw in f._list(m.get("tables"), "tables", MAX_ENTRIES):
        try:
            found.append(entry(raw))
        except f.FrameError:
            continue
    return found


class LobbyError(Exception):
    """The server's lobby cannot be reached or refused; in plain words."""


class Lobby:
    """A lobby connection: ``tables`` is the latest list; ``on_change`` after each new one."""

    def __init__(self, url: str, *, insecure: bool = False, on_change: Callable[[], None] = lambda: None) -> None:
        self.url = url
        self.insecure = insecure
        self.on_change = on_change
        self.tables: Optional[list[ListedTable]] = None
        self.problem: Optional[str] = None  # why the list stopped coming
        self._closed = False  # closed by its user: never made again
        self._session: Optional[aiohttp.ClientSession] = None
        self._ws: Optional[aiohttp.ClientWebSocketResponse] = None

    async def connect(self) -> list[ListedTable]:
        """Connect, ask for the list, and read the first one; ``LobbyError`` if there is none."""
        context: Any = True
        if self.url.startswith("wss://"):
            context = ssl.create_default_context()
            if self.insecure:
                context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        # No redirect followed (link.py): the lobby of another address would be no answer of this server's.
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, connect=10),
                                              middlewares=(no_redirects,))
        try:
            self._ws = await self._session.ws_connect(self.url, max_msg_size=MAX_LOBBY_FRAME, heartbeat=20,
                                                      ssl=context)
        except Redirected as exc:
            await self._drop()
            raise LobbyError(_("{url} answered with a redirect (HTTP {status}): not followed").format(
                url=self.url, status=exc.status)) from None
        except aiohttp.WSServerHandshakeError as exc:
            await self._drop()
            raise LobbyError(_("{url} is not a spades-tui server (it answered HTTP {status})").format(
                url=self.url, status=exc.status)) from None
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            await self._drop()
            raise LobbyError(_("cannot reach the server at {address}: {why}").format(
                address=table_address(self.url), why=why_unreachable(exc))) from None
        await self._ws.send_str(p.dumps({"type": "lobby", "protocol": p.PROTOCOL}))
        listed = await self._next()
        if listed is None:
            await self._drop()
            raise LobbyError(_("the server did not list its tables: {problem}").format(
                problem=self.problem or _("it closed the connection")))
        return listed

    async def _next(self, bound: Optional[float] = FIRST_LIST) -> Optional[list[ListedTable]]:
        """The next list (within ``bound`` seconds; None: whenever it changes, the heartbeat telling a dead
        connection), or None and ``problem`` says why there is none."""
        ws = self._ws
        if ws is None:
            return None
        try:
            message = await asyncio.wait_for(ws.receive(), bound)
        except (TimeoutError, aiohttp.ClientError, OSError):
            self.problem = _("the server stopped answering")
            return None
        if message.type is not aiohttp.WSMsgType.TEXT:
            self.problem = _("the connection was closed")
            return None
        try:
            data = json.loads(message.data)
        except (ValueError, RecursionError):
            self.problem = _("the server sent something other than a list")
            return None
        if isinstance(data, dict) and data.get("type") == "error":
            self.problem = r.shown(f.error(data).reason)
            return None
        try:
            self.tables = tables(data)
        except f.FrameError as exc:
            self.problem = _("the server sent a list that cannot be read ({problem})").format(problem=exc)
            return None
        return self.tables

    async def follow(self) -> None:
        """Read each new list until ``close`` (``on_change`` after each); a connection the server ends after
        ``AGAIN_AFTER`` seconds or more (a list lasts 10 minutes there) is made again at once, and the list goes
        on; one that ends sooner, or cannot be made again, ends it (``problem`` says why)."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            began = loop.time()
            while self._ws is not None and not self._ws.closed:
                found = await self._next(None)  # a list comes only when it changes: no bound but the heartbeat
                if found is None:
                    break
                self.on_change()
                await asyncio.sleep(PACE)
            if self._closed or loop.time() - began < AGAIN_AFTER:
                break
            await self._drop()
            try:
                await self.connect()
            except LobbyError:
                break
            self.problem = None
            self.on_change()
        self.on_change()
        await self.close()

    async def close(self) -> None:
        self._closed = True
        await self._drop()

    async def _drop(self) -> None:
        ws, session = self._ws, self._session
        self._ws = self._session = None
        if ws is not None:
            await ws.close()
        if session is not None:
            await session.close()
