"""A seat at a network table (docs/table-protocol.md): the connection, the seat's view, the shuffle check.

``TableClient`` joins (or, with its token, rejoins) a table, answers each ``commit`` with a fresh
nonce, keeps the latest ``update`` as a ``SeatView`` for the screens and checks every ``reveal``
against what its seat saw (``shuffle.reconstruct_hand``): "shuffle verified", or a plain warning.
The hand rebuilt from the reveal is also what the client's review of the hand is solved from.

It trusts nothing the host sends: no HTTP redirect is followed in the handshake (the code or token
would go to the redirect's target); every frame is read by ``frames.read`` before use, and a bad one
is said and dropped; it keeps only what the screen and the checks need (the latest update, each
unrevealed hand's observations up to a bound, the last few errors and notices); it reads frames at a
bounded rate and, under a flood, redraws at a bounded rate.  "Verified" speaks of every hand played:
a hand that was never revealed (by the next hand's ``commit`` or by ``over``) warns like a wrong one.

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
from collections import deque
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import aiohttp

from ..engine.actions import PlayerAction
from ..engine.observation import Observation
from ..engine.outcome import Outcome, Termination
from ..engine.record import GameRecord, PlayerInfo, replay
from ..engine.reducer import trick_winner
from ..engine.rulebook import rules_outcome
from ..engine.rules import Rules
from ..engine.state import GameState, Phase, new_game
from ..keep.meta import RecordMeta, with_meta
from ..keep.slots import FINISHED_DIR, GAMES_DIR
from ..keep.storage import StorageError, atomic_write_text, private_dir
from ..session.view import HandResult, SeatView, draw_news, exchange_news, quick_advice
from ..solver.analysis import HandReview, review_hand
from . import frames as f
from . import protocol as p
from .seats import SEATS_DIR, SeatFile, load_seat, others_of
from .served import TAB_HEADER
from .shuffle import NONCE_BYTES, ShuffleMismatch, hand_key, reconstruct_hand, verify_secret

MAX_HOST_FRAME = 4 * 1024 * 1024  # bytes of one host frame at most ('over' holds the whole record)
FRAME_RATE = 100.0  # host frames read a second at most, on average ...
FRAME_BURST = 400.0  # ... after a burst of this many (a whole fast game between bots stays under it)
FLOOD_REDRAW = 0.1  # seconds between redraws while the host floods
MAX_ERRORS = 20  # the host's last errors kept
MAX_NOTICES = 50  # notices kept until shown
MAX_SEEN = 400  # observations kept of one hand (a hand has fewer actions), for its check
MAX_SEEN_HANDS = 3  # unrevealed hands whose observations are kept
MAX_RECOMMITS = 3  # a hand's commitment changed before its deal (a host restarting), per connection
MAX_REBUILT = 50  # revealed hands kept for their review (a game has fewer)
WARNINGS_SHOWN = 5  # host errors and dropped frames said at once; then one a WARNING_REFILL seconds
WARNING_REFILL = 10.0
NEVER_REVEALED = "the host never revealed this hand's shuffle: it was not checked, the cards may have been chosen"
REDIRECTS = (301, 302, 303, 307, 308)
MAX_EVENTS = 200  # the table's event lines kept (the screens and --bot read them as they come)


class Redirected(aiohttp.ClientError):
    """The table's address answered the handshake with a redirect (never followed)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


async def _no_redirects(request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType) -> aiohttp.ClientResponse:
    """aiohttp's ws_connect follows a redirect by itself (it takes no allow_redirects): this session middleware
    sees each response first and stops at a redirect, so no second request (and no code or token) goes out."""
    response = await handler(request)
    if response.status in REDIRECTS:
        response.close()
        raise Redirected(response.status)
    return response


class TableError(Exception):
    """The table cannot be reached or refused the seat; the reason in plain words."""


class TableRefused(TableError):
    """The table answered and refused the seat (a wrong code, an unknown token): trying again will not help."""


RETRY_FIRST = 1.0  # seconds before the first try to reconnect; each next wait doubles ...
RETRY_MAX = 60.0  # ... up to a minute apart
QUICK_DROP = 10.0  # seconds: a connection welcomed and gone sooner was dropped "at once" ...
QUICK_DROPS = 3  # ... and this many in a row within FLAP_WINDOW are not a fresh start each: the waits go on growing
FLAP_WINDOW = 60.0


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
                 create: Optional[tuple[Rules, Optional[int]]] = None, public: bool = False,
                 retry_first: float = RETRY_FIRST, source: Optional[str] = None) -> None:
        """``public``: with ``create``, the table is listed in the server's lobby; ``retry_first``: the first wait
        before trying again (tests make it short); ``source``: the local address to connect from (a measure's
        many clients on one machine stand for many addresses, 127.0.0.0/8)."""
        self.source = source
        self.url = url
        self.public = public
        self.retry_first = retry_first
        self.code = code
        self.watch_code = watch  # a watcher: the public view only, no seat
        self.create = create  # at a server: open a table there (its rules, who drafts first) and sit at seat 0
        self.watching = False
        self.chat: deque[tuple[str, str]] = deque(maxlen=p.CHAT_KEPT)  # (name, line) said, newest last
        self.chat_count = 0  # every line said so far (the readers count what they showed)
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
        self.errors: deque[str] = deque(maxlen=MAX_ERRORS)  # the host's last error messages, newest last
        self.error_count = 0  # every one so far
        self.closed_reason: Optional[str] = None
        self.taken = False  # our seat was taken back from another window (the host said so)
        self.link_up = False  # our own connection to the host
        self.notices: deque[str] = deque(maxlen=MAX_NOTICES)  # things to tell the player once
        self.notice_count = 0  # every notice so far (the screens count what they showed)
        self.rebuilt: dict[int, GameRecord] = {}  # the last revealed hands as records of their own, for the review
        self._seen: dict[int, dict[int, Observation]] = {}  # by hand, by record length: what the seat saw
        self._final: dict[int, tuple[int, Observation]] = {}  # by hand: (record length, observation) once scored
        self._late: set[int] = set()  # hands the host said were shuffled without our nonce
        self._pending: Optional[int] = None  # the hand whose commitment we answered, until it is dealt
        self._recommits = 0  # commitments changed before a deal, on this connection
        self.dropped = 0  # host frames dropped as malformed
        self._allowance = float(WARNINGS_SHOWN)  # warnings about the host said now (then they are counted)
        self._allowance_at = time.monotonic()
        self._hushed = 0  # warnings not said since the last one said
        self._tokens = FRAME_BURST
        self._tokens_at = time.monotonic()
        self.flooded = False  # the host sends faster than a game needs: read and redrawn slower
        self._redraw: Optional[asyncio.Handle] = None
        self._redrawn = 0.0
        self._ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self._session: Optional[aiohttp.ClientSession] = None
        self._tasks: set[asyncio.Future[bool]] = set()
        self.welcomed = asyncio.Event()
        self.finished = asyncio.Event()
        self.connections = 0  # welcomes so far: a new one is a reconnect, where a choice unanswered is asked again
        self.retry: Optional[tuple[int, float]] = None  # (try, seconds to it) while reconnecting by itself
        self.gave_up: Optional[str] = None  # why it stopped trying (the table refused the seat)
        self.events: deque[str] = deque(maxlen=MAX_EVENTS)  # what happened at the table, one line each
        self.event_count = 0  # every event so far
        self.seat_news: deque[str] = deque(maxlen=MAX_EVENTS)  # of those, the other seat's: sat down, left, back
        self.seat_news_count = 0
        self._opened = False  # this seat opened the table (create, or the owner's token): it waited for the friend
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
            self.note(f"Your seat could not be saved ({exc}); if this window closes, join with the code "
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
        """Each checked hand's verdict: None verified, else the warning (never-revealed hands included)."""
        return self.saved.verified if self.saved is not None else {}

    # ------------------------------------------------------------ what the screens read

    def note(self, text: str) -> None:
        """Something to tell the player once."""
        self.notices.append(text)
        self.notice_count += 1

    def notices_since(self, count: int) -> tuple[list[str], int]:
        """The notices after the first ``count`` (those still kept), and the count now."""
        new = max(0, min(self.notice_count - count, len(self.notices)))
        return (list(self.notices)[len(self.notices) - new:] if new else []), self.notice_count

    def event(self, line: str) -> None:
        """What happened at the table (sat down, scored, left, back, over), one line."""
        self.events.append(line)
        self.event_count += 1

    def seat_news_since(self, count: int) -> tuple[list[str], int]:
        """The other seat's comings and goings after the first ``count`` (the screen says them as they come)."""
        return _since(self.seat_news, self.seat_news_count, count), self.seat_news_count

    def events_since(self, count: int) -> tuple[list[str], int]:
        """The event lines after the first ``count`` (those still kept), and the count now."""
        return _since(self.events, self.event_count, count), self.event_count

    def chat_since(self, count: int) -> tuple[list[tuple[str, str]], int]:
        """The lines said after the first ``count`` (those still kept), and the count now."""
        return _since(self.chat, self.chat_count, count), self.chat_count

    def _warn(self, text: str) -> None:
        """A warning about what the host sent: said at once up to a few, then counted and said in one line."""
        now = time.monotonic()
        self._allowance = min(float(WARNINGS_SHOWN), self._allowance + (now - self._allowance_at) / WARNING_REFILL)
        self._allowance_at = now
        if self._allowance >= 1:
            self._allowance -= 1
            if self._hushed:
                self.note(f"({self._hushed} more warnings about the host's frames were not shown)")
                self._hushed = 0
            self.note(text)
        else:
            self._hushed += 1

    def flush_warnings(self) -> None:
        """The count of warnings not said yet, said (at the end, so that none is lost unsaid)."""
        if self._hushed:
            self.note(f"({self._hushed} more warnings about the host's frames were not shown)")
            self._hushed = 0

    @property
    def played(self) -> int:
        """Hands played to their end so far, as the host's updates (or its final record) said."""
        return len(self.hands)

    def shuffle_problems(self) -> list[tuple[int, str]]:
        """(hand, what is wrong) for each hand played whose shuffle is not verified, reveals not yet due aside."""
        checks = self.verified
        return sorted((h, problem) for h, problem in checks.items() if problem is not None)

    def shuffle_summary(self) -> tuple[bool, str]:
        """Whether every hand so far is verified, and that in one sentence (the game-over screen, join --bot)."""
        checks = self.verified
        played = self.played
        bad = self.shuffle_problems()
        waiting = [h for h in range(1, played + 1) if h not in checks]
        if bad:
            never = [h for h, problem in bad if problem == NEVER_REVEALED]
            wrong = [h for h, problem in bad if problem != NEVER_REVEALED]
            parts = []
            if wrong:
                parts.append(f"hand{'s' if len(wrong) > 1 else ''} {_hands(wrong)} did not verify")
            if never:
                parts.append(f"hand{'s' if len(never) > 1 else ''} {_hands(never)} never revealed")
            return False, f"WARNING: the shuffle is NOT verified: {'; '.join(parts)}."
        if waiting:
            done = played - len(waiting)
            return False, (f"Shuffle verified for {done} of {played} hands; hand{'s' if len(waiting) > 1 else ''} "
                           f"{_hands(waiting)} not revealed yet.")
        return played > 0, (f"Shuffle verified for all {played} hand{'s' if played != 1 else ''}." if played
                            else "No hand played yet.")

    def kept(self) -> int:
        """How many things this client holds from the host now (its memory bound, for the tests)."""
        seat = self.saved
        return (len(self.errors) + len(self.notices) + sum(len(v) for v in self._seen.values()) + len(self._final)
                + len(self.rebuilt) + len(self._late) + len(self.hands)
                + (len(seat.commitments) + len(seat.nonces) + len(seat.verified) if seat is not None else 0))

    # ------------------------------------------------------------ the connection

    async def connect(self) -> None:
        """Connect and take the seat (join with the code, or rejoin with the saved token); TableError if not."""
        ssl_context: Any = True  # aiohttp's default checks
        if self.url.startswith("wss://"):
            ssl_context = ssl.create_default_context()
            if self.insecure:
                ssl_context.check_hostname = False
                ssl_context.verify_mode = ssl.CERT_NONE
        connector = aiohttp.TCPConnector(local_addr=(self.source, 0)) if self.source else None
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, connect=10),
                                              middlewares=(_no_redirects,), connector=connector)
        try:
            self._ws = await self._session.ws_connect(self.url, max_msg_size=MAX_HOST_FRAME, heartbeat=20,
                                                      ssl=ssl_context, headers=self.headers)
        except Redirected as exc:
            await self.close()
            raise TableError(f"{self.url} answered with a redirect (HTTP {exc.status}) instead of a table: not "
                             "followed, and neither your code nor your seat's token was sent") from None
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
                     "first": drafts_first, "public": self.public}
            self._opened = True
        elif self.saved is not None:
            first = {"type": "rejoin", "protocol": p.PROTOCOL, "token": self.saved.token}
            self._opened = self.saved.seat == 0 and not self.hands  # a server table's owner, coming to it
        else:
            await self.close()
            raise TableError("no code and no saved seat for that table")
        await self._ws.send_str(p.dumps(first))
        self.link_up = True
        answer: object = None
        message: Optional[dict[str, Any]] = None
        for _ in range(3):  # a malformed frame first is said and dropped, as any other
            message = await self._receive_one()
            try:
                answer = f.read(message) if message is not None else None
                break
            except f.FrameError as exc:
                self.dropped += 1
                self._warn(f"WARNING: the host sent a frame this client cannot use ({exc}); it was dropped")
        if not isinstance(answer, (f.Welcome, f.Watching)):
            reason = answer.reason if isinstance(answer, f.Error) else None  # cleaned and bounded by frames.error
            await self.close()
            if reason is not None and "unknown seat token" in reason:
                self._abandoned()
            if reason is not None and f"protocol {p.PROTOCOL}" not in reason and "protocol" in reason:
                raise TableRefused(f"the table refused the seat: {reason} (this spades-tui speaks protocol "
                                   f"{p.PROTOCOL}: the table's and yours differ)")
            if reason is not None:
                raise TableRefused(f"the table refused the seat: {reason}")
            raise TableError("the table closed the connection (not a spades-tui table?)")
        assert message is not None
        self._handle(message)

    async def _receive_one(self) -> Optional[dict[str, Any]]:
        assert self._ws is not None
        try:
            msg = await self._ws.receive()
        except (TimeoutError, aiohttp.ClientError, OSError):
            return None
        if msg.type is not aiohttp.WSMsgType.TEXT:
            if msg.type is not aiohttp.WSMsgType.BINARY:  # the close (or its start): the end of the frames
                reason = self._ws.close_code
                said = msg.extra if isinstance(msg.extra, str) else ""
                if "taken" in said:
                    self.taken = True
                self.closed_reason = (p.TAKEN if self.taken else f"the connection was closed ({reason})" if reason
                                      else "the connection dropped")
                return None
            return {}  # a binary frame: not a message (said and dropped)
        try:
            data = json.loads(msg.data)
        except (ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    async def _paced(self) -> None:
        """One frame's share of the read rate: a host that floods is read slower (TCP holds the rest back)."""
        now = time.monotonic()
        self._tokens = min(FRAME_BURST, self._tokens + (now - self._tokens_at) * FRAME_RATE) - 1
        self._tokens_at = now
        if self._tokens < 0:
            if not self.flooded:
                self.flooded = True
                self.note("WARNING: the host is sending frames faster than any game needs; they are read more "
                           "slowly and the screen redrawn less often (the game goes on)")
            await asyncio.sleep(-self._tokens / FRAME_RATE)
        elif self.flooded and self._tokens >= FRAME_BURST / 2:
            self.flooded = False

    async def listen(self) -> None:
        """Handle messages until the connection ends (the game over, or the link dropped)."""
        try:
            while self._ws is not None and not self._ws.closed:
                message = await self._receive_one()
                if message is None:
                    break
                self._handle(message)
                await self._paced()
        finally:
            self.link_up = False
            self.flush_warnings()
            await self.close()
            if self._redraw is not None:
                self._redraw.cancel()
                self._redraw = None
            self.on_change()

    async def keep(self) -> None:
        """Connect, listen, and while the game is not over, when the link drops take the seat back by itself
        at growing intervals (up to a minute apart) until it is back, the table refuses the seat, or
        ``stop``.  The first connection's TableError is raised: a wrong invite is said at once.  Each try is
        ``connect``'s (no redirect followed) and each connection is ``listen``'s (the same bounded reading)."""
        if self._ws is None:
            await self.connect()
        attempt = 0
        quick: deque[float] = deque(maxlen=QUICK_DROPS)  # when the last connections that dropped at once ended
        while True:
            began = time.monotonic()
            await self.listen()
            if self.outcome is not None or self._stopping.is_set():
                return
            ended = time.monotonic()
            if ended - began < QUICK_DROP:
                quick.append(ended)
            else:
                quick.clear()
            # A table that welcomes and drops at once, again and again, is not a table back: the waits grow on.
            if len(quick) < QUICK_DROPS or ended - quick[0] > FLAP_WINDOW:
                attempt = 0
            if self.taken:  # taken back from another window: taking it again would only take it from there
                self.gave_up = f"the table refused the seat: {p.TAKEN}"
                self.event(f"Stopped trying: {p.TAKEN}.")
                self.on_change()
                return
            while not self._stopping.is_set():
                attempt += 1
                delay = min(RETRY_MAX, self.retry_first * 2 ** min(attempt - 1, 10))
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

    def _changed(self) -> None:
        """``on_change``, coalesced: frames read together are one redraw, and under a flood at most one a
        FLOOD_REDRAW seconds (the screen's own keys, F1 among them, stay answered)."""
        if self._redraw is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test that hands frames in directly): at once
            self.on_change()
            return
        wait = self._redrawn + FLOOD_REDRAW - loop.time() if self.flooded else 0.0
        self._redraw = loop.call_later(wait, self._redraw_now) if wait > 0 else loop.call_soon(self._redraw_now)

    def _redraw_now(self) -> None:
        self._redraw = None
        self._redrawn = asyncio.get_running_loop().time()
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
        """One host frame: read by type and bound first (``frames.read``); a bad one is said and dropped."""
        kind = message.get("type") if isinstance(message, dict) else None
        try:
            found = f.read(message)
        except f.FrameError as exc:
            self.dropped += 1
            what = kind if isinstance(kind, str) and kind in f.READERS else "frame"
            self._warn(f"WARNING: the host sent a {what} this client cannot use ({exc}); it was dropped")
            self._changed()
            return
        if isinstance(found, f.Welcome):
            self._welcome(found)
        elif isinstance(found, f.Watching):
            self._watching(found)
        elif isinstance(found, f.Said):
            self._said(found)
        elif isinstance(found, f.Commit):
            self._commit(found)
        elif isinstance(found, f.Update):
            self._update(found)
        elif isinstance(found, f.Reveal):
            self._reveal(found)
        elif isinstance(found, f.Over):
            self._over(found)
        elif isinstance(found, f.Error):
            self._error(found.reason)
        self._changed()

    def _error(self, reason: str) -> None:
        self.errors.append(reason)
        self.error_count += 1
        if reason == p.TAKEN:
            self.taken = True
            self.closed_reason = p.TAKEN  # said once the connection closes (the screen, join --bot)
            return
        if "without yours" in reason and self._pending is not None:
            self._late.add(self._pending)  # the host's nonce timeout: hand dealt without our nonce, as said
            if self.saved is not None:  # kept: a restarted client checks that hand's reveal the same way
                self.saved.late.add(self._pending)
                self._save()
            self.note(f"The host says: {reason}")
            return
        self._warn(f"The host says: {reason}")

    def _welcome(self, m: f.Welcome) -> None:
        if self.saved is not None and self.welcomed.is_set() and m.seat != self.seat:
            self._warn("WARNING: the host sent a second welcome for another seat; it was dropped")
            return
        self.players = m.players
        self.rules = m.rules
        self.seat = m.seat
        old = self.saved
        code = m.code or self.code or (old.code if old is not None else None)
        if code is not None and m.watch is not None:
            self.invite = (code, m.watch)
        self.saved = SeatFile(self.url, m.token, m.seat, (m.players[0].name, m.players[1].name), code=code,
                              played=time.time())
        if old is not None and old.token == m.token:  # the same seat, wherever the table now listens
            self.saved.commitments, self.saved.nonces, self.saved.verified = old.commitments, old.nonces, old.verified
            self.saved.late = old.late
            self.saved.scores, self.saved.hand = old.scores, old.hand
        self._save()
        self._forget_others()
        self.code = None  # the seat is ours: a reconnect takes it back with the token
        self._updated = False
        self._recommits = 0  # counted per connection
        self.connections += 1
        me = m.players[m.seat].name
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

    def _watching(self, m: f.Watching) -> None:
        if self.watch_code is None:
            self._warn("WARNING: the host sent a watcher's welcome to a seat; it was dropped")
            return
        self.players = m.players
        self.rules = m.rules
        self.watching, self.seat = True, None
        self._updated = False
        self.connections += 1
        self.event(f"Watching {m.players[0].name} and {m.players[1].name}." if self.connections == 1
                   else "Back at the table.")
        self.welcomed.set()

    def _said(self, m: f.Said) -> None:
        self.chat.append((m.name, m.text))  # cleaned and bounded by frames.said
        self.chat_count += 1

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

    def _dealt(self, hand: int) -> bool:
        """Hand ``hand`` is being (or was) played: its shuffle is fixed."""
        obs = self.observation
        return self.played >= hand or (obs is not None and obs.hand_number == hand and obs.phase is not Phase.SHUFFLE)

    def _commit(self, m: f.Commit) -> None:
        hand, commit = m.hand, m.commitment
        if self.saved is None:
            self._warn("WARNING: the host sent a commitment before the seat was ours; it was dropped")
            return
        expected = self.played + 1
        if hand != expected:
            self._warn(f"WARNING: the host sent a commitment for hand {hand} while hand {expected} is next; "
                       "it was dropped")
            return
        seat = self.file
        known = seat.commitments.get(hand)
        if known is not None and known != commit:
            if self._dealt(hand):  # the cards are out: a new commitment now would let the host choose them
                self._warn(f"WARNING: the host changed its commitment for hand {hand} after dealing it; the new "
                           "one was dropped (the reveal is checked against the first)")
                return
            # A host that restarted before the nonces came commits again: the new one counts, and a new nonce
            # (fresh, so that a host cannot pick its secret after seeing ours).  A few times, not endlessly.
            self._recommits += 1
            if self._recommits > MAX_RECOMMITS:
                self._warn(f"WARNING: the host keeps changing its commitment for hand {hand}; dropped")
                return
            seat.nonces.pop(hand, None)
        self._unrevealed(hand - 1)
        seat.commitments[hand] = commit
        nonce = seat.nonces.get(hand) or secrets.token_bytes(NONCE_BYTES).hex()
        seat.nonces[hand] = nonce
        self._pending = hand
        self._save()  # before it is sent: a client that restarts checks the reveal with the nonce it sent
        self._tasks.add(task := asyncio.ensure_future(self.send({"type": "nonce", "hand": hand, "nonce": nonce})))
        task.add_done_callback(self._tasks.discard)

    def _unrevealed(self, upto: int) -> None:
        """Every hand up to ``upto`` that was played and has no verdict was never revealed: it warns."""
        seat = self.saved
        if seat is None:
            return
        missing = [h for h in range(1, min(upto, self.played) + 1) if h not in seat.verified]
        for hand in missing:
            seat.verified[hand] = NEVER_REVEALED
            self._forget(hand)
            self.note(f"WARNING: hand {hand}: {NEVER_REVEALED}")
        if missing:
            self._save()

    def _forget(self, hand: int) -> None:
        self._seen.pop(hand, None)
        self._final.pop(hand, None)

    def _update(self, m: f.Update) -> None:
        obs, at, hands = m.observation, m.at, m.hands
        if self.watching:
            if not m.public:
                self._warn("WARNING: the host sent a watcher a seat's own view; it was dropped")
                return
        elif m.public or self.seat is None or obs.seat != self.seat:
            self._warn("WARNING: the host sent the view of another seat; it was dropped")
            return
        if self.rules is not None and obs.rules != self.rules:
            self._warn("WARNING: the host sent a view under other rules than the table's; it was dropped")
            return
        if self.players is not None and m.names is not None:
            self.players = (dataclasses.replace(self.players[0], name=m.names[0]),
                            dataclasses.replace(self.players[1], name=m.names[1]))
        before_hands, before_connected = len(self.hands), self.connected
        self.at, self.observation, self.legal, self.hands = at, obs, m.legal, hands
        self.connected = m.connected
        self._tell(before_hands, before_connected)
        self._updated = True
        saved = self.saved
        names_now = (self.players[0].name, self.players[1].name) if self.players is not None else None
        if saved is not None and (saved.scores, saved.hand, saved.names) != (obs.scores, obs.hand_number,
                                                                             names_now or saved.names):
            saved.scores, saved.hand, saved.played = obs.scores, obs.hand_number, time.time()
            saved.names = names_now or saved.names
            self._save()  # the start screen's line: the score, the hand, when last played
        if self.watching:
            return  # a watcher checks no shuffle: it keeps no observation
        if self._pending is not None and self._dealt(self._pending):
            self._pending = None
        number = obs.hand_number
        if number <= 0 or number in self.verified:
            return
        if obs.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and len(hands) >= number:
            self._final.setdefault(number, (at, obs))
            return
        seen = self._seen.get(number)
        if seen is None:
            seen = self._seen[number] = {}
            while len(self._seen) > MAX_SEEN_HANDS:  # a host that skips hand numbers: the oldest goes
                del self._seen[min(self._seen)]
        if at in seen or len(seen) < MAX_SEEN:
            seen[at] = obs

    def _tell(self, before_hands: int, before_connected: tuple[bool, bool]) -> None:
        """The events an update brings: the other seat left or is back, a hand scored."""
        if self.players is None:
            return
        for other in (0, 1) if self.seat is None else (1 - self.seat,):
            name = self.players[other].name
            # The first update after a welcome tells how the table is, not that anything happened; except at the
            # table this seat opened and waited at: its first update, the game's first, comes as the friend sat down.
            first_news = (not self._updated and self._opened and self.connected[other] and other not in self._met
                          and not self.hands and self.connections == 1)
            line = None
            if before_connected[other] != self.connected[other] and self.link_up and self._updated:
                if not self.connected[other]:
                    line = f"{name} left the table (disconnected)."
                else:
                    line = f"{name} is back at the table." if other in self._met else f"{name} sat down."
            elif first_news:
                line = f"{name} sat down."
            if line is not None:
                self.event(line)
                self.seat_news.append(line)
                self.seat_news_count += 1
            if self.connected[other]:
                self._met.add(other)
        names = [pl.name for pl in self.players]
        # At most a few lines per update: a host that sends thousands of hands at once is not echoed.
        for number in range(max(before_hands + 1, len(self.hands) - 4), len(self.hands) + 1):
            result = self.hands[number - 1]
            points = ", ".join(f"{names[s]} {result.points[s]:+d}" for s in (0, 1))
            after = result.scores_after
            self.event(f"Hand {number} scored: {points} (score {after[0]}-{after[1]}).")

    def _reveal(self, m: f.Reveal) -> None:
        hand, secret, nonces = m.hand, m.secret, m.nonces
        seat = self.saved
        if seat is None or self.watching:  # a watcher saw no card of its own: there is nothing of its to check
            return
        if hand in seat.verified:
            # Checked before (in this window or an earlier one): the verdict stays, a warning for good, and a
            # verified hand unless this reveal is itself a lie about the commitment or our nonce.
            lie = self._check_secret(hand, secret, nonces) if seat.verified[hand] is None else None
            if lie is not None:
                seat.verified[hand] = lie
                self._save()
                self.note(f"WARNING: hand {hand}: {lie}")
            return
        if hand > self.played:
            self._warn(f"WARNING: the host revealed hand {hand} before it was over; it was dropped")
            return
        problem = self._check(hand, secret, nonces)
        seat.verified[hand] = problem
        self._forget(hand)
        self._save()
        if problem is not None:
            self.note(f"WARNING: hand {hand}: {problem}")

    def _check_secret(self, hand: int, secret: bytes, nonces: tuple[Optional[bytes], Optional[bytes]]
                      ) -> Optional[str]:
        """The reveal against the commitment and our nonce: None if both hold."""
        seat = self.seat
        if self.saved is None or seat is None:
            return "the shuffle could not be checked (no seat)"
        commit = self.saved.commitments.get(hand)
        if commit is None:
            return "the shuffle could not be checked: its commitment never came"
        if not verify_secret(commit, secret):
            return "the host revealed a secret other than the one it committed to: the cards may have been chosen"
        mine = self.saved.nonces.get(hand)
        given = nonces[seat]
        if given is None:
            if hand not in self._late and hand not in self.saved.late:
                return "the host shuffled without your nonce and did not say so"
        elif mine is None or given.hex() != mine:
            return "the host used a nonce other than yours: it could have chosen the cards"
        return None

    def _check(self, hand: int, secret: bytes, nonces: tuple[Optional[bytes], Optional[bytes]]) -> Optional[str]:
        """None if the reveal gives every card this seat saw, else what is wrong, in words."""
        problem = self._check_secret(hand, secret, nonces)
        if problem is not None:
            return problem
        seat = self.seat
        assert seat is not None and self.rules is not None
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
        except Exception as exc:  # a host's view that no real hand could give
            return f"the shuffle could not be checked: the host's views do not make a hand ({type(exc).__name__})"
        players = self.players
        self.rebuilt[hand] = GameRecord(self.rules, rebuilt.first_drafter, players, rebuilt.actions)
        while len(self.rebuilt) > MAX_REBUILT:
            del self.rebuilt[min(self.rebuilt)]
        return None

    def _over(self, m: f.Over) -> None:
        record = m.record
        if record is None:
            self._warn("WARNING: the host's final record could not be read")
        forfeit = RecordMeta.of(record).forfeit if record is not None else None
        if record is not None:
            try:  # the hands the record says were played count too: a host that stops updating is not excused
                history = replay(record).history
            except Exception:
                history = ()
            if len(self.hands) < len(history) <= f.MAX_HANDS:
                self.hands = self.hands + tuple(history[len(self.hands):])
        self._unrevealed(self.played)
        self.flush_warnings()
        by_rules = rules_outcome(self.rules, self.hands) if self.rules is not None and forfeit is None else None
        how = Termination.FORFEIT if forfeit else (by_rules.termination if by_rules else Termination.TARGET)
        self.outcome = Outcome(how, m.winner, m.scores, forfeit)
        self.record = record
        if self.saved is not None:
            self.saved.over = True
            self._save()
        if not self.finished.is_set() and self.players is not None:
            won = f"{self.players[m.winner].name} wins" if m.winner is not None else "a draw"
            self.event(f"Game over: {won}, {m.scores[0]} to {m.scores[1]}.")
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
            except Exception:  # a host's record that does not replay: not counted
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
        # The seat's own last draft turn and exchange, from the observations it was sent this hand (the
        # host never sends the shuffle): the same lines a local player reads.
        seen = [o for _, o in sorted(self._seen.get(obs.hand_number, {}).items())]
        news: dict[str, Any] = {}
        if obs.hand_number > 0 and obs.phase not in (Phase.SHUFFLE, Phase.GAME_OVER):
            news = dict(last_draw=draw_news(seen), last_exchange=exchange_news(seen))
        return SeatView(seat, players, obs, legal, self.hands, winners, outcome, self.at, persons=persons,
                        connected=connected, default=default, **news, **facts)


def _since(kept: deque[Any], total: int, count: int) -> list[Any]:
    new = max(0, min(total - count, len(kept)))
    return list(kept)[len(kept) - new:] if new else []


def _hands(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:12])) + (f" and {len(numbers) - 12} more" if len(numbers) > 12 else "")


async def open_served_table(base: str, key: str, name: str, rules: Optional[Rules], *, tab: Optional[str] = None,
                            public: bool = False) -> tuple[str, str, str, Optional[str]]:
    """Ask ``spades-tui serve`` (at ``base``) for a table: its WebSocket URL, its code, the first seat's token and
    its watch code.  ``tab``: this tab's token, so that the table counts against the browser's address."""
    headers = {"X-Spades-Key": key, **({TAB_HEADER: tab} if tab else {})}
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            async with session.post(f"{base}/tables/new", headers=headers,
                                    data=json.dumps({"name": name, "rules": rules.to_json() if rules else None,
                                                     "public": public}),
                                    allow_redirects=False) as response:
                if response.status != 200:
                    raise TableError(f"the server cannot open a table now ({(await response.text())[:200]})")
                data = await response.json()
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
        raise TableError(f"the server's tables cannot be reached: {exc or type(exc).__name__}") from None
    url, code, token, watch = data.get("url"), data.get("code"), data.get("token"), data.get("watch")
    if not all(isinstance(x, str) for x in (url, code, token)):
        raise TableError("the server answered something other than a table")
    return url, code, token, watch if isinstance(watch, str) and len(watch) < 40 else None
