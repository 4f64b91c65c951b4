"""A seat at a network table (table-protocol.md): the connection, the seat's view, the shuffle check.

``TableClient`` joins (or, with its token, rejoins) a table, answers each ``commit`` with a fresh
nonce, keeps the latest ``update`` as a ``SeatView`` for the screens and checks every ``reveal``
against what its seat saw (``shuffle.reconstruct_hand``): "shuffle verified", or a plain warning.
The hand rebuilt from the reveal is also what the client's review of the hand is solved from.

Its seat (address, token, and each hand's commitment and nonce) lives in a small JSON file in
the user data directory, written atomically, so ``join`` again (or the start screen) takes it back.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import secrets
import ssl
import time
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import aiohttp

from ..bots.protocol import ProtocolError, observation_from_json, player_action_from_json
from ..engine.actions import PlayerAction
from ..engine.errors import RecordError
from ..engine.observation import Observation
from ..engine.record import GameRecord, PlayerInfo, parse_record, replay
from ..engine.reducer import trick_winner
from ..engine.rules import Rules
from ..engine.state import GameState, Phase, new_game
from ..keep.meta import RecordMeta, with_meta
from ..keep.outcome import Outcome, Termination, rules_outcome
from ..keep.slots import FINISHED_DIR, GAMES_DIR
from ..keep.storage import StorageError, atomic_write_text, private_dir
from ..session.view import HandResult, SeatView, hand_from_json, quick_advice
from ..solver.analysis import HandReview, review_hand
from . import protocol as p
from .seats import SEATS_DIR, SeatFile, load_seat, others_of
from .shuffle import NONCE_BYTES, ShuffleMismatch, hand_key, reconstruct_hand, verify_secret


class TableError(Exception):
    """The table cannot be reached or refused the seat; the reason in plain words."""


class TableRefused(TableError):
    """The table answered and refused the seat (a wrong code, an unknown token): trying again will not help."""


RETRY_FIRST = 1.0  # seconds before the first try to reconnect; each next wait doubles ...
RETRY_MAX = 60.0  # ... up to a minute apart


def table_url(address: str) -> str:
    """``ADDR:PORT``, ``ws://ADDR:PORT`` or ``wss://ADDR:PORT`` as the table's WebSocket URL."""
    text = address.strip()
    if "://" not in text:
        text = "ws://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("ws", "wss") or not parts.hostname or parts.port is None:
        raise TableError(f"not a table address: {address!r} (expected ADDR:PORT, or wss://ADDR:PORT)")
    return f"{parts.scheme}://{parts.netloc}{p.PATH}"


class TableClient:
    """One seat.  ``on_change()`` is called after every message that changed what the seat shows."""

    def __init__(self, url: str, *, code: Optional[str] = None, name: str = "Guest",
                 seat_file: Optional[Path] = None, insecure: bool = False,
                 on_change: Callable[[], None] = lambda: None, watch: Optional[str] = None,
                 create: Optional[tuple[Rules, Optional[int]]] = None) -> None:
        self.url = url
        self.code = code
        self.watch_code = watch  # a watcher: the public view only, no seat
        self.create = create  # at a server: open a table there (its rules, who drafts first) and sit at seat 0
        self.watching = False
        self.chat: list[tuple[str, str]] = []  # (name, line) said at the table, newest last
        self.invite: Optional[tuple[str, str]] = None  # the table's (join code, watch code), from the welcome
        self.name = p.clean_name(name, "Guest")
        self.seat_path = seat_file
        self.insecure = insecure
        self.on_change = on_change
        self.headers: dict[str, str] = {}  # sent with the handshake (a served tab's own, see cli/webserver.py)
        self.saved: Optional[SeatFile] = load_seat(seat_file) if seat_file is not None and code is None else None
        self.seat: Optional[int] = self.saved.seat if self.saved is not None else None
        self.players: Optional[tuple[PlayerInfo, PlayerInfo]] = None
        self.rules: Optional[Rules] = None
        self.at = 0
        self.observation: Optional[Observation] = None
        self.legal: tuple[PlayerAction, ...] = ()
        self.hands: tuple[HandResult, ...] = ()
        self.connected: tuple[bool, bool] = (False, False)  # as the host says, from the first update on
        self._met: set[int] = set()  # seats seen connected: coming again is "back", the first time "sat down"
        self._updated = False  # an update came since the last welcome
        self.outcome: Optional[Outcome] = None
        self.record: Optional[GameRecord] = None
        self.errors: list[str] = []  # the host's error messages, newest last
        self.closed_reason: Optional[str] = None
        self.link_up = False  # our own connection to the host
        self.notices: list[str] = []  # things to tell the player once (a late nonce, a failed check)
        self.reviews: dict[int, HandReview] = {}
        self.rebuilt: dict[int, GameRecord] = {}  # each revealed hand as a record of its own, for the review
        self._seen: dict[int, dict[int, Observation]] = {}  # by hand, by record length: what the seat saw
        self._final: dict[int, tuple[int, Observation]] = {}  # by hand: (record length, observation) once scored
        self._late: set[int] = set()  # hands the host said were shuffled without our nonce
        self._ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self._session: Optional[aiohttp.ClientSession] = None
        self._tasks: set[asyncio.Future[bool]] = set()
        self.welcomed = asyncio.Event()
        self.finished = asyncio.Event()
        self.connections = 0  # welcomes so far: a new one is a reconnect, where a choice unanswered is asked again
        self.retry: Optional[tuple[int, float]] = None  # (try, seconds to it) while reconnecting by itself
        self.gave_up: Optional[str] = None  # why it stopped trying (the table refused the seat)
        self.events: list[str] = []  # what happened at the table, one line each (sat down, scored, left, back, over)
        self._stopping = asyncio.Event()

    # ------------------------------------------------------------ the seat file

    @property
    def file(self) -> SeatFile:
        if self.saved is None:
            raise TableError("no seat yet")
        return self.saved

    def _save(self) -> None:
        if self.seat_path is None or self.saved is None:
            return
        try:
            private_dir(self.seat_path.parent)
            atomic_write_text(self.seat_path, json.dumps(self.saved.to_json()))
        except (OSError, StorageError) as exc:
            self.notices.append(f"Your seat could not be saved ({exc}); if this window closes, join with the code "
                                "again is not possible.")

    def _forget_others(self) -> None:
        """One seat per table game: the same game's seat kept for another address (the host moved) goes."""
        path, saved = self.seat_path, self.saved
        if path is None or saved is None or saved.code is None or path.parent.name != SEATS_DIR:
            return
        for other in others_of(path.parent.parent, path, saved.code):
            other.unlink(missing_ok=True)

    def _abandoned(self) -> None:
        """The table no longer knows this seat (its game was ended or deleted there): not listed any more."""
        if self.saved is not None and not self.saved.over:
            self.saved.over = True
            self._save()

    @property
    def verified(self) -> dict[int, Optional[str]]:
        return self.saved.verified if self.saved is not None else {}

    # ------------------------------------------------------------ the connection

    async def connect(self) -> None:
        """Connect and take the seat (join with the code, or rejoin with the saved token); TableError if not."""
        ssl_context: Any = True  # aiohttp's default checks
        if self.url.startswith("wss://"):
            ssl_context = ssl.create_default_context()
            if self.insecure:
                ssl_context.check_hostname = False
                ssl_context.verify_mode = ssl.CERT_NONE
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, connect=10))
        try:
            self._ws = await self._session.ws_connect(self.url, max_msg_size=p.READ_LIMIT, heartbeat=20,
                                                      ssl=ssl_context, headers=self.headers)
        except aiohttp.WSServerHandshakeError as exc:
            await self.close()
            raise TableError(f"{self.url} is not a spades-tui table (it answered HTTP {exc.status})") from None
        except aiohttp.ClientConnectorCertificateError as exc:
            await self.close()
            raise TableError(f"the table's certificate is not trusted ({exc.certificate_error}); for a self-signed "
                             "certificate you trust, add --insecure") from None
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            await self.close()
            raise TableError(f"cannot reach the table at {self.url}: {exc or type(exc).__name__}") from None
        if self.watch_code is not None:
            first = {"type": "watch", "protocol": p.PROTOCOL, "code": self.watch_code, "name": self.name}
        elif self.code is not None:
            first = {"type": "join", "protocol": p.PROTOCOL, "code": self.code, "name": self.name}
        elif self.create is not None and self.saved is None:
            rules, drafts_first = self.create
            first = {"type": "create", "protocol": p.PROTOCOL, "name": self.name, "rules": rules.to_json(),
                     "first": drafts_first}
        elif self.saved is not None:
            first = {"type": "rejoin", "protocol": p.PROTOCOL, "token": self.saved.token}
        else:
            await self.close()
            raise TableError("no code and no saved seat for that table")
        await self._ws.send_str(p.dumps(first))
        self.link_up = True
        message = await self._receive_one()
        if message is None or message.get("type") not in ("welcome", "watching"):
            reason = message.get("reason") if message is not None and message.get("type") == "error" else None
            await self.close()
            if reason and "unknown seat token" in str(reason):
                self._abandoned()
            if reason:
                raise TableRefused(f"the table refused the seat: {p.clean_name(reason, 'refused', limit=300)}")
            raise TableError("the table closed the connection (not a spades-tui table?)")
        self._handle(message)

    async def _receive_one(self) -> Optional[dict[str, Any]]:
        assert self._ws is not None
        try:
            msg = await self._ws.receive()
        except (TimeoutError, aiohttp.ClientError, OSError):
            return None
        if msg.type is not aiohttp.WSMsgType.TEXT:
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                reason = self._ws.close_code
                self.closed_reason = f"the connection was closed ({reason})" if reason else "the connection dropped"
            return None
        try:
            data = json.loads(msg.data)
        except ValueError:
            return {"type": "error", "reason": "the host sent a frame that is not JSON"}
        return data if isinstance(data, dict) else {"type": "error", "reason": "the host sent a frame that is not "
                                                                               "an object"}

    async def listen(self) -> None:
        """Handle messages until the connection ends (the game over, or the link dropped)."""
        try:
            while self._ws is not None and not self._ws.closed:
                message = await self._receive_one()
                if message is None:
                    break
                self._handle(message)
        finally:
            self.link_up = False
            await self.close()
            self.on_change()

    async def keep(self) -> None:
        """Connect, listen, and while the game is not over, when the link drops take the seat back by itself
        at growing intervals (up to a minute apart) until it is back, the table refuses the seat, or
        ``stop``.  The first connection's TableError is raised: a wrong invite is said at once."""
        if self._ws is None:
            await self.connect()
        while True:
            await self.listen()
            if self.outcome is not None or self._stopping.is_set():
                return
            attempt = 0
            while not self._stopping.is_set():
                attempt += 1
                delay = min(RETRY_MAX, RETRY_FIRST * 2 ** min(attempt - 1, 10))
                self.retry = (attempt, delay)
                self.event(f"Lost the table ({self.closed_reason or 'the connection dropped'}): trying again in "
                           f"{delay:g} s (try {attempt}).")
                self.on_change()
                try:  # waiting for the next try, or for the player to leave
                    await asyncio.wait_for(self._stopping.wait(), delay)
                    return
                except TimeoutError:
                    pass
                try:
                    await self.connect()
                except TableRefused as exc:
                    self.gave_up, self.retry = str(exc), None
                    self.event(f"Stopped trying: {exc}.")
                    self.on_change()
                    return
                except TableError:
                    continue
                break
            self.retry = None

    async def stop(self) -> None:
        """The player leaves the table: no more tries, the connection closed."""
        self._stopping.set()
        await self.close()

    def event(self, line: str) -> None:
        self.events.append(line)

    async def close(self) -> None:
        ws, session = self._ws, self._session
        self._ws, self._session = None, None
        if ws is not None:
            await ws.close()
        if session is not None:
            await session.close()

    async def send(self, message: dict[str, Any]) -> bool:
        ws = self._ws
        if ws is None or ws.closed:
            return False
        try:
            await ws.send_str(p.dumps(message))
        except (aiohttp.ClientError, ConnectionError, RuntimeError):
            return False
        return True

    async def act(self, action: PlayerAction) -> bool:
        """Send a decision for the position now; False if the link is down (nothing sent)."""
        return await self.send({"type": "act", "at": self.at, "action": action.to_json()})

    # ------------------------------------------------------------ messages

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        try:
            if kind == "welcome":
                self._welcome(message)
            elif kind == "watching":
                self._watching(message)
            elif kind == "said":
                self._said(message)
            elif kind == "commit":
                self._commit(message)
            elif kind == "update":
                self._update(message)
            elif kind == "reveal":
                self._reveal(message)
            elif kind == "over":
                self._over(message)
            elif kind == "error":
                reason = p.clean_name(message.get("reason"), "an error", limit=300)
                self.errors.append(reason)
                if "without yours" in reason:
                    self._late.add(len(self.hands) + 1)
                    self.notices.append(f"The host says: {reason}")
        except (ProtocolError, KeyError, TypeError, ValueError, IndexError, RecordError) as exc:
            self.errors.append(f"the host sent a message this client cannot read ({type(exc).__name__})")
        self.on_change()

    def _welcome(self, m: dict[str, Any]) -> None:
        seat = m["seat"]
        if seat not in (0, 1) or type(seat) is bool:
            raise ValueError("bad seat")
        players = m["players"]
        infos = tuple(PlayerInfo(p.clean_name(pl.get("name"), f"Player {i + 1}"), str(pl.get("kind", "human"))[:40])
                      for i, pl in enumerate(players[:2]))
        if len(infos) != 2:
            raise ValueError("two players")
        self.players = (infos[0], infos[1])
        self.rules = Rules.from_json(m["rules"])
        self.seat = seat
        token = m["token"]
        if not isinstance(token, str):
            raise ValueError("bad token")
        old = self.saved
        code, watch = m.get("code"), m.get("watch")
        code = code[:40] if isinstance(code, str) else self.code or (old.code if old is not None else None)
        if code is not None and isinstance(watch, str):
            self.invite = (p.clean_name(code, "", limit=40), p.clean_name(watch, "", limit=40))
        self.saved = SeatFile(self.url, token, seat, (infos[0].name, infos[1].name), code=code, played=time.time())
        if old is not None and old.token == token:
            self.saved.commitments, self.saved.nonces, self.saved.verified = old.commitments, old.nonces, old.verified
            self.saved.scores, self.saved.hand = old.scores, old.hand
        self._save()
        self._forget_others()
        self.code = None  # the seat is ours: a reconnect takes it back with the token
        self._updated = False
        self.connections += 1
        me = infos[seat].name
        self.event(f"Sat down at the table as {me}." if self.connections == 1 else "Back at the table.")
        self.welcomed.set()

    def invite_lines(self) -> Optional[str]:
        """The invite to pass on (and the watch line), once the table's codes came in the welcome."""
        if self.invite is None:
            return None
        where = self.url.removesuffix(p.PATH)
        where = where.removeprefix("ws://") if where.startswith("ws://") else where
        code, watch = self.invite
        return f"spades-tui join {where} {code}\nTo watch: spades-tui watch {where} {watch}"

    def _watching(self, m: dict[str, Any]) -> None:
        players = m["players"]
        infos = tuple(PlayerInfo(p.clean_name(pl.get("name"), f"Player {i + 1}"), "remote")
                      for i, pl in enumerate(players[:2]))
        if len(infos) != 2:
            raise ValueError("two players")
        self.players = (infos[0], infos[1])
        self.rules = Rules.from_json(m["rules"])
        self.watching, self.seat = True, None
        self._updated = False
        self.connections += 1
        self.event(f"Watching {infos[0].name} and {infos[1].name}." if self.connections == 1 else "Back at the table.")
        self.welcomed.set()

    def _said(self, m: dict[str, Any]) -> None:
        line, _ = p.clean_said(m.get("text"))  # cleaned by the host, and again here: it is hostile text
        if line is None:
            return
        name = p.clean_name(m.get("name"), "Someone")
        self.chat.append((name, line))
        del self.chat[:-p.CHAT_KEPT]

    async def say(self, text: str) -> Optional[str]:
        """A line to the table; why not, in words, when it cannot be sent (the host's refusal comes as an error)."""
        if self.watching:
            return "watchers read but do not say"
        line, problem = p.clean_said(text)
        if line is None:
            return problem
        if not await self.send({"type": "say", "text": line}):
            return "not connected: the line was not sent"
        return None

    def _commit(self, m: dict[str, Any]) -> None:
        hand, commit = p.whole(m.get("hand")), m.get("commitment")
        if hand is None or not isinstance(commit, str) or len(commit) != 64:
            raise ValueError("bad commit")
        seat = self.file
        if seat.commitments.get(hand, commit) != commit:
            # A host that changes its commitment for a hand not dealt yet (it restarted before the nonces):
            # the new one counts, and our new nonce with it.
            seat.nonces.pop(hand, None)
        seat.commitments[hand] = commit
        nonce = seat.nonces.get(hand) or secrets.token_bytes(NONCE_BYTES).hex()
        seat.nonces[hand] = nonce
        self._save()  # before it is sent: a client that restarts checks the reveal with the nonce it sent
        self._tasks.add(task := asyncio.ensure_future(self.send({"type": "nonce", "hand": hand, "nonce": nonce})))
        task.add_done_callback(self._tasks.discard)

    def _update(self, m: dict[str, Any]) -> None:
        at = p.whole(m.get("at"))
        if at is None:
            raise ValueError("bad at")
        raw = m["observation"]
        if self.watching:  # the public view: no seat, no hand, no drawn card, no discards
            if not isinstance(raw, dict) or raw.get("seat") is not None or raw.get("hand") or raw.get("drawn"):
                raise ProtocolError("a watcher's update holds a seat's own cards")
            raw = {**raw, "seat": 0, "seen_discards": []}
        obs = observation_from_json(raw)
        if self.seat is not None and obs.seat != self.seat:
            raise ProtocolError("an observation of another seat")
        legal = tuple(player_action_from_json(a) for a in m["legal"])
        hands = tuple(hand_from_json(h) for h in m["hands"])
        connected = m["connected"]
        names = m.get("players")
        if self.players is not None and isinstance(names, list) and len(names) == 2:
            self.players = (dataclasses.replace(self.players[0], name=p.clean_name(names[0], self.players[0].name)),
                            dataclasses.replace(self.players[1], name=p.clean_name(names[1], self.players[1].name)))
        before_hands, before_connected = len(self.hands), self.connected
        self.at, self.observation, self.legal, self.hands = at, obs, legal, hands
        self.connected = (bool(connected[0]), bool(connected[1]))
        self._tell(before_hands, before_connected)
        self._updated = True
        saved = self.saved
        names_now = (self.players[0].name, self.players[1].name) if self.players is not None else None
        if saved is not None and (saved.scores, saved.hand, saved.names) != (obs.scores, obs.hand_number,
                                                                             names_now or saved.names):
            saved.scores, saved.hand, saved.played = obs.scores, obs.hand_number, time.time()
            saved.names = names_now or saved.names
            self._save()  # the start screen's line: the score, the hand, when last played
        if obs.hand_number > 0:
            if obs.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and len(hands) >= obs.hand_number:
                self._final.setdefault(obs.hand_number, (at, obs))
            else:
                self._seen.setdefault(obs.hand_number, {})[at] = obs

    def _tell(self, before_hands: int, before_connected: tuple[bool, bool]) -> None:
        """The events an update brings: the other seat left or is back, a hand scored."""
        if self.players is None:
            return
        for other in (0, 1) if self.seat is None else (1 - self.seat,):
            name = self.players[other].name
            # The first update after a welcome tells how the table is, not that anything happened.
            if before_connected[other] != self.connected[other] and self.link_up and self._updated:
                if not self.connected[other]:
                    self.event(f"{name} left the table (disconnected).")
                else:
                    self.event(f"{name} is back at the table." if other in self._met else f"{name} sat down.")
            if self.connected[other]:
                self._met.add(other)
        names = [pl.name for pl in self.players]
        for number in range(before_hands + 1, len(self.hands) + 1):
            result = self.hands[number - 1]
            points = ", ".join(f"{names[s]} {result.points[s]:+d}" for s in (0, 1))
            after = result.scores_after
            self.event(f"Hand {number} scored: {points} (score {after[0]}-{after[1]}).")

    def _reveal(self, m: dict[str, Any]) -> None:
        hand = p.whole(m.get("hand"))
        secret_hex, nonces_raw = m.get("secret"), m.get("nonces")
        if hand is None or not isinstance(secret_hex, str) or not isinstance(nonces_raw, list) or len(nonces_raw) != 2:
            raise ValueError("bad reveal")
        if self.watching:
            return  # a watcher saw no card of its own: there is nothing of its to check
        secret = bytes.fromhex(secret_hex)
        nonces = tuple(None if n is None else bytes.fromhex(n) for n in nonces_raw)
        if self.saved is not None and hand in self.saved.verified and self.saved.verified[hand] is None \
                and hand in self.rebuilt:
            return  # seen already
        problem = self._check(hand, secret, (nonces[0], nonces[1]))
        if self.saved is not None:
            earlier = self.saved.verified.get(hand)
            # A warning stays: a reveal sent again after a restart is checked with less seen, never more.
            self.saved.verified[hand] = earlier if earlier is not None else problem
            self._save()
        if problem is not None:
            self.notices.append(f"WARNING: hand {hand}: {problem}")

    def _check(self, hand: int, secret: bytes, nonces: tuple[Optional[bytes], Optional[bytes]]) -> Optional[str]:
        """None if the reveal gives every card this seat saw, else what is wrong, in words."""
        seat = self.seat
        if self.saved is None or seat is None or self.rules is None:
            return "the shuffle could not be checked (no seat)"
        commit = self.saved.commitments.get(hand)
        if commit is None:
            return "the shuffle could not be checked: its commitment never came"
        if not verify_secret(commit, secret):
            return "the host revealed a secret other than the one it committed to: the cards may have been chosen"
        mine = self.saved.nonces.get(hand)
        given = nonces[seat]
        if given is None:
            if hand not in self._late:
                return "the host shuffled without your nonce and did not say so"
        elif mine is None or given.hex() != mine:
            return "the host used a nonce other than yours: it could have chosen the cards"
        final = self._final.get(hand)
        if final is None:
            return "the shuffle could not be checked: the end of the hand was not seen"
        end_at, final_obs = final
        if len(self.hands) < hand:
            return "the shuffle could not be checked: the hand's result was not seen"
        final_obs = dataclasses.replace(final_obs, first_drafter=self.hands[hand - 1].first_drafter)
        key = hand_key(secret, nonces)
        try:
            rebuilt = reconstruct_hand(self.rules, seat, final_obs, {}, key)
            start = end_at - len(rebuilt.actions)
            seen = {at - start: obs for at, obs in self._seen.get(hand, {}).items()}
            rebuilt = reconstruct_hand(self.rules, seat, final_obs, seen, key)
        except ShuffleMismatch as exc:
            return f"the host dealt cards other than those it committed to: {exc}"
        players = self.players
        self.rebuilt[hand] = GameRecord(self.rules, rebuilt.first_drafter, players, rebuilt.actions)
        return None

    def _over(self, m: dict[str, Any]) -> None:
        scores, winner = m.get("scores"), m.get("winner")
        record: Optional[GameRecord] = None
        try:
            record = parse_record(m.get("record"))
        except RecordError:
            self.errors.append("the final record could not be read")
        forfeit = RecordMeta.of(record).forfeit if record is not None else None
        if not (isinstance(scores, list) and len(scores) == 2 and all(type(s) is int for s in scores)):
            raise ValueError("bad scores")
        if winner not in (0, 1, None) or type(winner) is bool:
            raise ValueError("bad winner")
        pair = (int(scores[0]), int(scores[1]))
        by_rules = rules_outcome(self.rules, self.hands) if self.rules is not None and forfeit is None else None
        how = Termination.FORFEIT if forfeit else (by_rules.termination if by_rules else Termination.TARGET)
        self.outcome = Outcome(how, winner, pair, forfeit)
        self.record = record
        if self.saved is not None:
            self.saved.over = True
            self._save()
        if not self.finished.is_set() and self.players is not None:
            won = f"{self.players[winner].name} wins" if winner is not None else "a draw"
            self.event(f"Game over: {won}, {pair[0]} to {pair[1]}.")
        self.finished.set()

    # ------------------------------------------------------------ this seat's own statistics

    def stats_record(self) -> Optional[tuple[GameRecord, GameState]]:
        """The game as this person's statistics count it (their seat a person's, the other a remote player's,
        by name): the scored hands so far, the whole record once over; None before a hand was scored."""
        saved, players, rules, seat = self.saved, self.players, self.rules, self.seat
        if saved is None or players is None or rules is None or seat is None or not (self.hands or self.record):
            return None
        mine = (PlayerInfo(players[0].name, "human" if seat == 0 else "remote"),
                PlayerInfo(players[1].name, "human" if seat == 1 else "remote"))
        # Its own id: the host's statistics count the same game under theirs, on their machine.
        game_id = "table-" + hashlib.sha256(saved.token.encode()).hexdigest()[:32]
        if self.record is not None:
            full = dataclasses.replace(self.record, players=mine)
            full = with_meta(full, game_id=game_id)
            try:
                return full, replay(full)
            except (RecordError, ValueError):
                return None
        first = self.hands[0].first_drafter
        record = with_meta(GameRecord(rules, first, mine), game_id=game_id)
        last = self.hands[-1]
        state = dataclasses.replace(new_game(rules, first), history=self.hands, scores=last.scores_after,
                                    bags=last.bags_after)
        return record, state

    def keep_finished(self) -> Optional[str]:
        """The finished game's record in ``games/finished/`` of this user's data, like any finished game;
        a problem in words, or None."""
        built = self.stats_record()
        path = self.seat_path
        if built is None or self.record is None or path is None or path.parent.name != SEATS_DIR:
            return None
        target = path.parent.parent / GAMES_DIR / FINISHED_DIR / f"table-{path.stem.removeprefix('seat-')}.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, json.dumps(built[0].to_json(), ensure_ascii=False))
        except (OSError, StorageError) as exc:
            return f"The finished table game could not be kept: {exc}"
        return None

    # ------------------------------------------------------------ for the screens

    def review_job(self, hand: int) -> Optional[Callable[[], Optional[HandReview]]]:
        """What to run in the background for the review of a revealed hand (both hands, double dummy)."""
        record = self.rebuilt.get(hand)
        if record is None:
            return None

        def job() -> Optional[HandReview]:
            found = review_hand(record, 1)
            return dataclasses.replace(found, hand=hand) if found is not None else None

        return job

    def view(self, **facts: Any) -> Optional[SeatView]:
        """The seat's view now (None until the first update): the screens draw it as any other."""
        obs, seat, players = self.observation, self.seat, self.players
        if obs is None or players is None:
            return None
        if seat is None:  # a watcher: the public view, as bots among themselves are watched
            if not self.watching:
                return None
            return SeatView(None, players, obs, (), self.hands, tuple(trick_winner(t) for t in obs.tricks),
                            self.outcome, self.at, persons=(False, False), connected=self.connected, **facts)
        legal = self.legal if self.outcome is None and self.link_up else ()  # not connected: no choice offered
        outcome = self.outcome
        if outcome is None and obs.phase is Phase.GAME_OVER:
            outcome = rules_outcome(obs.rules, self.hands)  # the rule book's end (section 8), 13 tricks included
            if outcome is None:
                a, b = obs.scores
                outcome = Outcome(Termination.TARGET, None if a == b else (0 if a > b else 1), obs.scores)
        winners = tuple(trick_winner(t) for t in obs.tricks)
        default = quick_advice(obs, legal) if legal else None
        persons = (seat == 0, seat == 1)
        connected = self.connected if self.link_up else (False, False)  # ourselves too: "waiting for the table"
        return SeatView(seat, players, obs, legal, self.hands, winners, outcome, self.at, persons=persons,
                        connected=connected, default=default, **facts)


async def open_served_table(base: str, key: str, name: str, rules: Optional[Rules]) -> tuple[str, str, str]:
    """Ask ``spades-tui serve`` (at ``base``) for a table: its WebSocket URL, its code, the first seat's token."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            async with session.post(f"{base}/tables/new", headers={"X-Spades-Key": key},
                                    data=json.dumps({"name": name, "rules": rules.to_json() if rules else None})
                                    ) as response:
                if response.status != 200:
                    raise TableError(f"the server cannot open a table now ({(await response.text())[:200]})")
                data = await response.json()
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
        raise TableError(f"the server's tables cannot be reached: {exc or type(exc).__name__}") from None
    url, code, token = data.get("url"), data.get("code"), data.get("token")
    if not all(isinstance(x, str) for x in (url, code, token)):
        raise TableError("the server answered something other than a table")
    return url, code, token
