"""One or more tests per numbered rule of docs/rules.md sections 3 to 9, named after the rule.

Positions are built with ``tests.support.positions`` (hands chosen through the stock and
the draft), so every position is reached by legal actions through ``reduce``.
"""

from __future__ import annotations

import copy
import json

import pytest

from spades_tui.engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Play, Shuffle
from spades_tui.engine.cards import DECK, Card
from spades_tui.engine.errors import IllegalActionError
from spades_tui.engine.observation import observe
from spades_tui.engine.reducer import legal_actions, reduce, trick_winner
from spades_tui.engine.rulebook import hand_score
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase, PlayedCard
from tests.support.positions import Game, card, cards, hand, in_play, rest

ORDERED = tuple(sorted(DECK))  # 2S 3S ... AS 2H ... AC


def refused(state: GameState, action: object, message: str) -> None:
    """``action`` is refused with exactly ``message`` and ``state`` is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        reduce(state, action)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert state == before
    assert action not in legal_actions(state)


def obs_cards(state: GameState, player: int) -> set[Card]:
    """Every card named anywhere in the JSON observation of ``player``."""
    found: set[Card] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) == 2:
            try:
                found.add(Card.parse(value))
            except ValueError:
                pass

    walk(json.loads(json.dumps(observe(state, player).to_json())))
    return found


NO_DN = Rules(double_nil=False)


# ---------------------------------------------------------------- 3. the draft


def test_rule_3_1_players_draft_alternately_first_player_first_13_turns_each() -> None:
    g = Game(NO_DN, first_drafter=1).shuffle(ORDERED)
    refused(g.state, Draft(0, "first"), "it is player 1's turn, not player 0's")
    for turn in range(26):
        assert g.state.phase is Phase.DRAFT
        assert g.state.to_act == (1 if turn % 2 == 0 else 0)
        assert len(g.hand.stock) == 52 - 2 * turn
        g.do(Draft(g.state.to_act, "first" if turn % 3 else "second"))
    assert g.hand.stock == ()
    assert [len(h) for h in g.hand.hands] == [13, 13]
    assert [d.player for d in g.hand.draft_log] == [1, 0] * 13
    assert g.state.phase is Phase.BIDDING
    refused(g.state, Draft(0, "first"), "cannot draft now: the game is in the bidding phase")


def test_rule_3_2_take_first_keeps_the_top_card_and_discards_the_next_unseen() -> None:
    g = Game(NO_DN).shuffle(ORDERED)
    top, nxt = ORDERED[0], ORDERED[1]
    assert observe(g.state, 0).drawn == top  # the drafter looks at the top card
    g.do(Draft(0, "first"))
    assert g.hand.hands[0] == {top}
    assert g.hand.discard == {nxt}
    assert nxt not in observe(g.state, 0).seen_discards
    assert nxt not in obs_cards(g.state, 0)  # put on the pile without looking at it


def test_rule_3_2_take_second_discards_the_top_and_keeps_the_next_having_seen_both() -> None:
    g = Game(NO_DN).shuffle(ORDERED).do(Draft(0, "second"))
    top, nxt = ORDERED[0], ORDERED[1]
    assert g.hand.hands[0] == {nxt}
    assert g.hand.discard == {top}
    assert observe(g.state, 0).seen_discards == {top}
    assert obs_cards(g.state, 0) == {top, nxt}


@pytest.mark.parametrize("take", ["first", "second"])
def test_rule_3_3_opponent_sees_which_card_was_taken_never_the_cards(take: str) -> None:
    other = list(ORDERED)
    other[0], other[1], other[40], other[41] = other[40], other[41], other[0], other[1]
    states = [Game(NO_DN).shuffle(stock).do(Draft(0, take)).state for stock in (ORDERED, other)]  # type: ignore[arg-type]
    assert states[0].hand.hands[0] != states[1].hand.hands[0]  # type: ignore[union-attr]
    seen_by_1 = [observe(s, 1) for s in states]
    assert seen_by_1[0] == seen_by_1[1]
    assert [(d.player, d.take) for d in seen_by_1[0].draft_log] == [(0, take)]
    # Player 1 is now drafting: it knows its own top card and nothing of player 0's turn.
    assert obs_cards(states[0], 1) == {ORDERED[2]}


def test_rule_3_4_after_the_draft_13_cards_each_and_26_discards_out_of_play() -> None:
    h0 = hand(S="AKQ", H="AKQJT", C="AKQJT")
    h1 = hand(S="32", H="5432", D="AKQJ", C="432")
    g = in_play((h0, h1))
    assert g.hand.hands == (frozenset(h0), frozenset(h1))
    assert g.hand.discard == frozenset(rest(h0, h1))
    assert len(g.hand.discard) == 26
    refused(g.state, Play(1, card("2D")), "card 2D is not in player 1's hand")  # a discarded card


# ---------------------------------------------------------------- 4. Double Nil


def test_rule_4_1_double_nil_is_decided_blind_at_each_players_first_draft_turn() -> None:
    g = Game(first_drafter=0).shuffle(ORDERED)
    assert g.state.phase is Phase.DOUBLE_NIL and g.state.to_act == 0
    assert observe(g.state, 0).drawn is None and obs_cards(g.state, 0) == set()  # before looking
    assert legal_actions(g.state) == (DeclareDoubleNil(0, False), DeclareDoubleNil(0, True))
    refused(g.state, Draft(0, "first"), "cannot draft now: the game is in the Double Nil decision phase")
    refused(g.state, DeclareDoubleNil(1, True), "it is player 0's turn, not player 1's")
    g.do(DeclareDoubleNil(0, True))
    assert g.state.phase is Phase.DRAFT and observe(g.state, 0).drawn == ORDERED[0]
    g.do(Draft(0, "first"))
    assert g.state.phase is Phase.DOUBLE_NIL and g.state.to_act == 1  # player 1's own first turn
    assert observe(g.state, 1).double_nil == (True, False)  # the declaration is public
    g.do(DeclareDoubleNil(1, True))  # both may declare
    assert observe(g.state, 0).double_nil == (True, True)
    g.do(Draft(1, "first"))
    # Asked once per hand: the later turns are plain draft turns.
    refused(g.state, DeclareDoubleNil(0, True), "cannot decide Double Nil now: the game is in the draft phase")
    for _ in range(24):
        assert g.state.phase is Phase.DRAFT
        g.do(Draft(g.state.to_act, "first"))
    assert g.state.phase is Phase.EXCHANGE


def test_rule_4_1_double_nil_is_asked_again_in_every_hand() -> None:
    g = Game(first_drafter=0).scored_hand(6, (3, 3))
    g.shuffle(ORDERED)
    assert g.state.phase is Phase.DOUBLE_NIL and g.state.to_act == 1  # the new first player
    assert g.hand.double_nil == (None, None)


def test_rule_4_2_double_nil_player_drafts_normally_and_does_not_bid() -> None:
    h0 = hand(S="AKQ", H="AKQJT", C="AKQJT")
    h1 = hand(S="32", H="5432", D="AKQJ", C="432")
    g = Game(first_drafter=0).deal((h0, h1), double_nil=(True, False))
    assert g.hand.hands[0] == frozenset(h0)  # drafted normally: 13 cards
    g.skip_exchanges()
    assert g.state.phase is Phase.BIDDING and g.state.to_act == 1
    refused(g.state, Bid(0, 0), "it is player 1's turn, not player 0's")
    g.do(Bid(1, 4))
    assert g.state.phase is Phase.PLAY  # player 0 does not bid
    refused(g.state, Bid(0, 0), "cannot bid now: the game is in the play phase")
    assert observe(g.state, 1).bids == ("double_nil", 4)


def test_rule_4_3_exchange_second_player_first_up_to_three_from_the_discard_pile() -> None:
    h0 = hand(S="AKQ", H="AKQJT", C="AKQJT")
    h1 = hand(S="32", H="5432", D="AKQJ", C="432")
    pile = rest(h0, h1)
    g = Game(first_drafter=0).deal((h0, h1), double_nil=(True, True))
    assert g.state.phase is Phase.EXCHANGE and g.state.to_act == 1  # the second player first
    refused(g.state, Exchange(0, ()), "it is player 1's turn, not player 0's")
    refused(g.state, Exchange(1, cards("AD KD QD JD")), "player 1 may exchange at most 3 cards, not 4")
    refused(g.state, Exchange(1, cards("AS")), "card AS is not in player 1's hand")
    refused(g.state, Exchange(1, cards("AD AD")), "the same card is listed twice in the exchange")
    aside = cards("AD KD QD")
    assert Exchange(1, cards("QD AD KD")) == Exchange(1, aside)  # a set of cards: order does not matter
    assert Exchange(1, cards("QD AD KD")) in legal_actions(g.state)
    assert len(legal_actions(g.state)) == 1 + 13 + 78 + 286  # 0 to 3 of 13 cards
    g.do(Exchange(1, aside))
    assert g.state.phase is Phase.EXCHANGE_DRAW and g.state.to_act is None  # chance is due
    assert legal_actions(g.state) == ()
    assert not set(aside) & g.hand.hands[1]
    refused(g.state, ExchangeDraw(1, pile[:2]), "player 1 set aside 3 cards and must draw as many, not 2")
    refused(g.state, ExchangeDraw(1, (*pile[:2], aside[0])), "card AD is not in the discard pile")
    refused(g.state, ExchangeDraw(0, pile[:3]), "the exchange draw is for player 1, not player 0")
    refused(g.state, Exchange(1, ()), "cannot exchange now: the game is in the exchange draw phase")
    g.do(ExchangeDraw(1, pile[:3]))
    assert g.hand.hands[1] == (frozenset(h1) - set(aside)) | set(pile[:3])
    assert g.hand.discard == (frozenset(pile) - set(pile[:3])) | set(aside)  # set-aside cards join the pile
    assert g.state.phase is Phase.EXCHANGE and g.state.to_act == 0
    # Player 0 learns how many, not which.
    assert observe(g.state, 0).exchanged == (None, 3)
    assert obs_cards(g.state, 0) == set(h0)
    # Player 0 may draw the cards player 1 put back.
    g.do(Exchange(0, cards("TC")), ExchangeDraw(0, aside[:1]))
    assert aside[0] in g.hand.hands[0]
    assert g.state.phase is Phase.PLAY and g.state.to_act == 1  # nobody bids: both Double Nil


def test_rule_4_3_an_empty_exchange_ends_it_without_a_draw() -> None:
    g = Game(first_drafter=1).scored_hand(0, (3, 3))  # hand 2: player 0 is first
    g.deal(((hand(H="AKQJT98765432")), hand(D="AKQJT98765432")), double_nil=(False, True))
    assert g.state.phase is Phase.EXCHANGE and g.state.to_act == 1
    g.do(Exchange(1, ()))
    assert g.hand.exchanged == (None, 0)
    assert g.state.phase is Phase.BIDDING and g.state.to_act == 0  # only player 0 bids


def test_rule_4_4_double_nil_scores_200_without_a_trick_and_minus_200_with_one() -> None:
    g = Game(first_drafter=0).scored_hand(13, (5, "double_nil"))
    assert g.state.history[-1].lines[1].nil == 200 and g.state.history[-1].points == (50 + 8, 200)
    g = Game(first_drafter=0).scored_hand(12, (5, "double_nil"))
    assert g.state.history[-1].points == (50 + 7, -200)
    g = Game(first_drafter=1).scored_hand(0, ("double_nil", 3))
    assert g.state.history[-1].points == (200, 30 + 10 - 100)  # 10 bags: the penalty too
    assert g.state.history[-1].bids == ("double_nil", 3)


# ---------------------------------------------------------------- 5. bidding


@pytest.mark.parametrize("first", [0, 1])
def test_rule_5_1_the_second_player_bids_first_and_sees_the_bid(first: int) -> None:
    second = 1 - first
    g = Game(first_drafter=first).deal((hand(H="AKQJT98765432"), hand(D="AKQJT98765432")))
    assert g.state.phase is Phase.BIDDING and g.state.to_act == second
    refused(g.state, Bid(first, 3), f"it is player {second}'s turn, not player {first}'s")
    g.do(Bid(second, 4))
    assert g.state.to_act == first
    assert observe(g.state, first).bids == tuple(4 if p == second else None for p in (0, 1))


def test_rule_5_2_a_bid_is_0_to_13_no_pass_and_need_not_rise() -> None:
    g = Game(first_drafter=0).deal((hand(H="AKQJT98765432"), hand(D="AKQJT98765432")))
    assert legal_actions(g.state) == tuple(Bid(1, n) for n in range(14))  # no pass
    refused(g.state, Bid(1, 14), "a bid must be 0 to 13 tricks, not 14")
    refused(g.state, Bid(1, -1), "a bid must be 0 to 13 tricks, not -1")
    g.do(Bid(1, 13))
    assert Bid(0, 0) in legal_actions(g.state) and Bid(0, 13) in legal_actions(g.state)
    g.do(Bid(0, 2))  # lower than the other bid
    assert g.hand.bids == (2, 13)


def test_rule_5_2_a_bid_of_0_is_nil() -> None:
    g = Game().scored_hand(0, (0, 4))
    line = g.state.history[-1].lines[0]
    assert (line.nil, line.contract) == (100, 0)


def test_rule_5_3_a_double_nil_player_does_not_bid() -> None:
    g = Game(first_drafter=0).deal((hand(H="AKQJT98765432"), hand(D="AKQJT98765432")), double_nil=(False, True))
    g.skip_exchanges()
    assert g.state.phase is Phase.BIDDING and g.state.to_act == 0  # player 1 (second) is skipped
    assert all(a.player == 0 for a in legal_actions(g.state))
    g.do(Bid(0, 5))
    assert g.state.phase is Phase.PLAY and g.hand.bids == (5, None)


# ---------------------------------------------------------------- 6. play

H0 = hand(S="AKQ", H="AKQJT", C="AKQJT")  # void in diamonds
H1 = hand(S="32", H="5432", D="AKQJ", C="432")


def test_rule_6_1_the_second_player_leads_the_first_trick_and_the_winner_leads_next() -> None:
    g = in_play((H0, H1), first_drafter=0)
    assert g.state.to_act == 1
    refused(g.state, Play(0, card("AH")), "it is player 1's turn, not player 0's")
    g.play("2H", "AH")  # player 0 wins
    assert g.hand.trick_winners == (0,) and g.state.to_act == 0
    g.play("TC", "2C")
    g.play("KC", "3C")
    assert g.state.to_act == 0
    g2 = in_play((H1, H0), first_drafter=1)  # now player 0 is second
    assert g2.state.to_act == 0
    g2.play("AD", "TC")  # the leader wins: a club does not follow diamonds
    assert g2.state.to_act == 0
    g2.play("KD", "AS")
    assert g2.state.to_act == 1


def test_rule_6_2_must_follow_suit_if_able() -> None:
    g = in_play((H0, H1))
    g.play("2H")
    assert {a.card for a in legal_actions(g.state)} == set(hand(H="AKQJT"))  # type: ignore[union-attr]
    refused(g.state, Play(0, card("AC")), "player 0 must follow suit (hearts)")
    refused(g.state, Play(0, card("AS")), "player 0 must follow suit (hearts)")
    g.play("TH")


def test_rule_6_2_a_player_void_in_the_suit_led_may_play_any_card() -> None:
    g = in_play((H0, H1)).play("AD")
    assert {a.card for a in legal_actions(g.state)} == set(H0)  # type: ignore[union-attr]
    g.play("TC")  # not a spade: allowed too
    assert g.hand.trick_winners == (1,)


def test_rule_6_3_the_highest_spade_wins_else_the_higher_card_of_the_suit_led() -> None:
    def w(lead: str, follow: str) -> int:
        return trick_winner((PlayedCard(0, card(lead)), PlayedCard(1, card(follow))))

    assert w("2H", "3H") == 1 and w("3H", "2H") == 0
    assert w("2H", "AC") == 0  # off suit, no spade: the suit led wins
    assert w("AH", "2S") == 1  # a spade beats any other suit
    assert w("3S", "2S") == 0 and w("2S", "AS") == 1 and w("2S", "AH") == 0
    assert w("TD", "JD") == 1 and w("KC", "QD") == 0
    # and through the reducer: a ruff wins, the higher heart wins
    g = in_play((H0, H1)).play("AD", "QS")
    assert g.hand.trick_winners == (0,) and g.hand.tricks_won == (1, 0)
    g = in_play((H0, H1)).play("5H", "TH")
    assert g.hand.trick_winners == (0,)


def test_rule_6_4_spades_led_only_when_broken_or_only_spades() -> None:
    g = in_play((H0, H1))
    assert not any(a.card.suit == 0 for a in legal_actions(g.state))  # type: ignore[union-attr]
    refused(g.state, Play(1, card("3S")), "player 1 may not lead a spade: spades are not broken")
    # Once broken (a ruff), a spade may be led by a player who holds other suits.
    g.play("AD", "QS")
    assert g.hand.spades_broken and g.state.to_act == 0
    g.play("KS")
    assert g.hand.trick[0].card == card("KS")


def test_rule_6_4_a_leader_holding_only_spades_may_lead_one() -> None:
    g = in_play((hand(H="AKQJT98765432"), hand(S="AKQJT98765432")))
    assert not g.hand.spades_broken and g.state.to_act == 1
    assert {a.card for a in legal_actions(g.state)} == set(hand(S="AKQJT98765432"))  # type: ignore[union-attr]
    g.play("2S")
    assert g.hand.spades_broken  # 6.5: a spade led breaks spades


def test_rule_6_5_spades_break_when_a_spade_is_played_to_another_suit_and_stay_broken() -> None:
    g = in_play((H0, H1)).play("AD", "TC")  # a discard that is not a spade breaks nothing
    assert not g.hand.spades_broken
    assert not observe(g.state, 0).spades_broken
    g.play("KD", "AS")
    assert g.hand.spades_broken and observe(g.state, 1).spades_broken
    g.play("AH", "2H", "KH", "3H")  # tricks without spades: still broken
    assert g.hand.spades_broken
    g.play_out()
    g.shuffle(ORDERED)
    assert not g.hand.spades_broken  # a new hand starts unbroken


def test_rule_6_5_a_spade_played_on_a_spade_lead_breaks_nothing_new() -> None:
    # Leading spades from an all-spade hand is the only unbroken spade lead (6.4); it breaks them.
    g = in_play((hand(S="AKQJT98765432"), hand(H="AKQJT98765432")), first_drafter=1)
    assert g.state.to_act == 0 and not g.hand.spades_broken
    g.play("2S", "2H")
    assert g.hand.spades_broken


def test_rule_6_6_a_void_player_may_play_a_spade_on_the_first_trick() -> None:
    g = in_play((H0, H1)).play("AD")
    assert len(g.hand.tricks) == 0  # the first trick
    assert Play(0, card("QS")) in legal_actions(g.state)
    g.play("QS")
    assert g.hand.trick_winners == (0,)


def test_rule_6_7_the_trick_count_of_each_player_is_public() -> None:
    g = in_play((H0, H1)).play("AD", "TC", "KD", "AS", "AH", "2H")
    assert g.hand.tricks_won == (2, 1)
    for p in (0, 1):
        o = observe(g.state, p)
        assert o.tricks_won == (2, 1)
        assert [[(pc.player, pc.card.code) for pc in t] for t in o.tricks] == [
            [(1, "AD"), (0, "TC")],
            [(1, "KD"), (0, "AS")],
            [(0, "AH"), (1, "2H")],
        ]
        assert o.to_json()["tricks_won"] == [2, 1]


# ---------------------------------------------------------------- 7. scoring


def test_rule_7_1_contract_made_scores_10_per_bid_plus_1_per_bag() -> None:
    line, bags = hand_score(Rules(), 7, 8, 0)  # the rulebook's example
    assert (line.points, line.contract, line.overtricks, bags) == (71, 70, 1, 1)
    line, bags = hand_score(Rules(), 4, 4, 3)
    assert (line.points, bags) == (40, 3)
    g = Game().scored_hand(8, (7, 3))
    assert g.state.history[-1].points == (71, 32)
    assert g.state.bags == (1, 2) and g.state.scores == (71, 32)


def test_rule_7_1_contract_failed_scores_minus_10_per_bid_and_no_bags() -> None:
    line, bags = hand_score(Rules(), 5, 4, 2)  # the rulebook's example
    assert (line.points, bags) == (-50, 2)
    g = Game().scored_hand(4, (5, 10))
    assert g.state.history[-1].points == (-50, -100)
    assert g.state.bags == (0, 0)


def test_rule_7_2_nil_scores_100_or_minus_100_and_its_tricks_are_not_bags() -> None:
    assert hand_score(Rules(), 0, 0, 0)[0].points == 100
    line, bags = hand_score(Rules(), 0, 3, 4)
    assert (line.points, line.overtricks, bags) == (-100, 0, 4)
    g = Game().scored_hand(2, (0, 4))
    assert g.state.history[-1].points == (-100, 40 + 7)
    assert g.state.bags == (0, 7)


def test_rule_7_3_double_nil_tricks_are_treated_as_for_nil() -> None:
    line, bags = hand_score(Rules(), "double_nil", 3, 4)
    assert (line.points, line.nil, bags) == (-200, -200, 4)
    assert hand_score(Rules(), "double_nil", 0, 4)[0].points == 200
    line, bags = hand_score(Rules(nil_tricks_are_bags=True), "double_nil", 3, 4)
    assert (line.points, bags) == (-200, 7)


def test_rule_7_4_sandbagging_3_plus_3_plus_5_bags_costs_100_and_leaves_1() -> None:
    rules = Rules()
    bags = 0
    points = []
    for tricks in (6, 6, 8):  # bid 3 each time: 3, 3 and 5 bags
        line, bags = hand_score(rules, 3, tricks, bags)
        points.append(line.points)
    assert points == [33, 33, 35 - 100] and bags == 1
    # The same through three whole hands.
    g = Game()
    for tricks in (6, 6, 8):
        g.scored_hand(tricks, (3, 3))
    h = g.state.history
    assert [r.bags_after[0] for r in h] == [3, 6, 1]
    assert h[-1].lines[0].bag_penalty == -100 and h[-1].points[0] == -65
    # Player 1 won 7, 7, 5 on bids of 3: 4 + 4 + 2 bags reach 10 exactly, which counts.
    assert [r.bags_after[1] for r in h] == [4, 8, 0] and h[-1].points[1] == 32 - 100
    assert g.state.scores == (33 + 33 - 65, 34 + 34 - 68)


def test_rule_7_4_each_time_the_limit_is_reached_costs_a_penalty() -> None:
    line, bags = hand_score(Rules(bag_limit=5), 1, 13, 1)  # 1 + 12 bags = 13: twice 5
    assert (line.bag_penalty, bags) == (-200, 3)
    assert line.points == 10 + 12 - 200


def test_rule_7_5_hand_points_include_penalties_and_scores_may_go_below_zero() -> None:
    g = Game().scored_hand(2, (5, 3))
    r = g.state.history[-1]
    assert r.points == (-50, 30 + 8) and g.state.scores == (-50, 38)
    assert g.state.phase is Phase.SHUFFLE and g.state.winner is None
    g.scored_hand(0, (4, 0))
    r = g.state.history[-1]
    for p in (0, 1):
        line = r.lines[p]
        assert r.points[p] == line.contract + line.overtricks + line.nil + line.bag_penalty
    assert g.state.scores == (-50 - 40, 38 - 100)


# ---------------------------------------------------------------- 8. end of the game


def test_rule_8_1_both_over_the_target_the_higher_score_wins() -> None:
    g = Game(Rules(target=15, bag_limit=0)).scored_hand(11, (2, 2))  # 29 and 20
    assert g.state.scores == (29, 20)
    assert g.state.phase is Phase.GAME_OVER and g.state.winner == 0 and g.state.to_act is None
    refused(g.state, Shuffle(ORDERED), "the game is over; no action is legal")
    assert legal_actions(g.state) == ()
    g = Game(Rules(target=15, bag_limit=0)).scored_hand(2, (2, 2))  # 20 and 29
    assert g.state.winner == 1


def test_rule_8_1_one_player_at_the_target_wins() -> None:
    g = Game(Rules(target=25, bag_limit=0)).scored_hand(11, (2, 2))
    assert g.state.scores == (29, 20) and g.state.winner == 0
    g = Game(Rules(target=29, bag_limit=0)).scored_hand(2, (2, 2))  # exactly the target
    assert g.state.winner == 1


def test_rule_8_2_equal_scores_over_the_target_play_another_hand() -> None:
    g = Game(Rules(target=20, bag_limit=0)).scored_hand(11, (1, 2))
    assert g.state.scores == (20, 20)
    assert g.state.phase is Phase.SHUFFLE and g.state.winner is None
    g.scored_hand(2, (2, 1))  # equal again: 40 and 40
    assert g.state.scores == (40, 40) and g.state.winner is None
    g.scored_hand(5, (3, 3))  # 32 and 35: unequal, over the target
    assert g.state.scores == (72, 75)
    assert g.state.phase is Phase.GAME_OVER and g.state.winner == 1
    assert len(g.state.history) == 3


def test_rule_8_3_otherwise_the_next_hand_is_played_with_roles_swapped() -> None:
    g = Game(first_drafter=1).scored_hand(8, (7, 3))
    assert g.state.phase is Phase.SHUFFLE and g.state.winner is None and g.state.to_act is None
    g.scored_hand(8, (7, 3))
    g.scored_hand(8, (7, 3))
    assert [r.first_drafter for r in g.state.history] == [1, 0, 1]
    g.shuffle(ORDERED)
    assert g.hand.first == 0 and g.state.to_act == 0 and g.state.hand_number == 4


# ---------------------------------------------------------------- 9. rule options


def test_rule_9_target_option_sets_the_score_that_ends_the_game() -> None:
    assert Game().scored_hand(13, (13, 0)).state.winner is None  # 130 + -100: far from 500
    g = Game(Rules(target=130)).scored_hand(13, (13, 0))
    assert g.state.scores == (130, 100) and g.state.winner == 0


def test_rule_9_bag_limit_option() -> None:
    g = Game(Rules(bag_limit=5)).scored_hand(8, (3, 3))
    assert g.state.history[-1].lines[0].bag_penalty == -100 and g.state.bags == (0, 2)
    g = Game(Rules(bag_limit=0)).scored_hand(13, (1, 0))  # 0: sandbagging off
    assert g.state.history[-1].points == (22, 100) and g.state.bags == (12, 0)
    g.scored_hand(13, (1, 0))
    assert g.state.bags == (24, 0) and g.state.scores == (44, 200)


def test_rule_9_bag_penalty_option() -> None:
    g = Game(Rules(bag_limit=5, bag_penalty=50)).scored_hand(8, (3, 3))
    assert g.state.history[-1].points[0] == 30 + 5 - 50


def test_rule_9_nil_option_off_makes_the_lowest_bid_1() -> None:
    rules = Rules(nil=False)
    assert rules.min_bid == 1
    g = Game(rules).deal((hand(H="AKQJT98765432"), hand(D="AKQJT98765432")))
    assert legal_actions(g.state) == tuple(Bid(1, n) for n in range(1, 14))
    refused(g.state, Bid(1, 0), "Nil bids are not allowed under these rules; bid 1 to 13")


def test_rule_9_double_nil_option_off_asks_nobody() -> None:
    g = Game(NO_DN).shuffle(ORDERED)
    assert g.state.phase is Phase.DRAFT
    refused(g.state, DeclareDoubleNil(0, True), "Double Nil is not allowed under these rules")
    g.draft("first")
    assert g.state.phase is Phase.BIDDING and g.hand.double_nil == (None, None)


def test_rule_9_nil_tricks_are_bags_option() -> None:
    g = Game(Rules(nil_tricks_are_bags=True)).scored_hand(2, (0, 4))
    assert g.state.history[-1].points == (-100, 47)  # bags, but not points
    assert g.state.bags == (2, 7)
    g = Game(Rules(nil_tricks_are_bags=True)).scored_hand(11, (4, "double_nil"))
    assert g.state.history[-1].points == (47, -200) and g.state.bags == (7, 2)


def test_rule_9_see_second_card_option() -> None:
    g = Game(Rules(double_nil=False, see_second_card=True)).shuffle(ORDERED)
    g.do(Draft(0, "first"))
    assert observe(g.state, 0).seen_discards == {ORDERED[1]}
    assert ORDERED[1] not in obs_cards(g.state, 1)
    g.do(Draft(1, "second"))
    assert observe(g.state, 1).seen_discards == {ORDERED[2]}


def test_rule_9_options_are_validated() -> None:
    from spades_tui.engine.errors import RulesError

    with pytest.raises(RulesError, match="target must be 1 to 10000, not 0"):
        Rules(target=0)
    with pytest.raises(RulesError, match="nil must be true or false"):
        Rules(nil=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="bag_limit must be a whole number"):
        Rules(bag_limit=True)
    with pytest.raises(RulesError, match="unknown rule option 'trumps'"):
        Rules.from_json({"trumps": "hearts"})
    assert Rules.parse_assignments("target=300, nil=off") == Rules(target=300, nil=False)


# ---------------------------------------------------------------- illegal actions


def test_illegal_actions_are_refused_in_plain_words_and_leave_the_state_alone() -> None:
    g = Game(NO_DN)
    refused(g.state, Draft(0, "first"), "cannot draft now: the game is in the shuffle phase")
    refused(g.state, Shuffle(ORDERED[:51]), "a shuffle must list each of the 52 cards exactly once")
    refused(g.state, Shuffle((*ORDERED[:51], ORDERED[0])), "a shuffle must list each of the 52 cards exactly once")
    refused(g.state, Play(0, card("AS")), "cannot play a card now: the game is in the shuffle phase")
    refused(g.state, Bid(0, 3), "cannot bid now: the game is in the shuffle phase")
    refused(g.state, Draft(0, "third"), "cannot draft now: the game is in the shuffle phase")  # type: ignore[arg-type]
    g.shuffle(ORDERED)
    refused(g.state, Draft(0, "third"), "take must be 'first' or 'second', not 'third'")  # type: ignore[arg-type]
    refused(g.state, Shuffle(ORDERED), "cannot shuffle now: the game is in the draft phase")
    refused(g.state, Exchange(0, ()), "cannot exchange now: the game is in the draft phase")
    refused(g.state, ExchangeDraw(0, ()), "cannot draw exchange cards now: the game is in the draft phase")
    g = in_play((H0, H1))
    refused(g.state, Play(1, Card(60)), "card number 60 is not in player 1's hand")
    refused(g.state, Play(1, card("AS")), "card AS is not in player 1's hand")
    refused(g.state, Bid(1, 3), "cannot bid now: the game is in the play phase")
