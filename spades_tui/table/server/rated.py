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
from typing import Any, Awaitable, Callable, Optional, Protocol, Sequence

from aiohttp import WSMsgType, web

from ...engine.errors import IllegalActionError, RecordError
from ...engine.outcome import Outcome
from ...engine.record import replay
from ...i18n.language import _
from ...keep.meta import TableMeta, game_id_of, game_outcome
from ...keep.players import MAX_PLAYERS, Player, PlayerStore, Rated, Refused
from ...keep.serverkeys import new_key
from ...keep.slots import SlotDirectory
from ...keep.storage import StorageError, load_record
from ..host.sockets import log, refuse
from ..host.table import TableHost
from ..wire import protocol as p
from ..wire import reasons as r
from .quickplay import Seeker, Seeking

# Said whole: a server started afresh (its players.sqlite3 gone) refuses every key its players still hold, and the
# player has only these words to learn what to do.
UNKNOWN_KEY = r.UNKNOWN_KEY  # at most p.MAX_SAY
CLAIM_AFTER = p.CLAIM_AFTER
PAIR_EVERY = 1.0  # seconds between two looks for pairs while anyone seeks
RATE_LOOKBACK = 7 * 24 * 3600.0  # seconds: finished games this recent are looked at for a result not rated yet


@dataclass
class Paired:
    """What a seeker's connection does once paired: serve ``frame`` (a rejoin or a join) at ``table``."""

    table: TableHost
    frame: dict[str, Any]


Serve = Callable[[TableHost, web.WebSocketResponse, dict[str, Any], str], Awaitable[None]]


class Challenges(Protocol):
    """The day's challenge's desk (challenge.ChallengeDesk), as the first frames and the seats' tokens reach it."""

    @property
    def tables(self) -> Sequence[TableHost]: ...

    async def take(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str, serve: Serve) -> None: ...


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
        # The server's, set by it: a new public table under the standard rules for a name (None: none may open).
        self.open_table: Callable[[str], Optional[TableHost]] = lambda _name: None
        self._pairer: Optional[asyncio.Task[None]] = None
        self.challenges: Optional[Challenges] = None  # the day's challenge, where the server holds it (challenge.py)

    # ------------------------------------------------------------ keys

    def player_of(self, data: dict[str, Any], address: str) -> Player | str:
        """The registered player whose ``key`` the frame carries, or why not (a wrong key counted)."""
        key = data.get("key")
        if key is None:
            return r.NEEDS_KEY
        found = self.store.by_key(key)
        if found is None:
            self.count_wrong(address)
            return UNKNOWN_KEY
        return found

    # ------------------------------------------------------------ one question, one answer

    ANSWERED = ("register", "rename", "players", "player")

    async def answer(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> None:
        """A first frame answered once; then the connection closes."""
        await answer_once(ws, self._reply(data, address))

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
                        return p.error(r.NO_SUCH_PLAYER)
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
                a, b = self.store.by_id(first.player), self.store.by_id(second.player)
                if first.handle.done() or second.handle.done() or a is None or b is None:
                    continue
                seats = self._seat(a, b)
                if seats is None:  # no table may be opened now: both seek on
                    for seeker in (first, second):
                        self.seeking.add(seeker)
                    continue
                first.handle.set_result(seats[0])
                second.handle.set_result(seats[1])
            await asyncio.sleep(PAIR_EVERY)

    def _seat(self, a: Player, b: Player) -> Optional[tuple[Paired, Paired]]:
        """Two seekers paired: a rated table (the standard rules, in the lobby) and each one's way to its seat."""
        host = self.open_table(a.name)
        if host is None or host.owner_token is None:
            return None
        host.rated.players = (a.id, b.id)
        host.seated()  # its file (a server's table not begun) says so: a restart keeps it rated
        return (Paired(host, {"type": "rejoin", "protocol": p.PROTOCOL, "token": host.owner_token}),
                Paired(host, {"type": "join", "protocol": p.PROTOCOL, "code": host.code, "name": b.name}))

    def close(self) -> None:
        if self._pairer is not None:
            self._pairer.cancel()

    # ------------------------------------------------------------ the server's first frames

    def refusal(self, data: dict[str, Any], address: str, locked: bool) -> Optional[str]:
        """Why a first frame of rated play is refused before it is looked at (None: go on); ``locked``: the address
        gave too many wrong codes or keys this minute."""
        if data.get("key") is not None and locked:
            return r.TOO_MANY_WRONG_KEYS
        return None

    async def take(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str, serve: Serve) -> bool:
        """A first frame of rated play handled to its end (True); False: not one (the server goes on with it)."""
        kind = data.get("type")
        if kind in self.ANSWERED:
            await self.answer(ws, data, address)
            return True
        if kind in p.CHALLENGE_FIRST:
            if self.challenges is None:
                await refuse(ws, r.NO_CHALLENGE)
            else:
                await self.challenges.take(ws, data, address, serve)
            return True
        if kind == "quick":
            paired = await self.quick(ws, data, address)
            if paired is not None:
                await serve(paired.table, ws, paired.frame, address)
            return True
        return False

    def create(self, data: dict[str, Any], address: str,
               created: Callable[[dict[str, Any], str], TableHost | str]) -> TableHost | str:
        """``create`` with ``rated``: a public table under the standard rules whose seat 0 is the key's player
        (``created`` opens it as any ``create``)."""
        player = self.player_of(data, address)
        if isinstance(player, str):
            return player
        made = created({**data, "name": player.name, "rules": None, "first": None, "public": True}, address)
        if not isinstance(made, str):
            made.rated.opener = player.id
        return made

    def join(self, host: TableHost, data: dict[str, Any], address: str) -> Optional[str]:
        """A ``join`` at a rated table waiting for its player: the key of a registered player other than its
        opener (None: sit down, as that player, and the table's players are known)."""
        opener = host.rated.opener
        if opener is None or host.token_hash is not None or data.get("type") != "join":
            return None
        player = self.player_of(data, address)
        if isinstance(player, str):
            return player if data.get("key") is not None else r.RATED_NEEDS_KEY
        if player.id == opener:
            return r.OWN_RATED_TABLE
        data["name"] = player.name
        host.rated.players, host.rated.opener = (opener, player.id), None
        return None

    def hook(self, host: TableHost) -> None:
        """A table of this server: its end is rated if it is a rated table; claims wait ``claim_after``."""
        host.rated.claim_after = self.claim_after
        host.rated.over = lambda: self.ended(host)

    def ended(self, host: TableHost) -> None:
        """A table's game ended: rated once if the table is rated (a failure said, never the table's)."""
        session, ids = host.game, host.rated.players
        outcome = session.outcome if session is not None else None
        if ids is None or session is None or outcome is None or outcome.winner is None:
            return
        try:
            rated = self.rate(game_id_of(session.store.record), ids, outcome.winner, how_ended(outcome))
            host.rated.ratings = seat_ratings(rated, outcome.winner) if rated is not None else None
        except Exception as exc:  # the database could not be written: said; rated at the next start
            log.warning("Table %s's result could not be rated now (%s); it will be at the next start.", host.code,
                        exc)

    def rate_finished(self, slots: SlotDirectory, now: float) -> list[str]:
        """Rated games that ended as the server stopped (a kill -9 between the last action saved and its result
        rated): rated now, once (the database keeps each game's id).  The finished games of the last week."""
        said: list[str] = []
        for path in slots.finished_games():
            try:
                if path.stat().st_mtime < now - RATE_LOOKBACK:
                    continue
                record = load_record(path)
            except (OSError, StorageError, RecordError):
                continue  # the slots say what is wrong with a record; no rating from it
            meta = TableMeta.of(record)
            if meta is None or meta.rated is None or self.store.result(game_id_of(record)) is not None:
                continue
            try:
                outcome = game_outcome(record, replay(record))
            except (RecordError, IllegalActionError):
                continue
            if outcome is not None and outcome.winner is not None and \
                    self.rate(game_id_of(record), meta.rated, outcome.winner, how_ended(outcome)) is not None:
                said.append(_("A rated game that ended as the server stopped is rated now ({file}).").format(
                    file=path.name))
        return said

    # ------------------------------------------------------------ results

    def rate(self, result_id: str, ids: tuple[int, int], winner_seat: int, how: str) -> Optional[Rated]:
        """A rated table's result (the seats' player ids, the winning seat), rated once."""
        rated = self.store.rate(result_id, ids[winner_seat], ids[1 - winner_seat], how)
        if rated is not None:
            log.info("Rated %s: player %d beat player %d (%s), %+.1f and %+.1f.", result_id, rated.winner,
                     rated.loser, how, rated.winner_after - rated.winner_before, rated.loser_after - rated.loser_before)
        return rated


def seat_ratings(rated: Rated, winner_seat: int) -> Optional[list[dict[str, float]]]:
    """Each seat's rating before and after a result just rated, as ``over`` tells it (seat 0's first); None for a
    result read back, whose RDs were not kept."""
    if rated.rds is None:
        return None
    wb, wa, lb, la = rated.rds
    won = {"before": rated.winner_before, "after": rated.winner_after, "rd_before": wb, "rd_after": wa}
    lost = {"before": rated.loser_before, "after": rated.loser_after, "rd_before": lb, "rd_after": la}
    seats = [won, lost] if winner_seat == 0 else [lost, won]
    return [{k: round(v, 1) for k, v in seat.items()} for seat in seats]


def how_ended(outcome: Outcome) -> str:
    """How a rated game ended, as its result is kept: played out, resigned, or claimed from a seat that left."""
    if outcome.forfeit is None:
        return "over"
    return "claim" if outcome.forfeit.reason.endswith(p.CLAIMED) else "resign"


async def answer_once(ws: web.WebSocketResponse, reply: dict[str, Any]) -> None:
    """A question's one answer (an ``error`` refuses, closing as any refusal does); then the connection closes."""
    if reply.get("type") == "error":
        await refuse(ws, reply["reason"])
        return
    try:
        await ws.send_str(p.dumps(reply))
        await ws.close()
    except (ConnectionError, RuntimeError):
        pass


async def _quiet(ws: web.WebSocketResponse) -> None:
    """A seeker says nothing while it waits: the first frame it sends (or its closing) ends the seek."""
    async for message in ws:
        if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
            try:
                await ws.send_str(p.dumps(p.error("a quick-play connection says nothing until it is seated")))
            except (ConnectionError, RuntimeError):
                pass
            return
