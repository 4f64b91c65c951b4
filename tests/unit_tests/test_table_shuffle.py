"""The shuffle neither player chooses (docs/table-protocol.md): the derivation, the check, the saved secrets."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from spades_tui.bots.levels import make_bot
from spades_tui.engine.cards import CARDS
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.keep.meta import HandSecret, TableMeta, with_meta
from spades_tui.session import loop
from spades_tui.table.wire.shuffle import (
    FairDealer,
    ShuffleMismatch,
    commitment,
    cut,
    exchange_draw,
    hand_key,
    parse_nonce,
    reconstruct_hand,
    stock_order,
    verify_secret,
)
from tests.support.table_attack import predicted_stock, v1_commitment, v1_hand_key

SECRET = bytes(range(32))
N1 = bytes([7] * 32)


def test_the_derivation_is_the_specs_word_for_word() -> None:
    key = hand_key(SECRET, (None, N1))
    # Protocol 2: the seed and the commitment each under a prefix of their own (their ASCII bytes).
    assert key == hashlib.sha256(b"spades-tui/deal" + SECRET + N1).digest()  # the host's seat adds nothing
    assert hand_key(SECRET, (None, None)) == hashlib.sha256(b"spades-tui/deal" + SECRET).digest()
    spec_stock = sorted((c.code for c in CARDS),
                        key=lambda code: hmac.new(key, ("stock:" + code).encode(), hashlib.sha256).digest())
    assert [c.code for c in stock_order(key)] == spec_stock
    pile = list(CARDS[:10])
    spec_draw = sorted((c.code for c in pile),
                       key=lambda code: hmac.new(key, ("exchange:1:" + code).encode(), hashlib.sha256).digest())[:3]
    assert sorted(c.code for c in exchange_draw(key, 1, pile, 3)) == sorted(spec_draw)
    assert cut(key) == hmac.new(key, b"cut", hashlib.sha256).digest()[0] & 1
    assert commitment(SECRET) == hashlib.sha256(b"spades-tui/commit" + SECRET).hexdigest()
    assert verify_secret(commitment(SECRET), SECRET) and not verify_secret(commitment(SECRET), N1)
    assert verify_secret(commitment(SECRET).upper(), SECRET) and not verify_secret("é" * 64, SECRET)


def test_the_stock_from_commitment_attack_worked_on_protocol_1_and_fails_on_2() -> None:
    """Issue 25: with no nonce from either seat, protocol 1's key was the commitment itself."""
    for secret in (SECRET, N1, bytes(32)):
        old_stock = stock_order(v1_hand_key(secret, (None, None)))
        assert predicted_stock(v1_commitment(secret)) == old_stock  # the attack logic: the whole stock, exactly
        new_stock = stock_order(hand_key(secret, (None, None)))
        assert predicted_stock(commitment(secret)) != new_stock
        # Not a card in place by more than chance: the commitment tells nothing of the key now.
        assert sum(a == b for a, b in zip(predicted_stock(commitment(secret)), new_stock, strict=True)) < 8


def test_a_nonce_is_exactly_64_hex_digits() -> None:
    assert parse_nonce("ab" * 32) == bytes([0xAB] * 32) and parse_nonce("AB" * 32) == bytes([0xAB] * 32)
    for bad in (" " * 64, "ab" * 31 + "  ", " " + "ab" * 31 + "a", "ab" * 32 + "\n", "ab" * 33, "", "zz" * 32,
                "٠" * 64, "ａｂ" * 32, None, 12, ["ab" * 32], True):
        assert parse_nonce(bad) is None, repr(bad)


def test_each_nonce_changes_the_stock() -> None:
    base = stock_order(hand_key(SECRET, (None, N1)))
    assert stock_order(hand_key(SECRET, (None, bytes(32)))) != base
    assert stock_order(hand_key(SECRET, (N1, N1))) != base
    assert sorted(base) == list(CARDS)


def play_hand(rules: Rules, key: bytes, seed: int) -> tuple[GameRecord, list]:
    """One hand dealt by the fair dealer, played by bots (Double Nil always declared by seat 1, so that
    the exchange's draws are exercised); the observations of seat 1 by action index."""
    dealer = FairDealer()
    dealer.keys[1] = key
    record = GameRecord(rules, 0, (PlayerInfo("A"), PlayerInfo("B")))
    state = record.new_state()
    bots = [make_bot("easy", seed), make_bot("easy", seed + 1)]
    for seat, bot in enumerate(bots):
        bot.start(seat, rules)
    seen = []
    actions = []
    while not (state.phase is Phase.SHUFFLE and state.history):
        action = dealer.chance_action(state)
        if action is None:
            seat = state.to_act
            legal = legal_actions(state)
            if state.phase is Phase.DOUBLE_NIL and seat == 1:
                action = next(a for a in legal if getattr(a, "declare", False))
            else:
                action = bots[seat].decide(observe(state, seat), legal)
        state = reduce(state, action)
        actions.append(action)
        seen.append(observe(state, 1))
    return GameRecord(rules, 0, record.players, tuple(actions)), seen


def test_a_hand_is_rebuilt_from_its_key_and_what_one_seat_saw() -> None:
    key = hand_key(SECRET, (None, N1))
    record, seen = play_hand(Rules(), key, 3)
    state = replay(record)
    final = observe(state, 1)
    final = final.__class__(**{**{f: getattr(final, f) for f in final.__dataclass_fields__}, "first_drafter": 0})
    rebuilt = reconstruct_hand(Rules(), 1, final, {i + 1: o for i, o in enumerate(seen)}, key)
    assert rebuilt.actions == record.actions  # the other seat's exchange too: what it drafted less what it played


def test_a_host_that_dealt_other_cards_is_caught() -> None:
    key = hand_key(SECRET, (None, N1))
    other = hand_key(SECRET, (None, bytes(32)))  # dealt with another key than the one revealed
    record, seen = play_hand(Rules(), other, 5)
    final = observe(replay(record), 1)
    final = final.__class__(**{**{f: getattr(final, f) for f in final.__dataclass_fields__}, "first_drafter": 0})
    with pytest.raises(ShuffleMismatch):
        reconstruct_hand(Rules(), 1, final, {i + 1: o for i, o in enumerate(seen)}, key)


def test_the_fair_dealer_waits_for_its_key_and_the_loop_stops() -> None:
    dealer = FairDealer()
    state = GameRecord(Rules(), 0).new_state()
    assert dealer.chance_action(state) is None
    assert loop.run(state, dealer) is state  # chance due, no key: the loop stops instead of asking a seat
    dealer.keys[1] = hand_key(SECRET, (None, None))
    after = loop.run(state, dealer)
    assert after.phase is not Phase.SHUFFLE and after.hand is not None
    assert after.hand.stock[:1] == stock_order(dealer.keys[1])[:1]


def test_the_tables_metadata_reads_back_and_ignores_damage() -> None:
    meta = TableMeta("abcd-efgh-jkmn", 1, "f" * 64, (HandSecret(1, SECRET, (None, N1)), HandSecret(2, N1)))
    record = with_meta(GameRecord(), table=meta.to_json())
    assert TableMeta.of(record) == meta
    assert TableMeta.of(GameRecord()) is None
    assert TableMeta.of(with_meta(GameRecord(), table={"code": 5, "remote": 1})) is None
    damaged = meta.to_json()
    damaged["hands"] = [{"hand": 1, "secret": "zz"}, {"hand": 2, "secret": SECRET.hex(), "nonces": ["1z", None]},
                        HandSecret(3, SECRET).to_json()]
    assert [h.hand for h in TableMeta.of(with_meta(GameRecord(), table=damaged)).hands] == [3]
    assert meta.with_hand(HandSecret(2, SECRET, (None, None))).secret_of(2) == HandSecret(2, SECRET, (None, None))
    random.seed(0)


def test_a_saved_hand_keeps_its_secret_whatever_its_nonces() -> None:
    """Issue 25: a nonce kept as "" (protocol 1 took 64 spaces as 0 bytes) made the whole hand unreadable on
    resume, its secret lost and the hand never revealed."""
    hands = (HandSecret(1, SECRET, (None, b"")), HandSecret(2, SECRET, (None, N1)), HandSecret(3, N1, (None, None)),
             HandSecret(4, N1))
    meta = TableMeta("abcd-efgh-jkmn", 1, "f" * 64, hands)
    back = TableMeta.of(with_meta(GameRecord(), table=meta.to_json()))
    assert back == meta and back.secret_of(1) == HandSecret(1, SECRET, (None, b""))
