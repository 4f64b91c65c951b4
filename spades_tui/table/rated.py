"""Rated play at a server of tables (docs/table-protocol.md, "Rated play"): who you are, the leaderboard, quick
play, and the results rated.

``RatedDesk`` holds the server's players database (``keep.players``) and those seeking a game
(``quickplay.Seeking``).  It answers the first frames ``register``, ``rename``, ``players`` and ``player`` once
each (the connection then closes), checks the ``key`` of the first frames that carry one (a wrong key is
refused and counted against the address as a wrong code is), keeps ``quick`` connections waiting until they are
paired, and rates each rated table's result once (the database keys results by the game's id).  It runs in the
server's one event loop, so the database has one writer and no two results race.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Optional

from aiohttp import WSMsgType, web

from ..keep.players import MAX_PLAYERS, Player, PlayerStore, Rated, Refused
from ..keep.serverkeys import new_key
from . import protocol as p
from .quickplay import Seeker, Seeking
from .sockets import log, refuse

UNKNOWN_KEY = "unknown player key"
CLAIM_AFTER = 300.0  # seconds a seat must have been gone before the other may claim the game (--claim-after)
PAIR_EVERY = 1.0  # seconds between two looks for pairs while anyone seeks


@dataclass
class Paired:
    """What a seeker's connection does once paired: serve ``frame`` (a rejoin or a join) at ``table``."""

    table: Any
    frame: dict[str, Any]


class RatedDesk:
    def __init__(self, store: PlayerStore, *, max_players: int = MAX_PLAYERS, claim_after: float = CLAIM_AFTER,
                 count_wrong: Callable[[str], None] = lambda _address: None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.max_players = max_players
        self.claim_after = claim_after
        self.count_wrong = count_wrong
        self.monotonic = monotonic
        self.seeking: Seeking[asyncio.Future[Paired]] = Seeking()
        self.pair: Optional[Callable[[Player, Player], Awaitable[tuple[Paired, Paired]]]] = None
        self._pairer: Optional[asyncio.Task[None]] = None

    # ------------------------------------------------------------ keys

    def player_of(self, data: dict[str, Any], address: str) -> Player | str:
        """The registered player whose ``key`` the frame carries, or why not (a wrong key counted)."""
        key = data.get("key")
        if key is None:
            return "this needs your player key: register first"
        found = self.store.by_key(key)
        if found is None:
            self.count_wrong(address)
            return UNKNOWN_KEY
        return found

    # ------------------------------------------------------------ one question, one answer

    ANSWERED = ("register", "rename", "players", "player")

    async def answer(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A first frame answered once; then the connection closes."""
        reply = self._reply(data, address)
        if "reason" in reply:
            await refuse(ws, reply["reason"])
            return
        try:
            await ws.send_str(p.dumps(reply))
            await ws.close()
        except (ConnectionError, RuntimeError):
            pass

    def _reply(self, data: dict[str, Any], address: str) -> dict[str, Any]:
        kind = data.get("type")
        try:
            if kind == "register":
                key = new_key()
                made = self.store.register(data.get("name"), key, address, max_players=self.max_players)
                log.info("Player %d registered (%s).", made.id, made.name)
                return {"type": "registered", "player": made.id, "key": key, "name": made.name}
            if kind == "players":
                you = None
                if data.get("key") is not None:
                    found = self.player_of(data, address)
                    if isinstance(found, str):
                        return p.error(found)
                    you = found.to_json(self.store.clock())
                return {"type": "players", "players": self.store.leaderboard(), "you": you}
            if kind == "player":
                if data.get("name") is not None:
                    named = self.store.by_name(data.get("name"))
                    if named is None:
                        return p.error("no player of that name on this server")
                    return {"type": "player", "player": self.store.page(named)}
                own = self.player_of(data, address)
                return p.error(own) if isinstance(own, str) else {"type": "player", "player": self.store.page(own)}
            if kind == "rename":
                own = self.player_of(data, address)
                if isinstance(own, str):
                    return p.error(own)
                renamed = self.store.rename(own.id, data.get("name"))
                return {"type": "renamed", "player": renamed.id, "name": renamed.name}
        except Refused as exc:
            return p.error(str(exc))
        return p.error("not a question this server answers")

    # ------------------------------------------------------------ quick play

    async def quick(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> Optional[Paired]:
        """A ``quick`` connection: seeking until paired (``Paired``: what to serve it) or gone (None)."""
        found = self.player_of(data, address)
        if isinstance(found, str):
            await refuse(ws, found)
            return None
        loop = asyncio.get_running_loop()
        paired: asyncio.Future[Paired] = loop.create_future()
        seeker = Seeker(found.id, found.now_rating(self.store.clock()).rating, address, self.monotonic(), paired)
        refused = self.seeking.add(seeker)
        if refused is not None:
            await refuse(ws, refused)
            return None
        self._start_pairing()
        reader = asyncio.ensure_future(_quiet(ws))
        try:
            while not paired.done():
                waits: list[asyncio.Future[Any]] = [paired, reader]
                await asyncio.wait(waits, timeout=PAIR_EVERY, return_when=asyncio.FIRST_COMPLETED)
                if reader.done() and not paired.done():
                    return None  # gone, or said something while seeking: no longer seeking
                if seeker in self.seeking.due(self.monotonic()):
                    others = len(self.seeking.seekers) - 1
                    await ws.send_str(p.dumps({"type": "seeking", "others": others,
                                               "waited": int(self.monotonic() - seeker.since)}))
            return paired.result()
        except (ConnectionError, RuntimeError):
            return None
        finally:
            self.seeking.remove(seeker)
            reader.cancel()
            try:
                await reader
            except (asyncio.CancelledError, Exception):
                pass

    def _start_pairing(self) -> None:
        if self._pairer is None or self._pairer.done():
            self._pairer = asyncio.ensure_future(self._pairing())

    async def _pairing(self) -> None:
        while self.seeking.seekers:
            for first, second in self.seeking.pairs(self.monotonic()):
                if first.handle.done() or second.handle.done() or self.pair is None:
                    continue
                a, b = self.store.by_id(first.player), self.store.by_id(second.player)
                if a is None or b is None:
                    continue
                try:
                    seat_a, seat_b = await self.pair(a, b)
                except Exception as exc:  # no table could be opened: both are told by their connection closing
                    log.warning("A quick-play table could not be opened: %s", exc)
                    continue
                first.handle.set_result(seat_a)
                second.handle.set_result(seat_b)
            await asyncio.sleep(PAIR_EVERY)

    def close(self) -> None:
        if self._pairer is not None:
            self._pairer.cancel()

    # ------------------------------------------------------------ results

    def rate(self, result_id: str, ids: tuple[int, int], winner_seat: int, how: str) -> Optional[Rated]:
        """A rated table's result (the seats' player ids, the winning seat), rated once."""
        rated = self.store.rate(result_id, ids[winner_seat], ids[1 - winner_seat], how)
        if rated is not None:
            log.info("Rated %s: player %d beat player %d (%s), %+.1f and %+.1f.", result_id, rated.winner,
                     rated.loser, how, rated.winner_after - rated.winner_before, rated.loser_after - rated.loser_before)
        return rated


async def _quiet(ws: web.WebSocketResponse) -> None:
    """A seeker says nothing while it waits: the first frame it sends (or its closing) ends the seek."""
    async for message in ws:
        if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
            try:
                await ws.send_str(p.dumps(p.error("a quick-play connection says nothing until it is seated")))
            except (ConnectionError, RuntimeError):
                pass
            return
