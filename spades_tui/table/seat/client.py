"""A seat at a network table (docs/table-protocol.md): what the host's frames mean, and the seat's view.

``TableClient`` joins (or, with its token, rejoins) a table and keeps the latest ``update``; its view is built
once per change by ``session.view.seen_view`` (``view``, called by ``remote_seat.RemoteSeat``).  It owns its
parts, each built with the few things it needs: the link to the table (``link.ClientLink``: the connection,
pacing, reconnecting), the shuffle check (``ledger.SeatLedger``), the chat, events and notices
(``talk.SeatTalk``), and the seat file and its own statistics (``keeping.SeatKeeping``).

It trusts nothing the host sends: every frame is read by ``wire.frames.read`` before use, and a bad one is said
and dropped; it keeps only what the screen and the checks need (the latest update, each unrevealed hand's
observations up to a bound, the last few errors and notices).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Optional

from ...engine.actions import PlayerAction
from ...engine.observation import Observation
from ...engine.outcome import Outcome, Termination
from ...engine.record import GameRecord, PlayerInfo, replay
from ...engine.rulebook import rules_outcome
from ...engine.rules import Rules
from ...engine.state import GameState
from ...engine.text import signed
from ...i18n.language import _, ngettext, translated
from ...keep.glicko import shown
from ...keep.meta import RecordMeta
from ...session.view import HandResult, SeatView, TableFacts, seen_view
from ...solver.analysis import HandReview, review_hand
from ..wire import frames as f
from ..wire import protocol as p
from ..wire import reasons as r
from .keeping import SeatKeeping
from .ledger import SeatLedger
from .link import RETRY_FIRST, ClientLink, table_address
from .seat_file import SeatFile, load_seat
from .talk import SeatTalk

MAX_ERRORS = 20  # the host's last errors kept
QUEUE_SAID_EVERY = 30.0  # seconds: the expert's wait in line said again at most this often (unless it grew)


class TableClient:
    """One seat.  ``on_change()`` is called after every message that changed what the seat shows."""


    def __init__(self, url: str, *, code: Optional[str] = None, name: str = "Guest",
                 seat_file: Optional[Path] = None, insecure: bool = False,
                 on_change: Callable[[], None] = lambda: None, watch: Optional[str] = None,
                 create: Optional[tuple[Rules, Optional[int]]] = None, public: bool = False,
                 retry_first: float = RETRY_FIRST, source: Optional[str] = None, key: Optional[str] = None,
                 quick: bool = False, rated: bool = False, challenge: bool = False) -> None:
        """``public``: with ``create``, the table is listed in the server's lobby; ``retry_first``: the first wait
        before trying again (tests make it short); ``source``: the local address to connect from (a measure's
        many clients on one machine stand for many addresses, 127.0.0.0/8); ``key``: this player's key at the
        server (rated play, docs/table-protocol.md), sent with a join, a rated ``create`` (``rated``) and a
        ``quick`` seek (``quick``: the server seats this seat at a rated table against a stranger); ``challenge``:
        the server's day's challenge (a ``challenge`` first frame; its deals are the server's, ``fixed``)."""
        self.url = url
        self.on_change = on_change  # set by whoever shows the seat (the app, join --bot, a test)
        # Its parts, each with what it needs: what is said (nothing), the seat file (a way to tell the player),
        # the shuffle check (the seat file, what is said, a way to send a nonce).
        self.talk = SeatTalk()
        self.keeping = SeatKeeping(seat_file, load_seat(seat_file) if seat_file is not None and code is None else None,
                                   self.talk.note)
        self.ledger = SeatLedger(self.keeping, self.talk, self._spawn_send)
        # The connection: what to send first, each frame's meaning, when to stop retrying, a seat no longer known.
        self.link = ClientLink(url, insecure=insecure, retry_first=retry_first, source=source, talk=self.talk,
                               hello=self._hello, handle=self._handle, over=lambda: self.outcome is not None,
                               refused=self.keeping.abandoned, on_change=lambda: self.on_change())
        self.public = public
        self.key, self.quick, self.rated = key, quick, rated
        self.seeking: Optional[f.Seeking] = None  # quick play: how the search went last, until seated
        self.challenge = challenge
        self.ledger.fixed_allowed = challenge
        self.challenge_code: Optional[str] = None  # the day's challenge's code, as the welcome says it
        self.queued: Optional[f.Queued] = None  # the day's challenge: the server's expert waiting its turn, or not
        self.standings: Optional[f.Standings] = None  # the day's challenge: the field, once the four hands are played
        self._queue_said = (-1, -QUEUE_SAID_EVERY)  # (place, when) the expert's wait was last said
        self.code = code
        self.watch_code = watch  # a watcher: the public view only, no seat
        self.create = create  # at a server: open a table there (its rules, who drafts first) and sit at seat 0
        self.watching = False
        self.invite: Optional[tuple[str, str]] = None  # the table's (join code, watch code), from the welcome
        self.name = p.clean_name(name, "Guest")
        self.seat: Optional[int] = self.keeping.saved.seat if self.keeping.saved is not None else None
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
        self._tasks: set[asyncio.Future[bool]] = set()
        self.welcomed = asyncio.Event()
        self.finished = asyncio.Event()
        self.connections = 0  # welcomes so far: a new one is a reconnect, where a choice unanswered is asked again
        self._opened = False  # this seat opened the table (create, or the owner's token): it waited for the friend
        # A rated table (its welcome says so): how long the other seat must be gone before a claim, since when this
        # seat has seen it gone (monotonic), each seat's rating change once over, and the give-up asked last.
        self.table_rated = False
        self.claim_after: Optional[float] = None
        self.gone_since: Optional[float] = None
        self.ratings: Optional[tuple[f.SeatRating, f.SeatRating]] = None
        self._asked: Optional[str] = None


    def kept(self) -> int:
        """How many things this client holds from the host now (its memory bound, for the tests)."""
        seat = self.keeping.saved
        return (len(self.errors) + len(self.talk.notices) + self.ledger.kept() + len(self.hands)
                + (len(seat.commitments) + len(seat.nonces) + len(seat.verified) if seat is not None else 0))

    # ------------------------------------------------------------ the connection (its link's)

    async def connect(self) -> None:
        """Connect and take the seat (join with the code, or rejoin with the saved token); TableError if not."""
        await self.link.connect()

    async def listen(self) -> None:
        await self.link.listen()

    async def keep(self) -> None:
        """Connect, listen, and while the game is not over take the seat back by itself when the link drops."""
        await self.link.keep()

    async def stop(self) -> None:
        """The player leaves the table: no more tries, the connection closed."""
        await self.link.stop()

    async def close(self) -> None:
        await self.link.close()

    async def send(self, message: dict[str, Any]) -> bool:
        return await self.link.send(message)

    @property
    def link_up(self) -> bool:
        return self.link.link_up

    @property
    def taken(self) -> bool:
        return self.link.taken

    @property
    def closed_reason(self) -> Optional[str]:
        return self.link.closed_reason

    @property
    def retry(self) -> Optional[tuple[int, float]]:
        return self.link.retry

    @property
    def gave_up(self) -> Optional[str]:
        return self.link.gave_up

    @property
    def dropped(self) -> int:
        return self.link.dropped

    @property
    def headers(self) -> dict[str, str]:
        """Sent with the handshake (a served tab's own, see cli/webserver.py)."""
        return self.link.headers

    # ------------------------------------------------------------ the seat's answers (its parts')

    @property
    def played(self) -> int:
        """Hands played to their end so far, as the host's updates (or its final record) said."""
        return len(self.hands)

    @property
    def verified(self) -> dict[int, Optional[str]]:
        """Each checked hand's verdict: None verified, else the warning (never-revealed hands included)."""
        return self.ledger.verified

    def shuffle_problems(self) -> list[tuple[int, str]]:
        return self.ledger.shuffle_problems()

    def shuffle_summary(self) -> tuple[bool, str]:
        """Whether every hand so far is verified, and that in one sentence (the game-over screen, join --bot)."""
        return self.ledger.shuffle_summary(self.played)

    def stats_record(self) -> Optional[tuple[GameRecord, GameState]]:
        """The game as this person's statistics count it (``keeping.SeatKeeping.stats_record``)."""
        return self.keeping.stats_record(self.seat, self.players, self.rules, self.hands, self.record)

    def keep_finished(self) -> Optional[str]:
        """The finished game's record kept with the finished games; a problem in words, or None."""
        return self.keeping.keep_finished(self.stats_record(), self.record is not None)

    async def say(self, text: str) -> Optional[str]:
        """A line to the table; why not, in words, when it cannot be sent (the host's refusal comes as an error)."""
        if self.watching:
            return translated(r.WATCHERS_SAY)
        line, problem = p.clean_said(text)
        if line is None:
            return r.shown(problem or "")
        if not await self.send({"type": "say", "text": line}):
            return _("not connected: the line was not sent")
        return None

    def _hello(self) -> Optional[dict[str, Any]]:
        """The first frame to send: watch, join with the code, open a table, or rejoin with the saved token."""
        if self.watch_code is not None:
            return {"type": "watch", "protocol": p.PROTOCOL, "code": self.watch_code, "name": self.name}
        keyed = {"key": self.key} if self.key is not None else {}
        if self.code is not None:
            return {"type": "join", "protocol": p.PROTOCOL, "code": self.code, "name": self.name, **keyed}
        if self.quick and self.keeping.saved is None:
            return {"type": "quick", "protocol": p.PROTOCOL, **keyed}
        if self.challenge and self.keeping.saved is None:
            return {"type": "challenge", "protocol": p.PROTOCOL, "name": self.name, **keyed}
        if self.create is not None and self.keeping.saved is None:
            rules, drafts_first = self.create
            self._opened = True
            rated = {"rated": True, **keyed} if self.rated else {}
            return {"type": "create", "protocol": p.PROTOCOL, "name": self.name, "rules": rules.to_json(),
                    "first": drafts_first, "public": self.public, **rated}
        saved = self.keeping.saved
        if saved is not None:
            self._opened = saved.seat == 0 and not self.hands  # a server table's owner, coming to it
            return {"type": "rejoin", "protocol": p.PROTOCOL, "token": saved.token}
        return None

    def _spawn_send(self, message: dict[str, Any]) -> None:
        """``send`` in the background (a frame answered from a handler that cannot wait)."""
        self._tasks.add(task := asyncio.ensure_future(self.send(message)))
        task.add_done_callback(self._tasks.discard)

    async def resign(self) -> bool:
        """Give a rated game up (rated as a loss); False if the link is down."""
        self._asked = "resign"  # the host's refusal, if one comes, is said as this one's
        return await self.send({"type": "resign"})

    async def claim(self) -> bool:
        """Claim a rated game from a player gone longer than the server allows; False if the link is down."""
        self._asked = "claim"
        return await self.send({"type": "claim"})

    def rating_lines(self) -> tuple[str, ...]:
        """A rated game's end: each player's rating before and after, as "Ada 1500? → 1662? (+162)"."""
        if self.ratings is None or self.players is None:
            return ()
        lines = []
        for player, found in zip(self.players, self.ratings, strict=True):
            change = round(found.after) - round(found.before)
            lines.append(f"{player.name} {shown(found.before, found.rd_before)} → {shown(found.after, found.rd_after)}"
                         f" ({signed(change)})")
        return tuple(lines)

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
            self.link.dropped += 1
            what = kind if isinstance(kind, str) and kind in f.READERS else "frame"
            self.talk.warn(_("WARNING: the host sent a {kind} this client cannot use ({problem}); it was dropped")
                           .format(kind=what, problem=exc))
            self.link.changed()
            return
        if isinstance(found, f.Welcome):
            self._welcome(found)
        elif isinstance(found, f.Watching):
            self._watching(found)
        elif isinstance(found, f.Said):
            self.talk.said(found)
        elif isinstance(found, f.Commit):
            self.ledger.commit(found, self.played, self.observation)
        elif isinstance(found, f.Update):
            self._update(found)
        elif isinstance(found, f.Reveal):
            self.ledger.reveal(found, None if self.watching else self.seat, self.rules, self.players, self.hands)
        elif isinstance(found, f.Over):
            self._over(found)
        elif isinstance(found, f.Error):
            self._error(found.reason)
        elif isinstance(found, f.Seeking):
            self._seeking(found)
        elif isinstance(found, f.Queued):
            self._queued(found)
        elif isinstance(found, f.Standings):
            self.standings = found
        self.link.changed()

    def _seeking(self, news: f.Seeking) -> None:
        """Quick play: how the search for a stranger goes (the server says it at most every 5 s)."""
        self.seeking = news
        self.talk.event(ngettext("Seeking a stranger of your strength: {count} other seeking, {seconds} s so far.",
                                 "Seeking a stranger of your strength: {count} others seeking, {seconds} s so far.",
                                 news.others).format(count=news.others, seconds=news.waited))

    def _queued(self, news: f.Queued) -> None:
        """The day's challenge: the server's expert waits for a free core (other players' experts think first)."""
        self.queued = news
        said, at = self._queue_said
        now = time.monotonic()
        if news.waiting and (news.ahead > said or now - at >= QUEUE_SAID_EVERY):  # said once a while, not per card
            self._queue_said = (news.ahead, now)
            waits = ngettext("The server's expert waits its turn (other players' challenges): {count} decision before "
                             "it.", "The server's expert waits its turn (other players' challenges): {count} decisions "
                             "before it.", news.ahead) if news.ahead else \
                _("The server's expert waits its turn (other players' challenges): next.")
            self.talk.event(waits.format(count=news.ahead))

    def _error(self, reason: str) -> None:
        self.errors.append(reason)
        self.error_count += 1
        asked, self._asked = self._asked, None
        if asked is not None and self.outcome is None:  # a resign or a claim refused: the host's words, said plainly
            refused = _("Not claimed: {reason}") if asked == "claim" else _("Not resigned: {reason}")
            self.talk.note(refused.format(reason=r.shown(reason)))
            return
        if reason == p.TAKEN:
            self.link.seat_taken()  # said once the connection closes (the screen, join --bot)
            return
        said = _("The host says: {reason}").format(reason=r.shown(reason))
        if "without yours" in reason and self.ledger.late_nonce():
            self.talk.note(said)
            return
        self.talk.warn(said)

    def _welcome(self, m: f.Welcome) -> None:
        if self.keeping.saved is not None and self.welcomed.is_set() and m.seat != self.seat:
            self.talk.warn(_("WARNING: the host sent a second welcome for another seat; it was dropped"))
            return
        self.players = m.players
        self.rules = m.rules
        self.seat = m.seat
        self.table_rated, self.claim_after = m.rated, m.claim_after
        if self.challenge:
            self.challenge_code = m.challenge
        old = self.keeping.saved
        code = m.code or self.code or (old.code if old is not None else None)
        if code is not None and m.watch is not None:
            self.invite = (code, m.watch)
        saved = self.keeping.saved = SeatFile(self.url, m.token, m.seat, (m.players[0].name, m.players[1].name),
                                              code=code, played=time.time())
        if old is not None and old.token == m.token:  # the same seat, wherever the table now listens
            saved.commitments, saved.nonces, saved.verified = old.commitments, old.nonces, old.verified
            saved.late = old.late
            saved.scores, saved.hand = old.scores, old.hand
        self.keeping.save()
        self.keeping.forget_others()
        self.code = None  # the seat is ours: a reconnect takes it back with the token
        self._updated = False
        self.ledger.recommits = 0  # counted per connection
        self.connections += 1
        me = m.players[m.seat].name
        self.talk.event(_("Sat down at the table as {player}.").format(player=me) if self.connections == 1
                        else _("Back at the table."))
        self.welcomed.set()

    def invite_commands(self, where: Optional[str] = None) -> Optional[tuple[str, str]]:
        """The commands that sit down at this table and watch it, once the table's codes came in the welcome
        (never to a watcher: it is sent none); ``where``: the address to write in them, if not this seat's own."""
        if self.invite is None or self.watch_code is not None:
            return None
        if where is None:
            where = table_address(self.url)
        code, watch = self.invite
        return f"spades-tui join {where} {code}", f"spades-tui watch {where} {watch}"

    def invite_taken(self) -> Optional[int]:
        """The seat the table's join code sat down, once it did (None before): a seat is sent the game only once
        both seats are taken, and the code sits seat 1 (seat 0 is the opener's: the host's own, or the one a
        server's ``create`` sits)."""
        return 1 if self.invite is not None and self.observation is not None else None

    def invite_lines(self) -> Optional[str]:
        """The invite to pass on (and the watch line), once the table's codes came in the welcome."""
        found = self.invite_commands()
        return None if found is None else f"{found[0]}\n" + _("To watch: {command}").format(command=found[1])

    def _watching(self, m: f.Watching) -> None:
        if self.watch_code is None:
            self.talk.warn(_("WARNING: the host sent a watcher's welcome to a seat; it was dropped"))
            return
        self.players = m.players
        self.rules = m.rules
        self.watching, self.seat = True, None
        self._updated = False
        self.connections += 1
        self.talk.event(_("Watching {first} and {second}.").format(first=m.players[0].name, second=m.players[1].name)
                        if self.connections == 1 else _("Back at the table."))
        self.welcomed.set()

    def _update(self, m: f.Update) -> None:
        obs, at, hands = m.observation, m.at, m.hands
        if self.watching:
            if not m.public:
                self.talk.warn(_("WARNING: the host sent a watcher a seat's own view; it was dropped"))
                return
        elif m.public or self.seat is None or obs.seat != self.seat:
            self.talk.warn(_("WARNING: the host sent the view of another seat; it was dropped"))
            return
        if self.rules is not None and obs.rules != self.rules:
            self.talk.warn(_("WARNING: the host sent a view under other rules than the table's; it was dropped"))
            return
        if self.players is not None and m.names is not None:
            self.players = (dataclasses.replace(self.players[0], name=m.names[0]),
                            dataclasses.replace(self.players[1], name=m.names[1]))
        before_hands, before_connected = len(self.hands), self.connected
        self.at, self.observation, self.legal, self.hands = at, obs, m.legal, hands
        self.connected = m.connected
        if self.seat is not None:  # a claim counts from when this seat saw the other gone
            gone = not m.connected[1 - self.seat]
            self.gone_since = (self.gone_since or time.monotonic()) if gone else None
        self._tell(before_hands, before_connected)
        self._updated = True
        saved = self.keeping.saved
        names_now = (self.players[0].name, self.players[1].name) if self.players is not None else None
        if saved is not None and (saved.scores, saved.hand, saved.names) != (obs.scores, obs.hand_number,
                                                                             names_now or saved.names):
            saved.scores, saved.hand, saved.played = obs.scores, obs.hand_number, time.time()
            saved.names = names_now or saved.names
            self.keeping.save()  # the start screen's line: the score, the hand, when last played
        if self.watching:
            return  # a watcher checks no shuffle: it keeps no observation
        self.ledger.saw(obs, at, hands)

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
            # Once the game is over, a seat that goes is news to nobody (the host says nothing of it either).
            if before_connected[other] != self.connected[other] and self.link_up and self._updated \
                    and self.outcome is None:
                if not self.connected[other]:
                    line = _("{player} left the table (disconnected).").format(player=name)
                elif other in self._met:
                    line = _("{player} is back at the table.").format(player=name)
                else:
                    line = _("{player} sat down.").format(player=name)
            elif first_news:
                line = _("{player} sat down.").format(player=name)
            if line is not None:
                self.talk.seat_event(line)
            if self.connected[other]:
                self._met.add(other)
        names = [pl.name for pl in self.players]
        # At most a few lines per update: a host that sends thousands of hands at once is not echoed.
        for number in range(max(before_hands + 1, len(self.hands) - 4), len(self.hands) + 1):
            result = self.hands[number - 1]
            self.talk.event(p.hand_scored_line(number, names, result.points, result.scores_after))

    def _over(self, m: f.Over) -> None:
        record = m.record
        if record is None:
            self.talk.warn(_("WARNING: the host's final record could not be read"))
        forfeit = RecordMeta.of(record).forfeit if record is not None else None
        if record is not None:
            try:  # the hands the record says were played count too: a host that stops updating is not excused
                history = replay(record).history
            except Exception:
                history = ()
            if len(self.hands) < len(history) <= f.MAX_HANDS:
                self.hands = self.hands + tuple(history[len(self.hands):])
        self.ledger.unrevealed(self.played, self.played)
        self.talk.flush_warnings()
        by_rules = rules_outcome(self.rules, self.hands) if self.rules is not None and forfeit is None else None
        how = Termination.FORFEIT if forfeit else (by_rules.termination if by_rules else Termination.TARGET)
        self.outcome = Outcome(how, m.winner, m.scores, forfeit)
        self.record = record
        self.ratings = m.ratings or self.ratings
        if self.keeping.saved is not None:
            self.keeping.saved.over = True
            self.keeping.save()
        if not self.finished.is_set() and self.players is not None:
            self.talk.event(p.game_over_line(self.players[m.winner].name if m.winner is not None else None, m.scores))
        self.finished.set()

    # ------------------------------------------------------------ for the screens

    def review_job(self, hand: int) -> Optional[Callable[[], Optional[HandReview]]]:
        """What to run in the background for the review of a revealed hand (both hands, double dummy)."""
        record = self.ledger.rebuilt.get(hand)
        if record is None:
            return None

        def job() -> Optional[HandReview]:
            found = review_hand(record, 1)
            return dataclasses.replace(found, hand=hand) if found is not None else None

        return job

    def view(self, table: Optional[dict[str, Any]] = None, *, offer: bool = True, **facts: Any) -> Optional[SeatView]:
        """The seat's view now (None until the first update), built by ``session.view.seen_view`` as any seat's
        that does not hold the game: the screens draw it as any other.  ``table``: the table's facts beyond the
        connections (``TableFacts``' fields), ``facts`` the session facts (the hint, the switches, the review);
        ``offer`` False: no choice offered (one was sent for this position: the host's answer is awaited)."""
        obs, seat, players = self.observation, self.seat, self.players
        if obs is None or players is None or (seat is None and not self.watching):
            return None
        # Not connected: no choice offered, and nobody is (ourselves too: "waiting for the table"); a watcher's
        # public view says the seats' links as the host last said them.
        up = self.link_up or self.watching
        connected = self.connected if up else (False, False)
        legal = self.legal if offer and self.outcome is None and self.link_up and seat is not None else ()
        seen = [o for _, o in sorted(self.ledger.seen.get(obs.hand_number, {}).items())]
        return seen_view(obs, seat, players, legal=legal, hands=self.hands, outcome=self.outcome, actions=self.at,
                         seen=seen, table_facts=TableFacts(connected=connected, watcher=self.watching,
                                                           **(table or {})), **facts)
