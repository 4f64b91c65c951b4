"""The double-dummy solver against a plain minimax that plays through the engine.

The reference below knows nothing of the solver: it builds a real ``GameState``
in the play phase and tries every action of ``legal_actions`` through
``reduce``, reading the tricks won off the new state.  So the solver is pinned
to the engine's rules (follow suit, leading spades, breaking spades, who wins a
trick).  Endgames are drawn at random from a seeded generator; set
SPADES_SOLVER_EXAMPLES to raise the count for a soak.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades_tui.engine.actions import Play
from spades_tui.engine.cards import Card
from spades_tui.engine.reducer import legal_actions, playable_cards, reduce
from spades_tui.engine.rules import PRESETS, Rules
from spades_tui.engine.state import GameState, PlayedCard
from spades_tui.solver.position import Position, cards_of, mask_of, position_from_state
from spades_tui.solver.solver import Solver, card_values, legal_cards, solve
from tests.support.cli import ROOT, cli_env
from tests.support.positions import hand, in_play, play_state, random_endgame, split_hands, tricks_left

EXAMPLES = int(os.environ.get("SPADES_SOLVER_EXAMPLES", "2000"))
CHUNKS = 8
EMPTY: frozenset[Card] = frozenset()

# ---------------------------------------------------------------- the reference



@cache
def _ref(
    hands: tuple[frozenset[Card], frozenset[Card]], trick: tuple[PlayedCard, ...], to_act: int, broken: bool,
    rules: Rules = Rules(),  # noqa: B008 (immutable)
) -> tuple[int, int, dict[Card, tuple[int, int]]]:
    """(most, fewest, per card) for the player to act: their tricks among those left."""
    state = play_state(hands, to_act, broken, (trick[0].player, trick[0].card) if trick else None, rules)
    per: dict[Card, tuple[int, int]] = {}
    h = state.hand
    assert h is not None
    for action in legal_actions(state):
        assert isinstance(action, Play)
        after = reduce(state, action)
        h2 = after.hand
        assert h2 is not None and h2.to_act is not None
        won = h2.tricks_won[to_act] - h.tricks_won[to_act]
        if not h2.hands[0] and not h2.hands[1]:
            per[action.card] = (won, won)
            continue
        most, fewest, _ = _ref(h2.hands, h2.trick, h2.to_act, h2.spades_broken, rules)
        if h2.to_act == to_act:
            per[action.card] = (won + most, won + fewest)
        else:
            left = tricks_left(after)
            per[action.card] = (won + left - most, won + left - fewest)
    return max(v[0] for v in per.values()), min(v[1] for v in per.values()), per


def reference(state: GameState) -> tuple[int, int, dict[Card, tuple[int, int]]]:
    h = state.hand
    assert h is not None and h.to_act is not None
    return _ref(h.hands, h.trick, h.to_act, h.spades_broken, state.rules)


# ---------------------------------------------------------------- random endgames



def check(state: GameState, solver: Solver) -> None:
    most, fewest, per = reference(state)
    h = state.hand
    assert h is not None and h.to_act is not None
    position = position_from_state(state)
    assert legal_cards(position) == tuple(sorted(playable_cards(h, h.to_act, state.rules)))
    assert solver.solve(position) == most, position
    assert solver.solve(position, "fewest") == fewest, position
    assert solver.card_values(position) == {c: v[0] for c, v in per.items()}, position
    assert solver.card_values(position, "fewest") == {c: v[1] for c, v in per.items()}, position


@pytest.mark.slow  # an exhaustive check against a brute-force reference
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_endgames_match_the_engine_minimax(chunk: int) -> None:
    rng = random.Random(f"solver-{chunk}")
    shared = Solver()  # one table across unrelated positions must not mix them up
    for i in range(EXAMPLES // CHUNKS):
        state = random_endgame(rng)
        check(state, shared if i % 2 else Solver())
    assert shared.table_size > 0
    _ref.cache_clear()


@pytest.mark.slow  # an exhaustive check against a brute-force reference
@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_endgames_match_the_engine_minimax_under_every_preset(preset: str) -> None:
    """The same under each preset's rules (its play rules reach the solver through the position)."""
    rng = random.Random(f"solver-{preset}")
    shared = Solver()
    for i in range(200):
        state = dataclasses.replace(random_endgame(rng), rules=PRESETS[preset].rules)
        check(state, shared if i % 2 else Solver())
    _ref.cache_clear()


@given(st.randoms(use_true_random=False))
@pytest.mark.slow
def test_random_endgames_shrinkable(rng: random.Random) -> None:
    """The same property under hypothesis, which shrinks a failure to a small seed."""
    state = random_endgame(rng)
    check(state, Solver())


@pytest.mark.slow
def test_the_reference_counts_every_trick() -> None:
    """The oracle itself: each card's two values lie in 0..tricks left."""
    rng = random.Random(7)
    for _ in range(50):
        state = random_endgame(rng)
        most, fewest, per = reference(state)
        n = tricks_left(state)
        assert 0 <= most <= n and 0 <= fewest <= n  # (fewest may exceed most: the other feeds tricks)
        assert all(0 <= a <= n and 0 <= b <= n for a, b in per.values())


# ---------------------------------------------------------------- hand-checked positions


def test_two_top_hearts_make_both_tricks() -> None:
    p = Position.of("AH KH", "QH JH", to_act=0)
    assert solve(p) == 2 and solve(p, "fewest") == 2
    assert card_values(p) == {Card.parse("KH"): 2, Card.parse("AH"): 2}


def test_cashing_the_ace_first_beats_the_ruff_later() -> None:
    """A♥ 2♥ against K♥ and a spade: A♥ draws the K♥ (1 trick, then the 2♥ is ruffed);
    2♥ first lets K♥ win and the last spade lead beats the A♥ (0 tricks)."""
    p = Position.of("AH 2H", "KH 3S", to_act=0, spades_broken=True)
    assert solve(p) == 1
    assert card_values(p) == {Card.parse("AH"): 1, Card.parse("2H"): 0}
    # To lose tricks instead, the 2♥ is best: the A♥ would win at once.
    assert card_values(p, "fewest") == {Card.parse("AH"): 1, Card.parse("2H"): 0}


def test_the_follower_must_follow_suit_and_may_ruff_when_void() -> None:
    p = Position.of("2H", "AH KS", table=(0, "QH"))
    assert p.to_act == 1 and legal_cards(p) == (Card.parse("AH"),)
    p = Position.of("2H", "AD KS", table=(0, "QH"))
    assert set(legal_cards(p)) == {Card.parse("AD"), Card.parse("KS")}
    # Ruff with K♠ wins the trick and then A♦ against 2♥ wins too; the A♦ discard wins nothing
    # now and leaves the K♠ to be led into 2♥: K♠ wins that one.
    assert card_values(p) == {Card.parse("KS"): 2, Card.parse("AD"): 1}


def test_spades_cannot_be_led_before_they_are_broken_unless_only_spades_are_held() -> None:
    p = Position.of("AS 2H", "KS 3H", to_act=0)
    assert legal_cards(p) == (Card.parse("2H"),)
    assert legal_cards(Position.of("AS 2H", "KS 3H", to_act=0, spades_broken=True)) == (
        Card.parse("AS"), Card.parse("2H"))
    assert legal_cards(Position.of("AS 2S", "KH 3H", to_act=0)) == (Card.parse("2S"), Card.parse("AS"))


def test_touching_cards_count_played_cards_as_gone() -> None:
    """K♥ and Q♥ touch once J♥ is out of both hands; K♥ and J♥ do not touch over the Q♥."""
    p = Position.of("KH QH 2C", "AH TH 3C", to_act=0)
    values = card_values(p)
    assert values[Card.parse("KH")] == values[Card.parse("QH")]
    assert set(values) == {Card.parse(c) for c in ("KH", "QH", "2C")}


@pytest.mark.parametrize("tricks", [0, 1, 5, 7, 12, 13])
@pytest.mark.parametrize("player", [0, 1])
def test_split_hands_are_solved_exactly(player: int, tricks: int) -> None:
    """tests.support.positions.split_hands: ``player`` wins exactly ``tricks`` whatever anyone plays."""
    game = in_play(split_hands(player, tricks))
    position = position_from_state(game.state)
    assert position.tricks_left == 13
    mine = tricks if position.to_act == player else 13 - tricks
    solver = Solver()
    assert solver.solve(position) == mine
    assert solver.solve(position, "fewest") == mine
    assert set(solver.card_values(position).values()) == {mine}


def test_thirteen_spades_win_every_trick_both_ways() -> None:
    p = Position.of(hand(S="AKQJT98765432"), hand(H="AKQJT98765432"), to_act=1)
    assert solve(p) == 0 and solve(p, "fewest") == 0
    q = Position.of(hand(S="AKQJT98765432"), hand(H="AKQJT98765432"), to_act=0)
    assert solve(q) == 13 and solve(q, "fewest") == 13


def test_a_full_hand_from_the_engine_after_some_plays() -> None:
    h0 = hand(S="AKQ", H="AKQJT", C="AKQJT")
    h1 = hand(S="32", H="5432", D="AKQJ", C="432")
    game = in_play((h0, h1)).play("2H")  # player 1 leads (the second player)
    position = position_from_state(game.state)
    assert position.table == (1, Card.parse("2H")) and position.to_act == 0
    assert position.tricks_left == 13
    values = card_values(position)
    assert set(values) == set(cards_of(mask_of(hand(H="AKQJT"))))
    assert solve(position) == max(values.values())


def test_an_empty_position_is_worth_nothing() -> None:
    p = Position((0, 0), None, 0, True)
    assert solve(p) == 0 and card_values(p) == {} and legal_cards(p) == ()


@pytest.mark.parametrize(
    "build",
    [
        lambda: Position.of("AS KS", "QS", to_act=0),  # unequal hands with nothing on the table
        lambda: Position.of("AS", "AS", to_act=0),  # the same card twice
        lambda: Position((1 << 52, 1), None, 0, False),  # not a card
        lambda: Position.of("AS", "KS QS", table=(1, "AS")),  # the table card in a hand
        lambda: Position((mask_of(["AS"]), mask_of(["KS"])), (0, 5), 0, False),  # table is mine
        lambda: Position.of("AS", "KS", to_act=2),
    ],
)
def test_inconsistent_positions_are_refused(build) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        build()


def test_an_unknown_aim_is_refused() -> None:
    with pytest.raises(ValueError, match="aim"):
        solve(Position.of("AS", "KS", to_act=0), "all")  # type: ignore[arg-type]


def test_position_from_state_needs_the_play_phase() -> None:
    game = in_play(split_hands(0, 3))
    game.play_out()
    with pytest.raises(ValueError, match="not a play position"):
        position_from_state(game.state)


def test_the_solver_imports_only_the_engine() -> None:
    """Pure: no Textual, no files, no randomness, nothing of ours but the engine (and the words' catalog beneath
    it, spades_tui.i18n: the engine's refusals are words too)."""
    code = (
        "import sys\n"
        "import spades_tui.solver, spades_tui.solver.analysis\n"
        "ours = sorted(m for m in sys.modules if m.startswith('spades_tui.')\n"
        "              and not m.startswith(('spades_tui.engine', 'spades_tui.solver', 'spades_tui.i18n')))\n"
        "other = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'platformdirs', 'random'))\n"
        "print(ours, other)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=cli_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "[] []\n"
