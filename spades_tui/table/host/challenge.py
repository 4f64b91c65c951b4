"""A table of the server's day's challenge (docs/table-protocol.md, "The day's challenge"): the player's seat a
client, the other seat the server's challenge expert, the server dealing the day's stocks.

The day's four stocks come from an HMAC-SHA256, under the server's secret (keep/field.py), of the date, the preset
and the hand (``ServerChallenge``): the same for every player of the server that day, and unknown to anyone before
it.  The table is a ``TableHost`` like any other, so the client holds only its own seat's view, exactly as at any
table; only the shuffle differs (``FixedLedger``): the hand's key is the server's, committed to before the hand
(``commit`` with ``fixed``) and revealed once it is scored (``reveal`` with ``fixed``), so the client checks that
the cards it saw are those committed to, but no nonce of its own goes into them (the field plays the same deals).
The expert's decisions are made in the server's pool of experts (``experts.ExpertPool``), at most
``--challenge-workers`` at once; while this table's decision waits, the player is told its place (``queued``).
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ...bots.base import Bot
from ...engine.record import GameRecord
from ...keep.meta import CHALLENGE_HANDS, HandSecret
from ...session.challenge import ChallengeCode
from ...session.session import Session
from ..wire.shuffle import FairDealer, commitment
from .experts import ExpertPool, PooledBot
from .ledger import HostLedger
from .sockets import hash_token
from .table import TableHost

EXPERT_SEAT, PLAYER_SEAT = 0, 1  # the table's host seat is the expert's; the client sits in the other
FIELD_KEY = "field"  # the record's metadata: whose challenge it is ({"player": id or null, "practice": bool})


@dataclass(frozen=True)
class ServerChallenge:
    """The challenge of ``code`` at a server whose secret is ``secret``: its hands' keys, who drafts first, the
    experts' seeds, and each registered player's seat token (so the seat is found again with the key alone)."""

    code: ChallengeCode
    secret: bytes

    def _mac(self, what: str) -> bytes:
        text = f"spades-tui server challenge {self.code.day.isoformat()} {self.code.preset} {what}"
        return hmac.new(self.secret, text.encode("utf-8"), hashlib.sha256).digest()

    def key(self, hand: int) -> bytes:
        """Hand ``hand``'s key: its stock and its exchange draws (wire/shuffle.py), as any table's key gives them."""
        return self._mac(f"hand {hand}")

    @property
    def keys(self) -> dict[int, bytes]:
        return {hand: self.key(hand) for hand in range(1, CHALLENGE_HANDS + 1)}

    @property
    def first(self) -> int:
        return self._mac("first")[0] & 1

    def bot_seed(self, seat: int) -> int:
        return int.from_bytes(self._mac(f"bot {seat}")[:8], "big")

    def seat_token(self, player: int) -> str:
        return base64.urlsafe_b64encode(self._mac(f"seat {player}")[:24]).decode("ascii")

    def __str__(self) -> str:
        return str(self.code)


class FixedLedger(HostLedger):
    """The shuffle of a challenge table: each hand's key the server's (committed to, then dealt at once, then
    revealed), no seat's nonce in it."""

    def __init__(self, keys: dict[int, bytes], **parts: Any) -> None:
        super().__init__(**parts)
        self.fixed_keys = keys

    def restore(self, hands: tuple[HandSecret, ...], seed: Optional[int]) -> None:
        self.hands = {h.hand: h for h in hands}
        self.dealer = FairDealer(seed)
        for h in hands:
            if h.nonces is not None:
                self.dealer.keys[h.hand] = h.secret

    def prepare(self, hand: int) -> None:
        if hand in self.dealer.keys or hand not in self.fixed_keys:
            return
        if self.pending is not None and self.pending.hand == hand:
            return
        self.pending = HandSecret(hand, self.fixed_keys[hand])
        self.hands[hand] = self.pending
        self._keep()
        self.send_commit()
        asyncio.get_running_loop().call_soon(self._deal, hand)  # after this change is sent: one at a time

    def prepare_first(self, seat: int) -> None:
        if self.pending is None:
            self.prepare(1)
        else:
            self.send_commit(seat)

    def send_commit(self, only: Optional[int] = None) -> None:
        pending = self.pending
        if pending is None:
            return
        for seat in self._remotes():
            if only in (None, seat):
                self._send({"type": "commit", "hand": pending.hand, "commitment": commitment(pending.secret),
                            "fixed": True}, seat)

    def _deal(self, hand: int) -> None:
        pending = self.pending
        if pending is None or pending.hand != hand:
            return
        self.hands[hand] = HandSecret(hand, pending.secret, (None, None))
        self.pending = None
        self.dealer.keys[hand] = pending.secret
        self._fixed(hand, pending.secret)

    def got_nonce(self, seat: int, hand: int, nonce: bytes) -> Optional[str]:
        return "the day's challenge is dealt by the server: no nonce goes into its cards"

    def reveal(self, hand: int) -> Optional[dict[str, Any]]:
        found = super().reveal(hand)
        return {**found, "fixed": True} if found is not None else None


class PoolSession(Session):
    """A challenge table's game: its expert seat played through the server's pool."""

    def __init__(self, record: GameRecord, *, expert: PooledBot, **options: Any) -> None:
        self.expert = expert
        super().__init__(record, **options)

    def make_bot(self, seat: int, spec: str) -> Bot:
        return self.expert


class ChallengeHost(TableHost):
    """One player's table of the day's challenge (a practice one when ``player`` is None or ``practice``)."""

    session_class = PoolSession

    def __init__(self, challenge: ServerChallenge, pool: ExpertPool, name: str, *, player: Optional[int],
                 practice: bool, token: Optional[str], record: Optional[GameRecord] = None, **options: Any) -> None:
        """A new table (``token``: its seat's), or one resumed from its ``record`` (a restarted server's)."""
        rules = challenge.code.rules
        self.expert = PooledBot(challenge.bot_seed(EXPERT_SEAT), EXPERT_SEAT, rules)
        self.challenge, self.pool = challenge, pool
        self.player, self.practice = player, practice
        self.seat_token = token
        self.finishing: Callable[[ChallengeHost], None] = lambda _host: None  # the desk's: the entry, the standings
        self._finished = False
        self.ledger_class = functools.partial(FixedLedger, challenge.keys)  # the table's ledger made with the keys
        super().__init__(rules=rules, first=challenge.first, names=("Expert", name), host_kind="bot:expert",
                         session_options={"expert": self.expert, "hints": False}, record=record, **options)
        if record is None and token is not None:
            self.token_hash = hash_token(token)
            self.joined_name = name

    def _begin(self, key: bytes) -> None:
        super()._begin(key)
        assert self.game is not None
        # Its game ends once four hands are scored; a restarted server knows whose it was.
        self.game.store.set_meta(challenge=str(self.challenge.code),
                                 **{FIELD_KEY: {"player": self.player, "practice": self.practice}})

    def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None:
        if message.get("type") == "welcome":  # the seat told which challenge it plays (its panel names it)
            message = {**message, "challenge": str(self.challenge.code)}
        if message.get("type") == "over" and not self._finished:
            self._finished = True
            self.finishing(self)  # the entry kept and the standings sent before the end: the client has both
        super()._send(message, only)

    def _tell(self, place: int) -> None:
        if self.connected[self.remote]:
            frame = {"type": "queued", "waiting": place >= 0, "ahead": max(place, 0)}
            self.connections.send(frame, self.remote)

    async def _drive_bot(self) -> None:
        """The expert plays as any host's bot (``Session.bot_job``), in its turn at the server's pool."""
        loop = asyncio.get_running_loop()
        while self.game is not None:
            session = self.game
            job = session.bot_job()
            if job is None:
                return
            async with self.pool.turn(self._tell) as worker:
                work = job.start()
                if work is None:
                    return
                self.expert.worker = worker
                answer = await loop.run_in_executor(None, work)
                self.expert.worker = None
            if session is not self.game:
                return
            job.done(answer)
            self._changed()
