"""The position builder of the tests must itself be right, or the rule tests prove little."""

from __future__ import annotations

import random

import pytest

from spades_tui.engine.cards import DECK
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from tests.support.positions import Game, hand, rest, split_hands, stock_for


def test_stock_for_gives_each_player_the_chosen_hand_when_every_turn_takes_the_first_card() -> None:
    a = hand(S="AKQJ", H="T98", D="765", C="432")
    b = hand(S="2345", H="AKQ", D="AKQ", C="AKQ")
    stock = stock_for(a, b)
    assert sorted(stock) == sorted(DECK)
    assert stock[0::4] == a and stock[2::4] == b  # first player stock[0], stock[4], ...
    for first in (0, 1):
        g = Game(Rules(double_nil=first == 0), first_drafter=first).deal((a, b) if first == 0 else (b, a))
        assert g.hand.hands[first] == frozenset(a) and g.hand.hands[1 - first] == frozenset(b)
        assert g.hand.discard == frozenset(rest(a, b))
        assert g.state.phase is Phase.BIDDING


def test_stock_for_refuses_hands_that_are_not_a_deal() -> None:
    with pytest.raises(ValueError):
        stock_for(hand(S="AKQ"), hand(H="AKQ"))


@pytest.mark.parametrize("player", [0, 1])
def test_split_hands_fix_the_trick_count_whatever_the_play(player: int) -> None:
    for tricks in range(14):
        h0, h1 = split_hands(player, tricks)
        assert len(h0) == len(h1) == 13 and not set(h0) & set(h1)
        for first in (0, 1):
            g = Game(first_drafter=first).deal((h0, h1)).bids((1, 1)).play_out()
            assert g.state.history[-1].tricks[player] == tricks
        rng = random.Random(tricks)
        for _ in range(3):  # and under random legal play
            g = Game().deal((h0, h1)).bids((1, 1))
            while g.state.phase is Phase.PLAY:
                g.do(rng.choice(legal_actions(g.state)))
            assert g.state.history[-1].tricks[player] == tricks
