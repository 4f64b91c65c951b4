"""The stock-from-commitment attack of issue 25, as a seat would run it (shared by the unit and network tests).

In protocol 1 the commitment was SHA-256(s) and the hand's key SHA-256(s || n0 || n1): a hand shuffled with
no nonce from either seat (the host's seat sends none; this seat sent none, or 64 spaces, which
``bytes.fromhex`` read as 0 bytes) had the commitment as its key, so the seat read the whole stock from the
``commit`` frame before anything was dealt.
"""

from __future__ import annotations

import hashlib
from typing import Optional, Sequence

from spades_tui.engine.cards import Card
from spades_tui.table.wire.shuffle import stock_order


def predicted_stock(commitment_hex: str) -> tuple[Card, ...]:
    """The attacker's guess of the stock, top card first: the commitment taken as the hand's key."""
    return stock_order(bytes.fromhex(commitment_hex))


def v1_commitment(secret: bytes) -> str:
    """Protocol 1's commitment (no prefix), for the control that shows the attack works where it should."""
    return hashlib.sha256(secret).hexdigest()


def v1_hand_key(secret: bytes, nonces: Sequence[Optional[bytes]]) -> bytes:
    return hashlib.sha256(secret + (nonces[0] or b"") + (nonces[1] or b"")).digest()
