"""The bots' bit-mask copies of the rules (``spades_tui.bots.core``) pinned to the engine.

``core`` restates, for speed, what the engine enforces: which cards may be played
(the rule book's ``playable_mask``), who wins a trick (``follower_wins``), how a hand scores (``hand_points``,
``tricks_wanted``, ``utility_table``), when a game is won (``win_value``), and how
spades break while a hand is played out (``rollout``, ``policy``, ``solve``).  Each
test here checks a copy against the engine itself (``playable_cards``, ``reduce``,
``trick_winner``, ``hand_score``), so changing a rule in one place and not the
other fails a test.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades_tui.bots import core
from spades_tui.bots.core import (
    FULL,
    hand_points,
    mask_of,
    mode_of,
    rollout,
    tricks_wanted,
    utility_table,
    view_of,
    win_value,
)
from spades_tui.engine.actions import Play
from spades_tui.engine.cards import CARDS
from spades_tui.engine.errors import IllegalActionError
from spades_tui.engine.observation import observe
from spades_tui.engine.reducer import legal_actions, playable_cards, reduce, trick_winner
from spades_tui.engine.rulebook import follower_wins, hand_score, is_nil, made, playable_mask
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import BidValue, GameState, HandState, Phase, PlayedCard
from tests.support.positions import Game

Cards = frozenset[int]
Position = dict[str, Any]
BidValues = tuple[Optional[BidValue], Optional[BidValue]]
Bids = tuple[BidValue, BidValue]  # both made
SolveKey = tuple[int, int, int, int, bool, int]  # solve's h0, h1, leader, lead, broken, won0
Memo = dict[SolveKey, float]

EMPTY: Cards = frozenset()
FILLER = (PlayedCard(0, CARDS[40]), PlayedCard(1, CARDS[41]))  # a past trick: only their count matters


def play_state(
    hands: Sequence[Cards],
    to_act: int,
    lead: Optional[int] = None,
    broken: bool = False,
    won: tuple[int, int] = (0, 0),
    rules: Optional[Rules] = None,
    tricks: tuple[tuple[PlayedCard, PlayedCard], ...] = (),
    bids: BidValues = (None, None),
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> GameState:
    """A GameState in Phase.PLAY: ``to_act`` is to play; ``lead`` (if any) was led by the other player.

    ``bids`` as the engine reports them: a number, "double_nil" or None.
    """
    trick = (PlayedCard(1 - to_act, CARDS[lead]),) if lead is not None else ()
    hand = HandState(
        first=0,
        stock=(),
        discard=frozenset(),
        hands=(frozenset(CARDS[c] for c in hands[0]), frozenset(CARDS[c] for c in hands[1])),
        seen_discards=(frozenset(), frozenset()),
        double_nil=(bids[0] == "double_nil", bids[1] == "double_nil"),
        bids=tuple(b if isinstance(b, int) else None for b in bids),  # type: ignore[arg-type]
        tricks_won=won,
        trick=trick,
        tricks=tricks,
        spades_broken=broken,
        to_act=to_act,
    )
    return GameState(
        rules=rules if rules is not None else Rules(),
        first_drafter=0,
        phase=Phase.PLAY,
        hand_number=1,
        scores=scores,
        bags=bags,
        hand=hand,
    )


def engine_lead(hand: HandState) -> int:
    """The core encoding of the card led to the current trick: -1 for none."""
    return int(hand.trick[0].card) if hand.trick else -1


# ---------------------------------------------------------------- legal plays

def _hands_and_leads(draw: st.DrawFn) -> tuple[Cards, Optional[int]]:
    shape = draw(st.sampled_from(["any", "all_spades", "no_spades", "void_in_lead", "one_card"]))
    lead: Optional[int] = draw(st.one_of(st.none(), st.integers(0, 51)))
    pool = list(range(52))
    if shape == "all_spades":
        pool = list(range(13))
    elif shape == "no_spades":
        pool = list(range(13, 52))
    elif shape == "void_in_lead":
        suit = lead // 13 if lead is not None else draw(st.integers(0, 3))
        pool = [c for c in range(52) if c // 13 != suit]
    if lead is not None:
        pool = [c for c in pool if c != lead]
    size = 1 if shape == "one_card" else draw(st.integers(1, min(13, len(pool))))
    hand = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    return frozenset(hand), lead


hands_and_leads = st.composite(_hands_and_leads)()


@settings(max_examples=300)
@given(hands_and_leads, st.booleans())
@pytest.mark.slow
def test_legal_mask_is_the_engines_playable_cards(hand_lead: tuple[Cards, Optional[int]], broken: bool) -> None:
    hand, lead = hand_lead
    state = play_state((hand, EMPTY), to_act=0, lead=lead, broken=broken)
    assert state.hand is not None
    engine = mask_of(playable_cards(state.hand, 0))
    got = playable_mask(mask_of(hand), engine_lead(state.hand), broken)
    assert got == engine
    assert got == mask_of(a.card for a in legal_actions(state) if isinstance(a, Play))
    # And the reducer, which enforces the rule, accepts exactly those cards.
    for c in hand:
        try:
            reduce(state, Play(0, CARDS[c]))
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == bool(got >> c & 1), CARDS[c]


# ---------------------------------------------------------------- trick winner

def test_beats_is_the_engines_trick_winner() -> None:
    for lead in range(52):
        for follow in range(52):
            if lead == follow:
                continue
            for leader in (0, 1):
                trick = (PlayedCard(leader, CARDS[lead]), PlayedCard(1 - leader, CARDS[follow]))
                assert follower_wins(lead, follow) == (trick_winner(trick) == 1 - leader), (CARDS[lead], CARDS[follow])
            # The reducer's own play: the follower (player 0) wins iff it beats the lead.
            state = play_state((frozenset({follow}), EMPTY), to_act=0, lead=lead, broken=True)
            after = reduce(state, Play(0, CARDS[follow]))
            assert after.hand is not None
            assert after.hand.tricks_won == ((1, 0) if follower_wins(lead, follow) else (0, 1))


# ---------------------------------------------------------------- scoring

scoring_rules = st.builds(
    Rules,
    target=st.integers(1, 600),
    bag_limit=st.integers(0, 15),
    bag_penalty=st.integers(0, 200),
    nil_tricks_are_bags=st.booleans(),
)
bid_values = st.one_of(st.just("double_nil"), st.integers(0, 13))


@settings(max_examples=400)
@given(scoring_rules, bid_values, st.integers(0, 13), st.integers(0, 30))
@pytest.mark.slow
def test_hand_points_is_hand_score(rules: Rules, bid: BidValue, tricks: int, bags_before: int) -> None:
    line, bags = hand_score(rules, bid, tricks, bags_before)
    assert hand_points(rules, bid, tricks, bags_before) == (line.points, bags)


@given(bid_values, st.integers(0, 13))
def test_the_simulators_tricks_wanted_agree_with_the_rule_books_made(bid: BidValue, tricks: int) -> None:
    """The rollouts and play goals count a bid as the tricks it wants (0 for a Nil or a Double
    Nil, which ``mode_of`` and ``play_goals`` treat alike): made means exactly what the rule book says."""
    wanted = tricks_wanted(bid)
    assert (wanted == 0) == is_nil(bid)
    assert made(bid, tricks) == (tricks == 0 if wanted == 0 else tricks >= wanted)


def test_tricks_wanted_reads_every_bid_value_the_engine_reports() -> None:
    assert tricks_wanted("double_nil") == 0
    assert [tricks_wanted(n) for n in range(14)] == list(range(14))


def _last_trick(rules: Rules, bids: BidValues, scores: tuple[int, int], bags: tuple[int, int], t0: int) -> GameState:
    """Play the 13th trick of a hand through ``reduce`` so that player 0 ends with ``t0`` tricks."""
    p0_wins = t0 > 0
    won = (t0 - 1, 13 - t0) if p0_wins else (0, 12)
    ace, two = 12 + 13, 0 + 13  # AH, 2H: player 0 leads one, player 1 follows with the other
    lead, follow = (ace, two) if p0_wins else (two, ace)
    state = play_state(
        (EMPTY, frozenset({follow})), to_act=1, lead=lead, broken=False, won=won, rules=rules,
        tricks=(FILLER,) * 12,
        bids=bids,
        scores=scores, bags=bags,
    )
    return reduce(state, Play(1, CARDS[follow]))


# Scores and bag rules kept where win_value's logistic never rounds to exactly 0 or 1,
# so its certain outcomes can only come from the game-end rule.
game_rules = st.builds(
    Rules,
    target=st.integers(1, 500),
    bag_limit=st.one_of(st.just(0), st.integers(5, 15)),
    bag_penalty=st.integers(0, 100),
    nil_tricks_are_bags=st.booleans(),
)


@settings(max_examples=150)
@given(
    game_rules,
    st.tuples(bid_values, bid_values),
    st.tuples(st.integers(-200, 400), st.integers(-200, 400)),
    st.tuples(st.integers(0, 14), st.integers(0, 14)),
)
def test_utility_table_and_win_value_follow_the_scored_hand(
    rules: Rules, bids: Bids, scores: tuple[int, int], bags: tuple[int, int]
) -> None:
    """A whole hand scored by the reducer: core's points, bags, 13-trick split and game end agree."""
    if rules.bag_limit:
        bags = (bags[0] % rules.bag_limit, bags[1] % rules.bag_limit)  # the engine never carries more
    table = utility_table(rules, scores, bags, bids[0], bids[1])
    assert len(table) == 14
    for t0 in range(14):
        after = _last_trick(rules, bids, scores, bags, t0)
        result = after.history[-1]
        assert result.tricks == (t0, 13 - t0)
        for p in (0, 1):
            assert result.bids[p] == bids[p]
            pts, b = hand_points(rules, bids[p], result.tricks[p], bags[p])
            assert (pts, b) == (result.points[p], result.bags_after[p])
        me, opp = result.scores_after
        value = win_value(rules, me, opp, *result.bags_after)
        assert table[t0] == value
        tie = 1e-4 * (me - opp)
        # win_value's certain outcomes are exactly the engine's game end (8.1, 8.2).
        assert (value == 1.0 + tie) == (after.winner == 0)
        assert (value == 0.0 + tie) == (after.winner == 1)
        assert (after.phase is Phase.GAME_OVER) == (after.winner is not None)


# ---------------------------------------------------------------- playing a hand out

def _position(draw: st.DrawFn, max_cards: int) -> Position:
    """Two hands (no card led yet, or one led by ``leader``) the engine could reach mid-hand."""
    # Deals from a small pool as well, so that all-spade hands and voids are common.
    pool = draw(st.sampled_from([range(52), range(26), range(16), [*range(10), 20, 30, 40, 50]]))
    deck = draw(st.permutations(list(pool)))
    k = draw(st.integers(1, min(max_cards, len(deck) // 2)))
    leader = draw(st.integers(0, 1))
    mid_trick = draw(st.booleans())
    broken = draw(st.booleans())
    hands = [frozenset(deck[:k]), frozenset(deck[k : 2 * k])]
    lead = None
    if mid_trick:
        lead = min(hands[leader]) if draw(st.booleans()) else max(hands[leader])
        hands[leader] = hands[leader] - {lead}
        broken = broken or lead < 13  # 6.5: leading a spade breaks them
    done = 13 - k  # tricks already played this hand
    w0 = draw(st.integers(0, done))
    return dict(hands=hands, leader=leader, lead=lead, broken=broken, won=(w0, done - w0))


positions = st.composite(_position)


def _engine_state(pos: Position, bids: BidValues = (3, 3)) -> GameState:
    """The position in the engine, with as many past tricks as were won, so that the 13th trick ends the hand."""
    to_act = pos["leader"] if pos["lead"] is None else 1 - pos["leader"]
    return play_state(
        pos["hands"], to_act=to_act, lead=pos["lead"], broken=pos["broken"], won=pos["won"],
        tricks=(FILLER,) * sum(pos["won"]),
        bids=bids,
    )


@settings(max_examples=300)
@given(positions(13), st.tuples(st.sampled_from(["double_nil", 0, 1, 3, 6, 9]),
                                st.sampled_from(["double_nil", 0, 2, 4, 7, 13])))
def test_rollout_plays_only_engine_legal_cards_and_counts_tricks_like_the_engine(
    pos: Position, bids: Bids
) -> None:
    wants = (tricks_wanted(bids[0]), tricks_wanted(bids[1]))
    calls: list[tuple[int, int, int, bool, int, int]] = []
    real_policy = core.policy

    def spy(hand: int, other: int, lead: int, broken: bool, mode: int) -> int:
        card = real_policy(hand, other, lead, broken, mode)
        calls.append((hand, other, lead, broken, mode, card))
        return card

    h0, h1 = mask_of(pos["hands"][0]), mask_of(pos["hands"][1])
    lead = pos["lead"] if pos["lead"] is not None else -1
    with pytest.MonkeyPatch.context() as mp:  # record every card rollout picks, and why
        mp.setattr(core, "policy", spy)
        tricks0 = rollout(h0, h1, pos["leader"], lead, pos["broken"], wants, pos["won"])

    # Replay the same decisions through the reducer: at every step rollout's picture of
    # the position (hands, lead, spades broken) must be the engine's, and the card legal.
    state = _engine_state(pos, bids)
    for hand_m, other_m, lead_c, broken, mode, card in calls:
        hs = state.hand
        assert hs is not None and state.phase is Phase.PLAY
        p = hs.to_act
        assert p is not None
        assert (hand_m, other_m) == (mask_of(hs.hands[p]), mask_of(hs.hands[1 - p]))
        assert lead_c == engine_lead(hs)
        assert broken == hs.spades_broken
        left = max(len(hs.hands[0]), len(hs.hands[1]))
        assert mode == mode_of(wants[p], wants[1 - p], hs.tricks_won[p], hs.tricks_won[1 - p], left)
        assert CARDS[card] in playable_cards(hs, p)
        state = reduce(state, Play(p, CARDS[card]))
    assert state.phase in (Phase.SHUFFLE, Phase.GAME_OVER)  # the hand was played to its end
    assert state.hand is not None
    assert tricks0 == state.hand.tricks_won[0]


def solve_key(hs: HandState) -> SolveKey:
    """An engine position in ``solve``'s arguments: hands, leader, lead (-1: none), broken, my tricks."""
    if hs.trick:
        leader = hs.trick[0].player
    else:
        leader = hs.to_act if hs.to_act is not None else hs.trick_winners[-1]  # None: the hand is scored
    return (mask_of(hs.hands[0]), mask_of(hs.hands[1]), leader, engine_lead(hs), hs.spades_broken, hs.tricks_won[0])


def engine_minimax(state: GameState, util: Sequence[float], memo: Memo) -> float:
    """Player 0 maximises ``util[its final tricks]`` over the reducer's legal plays.

    ``memo`` ends up holding every position reachable through ``reduce``, as ``solve_key``.
    """
    hs = state.hand
    assert hs is not None
    key = solve_key(hs)
    if key in memo:
        return memo[key]
    if not hs.hands[0] and not hs.hands[1] and not hs.trick:
        best = util[hs.tricks_won[0]]
    else:
        values = [engine_minimax(reduce(state, a), util, memo) for a in legal_actions(state)]
        best = max(values) if hs.to_act == 0 else min(values)
    memo[key] = best
    return best


@settings(max_examples=150)
@given(positions(4), st.lists(st.integers(-50, 50), min_size=14, max_size=14))
def test_solve_is_minimax_over_the_engine(pos: Position, util_ints: list[int]) -> None:
    """Same value, and exactly the engine's reachable positions (legal cards, breaking, trick winners)."""
    util = [float(u) for u in util_ints]
    visited: set[SolveKey] = set()
    real_solve = core.solve

    def spy(h0: int, h1: int, leader: int, lead: int, broken: bool, won0: int, u: Sequence[float], memo: Memo) -> float:
        visited.add((h0, h1, leader, lead, broken, won0))
        return real_solve(h0, h1, leader, lead, broken, won0, u, memo)

    h0, h1 = mask_of(pos["hands"][0]), mask_of(pos["hands"][1])
    lead = pos["lead"] if pos["lead"] is not None else -1
    with pytest.MonkeyPatch.context() as mp:  # solve recurses through the module global
        mp.setattr(core, "solve", spy)
        got = core.solve(h0, h1, pos["leader"], lead, pos["broken"], pos["won"][0], util, {})
    reachable: Memo = {}
    assert got == engine_minimax(_engine_state(pos), util, reachable)
    assert visited == set(reachable)


# ---------------------------------------------------------------- the view of a real game

@settings(max_examples=60)
@given(
    st.permutations(range(52)),
    st.tuples(st.booleans(), st.booleans()),
    st.tuples(st.integers(0, 13), st.integers(0, 13)),
    st.lists(st.integers(0, 12), min_size=26, max_size=26),
)
def test_view_of_real_games_agrees_with_the_engine(
    deck: list[int], dn: tuple[bool, bool], bids: tuple[int, int], picks: list[int]
) -> None:
    """Through ``observe``: the bots' legal cards, lead encoding, voids and bids match the engine."""
    game = Game().deal((tuple(CARDS[c] for c in deck[:13]), tuple(CARDS[c] for c in deck[13:26])), double_nil=dn)
    game.bids({p: bids[p] for p in (0, 1) if not dn[p]})
    step = 0
    while game.state.phase is Phase.PLAY:
        hs = game.state.hand
        assert hs is not None and hs.to_act is not None
        p = hs.to_act
        view = view_of(observe(game.state, p))
        assert view.hand == mask_of(hs.hands[p])
        assert view.lead == engine_lead(hs)
        assert view.broken == hs.spades_broken
        assert playable_mask(view.hand, view.lead, view.broken) == mask_of(playable_cards(hs, p))
        # A void shown in play (6.2: must follow suit) really is a void.
        assert mask_of(hs.hands[1 - p]) & view.opp_voids == 0
        assert mask_of(hs.hands[1 - p]) & ~view.unknown & FULL == 0
        assert view.bids == (hs.bid_of(p), hs.bid_of(1 - p))
        assert view.won == (hs.tricks_won[p], hs.tricks_won[1 - p])
        legal = legal_actions(game.state)
        game.do(legal[picks[step % 26] % len(legal)])
        step += 1
    assert step == 26
