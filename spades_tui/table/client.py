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
import json
import secrets
import ssl
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import aiohttp

from ..bots.protocol import ProtocolError, observation_from_json, player_action_from_json
from ..engine.actions import PlayerAction
from ..engine.errors import RecordError
from ..engine.observation import Observation
from ..engine.record import GameRecord, PlayerInfo, parse_record
from ..engine.reducer import trick_winner
from ..engine.rules import Rules
from ..engine.state import Phase
from ..keep.meta import RecordMeta
from ..keep.outcome import Outcome, Termination, rules_outcome
from ..keep.storage import StorageError, atomic_write_text, private_dir
from ..session.view import HandResult, SeatView, draw_news, exchange_news, hand_from_json, quick_advice
from ..solver.analysis import HandReview, review_hand
from . import protocol as p
from .seats import SeatFile, load_seat
from .shuffle import NONCE_BYTES, ShuffleMismatch, hand_key, reconstruct_hand, verify_secret


class TableError(Exception):
    """The table cannot be reached or refused the seat; the reason in plain words."""


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
                 on_change: Callable[[], None] = lambda: None) -> None:
        self.url = url
        self.code = code
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
        self.connected: tuple[bool, bool] = (True, True)
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
        if self.code is not None:
            first = {"type": "join", "protocol": p.PROTOCOL, "code": self.code, "name": self.name}
        elif self.saved is not None:
            first = {"type": "rejoin", "protocol": p.PROTOCOL, "token": self.saved.token}
        else:
            await self.close()
            raise TableError("no code and no saved seat for that table")
        await self._ws.send_str(p.dumps(first))
        self.link_up = True
        message = await self._receive_one()
        if message is None or message.get("type") != "welcome":
            reason = message.get("reason") if message is not None and message.get("type") == "error" else None
            await self.close()
            raise TableError(f"the table refused the seat: {reason}" if reason
                             else "the table closed the connection (not a spades-tui table?)")
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
        self.saved = SeatFile(self.url, token, seat, (infos[0].name, infos[1].name))
        if old is not None and old.url == self.url and old.token == token:
            self.saved.commitments, self.saved.nonces, self.saved.verified = old.commitments, old.nonces, old.verified
        self._save()
        self.welcomed.set()

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
        obs = observation_from_json(m["observation"])
        if self.seat is not None and obs.seat != self.seat:
            raise ProtocolError("an observation of another seat")
        legal = tuple(player_action_from_json(a) for a in m["legal"])
        hands = tuple(hand_from_json(h) for h in m["hands"])
        connected = m["connected"]
        self.at, self.observation, self.legal, self.hands = at, obs, legal, hands
        self.connected = (bool(connected[0]), bool(connected[1]))
        if obs.hand_number > 0:
            if obs.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and len(hands) >= obs.hand_number:
                self._final.setdefault(obs.hand_number, (at, obs))
            else:
                self._seen.setdefault(obs.hand_number, {})[at] = obs

    def _reveal(self, m: dict[str, Any]) -> None:
        hand = p.whole(m.get("hand"))
        secret_hex, nonces_raw = m.get("secret"), m.get("nonces")
        if hand is None or not isinstance(secret_hex, str) or not isinstance(nonces_raw, list) or len(nonces_raw) != 2:
            raise ValueError("bad reveal")
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
        self.finished.set()

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
        if obs is None or seat is None or players is None:
            return None
        legal = self.legal if self.outcome is None else ()
        outcome = self.outcome
        if outcome is None and obs.phase is Phase.GAME_OVER:
            outcome = rules_outcome(obs.rules, self.hands)  # the rule book's end (section 8), 13 tricks included
            if outcome is None:
                a, b = obs.scores
                outcome = Outcome(Termination.TARGET, None if a == b else (0 if a > b else 1), obs.scores)
        winners = tuple(trick_winner(t) for t in obs.tricks)
        default = quick_advice(obs, legal) if legal else None
        persons = (seat == 0, seat == 1)
        connected = self.connected if self.link_up else (seat == 0, seat == 1)
        # The seat's own last draft turn and exchange, from the observations it was sent this hand (the
        # host never sends the shuffle): the same lines a local player reads.
        seen = [o for _, o in sorted(self._seen.get(obs.hand_number, {}).items())]
        news: dict[str, Any] = {}
        if obs.hand_number > 0 and obs.phase not in (Phase.SHUFFLE, Phase.GAME_OVER):
            news = dict(last_draw=draw_news(seen), last_exchange=exchange_news(seen))
        return SeatView(seat, players, obs, legal, self.hands, winners, outcome, self.at, persons=persons,
                        connected=connected, default=default, **news, **facts)


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
