"""The bots: only legal actions, only what the player may know, decisions per information set."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Sequence

import pytest

from spades_tui.arena.match import play_game
from spades_tui.bots.base import Bot
from spades_tui.bots.core import FULL, bits, estimate_tricks, mask_of, nil_safety, rollout, solve, utility_table
from spades_tui.bots.expert import DEFAULT_BUDGET as EXPERT_BUDGET
from spades_tui.bots.expert import ExpertBot
from spades_tui.bots.hard import HardBot
from spades_tui.bots.levels import make_bot, parse_spec
from spades_tui.bots.protocol import observation_from_json
from spades_tui.engine.actions import Play, PlayerAction
from spades_tui.engine.observation import Observation, observe
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase, new_game
from spades_tui.session.dealer import Dealer
from tests.support.hidden import swap_hidden

RULE_VARIANTS = [
    Rules(),
    Rules(nil=False),
    Rules(double_nil=False),
    Rules(see_second_card=True),
    Rules(nil_tricks_are_bags=True, bag_limit=5, bag_penalty=50),
    Rules(bag_limit=0, target=150),
]

# Cheap, deterministic settings: the hard and expert bots search a handful of samples.
SPECS = ["easy", "normal", "hard:iters=3", "expert:iters=3,workers=1"]


def random_positions(
    seed: int, rules: Rules, count: int, dn_rate: float = 0.5
) -> list[GameState]:
    """Decision states reached by random play, Double Nil declared often so exchanges happen."""
    rng = random.Random(seed)
    dealer = Dealer(seed)
    state = new_game(rules, seed % 2)
    out: list[GameState] = []
    while len(out) < count and state.phase is not Phase.GAME_OVER:
        chance = dealer.chance_action(state)
        if chance is not None:
            state = reduce(state, chance)
            continue
        out.append(state)
        legal = legal_actions(state)
        if state.phase is Phase.DOUBLE_NIL:
            action = legal[1] if rng.random() < dn_rate else legal[0]
        else:
            action = rng.choice(legal)
        state = reduce(state, action)
    return out


def knowable_cards(state: GameState, seat: int) -> set[str]:
    """Every card the seat may know in ``state`` (docs/rules.md section 10), computed from the state."""
    hand = state.hand
    if hand is None:
        return set()
    known = set(hand.hands[seat]) | set(hand.seen_discards[seat])
    for t in hand.tricks:
        known.update(pc.card for pc in t)
    known.update(pc.card for pc in hand.trick)
    if state.phase is Phase.DRAFT and hand.to_act == seat:
        known.add(hand.stock[0])
    if state.phase is Phase.EXCHANGE_DRAW and hand.to_act == seat:
        known.update(hand.set_aside)
    return {c.code for c in known}


def cards_in(obj: Any) -> set[str]:
    """Every card code anywhere inside a JSON value (strings of rank + suit)."""
    out: set[str] = set()
    if isinstance(obj, str):
        if len(obj) == 2 and obj[0] in "23456789TJQKA" and obj[1] in "SHDC":
            out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    return out


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.to_json().items()))
@pytest.mark.slow
def test_every_bot_returns_a_legal_action_in_every_phase(rules: Rules) -> None:
    phases_seen: set[Phase] = set()
    bots = {spec: make_bot(spec, seed=7) for spec in SPECS}
    for seed in range(3):
        for state in random_positions(seed * 31 + 1, rules, 400)[::3]:
            legal = legal_actions(state)
            seat = state.to_act
            assert seat is not None
            obs = observe(state, seat)
            phases_seen.add(state.phase)
            for spec, bot in bots.items():
                bot.start(seat, rules)
                action = bot.decide(obs, legal)
                assert action in legal, (spec, state.phase, action)
    expected = {Phase.DRAFT, Phase.BIDDING, Phase.PLAY}
    if rules.double_nil:
        expected |= {Phase.DOUBLE_NIL, Phase.EXCHANGE}
    assert expected <= phases_seen


class Spy(Bot):
    """Wraps a bot and keeps every observation it was given."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.seen: list[Observation] = []

    def start(self, seat: int, rules: Rules) -> None:
        self.inner.start(seat, rules)

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        self.seen.append(observation)
        return self.inner.decide(observation, legal)


@pytest.mark.parametrize("rules", [Rules(target=200), Rules(target=200, see_second_card=True)])
def test_observations_given_to_bots_hold_no_hidden_card(rules: Rules) -> None:
    spies = (Spy(make_bot("normal", seed=1)), Spy(make_bot("easy", seed=2)))
    states: list[tuple[GameState, int]] = []

    def record(state: GameState, seat: int) -> None:
        states.append((state, seat))

    play_game((spies[0], spies[1]), seed=5, rules=rules, hands=3, observer=record)
    given = {0: iter(spies[0].seen), 1: iter(spies[1].seen)}
    assert len(states) == len(spies[0].seen) + len(spies[1].seen) > 100
    for state, seat in states:
        obs = next(given[seat])
        assert obs.seat == seat
        shown = cards_in(obs.to_json())
        allowed = knowable_cards(state, seat)
        assert shown <= allowed, shown - allowed
        hand = state.hand
        assert hand is not None
        opponent_held = {c.code for c in hand.hands[1 - seat]}
        assert not (shown & opponent_held)


@pytest.mark.parametrize("spec", SPECS + ["hard:iters=12", "expert:iters=12,workers=1"])
def test_states_differing_only_in_hidden_cards_get_the_same_decision(spec: str) -> None:
    compared = 0
    for state in random_positions(3, Rules(), 500, dn_rate=0.2):
        seat = state.to_act
        assert seat is not None
        if state.phase not in (Phase.DRAFT, Phase.BIDDING, Phase.PLAY) or len(legal_actions(state)) < 2:
            continue
        other = swap_hidden(state, seat)
        if other is None or other == state:
            continue
        assert observe(other, seat) == observe(state, seat)
        assert legal_actions(other) == legal_actions(state)
        first = make_bot(spec, seed=99)
        second = make_bot(spec, seed=99)
        first.start(seat, state.rules)
        second.start(seat, state.rules)
        assert first.decide(observe(state, seat), legal_actions(state)) == second.decide(
            observe(other, seat), legal_actions(other)
        )
        compared += 1
        if compared >= 40:
            break
    assert compared >= 20


def test_observation_round_trips_through_json() -> None:
    for rules in RULE_VARIANTS:
        for state in random_positions(11, rules, 300)[::7]:
            for seat in (0, 1):
                obs = observe(state, seat)
                assert observation_from_json(obs.to_json()) == obs


def test_bot_specs() -> None:
    assert parse_spec("hard:budget=0.2,iters=50") == ("hard", {"budget": 0.2, "iters": 50.0})
    bot = make_bot("hard:budget=0.25")
    assert isinstance(bot, HardBot) and bot.budget == 0.25
    bot = make_bot("hard:iters=40")
    assert isinstance(bot, HardBot) and bot.budget is None and bot.iterations == 40
    bot = make_bot("hard", budget=0.1)
    assert isinstance(bot, HardBot) and bot.budget == 0.1
    bot = make_bot("expert:iters=20,workers=1")
    assert isinstance(bot, ExpertBot) and bot.budget is None and bot.iterations == 20 and bot.workers == 1
    bot = make_bot("expert", workers=3)
    assert isinstance(bot, ExpertBot) and bot.budget == EXPERT_BUDGET and bot.workers == 3
    for bad in ("medium", "hard:speed=3", "hard:budget=abc", "hard:budget=-1", "easy:budget=1", "cmd:",
                "hard:workers=2", "expert:workers=0"):
        with pytest.raises(ValueError):
            make_bot(bad)


# ---------------------------------------------------------------- the bit-mask simulator

def _hands(seed: int) -> tuple[int, int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return mask_of(deck[:13]), mask_of(deck[13:26])


def test_rollout_deals_every_trick() -> None:
    for seed in range(30):
        h0, h1 = _hands(seed)
        t = rollout(h0, h1, seed % 2, -1, False, (4, 5), (0, 0))
        assert 0 <= t <= 13


def test_solver_finds_the_only_winning_line() -> None:
    # Me: AS, 2H; opponent: KS, 3H.  I lead.  Leading 2H loses it to 3H, then the
    # opponent must lead KS (spades broken? no: they hold only spades, so they may)
    # and my AS wins: 1 trick.  Leading AS first (allowed: I hold a heart, spades
    # unbroken, so not allowed) - the solver must respect that.
    util = [float(t) for t in range(14)]
    h0 = mask_of([12, 13])  # AS, 2H
    h1 = mask_of([11, 14])  # KS, 3H
    value = solve(h0, h1, 0, -1, False, 0, util, {})
    assert value == 1.0
    # With spades broken I may lead AS, then 2H loses to 3H: still 1; the solver agrees.
    assert solve(h0, h1, 0, -1, True, 0, util, {}) == 1.0
    # Nil utility: I want 0 tricks.  Leading 2H under 3H, then the opponent leads KS and
    # my AS must win: the solver reports the forced loss of the Nil.
    nil = [100.0] + [-100.0] * 13
    assert solve(h0, h1, 0, -1, False, 0, nil, {}) == -100.0


def test_estimates_prefer_stronger_hands() -> None:
    others = FULL
    strong = mask_of([12, 11, 10, 9, 25, 38, 51, 24, 37, 50, 8, 7, 6])  # top spades and aces
    weak = mask_of([0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40, 41, 16])  # deuces to fours
    assert estimate_tricks(strong, others & ~strong) > 8
    assert estimate_tricks(weak, others & ~weak) < 2.5
    assert nil_safety(weak, others & ~weak) > nil_safety(strong, others & ~strong)
    assert len(bits(strong)) == 13


def test_utility_prefers_made_contracts_and_nil() -> None:
    rules = Rules()
    table = utility_table(rules, (0, 0), (0, 0), 5, 6)
    assert table[5] > table[4]  # making the contract beats failing it
    assert table[6] < table[7] or table[6] > table[5] - 0.1  # overtricks cost little
    nil = utility_table(rules, (0, 0), (0, 0), 0, 6)
    assert nil[0] > nil[1]


def _first_decision(phase: Phase) -> GameState:
    for state in random_positions(8, Rules(), 600):
        if state.phase is phase:
            return state
    raise AssertionError(f"no {phase} position")


@pytest.mark.parametrize("spec", ["normal", "hard:iters=40", "expert:iters=40,workers=1"])
def test_strong_hand_bids_high_and_weak_hand_low(spec: str) -> None:
    state = _first_decision(Phase.BIDDING)
    hand = state.hand
    assert hand is not None
    seat = state.to_act
    assert seat is not None
    strong = frozenset(c for c in range(52) if c % 13 >= 9)  # all tens to aces minus 3
    strong_cards = sorted(strong, key=lambda c: -(c % 13))[:13]
    weak_cards = [c for c in range(52) if c % 13 <= 3][:13]

    def with_hand(cards: list[int]) -> GameState:
        from spades_tui.engine.cards import CARDS, Card

        mine = frozenset(CARDS[c] for c in cards)
        rest = [c for c in hand.hands[1 - seat] if c not in mine]
        pool = [c for c in CARDS if c not in mine and c not in rest]
        theirs = frozenset(rest + pool[: 13 - len(rest)])
        hands: list[frozenset[Card]] = [frozenset(), frozenset()]
        hands[seat] = mine
        hands[1 - seat] = theirs
        return dataclasses.replace(
            state,
            hand=dataclasses.replace(
                hand, hands=(hands[0], hands[1]), seen_discards=(frozenset(), frozenset())
            ),
        )

    bids: list[int] = []
    for cards in (strong_cards, weak_cards):
        s = with_hand(cards)
        bot = make_bot(spec, seed=1)
        bot.start(seat, s.rules)
        action = bot.decide(observe(s, seat), legal_actions(s))
        bids.append(action.tricks)  # type: ignore[union-attr]
    assert bids[0] >= 7
    assert bids[1] <= 2


@pytest.mark.parametrize("spec", ["hard:iters=15", "expert:iters=15,workers=1", "expert:iters=15,workers=2"])
def test_the_searching_bots_are_deterministic_with_an_iteration_budget(spec: str) -> None:
    state = _first_decision(Phase.PLAY)
    seat = state.to_act
    assert seat is not None
    answers = set()
    for _ in range(2):
        bot = make_bot(spec, seed=3)
        bot.start(seat, state.rules)
        answers.add(bot.decide(observe(state, seat), legal_actions(state)))
        bot.close()
    assert len(answers) == 1


def test_the_expert_pool_gives_the_same_decisions_as_one_process() -> None:
    # The pool only spreads the solving: the samples and their sum are the same.
    states = [s for s in random_positions(4, Rules(), 400) if s.phase in (Phase.BIDDING, Phase.PLAY)][:12:2]
    assert states
    alone = make_bot("expert:iters=12,workers=1", seed=5)
    pooled = make_bot("expert:iters=12,workers=2", seed=5)
    try:
        for state in states:
            seat = state.to_act
            assert seat is not None
            for bot in (alone, pooled):
                bot.start(seat, state.rules)
            obs, legal = observe(state, seat), legal_actions(state)
            assert alone.decide(obs, legal) == pooled.decide(obs, legal)
    finally:
        alone.close()
        pooled.close()


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone in all but name
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def test_the_expert_pool_shuts_down_with_the_game() -> None:
    bots = (make_bot("expert:iters=8,workers=2", seed=1), make_bot("normal", seed=2))
    assert isinstance(bots[0], ExpertBot)
    pids: list[int] = []

    def watch(state: GameState, seat: int) -> None:
        bot = bots[0]
        assert isinstance(bot, ExpertBot)
        pool = bot._pool
        if pool is not None:
            pids.extend(p for p in pool._processes if p not in pids)  # type: ignore[attr-defined]

    result = play_game((bots[0], bots[1]), seed=3, rules=Rules(), hands=1, observer=watch)
    assert result.forfeit is None
    assert len(pids) == 2  # the pool was used...
    assert bots[0]._pool is None
    assert not [p for p in pids if _alive(p)]  # ...and play_game's close() ended every worker




def test_draft_inferred_opponent_hands_fit_everything_the_bot_knows() -> None:
    from spades_tui.bots.core import view_of
    from spades_tui.bots.sampling import draft_sampler

    rng = random.Random(2)
    checked = 0
    for state in random_positions(22, Rules(), 900, dn_rate=0.3):
        if state.phase not in (Phase.PLAY, Phase.BIDDING):
            continue
        seat = state.to_act
        assert seat is not None and state.hand is not None
        obs = observe(state, seat)
        view = view_of(obs)
        sample = draft_sampler(obs, view)
        for _ in range(5):
            hand, weight = sample(rng)
            assert weight > 0
            assert hand.bit_count() == view.opp_count
            assert hand & (view.hand | view.played | view.opp_voids) == 0
            if not view.opp_exchanged:
                assert hand & view.seen == 0
        checked += 1
    assert checked > 50


def test_take_first_turns_make_the_inferred_hand_stronger() -> None:
    from spades_tui.bots.core import GOODNESS, bits, view_of
    from spades_tui.bots.sampling import draft_sampler
    from spades_tui.engine.state import DraftTurn

    state = _first_decision(Phase.BIDDING)
    seat = state.to_act
    assert seat is not None
    obs = observe(state, seat)
    mean = []
    for take in ("first", "second"):
        log = tuple(DraftTurn(1 - seat, take) for _ in range(13))
        o = dataclasses.replace(obs, draft_log=log, bids=(None, None))
        sample = draft_sampler(o, view_of(o))
        rng = random.Random(0)
        mean.append(sum(sum(GOODNESS[c] for c in bits(sample(rng)[0])) for _ in range(200)) / 200)
    assert mean[0] > mean[1] + 1.0


def test_sampled_opponent_hands_fit_everything_the_bot_knows() -> None:
    from spades_tui.bots.core import sample_opponent, view_of

    rng = random.Random(1)
    checked = 0
    for state in random_positions(21, Rules(), 900, dn_rate=0.3):
        if state.phase is not Phase.PLAY:
            continue
        seat = state.to_act
        assert seat is not None and state.hand is not None
        view = view_of(observe(state, seat))
        truth = mask_of(state.hand.hands[1 - seat])
        # The inference is sound: the real hand satisfies every constraint.
        assert truth & view.opp_voids == 0
        assert truth & (view.hand | view.played) == 0
        for tilt in (0.0, 1.3, -1.5):
            sample = sample_opponent(view, rng, tilt)
            assert sample.bit_count() == view.opp_count
            assert sample & (view.hand | view.played | view.opp_voids) == 0
            if not view.opp_exchanged:
                assert sample & view.seen == 0
        checked += 1
    assert checked > 50


def _play_obs(hand: list[str], trick: list[str], bids: tuple[Any, Any], won: tuple[int, int] = (0, 0)) -> Observation:
    """Seat 0 to play; ``trick`` holds the opponent's lead, if any."""
    from spades_tui.engine.cards import Card
    from spades_tui.engine.state import PlayedCard

    cards = frozenset(Card.parse(c) for c in hand)
    played = tuple(PlayedCard(1, Card.parse(c)) for c in trick)
    return Observation(
        seat=0, rules=Rules(), hand_number=1, first_drafter=0, phase=Phase.PLAY, to_act=0,
        scores=(0, 0), bags=(0, 0), hand=cards, drawn=None, seen_discards=frozenset(), draft_log=(),
        stock_left=0, double_nil=(False, False), exchanged=(None, None), bids=bids, tricks_won=won,
        trick=played, tricks=(), spades_broken=False, opponent_cards=len(cards) - len(played),
    )


def _legal_plays(obs: Observation) -> list[PlayerAction]:
    from spades_tui.engine.actions import Play

    cards = sorted(obs.hand)
    if obs.trick:
        same = [c for c in cards if c // 13 == obs.trick[0].card // 13]
        cards = same or cards
    return [Play(0, c) for c in cards]


def _decide(spec: str, obs: Observation) -> str:
    bot = make_bot(spec, seed=1)
    bot.start(0, obs.rules)
    action = bot.decide(obs, _legal_plays(obs))
    return action.card.code  # type: ignore[union-attr]


def test_normal_covers_its_own_nil_and_sets_the_opponents() -> None:
    # My Nil: the opponent leads 9H; I duck with my highest heart below it.
    mine = _play_obs(["2H", "8H", "KH", "3D", "4C"], ["9H"], (0, 5))
    assert _decide("normal", mine) == "8H"
    # Their Nil: they lead 5H; I play under it (4H) so that they must win the trick.
    theirs = _play_obs(["4H", "QH", "AH", "3D", "4C"], ["5H"], (5, 0))
    assert _decide("normal", theirs) == "4H"
    # No Nil, I still need tricks: win as cheaply as possible (QH beats JH).
    need = _play_obs(["4H", "QH", "AH", "3D", "4C"], ["JH"], (4, 5))
    assert _decide("normal", need) == "QH"
    # Contract made and the opponent's too: avoid the bag by ducking.
    made = _play_obs(["4H", "QH", "AH", "3D", "4C"], ["JH"], (4, 5), won=(4, 5))
    assert _decide("normal", made) == "4H"


@pytest.mark.parametrize("spec", ["hard:iters=40", "expert:iters=40,workers=1"])
def test_searching_bots_duck_to_protect_their_nil(spec: str) -> None:
    assert _decide(spec, _play_obs(["2H", "8H", "KH", "3D", "4C"], ["9H"], (0, 5))) == "8H"


def test_expert_sets_the_opponents_nil() -> None:
    # Their Nil, eight tricks gone (all mine): they lead 5H; I play under it (4H) so that they
    # must win the trick.
    obs = _play_obs(["4H", "QH", "AH", "3D", "4C"], ["5H"], (5, 0), won=(8, 0))
    assert _decide("expert:iters=40,workers=1", obs) == "4H"


def test_the_experts_card_values_cover_every_legal_card_and_its_play_takes_the_best() -> None:
    # What the expert's play (and expert_samples_measure.py) reads: one mean utility per legal card.
    obs = _play_obs(["4H", "QH", "AH", "3D", "4C"], ["JH"], (4, 5), won=(2, 3))
    legal = _legal_plays(obs)
    bot = ExpertBot(1, budget=None, iterations=30, workers=1)
    values = bot.card_values(obs, legal, random.Random(3))
    assert values is not None and sorted(values) == sorted(int(a.card) for a in legal if isinstance(a, Play))
    assert all(0.0 <= v <= 1.01 for v in values.values())
    best = max(values, key=lambda c: (values[c], -(c % 13), -c))
    assert bot.play(obs, legal, random.Random(3)) == best
    # I still need two tricks and AH is sure: it must be worth at least the cheaper QH, and more than 4H.
    from spades_tui.engine.cards import Card

    assert values[int(Card.parse("AH"))] > values[int(Card.parse("4H"))]


def test_the_double_nil_chance_comes_from_the_rules_and_the_draft() -> None:
    from spades_tui.bots.hard import DN_SUCCESS

    state = _first_decision(Phase.DOUBLE_NIL)
    seat = state.to_act
    assert seat is not None
    obs = observe(state, seat)
    bot = HardBot(seed=1, iterations=10)
    plain = bot.double_nil_success(obs, random.Random(1))
    assert abs(plain - DN_SUCCESS) < 0.08  # calibrated to the arena's share under the default rules
    # Seeing the second card lets a low drafter keep fewer dangerous cards.
    seeing = dataclasses.replace(obs, rules=Rules(see_second_card=True))
    assert bot.double_nil_success(seeing, random.Random(1)) > plain  # the same simulated stocks


@pytest.mark.slow
def test_an_expert_asked_for_a_pool_inside_the_arenas_workers_solves_alone() -> None:
    from spades_tui.arena.match import run_deals
    from spades_tui.arena.stats import ArenaConfig

    config = ArenaConfig("expert:iters=4,workers=2", "easy", Rules(), 3, True, None, 10.0)
    results = list(run_deals(config, 2, jobs=2))
    assert len(results) == 2
    assert not [m for r in results for m in r.messages]  # nobody forfeited


@pytest.mark.parametrize(("mine", "theirs", "declares"), [
    (300, 480, True),    # 180 behind, the opponent about to win: a success brings the game back
    (100, 480, False),   # 380 behind (after a failed one, say): another only sinks the score
    (300, 420, False),   # the opponent is not about to win: an ordinary hand can catch up
])
def test_the_normal_bots_double_nil_is_a_last_resort_that_can_still_help(mine: int, theirs: int,
                                                                          declares: bool) -> None:
    from spades_tui.bots.heuristic import wants_double_nil

    state = _first_decision(Phase.DOUBLE_NIL)
    seat = state.to_act
    assert seat is not None
    obs = dataclasses.replace(observe(state, seat), scores=(mine, theirs) if seat == 0 else (theirs, mine))
    assert wants_double_nil(obs) is declares
