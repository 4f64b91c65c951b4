"""The day's challenge at a server, against the field (docs/table-protocol.md, "The day's challenge").

``ChallengeDesk`` answers the first frames ``challenge`` (start or resume today's: a table whose other seat is the
server's expert, table/host/challenge.py) and ``standings`` (a day's entries, scored duplicate: keep/field.py).
A registered player's first finished challenge of a day is their entry, kept in the players database in one
transaction before the table's ``over`` is sent; until it is finished, the same ``challenge`` with the same key
takes them back to the same table.  A later one, or anyone's without a key, is practice: scored against the field
for their eyes only, never kept.  The par (the expert in both seats, on the same stocks) is computed once a day in
the same pool of experts as the tables' decisions and stands as one more entry.

Limits (docs/table-protocol.md, "A server's limits"): at most ``PER_ADDRESS`` challenge tables an address at once and
``MAX_TABLES`` in all; a wrong key counts as a wrong code (RatedDesk's); a table is let go once it is over and
its seat left, once its day is over, and a practice one once nobody is at it for ``LEFT_AFTER``.  Nobody watches
a challenge table (a watcher could play the same deals later): its codes find nothing; only its seat's token
does.
"""

from __future__ import annotations

import asyncio
import datetime
import hmac
import sqlite3
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from aiohttp import web

from ...bots.base import BotError
from ...engine.observation import observe
from ...engine.record import GameRecord
from ...engine.reducer import legal_actions, reduce
from ...engine.rules import preset_name
from ...engine.state import new_game
from ...i18n.language import _
from ...keep.field import FieldBook, standings
from ...keep.meta import CHALLENGE_HANDS, RecordMeta, game_id_of, hands_scored
from ...keep.slots import Slot, SlotDirectory
from ...keep.storage import StorageError
from ...session import loop
from ...session.challenge import EARLIEST, ITERATIONS, ChallengeCode, ChallengeError, margins, utc_today
from ..host.challenge import EXPERT_SEAT, FIELD_KEY, PLAYER_SEAT, ChallengeHost, ServerChallenge
from ..host.experts import ExpertPool
from ..host.sockets import hash_token, log, refuse
from ..host.table import TableHost
from ..wire import protocol as p
from ..wire import reasons as r
from ..wire.shuffle import FairDealer
from .rated import answer_once

if TYPE_CHECKING:
    from .rated import RatedDesk, Serve

CHALLENGE_GAMES = "challenge-games"  # the challenge tables' games, beside the tables' (never restored as tables)
WORKERS = 1  # --challenge-workers: the expert's decisions at once
PER_ADDRESS = 3  # challenge tables one address holds at once
MAX_TABLES = 200  # challenge tables at once
LEFT_AFTER = 30 * 60.0  # seconds a challenge table nobody is at is kept (its player may come back with the key)
MAX_LISTED = 200  # entries in a standings frame (``count`` says how many there are)


class ChallengeDesk:
    def __init__(self, rated: RatedDesk, secret: bytes, slots: Optional[SlotDirectory], *, workers: int = WORKERS,
                 iterations: int = ITERATIONS, clock: Callable[[], float] = time.time,
                 today: Callable[[], datetime.date] = utc_today, pool: Optional[ExpertPool] = None) -> None:
        self.rated = rated
        self.book = FieldBook(rated.store.conn)
        self.secret = secret
        self.slots = slots
        self.iterations = iterations
        self.pool = pool or ExpertPool(workers, iterations)
        self.clock, self.today = clock, today
        self.tables: list[ChallengeHost] = []
        self._pars: dict[str, asyncio.Task[None]] = {}
        self._closing: set[asyncio.Future[None]] = set()
        rated.challenges = self

    def challenge(self, preset: object = None, day: Optional[datetime.date] = None) -> ServerChallenge | str:
        found = "standard" if preset is None else preset_name(preset) if isinstance(preset, str) else None
        if found is None:
            return "'preset' names no preset"
        return ServerChallenge(ChallengeCode(day or self.today(), found), self.secret)

    # ------------------------------------------------------------ first frames

    async def take(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str, serve: Serve) -> None:
        if data.get("type") == "standings":
            await answer_once(ws, self.standings_reply(data, address))
            return
        seated = self.seat(data, address)
        if isinstance(seated, str):
            await refuse(ws, seated)
            return
        await serve(seated, ws, {"type": "rejoin", "protocol": p.PROTOCOL, "token": seated.seat_token}, address)

    def seat(self, data: dict[str, Any], address: str) -> ChallengeHost | str:
        """The table a ``challenge`` frame sits at (this player's unfinished entry, or a new one), or why none."""
        self.sweep()
        player = None
        if data.get("key") is not None:
            found = self.rated.player_of(data, address)
            if isinstance(found, str):
                return found
            player = found
        challenge = self.challenge(data.get("preset"))
        if isinstance(challenge, str):
            return challenge
        code = challenge.code
        entered = player is not None and self.book.entry(code.day.isoformat(), code.preset, player.id) is not None
        if player is not None and not entered:
            for host in self.tables:
                if host.player == player.id and not host.practice and str(host.challenge) == str(code) \
                        and not host.done.is_set() and host.seat_token is not None:
                    return host
        if sum(1 for t in self.tables if t.creator == address and not t.done.is_set()) >= PER_ADDRESS:
            return r.CHALLENGES_PER_ADDRESS.format(count=PER_ADDRESS)
        if len(self.tables) >= MAX_TABLES:
            return r.CHALLENGES_FULL
        name = player.name if player is not None else p.clean_name(data.get("name"), "Guest")
        # A registered player's entry has a seat token the server can make again (its secret, the day, the player):
        # a restarted server seats them at the same table with their key alone.
        token = challenge.seat_token(player.id) if player is not None and not entered else p.new_token()
        host = ChallengeHost(challenge, self.pool, name, player=player.id if player is not None else None,
                             practice=player is None or entered, token=token, slots=self.slots)
        host.creator = address
        host.opened_at = host.last_seen = self.clock()
        host.finishing = self.finished
        self.tables.append(host)
        self.start_par(challenge)
        return host

    def restore(self) -> list[str]:
        """Today's challenges not finished when the server stopped (kill -9 included), each at its table again: a
        registered player's taken back with the key, anyone's with its seat's token.  Those of a day gone by are
        moved to the finished games.  What could not be read is said, one line each."""
        said: list[str] = []
        if self.slots is None:
            return said
        listing = self.slots.scan()
        said += listing.messages
        for opened in self.slots.open_unfinished(listing.games, "A challenge's game"):
            if isinstance(opened, str):
                said.append(opened)
                continue
            slot, record = opened
            path = slot.path
            host = self._resumed(record, slot)
            if isinstance(host, str):
                slot.release()
                if host:
                    said.append(_("A challenge's game was not resumed ({file}): {problem}").format(file=path.name,
                                                                                                   problem=host))
                self.slots.keep_finished(path)
                continue
            self.tables.append(host)
            said.append(_("The challenge {challenge} of {player} goes on.").format(
                challenge=host.challenge, player=host.players()[PLAYER_SEAT].name))
        return said

    def _resumed(self, record: GameRecord, slot: Slot) -> ChallengeHost | str:
        """The table of a challenge's ``record``, or why not ("": a day gone by, nothing to say)."""
        field = dict(record.metadata).get(FIELD_KEY)
        try:
            code = ChallengeCode.read(RecordMeta.of(record).challenge or "")
        except ChallengeError:
            return "it names no challenge"
        if code.day != self.today():
            return ""
        player = field.get("player") if isinstance(field, dict) else None
        practice = not isinstance(field, dict) or field.get("practice") is not False
        if player is not None and type(player) is not int:
            return "it names no player"
        challenge = ServerChallenge(code, self.secret)
        token = challenge.seat_token(player) if player is not None and not practice else None
        name = record.players[PLAYER_SEAT].name if record.players is not None else "Guest"
        try:
            host = ChallengeHost(challenge, self.pool, name, player=player, practice=practice, token=token,
                                 record=record, slot=slot)
        except (StorageError, ValueError) as exc:
            return str(exc)
        host.finishing = self.finished
        host.opened_at = host.last_seen = self.clock()
        return host

    def find(self, data: dict[str, Any]) -> Optional[TableHost]:
        """The challenge table whose seat's token a ``rejoin`` carries (a client coming back by itself)."""
        token = data.get("token")
        if data.get("type") != "rejoin" or not isinstance(token, str):
            return None
        wanted = hash_token(token)
        return next((t for t in self.tables if t.token_hash is not None and hmac.compare_digest(wanted, t.token_hash)),
                    None)

    def sweep(self) -> None:
        """Tables over whose seat left, practice nobody is at for ``LEFT_AFTER``, and those of a day gone by are let
        go (a registered player's unfinished entry waits for them until its day ends); an unfinished one's game
        goes to the finished games, never to be set up again."""
        now, today = self.clock(), self.today()
        for host in list(self.tables):
            here = host.connected[host.remote]
            if here:
                host.last_seen = now
            entry = host.player is not None and not host.practice
            if (host.done.is_set() and not here) or (not entry and now - host.last_seen >= LEFT_AFTER) \
                    or host.challenge.code.day != today:
                self._let_go(host)

    def _let_go(self, host: ChallengeHost) -> None:
        self.tables.remove(host)
        for link in host.links.values():
            if link.ws is not None and not link.ws.closed:
                self._closing.add(task := asyncio.ensure_future(refuse(link.ws, r.CHALLENGE_OVER)))
                task.add_done_callback(self._closing.discard)
        path = host.slot.path if host.slot is not None and not host.done.is_set() else None
        host.close()
        if path is not None and self.slots is not None:
            self.slots.keep_finished(path)

    # ------------------------------------------------------------ the end of an entry

    def finished(self, host: ChallengeHost) -> None:
        """A challenge's four hands are scored: the entry kept (a registered player's first of the day), then the
        standings sent to its seat, before the table's ``over``."""
        session = host.game
        if session is None or session.forfeit is not None or not hands_scored(session.state):
            return
        code = host.challenge.code
        day, hands = code.day.isoformat(), margins(session.state.history, PLAYER_SEAT)[:CHALLENGE_HANDS]
        name = host.players()[PLAYER_SEAT].name
        kept = False
        if host.player is not None and not host.practice:
            try:
                kept = self.book.add_entry(day, code.preset, host.player, name, hands, self.clock(),
                                           game_id_of(session.store.record))
            except sqlite3.Error as exc:  # said; the player hears the standings as practice
                log.warning("A challenge entry of %s could not be kept: %s", day, exc)
            if kept:
                log.info("Challenge %s: player %d's entry kept (%s).", code, host.player, list(hands))
        frame = self.standings_frame(code, you=host.player if kept else None, mine=None if kept else (name, hands))
        host.connections.send(frame, host.remote)
        self.start_par(host.challenge)  # a restarted server's: not computed yet, or cut short

    # ------------------------------------------------------------ standings

    def standings_frame(self, code: ChallengeCode, *, you: Optional[int], mine: Optional[tuple[str, tuple[int, ...]]]
                        = None, with_hands: bool = True) -> dict[str, Any]:
        """The ``standings`` of ``code``: its entries (and ``mine``, a practice play, as one more) scored."""
        day = code.day.isoformat()
        entries = self.book.entries(day, code.preset)
        if mine is not None:
            entries.append((f"{mine[0]} (practice)", mine[1], -1))
            you = -1
        par = self.book.par(day, code.preset)
        rows = standings(entries, par)
        me = next((r for r in rows if you is not None and r.player == you), None)
        return {"type": "standings", "date": day, "preset": code.preset, "count": len(rows), "par": par is not None,
                "entries": [r.to_json(you, with_hands) for r in rows[:MAX_LISTED]],
                "you": me.to_json(you) if me is not None else None, "practice": mine is not None}

    def standings_reply(self, data: dict[str, Any], address: str) -> dict[str, Any]:
        """The answer to ``standings`` (``date``, default today; ``preset``; ``key``: your line marked).  Today's
        margins go only to a player who has finished their entry: they say something of deals still to play."""
        today = self.today()
        raw = data.get("date")
        try:
            day = today if raw is None else datetime.date.fromisoformat(raw if isinstance(raw, str) else "")
        except ValueError:
            return p.error("'date' is a date, YYYY-MM-DD")
        if not EARLIEST <= day <= today:
            return p.error(f"there are standings from {EARLIEST.isoformat()} to today ({today.isoformat()}, UTC)")
        you = None
        if data.get("key") is not None:
            found = self.rated.player_of(data, address)
            if isinstance(found, str):
                return p.error(found)
            you = found.id
        challenge = self.challenge(data.get("preset"), day)
        if isinstance(challenge, str):
            return p.error(challenge)
        code = challenge.code
        entered = you is not None and self.book.entry(day.isoformat(), code.preset, you) is not None
        return self.standings_frame(code, you=you, with_hands=day < today or entered)

    # ------------------------------------------------------------ the par

    def start_par(self, challenge: ServerChallenge) -> None:
        code = challenge.code
        key = str(code)
        running = self._pars.get(key)
        if (running is not None and not running.done()) or self.book.par(code.day.isoformat(), code.preset):
            return
        self._pars[key] = asyncio.ensure_future(self._par(challenge))

    async def _par(self, challenge: ServerChallenge) -> None:
        """The expert in both seats on the day's stocks, decision by decision in the pool's line."""
        code = challenge.code
        rules = code.rules
        state = new_game(rules, challenge.first)
        dealer = FairDealer()
        dealer.keys.update(challenge.keys)
        seeds = {EXPERT_SEAT: challenge.bot_seed(EXPERT_SEAT), PLAYER_SEAT: challenge.bot_seed(PLAYER_SEAT)}
        try:
            while True:
                state = loop.run(state, dealer, stop=hands_scored)  # the chance due, to the next decision
                if hands_scored(state):
                    break
                seat = state.to_act
                if seat is None:
                    raise BotError(f"the par's game stopped in {state.phase.value}")
                action = await self.pool.decide(seeds[seat], seat, rules, observe(state, seat), legal_actions(state))
                state = reduce(state, action)
            par = margins(state.history, PLAYER_SEAT)[:CHALLENGE_HANDS]
            self.book.set_par(code.day.isoformat(), code.preset, self.iterations, par)
            log.info("Challenge %s: the par is %s.", code, list(par))
        except (BotError, ChallengeError, sqlite3.Error, ValueError) as exc:  # computed again at the next start
            log.warning("The par of challenge %s could not be computed now: %s", code, exc)

    def close(self) -> None:
        for task in self._pars.values():
            task.cancel()
        for host in self.tables:
            host.close()
        self.tables.clear()
        self.pool.close()
