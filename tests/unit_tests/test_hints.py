"""The hint engine: legal recommendations in every phase, no hidden card used, sensible advice."""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

import pytest

from spades_tui.bots.hints import Hint, Option, hint
from spades_tui.engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, Play
from spades_tui.engine.observation import observe
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.session.randomplay import random_game
from tests.support.positions import Game, card, cards, hand, rest

KIND_OF = {
    Phase.DOUBLE_NIL: "double_nil",
    Phase.DRAFT: "draft",
    Phase.EXCHANGE: "exchange",
    Phase.BIDDING: "bidding",
    Phase.PLAY: "play",
}


def decision_states(seed: int, rules: Rules, hands: int = 1) -> list[GameState]:
    """Every state of a random game (``hands`` hands) where a player must decide, by replaying prefixes."""
    record, _ = random_game(seed, rules, first_drafter=seed % 2, max_hands=hands)
    state = record.new_state()
    out = []
    for action in record.actions:
        if state.to_act is not None:
            out.append(state)
        state = reduce(state, action)
    return out


def _hint(state: GameState, seed: int = 0, samples: int = 3) -> Hint:
    seat = state.to_act
    assert seat is not None
    return hint(observe(state, seat), legal_actions(state), seed, samples=samples)


def _percent(text: str) -> int:
    found = re.search(r"(\d+)%", text)
    assert found, text
    return int(found.group(1))


# ---------------------------------------------------------------- always legal


RULE_SETS = [Rules(), Rules(nil=False), Rules(double_nil=False)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "no-nil", "no-dn"])
def test_the_recommended_action_is_legal_in_every_phase(rules: Rules) -> None:
    kinds: set[str] = set()
    for seed in (1, 2, 3):
        states = decision_states(seed, rules, hands=2)
        # Every Double Nil, exchange and bidding decision; a spread of draft and play ones.
        picked = [s for s in states if s.phase in (Phase.DOUBLE_NIL, Phase.EXCHANGE, Phase.BIDDING)]
        picked += [s for s in states if s.phase is Phase.DRAFT][::5]
        picked += [s for s in states if s.phase is Phase.PLAY][::2]
        for state in picked:
            legal = legal_actions(state)
            got = _hint(state, seed, samples=2)
            assert got.kind == KIND_OF[state.phase]
            assert got.recommended in legal
            assert got.options and all(o.action in legal for o in got.options)
            assert got.summary and all(o.label and o.detail for o in got.options)
            assert got.options[0].action == got.recommended
            check_consistent(got)
            if not rules.nil and state.phase is Phase.BIDDING:
                assert all(o.label != "Nil" for o in got.options)
            kinds.add(got.kind)
    expected = {"draft", "bidding", "play"} | ({"double_nil", "exchange"} if rules.double_nil else set())
    assert kinds == expected


def _figure(option: Option) -> float:
    found = re.search(r"([-+]?\d+)", option.figure)
    assert found, option
    return float(found.group(1))


def check_consistent(got: Hint) -> None:
    """The recommendation is the best by the numbers the hint shows, in the measure it names; ties are
    said as ties."""
    if len(got.options) == 1 and not got.measure:
        return  # the only legal choice
    assert got.measure in ("chance to win the game", "chance Double Nil makes", "expected points of the final hand",
                           "expected margin of the hand (your points less theirs, bags charged)")
    figures = [(_figure(o), *o.tie_values) for o in got.options]  # ranked by the figures shown, in order
    assert figures == sorted(figures, reverse=True), [got.line(o) for o in got.options]
    assert all(o.score.endswith(o.figure) and o.score in got.line(o) for o in got.options)
    assert all(f in o.detail for o in got.options for f in o.tie_shown)  # the tie-breaking figures are shown
    best = got.options[0]
    tied = [o.action for o in got.options[1:] if o.score == best.score and o.tie_shown == best.tie_shown]
    assert list(got.tied) == tied
    level = [o for o in got.options[1:] if o.score == best.score and o.tie_shown != best.tie_shown]
    # Each choice is named once, in the list: the summary names none but the one recommended (issue 51).
    assert not any(o.label in got.summary for o in got.options[1:] if o.label not in best.label)
    if tied:  # the summary counts the tied choices, the first of the list, and names none
        n = 1 + len(tied)
        which = "both choices" if n == len(got.options) == 2 else "all the choices" if n == len(got.options) \
            else f"the first {n} choices"
        assert got.summary.startswith(f"A tie, {best.score}: {which} below show the same; Enter takes the first")
    elif level:  # the score ties, a later figure breaks it: the hint says which, and no tie
        assert "tie" not in got.summary and "level with the next choice; " in got.summary
        assert " decides (" in got.summary
    else:
        assert got.summary.startswith(f"{got.options[0].label}: ") and "tie" not in got.summary
        assert got.summary.removesuffix(" (margin: your points less theirs)").endswith(got.options[0].figure)


def test_a_single_legal_action_is_the_hint_at_once() -> None:
    g = _last_two_tricks(bid=1).play("6D")  # player 0 wins and leads the last card: one choice
    state = g.state
    assert len(legal_actions(state)) == 1
    got = _hint(state)
    assert got.recommended == legal_actions(state)[0]
    assert len(got.options) == 1


def test_same_seed_and_samples_give_the_same_hint() -> None:
    state = next(s for s in decision_states(4, Rules()) if s.phase is Phase.PLAY and len(legal_actions(s)) > 2)
    assert _hint(state, seed=5, samples=4) == _hint(state, seed=5, samples=4)


# ---------------------------------------------------------------- hidden information


def _swap_hidden(state: GameState, seat: int) -> Optional[GameState]:
    """The same state with two deep stock cards, or one opponent card and one unseen
    discard, exchanged: nothing the seat may know changes (as in test_bots)."""
    hand_ = state.hand
    assert hand_ is not None
    opp = 1 - seat
    if state.phase in (Phase.DRAFT, Phase.DOUBLE_NIL) and len(hand_.stock) >= 6:
        stock = list(hand_.stock)
        stock[3], stock[5] = stock[5], stock[3]
        return dataclasses.replace(state, hand=dataclasses.replace(hand_, stock=tuple(stock)))
    unseen = sorted(hand_.discard - hand_.seen_discards[seat])
    theirs = sorted(hand_.hands[opp])
    if not unseen or not theirs:
        return None
    a, b = theirs[0], unseen[-1]
    hands = list(hand_.hands)
    hands[opp] = (hand_.hands[opp] - {a}) | {b}
    new_hand = dataclasses.replace(hand_, hands=(hands[0], hands[1]), discard=(hand_.discard - {b}) | {a})
    return dataclasses.replace(state, hand=new_hand)


def test_states_differing_only_in_hidden_cards_get_the_same_hint() -> None:
    compared: dict[Phase, int] = {}
    for seed in (5, 6, 7):
        for state in decision_states(seed, Rules()):
            seat = state.to_act
            assert seat is not None
            if compared.get(state.phase, 0) >= 4 or len(legal_actions(state)) < 2:
                continue
            other = _swap_hidden(state, seat)
            if other is None or other == state:
                continue
            assert observe(other, seat) == observe(state, seat)
            assert legal_actions(other) == legal_actions(state)
            assert _hint(state, seed=9, samples=4) == _hint(other, seed=9, samples=4)
            compared[state.phase] = compared.get(state.phase, 0) + 1
    assert {Phase.DOUBLE_NIL, Phase.DRAFT, Phase.BIDDING, Phase.PLAY} <= set(compared)
    assert sum(compared.values()) >= 14


# ---------------------------------------------------------------- sanity


def _bidding(mine: tuple, theirs: tuple, rules: Optional[Rules] = None) -> GameState:  # type: ignore[type-arg]
    """Player 0 holds ``mine`` and bids first (player 1 drafted first)."""
    g = Game(rules, first_drafter=1).deal((mine, theirs)).skip_exchanges()
    assert g.state.phase is Phase.BIDDING and g.state.to_act == 0
    return g.state


def test_a_hand_of_top_spades_and_aces_bids_high() -> None:
    mine = hand(S="AKQJT9", H="AK", D="AK", C="AKQ")
    theirs = hand(S="8765", H="QJT9", D="QJT", C="JT")
    got = _hint(_bidding(mine, theirs), samples=12)
    assert isinstance(got.recommended, Bid) and got.recommended.tricks >= 10
    # Ranked by the hand's expected margin, as the expert bids; each bid's chance of making beside it.
    # "margin" said what it is where it is shown; the points "on average", a word that needs no explaining
    assert "best margin, ≈ +" in got.summary and got.summary.endswith(" (margin: your points less theirs)")
    assert all("%" in o.detail and o.detail.endswith(" points on average") for o in got.options)
    assert all(o.score.startswith("margin ≈ ") for o in got.options)
    nil = next(o for o in got.options if o.label == "Nil")
    assert _percent(nil.detail) == 0


def test_a_low_hand_without_spades_makes_nil_likely() -> None:
    mine = hand(H="5432", D="5432", C="65432")
    theirs = hand(S="AKQJT98", H="AK", D="AK", C="AK")
    got = _hint(_bidding(mine, theirs), samples=12)
    nil = next(o for o in got.options if o.label == "Nil")
    # The expert's rule counts every deal half a trick over for a Nil: a Nil every deal makes shows 50%.
    assert _percent(nil.detail) == 50
    assert got.recommended == Bid(0, 0)
    assert got.summary.startswith("Nil: best margin, ≈ ")


def test_without_nil_the_low_hand_bids_one() -> None:
    mine = hand(H="5432", D="5432", C="65432")
    theirs = hand(S="AKQJT98", H="AK", D="AK", C="AK")
    got = _hint(_bidding(mine, theirs, Rules(nil=False)), samples=6)
    assert got.recommended == Bid(0, 1)


def _last_two_tricks(bid: int) -> Game:
    """Player 1 leads clubs for eleven tricks and wins them all, then leads 5♦ to player 0,
    who holds 6♦ 4♦ (the opponent keeps A♥): 6♦ wins both last tricks, 4♦ neither."""
    mine = cards("2C 3C KH QH JH TH 9H 8H 7H 6H 5H 6D 4D")
    theirs = cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 5D AH")
    g = Game(first_drafter=0).deal((mine, theirs)).bids((bid, 11))
    discards = iter(["2C", "3C", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H"])
    for lead in ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C"]:
        g.play(lead, next(discards))
    return g.play("5D")


def test_in_play_the_card_that_wins_the_last_tricks_is_recommended_when_tricks_are_needed() -> None:
    state = _last_two_tricks(bid=1).state
    assert state.to_act == 0 and {a.card for a in legal_actions(state)} == {card("6D"), card("4D")}  # type: ignore[union-attr]
    got = _hint(state, samples=8)
    assert got.recommended == Play(0, card("6D"))
    assert "%" in got.summary and all("%" in o.detail for o in got.options)
    assert _percent(got.options[0].detail) == 100  # 6♦ makes the contract on every deal
    assert _percent(got.options[1].detail) < 100


def test_in_play_a_nil_bidder_is_told_to_duck() -> None:
    got = _hint(_last_two_tricks(bid=0).state, samples=8)
    assert got.recommended == Play(0, card("4D"))
    assert got.options[0].detail.startswith("Nil holds in 100%")
    assert "chance to win the game" in got.summary


def test_the_draft_takes_the_ace_of_spades_unless_going_for_double_nil() -> None:
    ace_first = (card("AS"), *rest(cards("AS")))
    for declare, take in ((False, "first"), (True, "second")):
        g = Game(first_drafter=0).shuffle(ace_first).do(DeclareDoubleNil(0, declare))
        assert g.state.phase is Phase.DRAFT and g.state.to_act == 0
        got = _hint(g.state, samples=20)
        assert got.recommended == Draft(0, take)  # type: ignore[arg-type]
        assert {o.label for o in got.options} == {"Take A♠", "Pass A♠"}


def test_double_nil_is_not_advised_at_an_even_score() -> None:
    g = Game(first_drafter=0).shuffle(rest())
    assert g.state.phase is Phase.DOUBLE_NIL
    got = _hint(g.state, samples=10)
    assert got.recommended == DeclareDoubleNil(0, False)
    assert "%" in got.summary


def test_the_exchange_throws_back_the_dangerous_spades() -> None:
    mine = hand(S="AK", H="5432", D="432", C="5432")
    theirs = hand(S="QJT98", H="AKQ", D="AKQ", C="AK")
    g = Game(first_drafter=0).deal((mine, theirs), double_nil=(True, False))
    assert g.state.phase is Phase.EXCHANGE and g.state.to_act == 0
    got = _hint(g.state, samples=20)
    assert isinstance(got.recommended, Exchange)
    assert {card("AS"), card("KS")} <= set(got.recommended.discard)
    assert got.recommended == got.options[0].action


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bid_hint_is_the_experts_own_rule(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the same samples (the hint's seed given to the expert), the hint values every bid it shows as the
    expert does and recommends the expert's bid, bidding first and second."""
    import random

    import spades_tui.bots.expert as expert_module
    from spades_tui.bots.expert import ExpertBot
    from spades_tui.bots.hints import _rng_key
    from spades_tui.bots.sampling import BidTally

    made: list[BidTally] = []
    real = expert_module.bid_tally
    monkeypatch.setattr(expert_module, "bid_tally", lambda *a, **k: made.append(real(*a, **k)) or made[-1])
    states = [s for s in decision_states(seed, Rules(double_nil=False)) if s.phase is Phase.BIDDING]
    assert len(states) == 2  # the first bidder's and the second's
    for state in states:
        seat = state.to_act
        assert seat is not None
        obs, legal = observe(state, seat), legal_actions(state)
        got = hint(obs, legal, 0, samples=20)
        bot = ExpertBot(7, budget=None, iterations=20, workers=1)
        chosen = bot.bid(obs, legal, random.Random(_rng_key(obs, 0)))
        tally = made[-1]
        assert got.recommended == Bid(seat, chosen)
        for option in got.options:
            assert isinstance(option.action, Bid)
            assert option.value == pytest.approx(tally.value(option.action.tricks))
            assert option.figure == f"≈ {tally.value(option.action.tricks):+.0f}"
