"""Hypothesis properties over random legal games under random rule options.

Each example plays a short random game (a few hands at most) with the seeded
dealer and uniformly random legal decisions, then checks an invariant after
every action.  The oracles here are written independently of the engine's
internals: card bookkeeping, scoring and what a player may know (docs/rules.md 10)
are recomputed from the action history alone.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades_tui.engine.actions import Action, Bid, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Play, Shuffle
from spades_tui.engine.cards import DECK, Card
from spades_tui.engine.errors import IllegalActionError
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, loads_record, replay
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase, new_game
from spades_tui.session.dealer import Dealer

rules_strategy = st.builds(
    Rules,
    target=st.sampled_from([40, 100, 250, 500]),
    bag_limit=st.sampled_from([0, 3, 5, 10]),
    bag_penalty=st.sampled_from([0, 50, 100]),
    nil=st.booleans(),
    double_nil=st.booleans(),
    nil_tricks_are_bags=st.booleans(),
    see_second_card=st.booleans(),
)


@dataclass
class Played:
    rules: Rules
    first_drafter: int
    actions: list[Action]
    states: list[GameState]  # states[i] is the state after actions[:i]

    def record(self, upto: Optional[int] = None) -> GameRecord:
        acts = self.actions if upto is None else self.actions[:upto]
        return GameRecord(self.rules, self.first_drafter, None, tuple(acts))


def play_game(seed: int, rules: Rules, first_drafter: int, max_hands: int) -> Played:
    rng = random.Random(seed)
    dealer = Dealer(seed)
    state = new_game(rules, first_drafter)
    out = Played(rules, first_drafter, [], [state])
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.SHUFFLE and len(state.history) >= max_hands:
            break
        action = dealer.chance_action(state)
        if action is None:
            action = rng.choice(legal_actions(state))
        state = reduce(state, action)
        out.actions.append(action)
        out.states.append(state)
    return out


games = st.builds(
    play_game,
    seed=st.integers(0, 2**32),
    rules=rules_strategy,
    first_drafter=st.sampled_from([0, 1]),
    max_hands=st.integers(1, 3),
)


def all_cards(state: GameState) -> Counter[Card]:
    h = state.hand
    assert h is not None
    pile: Counter[Card] = Counter(h.stock)
    pile.update(h.discard)
    pile.update(h.hands[0])
    pile.update(h.hands[1])
    pile.update(h.set_aside)
    pile.update(pc.card for pc in h.trick)
    pile.update(pc.card for t in h.tricks for pc in t)
    return pile


@given(games)
def test_all_52_cards_accounted_for_after_every_action(game: Played) -> None:
    for state in game.states[1:]:
        assert all_cards(state) == Counter(DECK)


# ---------------------------------------------------------------- scoring oracle


def expected_line(rules: Rules, bid: object, tricks: int) -> tuple[int, int]:
    """(points before bag penalties, bags added) as docs/rules.md 7 and 9 say."""
    if bid in (0, "double_nil"):
        value = 200 if bid == "double_nil" else 100
        return (value if tricks == 0 else -value), (tricks if rules.nil_tricks_are_bags else 0)
    assert isinstance(bid, int) and 1 <= bid <= 13
    if tricks >= bid:
        return 10 * bid + tricks - bid, tricks - bid
    return -10 * bid, 0


@given(games)
def test_every_scored_hand_has_13_tricks_and_the_scores_add_up(game: Played) -> None:
    final = game.states[-1]
    rules = game.rules
    scores, bags = [0, 0], [0, 0]
    for i, result in enumerate(final.history):
        assert sum(result.tricks) == 13
        assert result.first_drafter == (game.first_drafter + i) % 2  # 2.2: roles swap
        for p in (0, 1):
            base, added = expected_line(rules, result.bids[p], result.tricks[p])
            line = result.lines[p]
            assert line.bags_added == added
            total = bags[p] + added
            limits = total // rules.bag_limit if rules.bag_limit else 0
            assert result.bags_after[p] == total - limits * rules.bag_limit
            assert line.bag_penalty == -limits * rules.bag_penalty
            assert result.points[p] == base + line.bag_penalty
            scores[p] += result.points[p]
            bags[p] = result.bags_after[p]
        assert result.scores_after == tuple(scores)
        reached = max(scores) >= rules.target and scores[0] != scores[1]
        assert reached == (i == len(final.history) - 1 and final.phase is Phase.GAME_OVER)
    assert final.scores == tuple(scores) and final.bags == tuple(bags)
    if final.phase is Phase.GAME_OVER:
        assert final.winner == (0 if scores[0] > scores[1] else 1)
    else:
        assert final.winner is None


@given(games, st.data())
def test_replaying_the_record_rebuilds_an_equal_state_at_every_prefix(game: Played, data: st.DataObject) -> None:
    loaded = loads_record(game.record().dumps())
    assert loaded.rules == game.rules and loaded.first_drafter == game.first_drafter
    assert list(loaded.actions) == game.actions
    state = loaded.new_state()
    assert state == game.states[0]
    for i, action in enumerate(loaded.actions):
        state = reduce(state, action)
        assert state == game.states[i + 1]
    n = data.draw(st.integers(0, len(game.actions)))
    assert replay(loads_record(game.record(n).dumps())) == game.states[n]


# ---------------------------------------------------------------- hidden information


class Knowledge:
    """What each player may know (docs/rules.md 10), recomputed from the actions alone."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.stock: list[Card] = []
        self.pos = 0
        self.hand: list[set[Card]] = [set(), set()]
        self.seen_discards: list[set[Card]] = [set(), set()]
        self.known: list[set[Card]] = [set(), set()]
        self.plays: list[tuple[int, Card]] = []

    def top(self) -> Card:
        return self.stock[self.pos]

    def apply(self, action: Action) -> None:
        if isinstance(action, Shuffle):
            self.stock, self.pos = list(action.stock), 0
            self.hand, self.seen_discards, self.known = [set(), set()], [set(), set()], [set(), set()]
            self.plays = []
        elif isinstance(action, Draft):
            p = action.player
            top, nxt = self.stock[self.pos], self.stock[self.pos + 1]
            self.pos += 2
            self.known[p].add(top)
            if action.take == "first":
                self.hand[p].add(top)
                if self.rules.see_second_card:
                    self.seen_discards[p].add(nxt)
                    self.known[p].add(nxt)
            else:
                self.hand[p].add(nxt)
                self.seen_discards[p].add(top)
                self.known[p].add(nxt)
        elif isinstance(action, Exchange):
            self.hand[action.player] -= set(action.discard)
            self.seen_discards[action.player] |= set(action.discard)
        elif isinstance(action, ExchangeDraw):
            self.hand[action.player] |= set(action.cards)
            self.known[action.player] |= set(action.cards)
        elif isinstance(action, Play):
            self.hand[action.player].discard(action.card)
            self.plays.append((action.player, action.card))
            for p in (0, 1):
                self.known[p].add(action.card)

    def may_know(self, state: GameState, p: int) -> set[Card]:
        out = self.known[p] | self.hand[p] | self.seen_discards[p]
        if state.phase is Phase.DRAFT and state.to_act == p:
            out.add(self.top())
        return out


def json_cards(value: object) -> set[Card]:
    found: set[Card] = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= json_cards(v)
    elif isinstance(value, list):
        for v in value:
            found |= json_cards(v)
    elif isinstance(value, str) and len(value) == 2:
        try:
            found.add(Card.parse(value))
        except ValueError:
            pass
    return found


def check_observations(know: Knowledge, state: GameState) -> None:
    for p in (0, 1):
        obs = observe(state, p)
        allowed = know.may_know(state, p)
        assert obs.hand == know.hand[p]
        expected_drawn = know.top() if state.phase is Phase.DRAFT and state.to_act == p else None
        assert obs.drawn == expected_drawn
        assert obs.seen_discards == know.seen_discards[p]
        assert [(pc.player, pc.card) for t in obs.tricks for pc in t] + [
            (pc.player, pc.card) for pc in obs.trick
        ] == know.plays
        encoded = json.loads(json.dumps(obs.to_json()))
        assert json_cards(encoded) <= allowed
        assert obs.known_cards() <= allowed
        hand = state.hand
        if hand is not None:
            other = len(hand.hands[1 - p])
            if state.phase is Phase.EXCHANGE_DRAW and hand.to_act == 1 - p:
                other += len(hand.set_aside)
            assert obs.opponent_cards == other


@given(games)
@pytest.mark.slow
def test_an_observation_never_holds_a_card_its_player_may_not_know(game: Played) -> None:
    know = Knowledge(game.rules)
    check_observations(know, game.states[0])
    for action, state in zip(game.actions, game.states[1:], strict=True):
        know.apply(action)
        check_observations(know, state)


def relabel(action: Action, sigma: dict[Card, Card]) -> Action:
    def m(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(sigma.get(c, c) for c in cards)

    if isinstance(action, Shuffle):
        return Shuffle(m(action.stock))
    if isinstance(action, Exchange):
        return Exchange(action.player, m(action.discard))
    if isinstance(action, ExchangeDraw):
        return ExchangeDraw(action.player, m(action.cards))
    if isinstance(action, Play):
        return Play(action.player, sigma.get(action.card, action.card))
    return action


@given(games, st.data())
def test_states_differing_only_in_hidden_cards_give_equal_observations(game: Played, data: st.DataObject) -> None:
    n = data.draw(st.integers(1, len(game.actions)), label="prefix")
    p = data.draw(st.sampled_from([0, 1]), label="observer")
    start = max(i for i in range(n) if isinstance(game.actions[i], Shuffle))
    know = Knowledge(game.rules)
    for action in game.actions[:n]:
        know.apply(action)
    state = game.states[n]
    hidden = sorted(DECK - know.may_know(state, p))
    # A suit-preserving permutation of the hidden cards of this hand: the opponent's
    # holdings keep their suits, so their plays stay legal, and the public cards stay put.
    sigma: dict[Card, Card] = {}
    for suit in range(4):
        group = [c for c in hidden if c // 13 == suit]
        shuffled = data.draw(st.permutations(group))
        sigma.update(zip(group, shuffled, strict=True))
    twin = game.states[start]
    for action in game.actions[start:n]:
        twin = reduce(twin, relabel(action, sigma))
    assert observe(twin, p) == observe(state, p)
    assert observe(twin, p).to_json() == observe(state, p).to_json()


# ---------------------------------------------------------------- illegal actions


def random_action(rng: random.Random, state: GameState) -> Action:
    """Any action at all, of every type, by either player or nobody, mostly near-legal."""
    hand = state.hand
    to_act = hand.to_act if hand is not None and hand.to_act is not None else 0
    player = rng.choice([to_act, to_act, 1 - to_act, rng.choice([-1, 2])])
    deck = sorted(DECK)
    mine = sorted(hand.hands[player]) if hand is not None and player in (0, 1) else []
    pile = sorted(hand.discard) if hand is not None else []
    source = rng.choice([deck, mine or deck, pile or deck])
    kind = rng.randrange(8)
    if kind == 0:
        stock = list(deck)
        rng.shuffle(stock)
        r = rng.random()
        if r < 0.2:
            stock[rng.randrange(52)] = stock[rng.randrange(52)]  # usually a duplicate
        elif r < 0.4:
            stock.pop()
        return Shuffle(tuple(stock))
    if kind == 1:
        return DeclareDoubleNil(player, rng.random() < 0.5)
    if kind == 2:
        return Draft(player, rng.choice(["first", "second"]))
    if kind == 3:
        return Exchange(player, tuple(rng.choice(source) for _ in range(rng.randrange(5))))
    if kind == 4:
        k = len(hand.set_aside) if hand is not None and rng.random() < 0.7 else rng.randrange(5)
        return ExchangeDraw(player, tuple(rng.choice(source) for _ in range(k)))
    if kind == 5:
        return Bid(player, rng.randrange(-2, 16))
    return Play(player, rng.choice(source))


def chance_is_legal(state: GameState, action: Action) -> bool:
    if isinstance(action, Shuffle):
        return state.phase is Phase.SHUFFLE and sorted(action.stock) == sorted(DECK)
    assert isinstance(action, ExchangeDraw)
    hand = state.hand
    return (
        state.phase is Phase.EXCHANGE_DRAW
        and hand is not None
        and action.player == hand.to_act
        and len(action.cards) == len(hand.set_aside)
        and len(set(action.cards)) == len(action.cards)
        and set(action.cards) <= hand.discard
    )


@given(games, st.integers(0, 2**32))
@pytest.mark.slow
def test_an_action_outside_legal_actions_is_always_refused(game: Played, seed: int) -> None:
    rng = random.Random(seed)
    for state in game.states:
        legal = legal_actions(state)
        for listed in legal:
            reduce(state, listed)  # every listed action is accepted
        for _ in range(6):
            action = random_action(rng, state)
            if isinstance(action, (Shuffle, ExchangeDraw)):
                expected = chance_is_legal(state, action)
            else:
                expected = action in legal
            try:
                after = reduce(state, action)
            except IllegalActionError as exc:
                assert not expected, f"{action} refused: {exc}"
                message = str(exc)
                # plain words: no record names with underscores, no Python reprs
                assert message and "_" not in message and "Card(" not in message and "<" not in message
            else:
                assert expected, f"{action} accepted in {state.phase}"
                assert after != state
