"""The shuffle neither player chooses (docs/table-protocol.md): commit, nonces, derivation, verification.

For hand k the host draws a 32-byte secret ``s`` and sends ``SHA-256("spades-tui/commit" || s)`` before
anything of the hand is dealt; each remote seat answers with 32 random bytes; the hand's key is then
``h = SHA-256("spades-tui/deal" || s || n0 || n1)`` (protocol 2) and every chance outcome of the hand
follows from ``h`` alone:

- the stock: the 52 card codes sorted by ``HMAC-SHA256(h, "stock:" + code)``, top card first;
- an exchange draw of k cards for player p: the pile sorted by ``HMAC(h, "exchange:p:" + code)``,
  the first k;
- the random cut of hand 1: ``HMAC(h, "cut")[0] & 1``.

The two prefixes keep the commitment and the key apart: in protocol 1 both were plain SHA-256 of
``s``, so a seat that sent no nonce read the key (and the whole stock) from the commitment.
So the host cannot pick the cards (it committed before it saw the nonces) and a client cannot
either (it never sees ``s`` before the hand is scored).  ``reconstruct_hand`` rebuilds a finished
hand from its key and what one seat saw, which gives the client both its check and its review.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from ...engine.actions import Action, Bid, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Play, Shuffle
from ...engine.cards import CARDS, Card
from ...engine.errors import IllegalActionError
from ...engine.observation import Observation, observe
from ...engine.reducer import reduce
from ...engine.rules import Rules
from ...engine.state import GameState, Phase, new_game
from ...session.dealer import Dealer

SECRET_BYTES = 32
NONCE_BYTES = 32
COMMIT_PREFIX = b"spades-tui/commit"
DEAL_PREFIX = b"spades-tui/deal"
# Exactly 64 hex digits: bytes.fromhex alone skips whitespace (64 spaces would be 0 bytes, a seat's "nonce"
# that adds nothing), so the text is matched first.  [0-9a-fA-F] in a str pattern is ASCII only.
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def parse_nonce(text: object) -> Optional[bytes]:
    """A seat's nonce (or a secret) as its 32 bytes, or None unless ``text`` is exactly 64 hex digits."""
    if not isinstance(text, str) or _HEX64.fullmatch(text) is None:
        return None
    return bytes.fromhex(text)


def commitment(secret: bytes) -> str:
    """What the host sends before the hand: hex SHA-256("spades-tui/commit" || s)."""
    return hashlib.sha256(COMMIT_PREFIX + secret).hexdigest()


def hand_key(secret: bytes, nonces: Sequence[Optional[bytes]]) -> bytes:
    """``h = SHA-256("spades-tui/deal" || s || n0 || n1)``; a seat without a nonce adds nothing."""
    return hashlib.sha256(DEAL_PREFIX + secret + (nonces[0] or b"") + (nonces[1] or b"")).digest()


def _mac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode("ascii"), hashlib.sha256).digest()


def stock_order(key: bytes) -> tuple[Card, ...]:
    """The hand's stock, top card first."""
    return tuple(sorted(CARDS, key=lambda c: _mac(key, "stock:" + c.code)))


def exchange_draw(key: bytes, player: int, pile: Sequence[Card], count: int) -> tuple[Card, ...]:
    """The ``count`` cards that ``player`` draws from the discard ``pile``."""
    return tuple(sorted(pile, key=lambda c: _mac(key, f"exchange:{player}:" + c.code))[:count])


def cut(key: bytes) -> int:
    """The first drafter of hand 1 when it is left to chance (with hand 1's key)."""
    return _mac(key, "cut")[0] & 1


class FairDealer(Dealer):
    """The table's dealer: each hand's chance from that hand's key, which the host sets once the
    nonces are in.  Until then it deals nothing, and the step loop waits (``loop.run``)."""

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)  # the seed only seeds the bots' own randomness here
        self.keys: dict[int, bytes] = {}

    def chance_action(self, state: GameState) -> Optional[Action]:
        if state.phase is Phase.SHUFFLE:
            key = self.keys.get(state.hand_number + 1)
            return Shuffle(stock_order(key)) if key is not None else None
        if state.phase is Phase.EXCHANGE_DRAW:
            hand = state.hand
            key = self.keys.get(state.hand_number)
            if hand is None or hand.to_act is None or key is None:
                return None
            player = hand.to_act
            return ExchangeDraw(player, exchange_draw(key, player, sorted(hand.discard), len(hand.set_aside)))
        return None


class ShuffleMismatch(Exception):
    """The revealed shuffle does not give what the seat saw: the host dealt other cards."""


@dataclass(frozen=True)
class Reconstruction:
    """A finished hand rebuilt from its key: every action, and each player's hand at the first lead."""

    first_drafter: int
    actions: tuple[Action, ...]


def _matches(seen: Observation, rebuilt: Observation) -> bool:
    """Every card the seat saw is where the rebuilt hand puts it."""
    return (seen.hand == rebuilt.hand and seen.drawn == rebuilt.drawn and seen.seen_discards == rebuilt.seen_discards
            and seen.trick == rebuilt.trick and seen.tricks == rebuilt.tricks)


def reconstruct_hand(rules: Rules, seat: int, final: Observation, seen: dict[int, Observation],
                     key: bytes) -> Reconstruction:
    """Rebuild hand ``final.hand_number`` from its ``key`` and check it against what ``seat`` saw.

    ``final`` is the seat's observation once the hand was scored (its public facts: the draft's
    takes, the Double Nil declarations, the bids, all 13 tricks); ``seen`` its observations during
    the hand by the number of the hand's actions applied.  A Double Nil exchange (either seat's) is
    what the player drafted less what they played.  Raises ``ShuffleMismatch`` when the cards do not
    fit.
    """
    first = final.first_drafter
    state: GameState = new_game(rules, first)
    actions: list[Action] = []
    played: dict[int, list[Card]] = {0: [], 1: []}
    for trick in final.tricks:
        for pc in trick:
            played[pc.player].append(pc.card)
    plays = [pc for trick in final.tricks for pc in trick]
    draft_log = final.draft_log
    bids = final.bids

    def step(action: Action) -> None:
        nonlocal state
        try:
            state = reduce(state, action)
        except IllegalActionError as exc:
            raise ShuffleMismatch(f"the revealed cards do not fit the hand as it was played ({exc})") from None
        actions.append(action)
        obs = seen.get(len(actions))
        if obs is not None:
            if not _matches(obs, observe(state, seat)):
                raise ShuffleMismatch(f"the cards seen after action {len(actions)} of the hand are not the ones the "
                                      "revealed shuffle deals")

    step(Shuffle(stock_order(key)))
    # The fresh game's hand 1 stands for this hand: same first drafter, same cards and decisions.
    while state.phase not in (Phase.SHUFFLE, Phase.GAME_OVER):
        hand = state.hand
        assert hand is not None
        p = hand.to_act
        phase = state.phase
        assert p is not None
        if phase is Phase.DOUBLE_NIL:
            step(DeclareDoubleNil(p, final.double_nil[p]))
        elif phase is Phase.DRAFT:
            turn = len(hand.draft_log)
            if turn >= len(draft_log):
                raise ShuffleMismatch("the hand's draft is incomplete")
            step(Draft(p, draft_log[turn].take))
        elif phase is Phase.EXCHANGE:
            step(Exchange(p, tuple(sorted(hand.hands[p] - frozenset(played[p])))))
        elif phase is Phase.EXCHANGE_DRAW:
            step(ExchangeDraw(p, exchange_draw(key, p, sorted(hand.discard), len(hand.set_aside))))
        elif phase is Phase.BIDDING:
            bid = bids[p]
            if not isinstance(bid, int):
                raise ShuffleMismatch("the hand's bids are incomplete")
            step(Bid(p, bid))
        elif phase is Phase.PLAY:
            index = len(hand.tricks) * 2 + len(hand.trick)
            if index >= len(plays):
                raise ShuffleMismatch("the hand's tricks are incomplete")
            step(Play(plays[index].player, plays[index].card))
        else:  # pragma: no cover - every phase of a hand is above
            raise ShuffleMismatch(f"unexpected phase {phase}")
    return Reconstruction(first, tuple(actions))


def verify_secret(commit_hex: str, secret: bytes) -> bool:
    return hmac.compare_digest(commitment(secret), commit_hex.lower().encode("ascii", "replace").decode())


__all__ = [
    "COMMIT_PREFIX", "DEAL_PREFIX", "NONCE_BYTES", "SECRET_BYTES", "FairDealer", "Reconstruction", "ShuffleMismatch",
    "commitment", "cut", "exchange_draw", "hand_key", "parse_nonce", "reconstruct_hand", "stock_order",
    "verify_secret",
]
