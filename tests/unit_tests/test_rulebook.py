"""The rule book's fast forms against the engine, under every preset and every option.

The searches index ``rulebook.trick_table`` instead of calling the rule book, and take the one option
of the play (``spades_any_time``) through ``spades_free``; the bots and the solver's positions use
``playable_mask``.  Each is checked here against what the reducer does with a real state."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from spades_tui.engine.actions import Play
from spades_tui.engine.cards import CARDS
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rulebook import mask_of, playable_mask, spades_free, trick_table
from spades_tui.engine.rules import PRESETS, Rules
from spades_tui.solver.position import position_from_state
from spades_tui.solver.solver import legal_cards
from tests.support.positions import state_with

EMPTY: frozenset[Any] = frozenset()
TOGGLES: list[dict[str, Any]] = [
    {"spades_any_time": True}, {"nil": False}, {"double_nil": False}, {"nil_tricks_are_bags": True},
    {"see_second_card": True}, {"ten_for_200": True}, {"thirteen_wins": True}, {"nil_points": 50},
    {"double_nil_points": 100}, {"double_nil_behind": 100}, {"losing_score": 200}, {"bag_limit": 0},
]
RULE_SETS = [pytest.param(p.rules, id=name) for name, p in PRESETS.items()] + [
    pytest.param(Rules(**t), id=",".join(t)) for t in TOGGLES]



@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_trick_table_is_the_engines_trick(rules: Rules) -> None:
    """Every lead and answer: who wins and whether spades are broken after it, as the reducer says."""
    wins, breaks, lead_breaks = trick_table()
    rng = random.Random(str(rules))
    for c in range(52):
        for d in range(52):
            if c == d:
                continue
            pad = [x for x in range(52) if x not in (c, d)]
            extra = rng.sample(pad, 2)  # a card more each: the trick is not the hand's last
            for broken in (False, True):
                st = state_with(rules, (frozenset({CARDS[c], CARDS[extra[0]]}), frozenset({CARDS[d], CARDS[extra[1]]})),
                                0, broken)
                if Play(0, CARDS[c]) not in legal_actions(st):
                    continue
                led = reduce(st, Play(0, CARDS[c]))
                assert led.hand is not None and led.hand.spades_broken == (broken or lead_breaks[c])
                if Play(1, CARDS[d]) not in legal_actions(led):
                    continue
                after = reduce(led, Play(1, CARDS[d]))
                assert after.hand is not None
                assert after.hand.trick_winners[-1] == (1 if wins[c][d] else 0), (c, d)
                assert after.hand.spades_broken == (led.hand.spades_broken or breaks[c][d]), (c, d)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_playable_cards_are_the_engines_legal_plays(rules: Rules) -> None:
    """The bots' and the solver's legal cards (``playable_mask`` with ``spades_free``) against
    ``legal_actions``, leading and following, spades broken or not."""
    rng = random.Random(repr(rules))
    for _ in range(400):
        k = rng.randint(1, 8)
        pool = rng.sample(range(52), 2 * k)
        if rng.random() < 0.2:
            pool = rng.sample(range(13), min(13, 2 * k)) + rng.sample(range(13, 52), max(0, 2 * k - 13))
        hands = (frozenset(CARDS[c] for c in pool[:k]), frozenset(CARDS[c] for c in pool[k:2 * k]))
        broken = rng.random() < 0.5
        st = state_with(rules, hands, rng.randint(0, 1), broken)
        if rng.random() < 0.5:
            st = reduce(st, rng.choice(legal_actions(st)))
        h = st.hand
        assert h is not None and h.to_act is not None
        engine = {a.card for a in legal_actions(st) if isinstance(a, Play)}
        lead = h.trick[0].card if h.trick else -1
        mask = playable_mask(mask_of(h.hands[h.to_act]), lead, spades_free(rules, h.spades_broken))
        assert mask == mask_of(engine)
        assert set(legal_cards(position_from_state(st))) == engine


def test_spades_may_be_led_at_once_only_under_spades_any_time() -> None:
    hands = (frozenset({CARDS[0], CARDS[20]}), frozenset({CARDS[1], CARDS[30]}))
    for any_time in (False, True):
        st = state_with(Rules(spades_any_time=any_time), hands, 0, False)
        assert (Play(0, CARDS[0]) in legal_actions(st)) == any_time
        if any_time:  # led, it breaks spades (docs/rules.md 6.5), for the players' information
            after = reduce(st, Play(0, CARDS[0]))
            assert after.hand is not None and after.hand.spades_broken
    assert dataclasses.replace(Rules(), spades_any_time=True).spades_any_time


@pytest.mark.parametrize("rules", [Rules(), *(p.rules for p in PRESETS.values())], ids=lambda r: str(r)[:40])
def test_made_is_what_the_hand_scores(rules: Rules) -> None:
    """``made`` is the one answer to "was the bid made": a made contract or Nil scores above 0 by
    the rule book's own scoring, a set one below, for every bid and every trick count."""
    from spades_tui.engine.rulebook import hand_score, is_nil, made

    for bid in ("double_nil", *range(14)):
        for tricks in range(14):
            line, _ = hand_score(rules, bid, tricks, 0)
            scored = line.nil if is_nil(bid) else line.contract
            assert made(bid, tricks) == (scored > 0), (bid, tricks)
