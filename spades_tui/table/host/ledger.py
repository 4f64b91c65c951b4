"""The shuffle's ledger at the host (docs/table-protocol.md; the crypto is wire/shuffle.py; a seat's side is
seat/ledger.py, in the same steps).

``HostLedger`` (owned by ``table.TableHost``): draws and keeps each hand's secret (in the record, before it is sent),
commits, waits for the nonces (or the timeout), fixes the key for the dealer, and reveals.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, Callable, Optional

from ...keep.meta import HandSecret
from ..wire import protocol as p
from ..wire import reasons as r
from ..wire.shuffle import SECRET_BYTES, FairDealer, commitment, hand_key

Send = Callable[[dict[str, Any], Optional[int]], None]  # a frame to one seat (an int) or to all (None)


class HostLedger:
    """The host's side: each hand's secret, the nonces awaited, the keys fixed for the dealer, the reveals.

    Built by the table with what it needs: ``remotes()`` (the seats whose nonces are awaited), ``send`` (a frame
    out), ``keep()`` (the secrets saved in the record, before any is sent) and ``fixed(hand, key)`` (a hand's
    key is fixed: the table begins the game or deals the hand)."""

    def __init__(self, *, remotes: Callable[[], tuple[int, ...]], nonce_timeout: float, send: Send,
                 keep: Callable[[], None], fixed: Callable[[int, bytes], None]) -> None:
        self._remotes = remotes
        self.nonce_timeout = nonce_timeout
        self._send = send
        self._keep = keep
        self._fixed = fixed
        self.dealer = FairDealer()
        self.hands: dict[int, HandSecret] = {}
        self.pending: Optional[HandSecret] = None  # the committed hand whose nonces are awaited
        self._nonces: dict[int, bytes] = {}
        self._nonce_timer: Optional[asyncio.TimerHandle] = None
        self.revealed = 0  # hands revealed so far: a client that missed a reveal gets the last one again on rejoin

    def restore(self, hands: tuple[HandSecret, ...], seed: Optional[int]) -> None:
        """A resumed table's hands as its record kept them: the keys fixed before are the dealer's again."""
        self.hands = {h.hand: h for h in hands}
        self.dealer = FairDealer(seed)
        for h in hands:
            if h.nonces is not None:
                self.dealer.keys[h.hand] = hand_key(h.secret, h.nonces)

    def prepare(self, hand: int) -> None:
        """Commit to hand ``hand``'s secret if it is due and not yet committed (or resend the commit)."""
        if hand in self.dealer.keys:
            return
        known = self.hands.get(hand)
        if known is None:
            known = HandSecret(hand, secrets.token_bytes(SECRET_BYTES))
            self.hands[hand] = known
            self._keep()  # kept before it is sent: a resumed host commits to the same secret
        if self.pending is None or self.pending.hand != hand:
            self._await(known)

    def prepare_first(self, seat: int) -> None:
        """The friend sat down: hand 1 is committed to (or its commitment sent again to ``seat``)."""
        if self.pending is None:
            self.hands[1] = HandSecret(1, secrets.token_bytes(SECRET_BYTES))
            self._await(self.hands[1])
        else:
            self.send_commit(seat)

    def _await(self, secret: HandSecret) -> None:
        self.pending = secret
        self._nonces = {}
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
        self._nonce_timer = asyncio.get_running_loop().call_later(self.nonce_timeout, self._nonce_late, secret.hand)
        self.send_commit()  # once; a seat that comes back gets it again (the table's sit)

    def send_commit(self, only: Optional[int] = None) -> None:
        pending = self.pending
        if pending is None:
            return
        for seat in self._remotes():
            if seat not in self._nonces and only in (None, seat):
                self._send({"type": "commit", "hand": pending.hand, "commitment": commitment(pending.secret)}, seat)

    def _nonce_late(self, hand: int) -> None:
        if self.pending is None or self.pending.hand != hand:
            return
        for seat in self._remotes():
            if seat not in self._nonces:
                self._send(p.error(r.LATE_NONCE.format(seconds=f"{self.nonce_timeout:g}", hand=hand)), seat)
        self._fix(hand)

    def got_nonce(self, seat: int, hand: int, nonce: bytes) -> Optional[str]:
        """A seat's nonce for ``hand``: None once counted, else why not."""
        if self.pending is None or self.pending.hand != hand:
            return f"no nonce is awaited for hand {hand}"
        if seat in self._nonces:
            return "this seat's nonce for that hand is already in"
        self._nonces[seat] = nonce
        if all(s in self._nonces for s in self._remotes()):
            self._fix(hand)
        return None

    def _fix(self, hand: int) -> None:
        """The nonces are in (or late): the hand's key is fixed, the dealer's, and the table told."""
        pending = self.pending
        if pending is None or pending.hand != hand:
            return
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
            self._nonce_timer = None
        nonces = (self._nonces.get(0), self._nonces.get(1))
        self.hands[hand] = HandSecret(hand, pending.secret, nonces)
        self.pending = None
        key = hand_key(pending.secret, nonces)
        self.dealer.keys[hand] = key
        self._fixed(hand, key)

    def reveal(self, hand: int) -> Optional[dict[str, Any]]:
        """The ``reveal`` frame of a scored hand (None if its key was never fixed)."""
        found = self.hands.get(hand)
        if found is None or found.nonces is None:
            return None
        return {"type": "reveal", "hand": hand, "secret": found.secret.hex(),
                "nonces": [n.hex() if n is not None else None for n in found.nonces]}

    def send_reveal(self, hand: int, only: Optional[int] = None) -> None:
        message = self.reveal(hand)
        if message is not None:
            self._send(message, only)

    def close(self) -> None:
        if self._nonce_timer is not None:
            self._nonce_timer.cancel()
            self._nonce_timer = None
