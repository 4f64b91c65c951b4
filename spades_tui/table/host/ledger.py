"""The shuffle's ledger at the host (docs/table-protocol.md; the crypto is wire/shuffle.py; a seat's side is
seat/ledger.py, in the same steps).

``HostLedger`` (of ``table.TableHost``): draws and keeps each hand's secret (in the record, before it is sent),
commits, waits for the nonces (or the timeout), fixes the key for the dealer, and reveals.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any, Optional

from ...keep.meta import HandSecret
from ..wire import protocol as p
from ..wire.shuffle import SECRET_BYTES, FairDealer, commitment, hand_key

if TYPE_CHECKING:
    from ...session.session import Session


class HostLedger:
    """The host's side: each hand's secret, the nonces awaited, the keys fixed for the dealer, the reveals."""

    if TYPE_CHECKING:  # the host's, which this part reads and calls
        session: Optional[Session]
        nonce_timeout: float
        host_ready: bool

        @property
        def remotes(self) -> tuple[int, ...]: ...
        def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None: ...
        def _save_meta(self) -> None: ...
        def _begin(self, secret: HandSecret, key: bytes) -> None: ...
        def _changed(self) -> None: ...

    def _init_ledger(self) -> None:
        self.dealer = FairDealer()
        self.hands: dict[int, HandSecret] = {}
        self.pending: Optional[HandSecret] = None  # the committed hand whose nonces are awaited
        self._nonces: dict[int, bytes] = {}
        self._nonce_timer: Optional[asyncio.TimerHandle] = None
        self._revealed = 0

    def _restore_ledger(self, hands: tuple[HandSecret, ...], seed: Optional[int]) -> None:
        """A resumed table's hands as its record kept them: the keys fixed before are the dealer's again."""
        self.hands = {h.hand: h for h in hands}
        self.dealer = FairDealer(seed)
        for h in hands:
            if h.nonces is not None:
                self.dealer.keys[h.hand] = hand_key(h.secret, h.nonces)


    def _next_hand_number(self) -> int:
        return len(self.session.state.history) + 1 if self.session is not None else 1

    def _prepare(self) -> None:
        """Commit to the next hand's secret if it is due and not yet committed (or resend the commit)."""
        hand = self._next_hand_number()
        if hand in self.dealer.keys:
            return
        known = self.hands.get(hand)
        if known is None:
            known = HandSecret(hand, secrets.token_bytes(SECRET_BYTES))
            self.hands[hand] = known
            self._save_meta()  # kept before it is sent: a resumed host commits to the same secret
        if self.pending is None or self.pending.hand != hand:
            self.pending = known
            self._nonces = {}
            if self._nonce_timer is not None:
                self._nonce_timer.cancel()
            self._nonce_timer = asyncio.get_running_loop().call_later(self.nonce_timeout, self._nonce_late, hand)
            self._send_commit()  # once; a seat that comes back gets it again (_sit)

    def _send_commit(self, only: Optional[int] = None) -> None:
        pending = self.pending
        if pending is None:
            return
        for seat in self.remotes:
            if seat not in self._nonces and only in (None, seat):
                self._send({"type": "commit", "hand": pending.hand, "commitment": commitment(pending.secret)}, seat)

    def _nonce_late(self, hand: int) -> None:
        if self.pending is None or self.pending.hand != hand:
            return
        for seat in self.remotes:
            if seat not in self._nonces:
                self._send(p.error(f"no nonce came within {self.nonce_timeout:g} s: hand {hand} is shuffled without "
                                   "yours (the host's secret alone; it was committed before)"), seat)
        self._fix(hand)

    def _got_nonce(self, seat: int, hand: int, nonce: bytes) -> Optional[str]:
        if self.pending is None or self.pending.hand != hand:
            return f"no nonce is awaited for hand {hand}"
        if seat in self._nonces:
            return "this seat's nonce for that hand is already in"
        self._nonces[seat] = nonce
        if all(s in self._nonces for s in self.remotes):
            self._fix(hand)
        return None

    def _fix(self, hand: int) -> None:
        """The nonces are in (or late): the hand's key is fixed, saved, and the hand may be dealt."""
        pending = self.pending
        if pending is None or pending.hand != hand:
            return
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
            self._nonce_timer = None
        nonces = (self._nonces.get(0), self._nonces.get(1))
        fixed = HandSecret(hand, pending.secret, nonces)
        self.hands[hand] = fixed
        self.pending = None
        if self.session is None:
            self._begin(fixed, hand_key(fixed.secret, nonces))
        else:
            self.dealer.keys[hand] = hand_key(fixed.secret, nonces)
            self._save_meta()
            if self.host_ready:
                self.session.next_hand()
        self._changed()

    def _prepare_first(self, seat: int) -> None:
        if self.pending is None:
            self.pending = HandSecret(1, secrets.token_bytes(SECRET_BYTES))
            self.hands[1] = self.pending
            self._nonces = {}
            self._nonce_timer = asyncio.get_running_loop().call_later(self.nonce_timeout, self._nonce_late, 1)
            self._send_commit()
        else:
            self._send_commit(seat)

    def _send_reveal(self, hand: int, only: Optional[int] = None) -> None:
        found = self.hands.get(hand)
        if found is None or found.nonces is None:
            return
        self._send({"type": "reveal", "hand": hand, "secret": found.secret.hex(),
                    "nonces": [n.hex() if n is not None else None for n in found.nonces]}, only)
