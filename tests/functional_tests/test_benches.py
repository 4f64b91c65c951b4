"""The benches of one decision (``bench bid A B``, ``bench draft A B``): deals valued with both hands
face up, each rule in each seat on the same deal."""

from __future__ import annotations

import pytest

from spades_tui.arena.benches import BenchConfig, bench_deal, deal_seed, judge, play_until
from spades_tui.cli import main
from spades_tui.engine.rulebook import TRICKS, contract, made
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase, new_game
from spades_tui.session.dealer import Dealer
from spades_tui.solver.position import position_from_state
from spades_tui.solver.solver import Solver


def _first_lead(index: int, bidders: tuple[str, str] = ("normal", "easy")) -> GameState:
    config = BenchConfig("bid", "normal", "easy")
    seed = deal_seed(config.seed, index)
    return play_until(config, new_game(Rules(), index % 2), Dealer(seed), ("normal", "normal"), bidders, seed,
                      Phase.PLAY)


@pytest.mark.parametrize("decision", ["bid", "draft"])
def test_a_rule_benched_against_itself_differs_by_nothing(decision: str) -> None:
    config = BenchConfig(decision, "normal", "normal", opponent="easy")  # type: ignore[arg-type]
    for index in range(3):
        deal = bench_deal(config, index)
        assert deal.difference == 0
        assert [j.bid for j in deal.a] == [j.bid for j in deal.b]


@pytest.mark.parametrize("index", range(4))
def test_a_deal_is_judged_zero_sum_and_made_by_the_solvers_tricks(index: int) -> None:
    state = _first_lead(index)
    assert state.phase is Phase.PLAY and state.hand is not None and not state.hand.trick
    one, other = judge(state, 0), judge(state, 1)
    assert one.margin == -other.margin  # the margin is one number seen from each side
    position = position_from_state(state)
    leader = position.to_act
    solver = Solver()
    most, fewest = solver.solve(position, "most"), solver.solve(position, "fewest")
    for seat, judged in ((0, one), (1, other)):
        bid = state.hand.bid_of(seat)
        assert judged.bid == bid
        # The most (fewest) tricks this seat can be sure of: the leader's own, or what the leader's
        # opponent is left with when the leader plays for the same aim.
        assert bid is not None
        aim = most if contract(bid) is not None else fewest
        assert judged.made == made(bid, aim if seat == leader else TRICKS - aim)


def test_bench_bid_draws_the_same_deal_for_both_rules() -> None:
    """Bench bid: both rules bid on one draft (drafted once), so their hands at the first lead are equal."""
    config = BenchConfig("bid", "normal", "easy")
    seed = deal_seed(config.seed, 2)
    bidding = play_until(config, new_game(Rules(), 0), Dealer(seed), ("normal", "normal"), ("normal", "normal"),
                         seed, Phase.BIDDING)
    a = play_until(config, bidding, Dealer(seed), ("normal", "normal"), ("normal", "easy"), seed, Phase.PLAY)
    b = play_until(config, bidding, Dealer(seed), ("normal", "normal"), ("easy", "easy"), seed, Phase.PLAY)
    assert a.hand is not None and b.hand is not None and a.hand.hands == b.hand.hands


def test_the_bench_command_reports_both_rules_with_a_progress_line_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bid", "normal", "easy", "--deals", "3", "--seed", "2"]) == 0
    out, err = capsys.readouterr()
    assert [line.split(",")[0] for line in err.splitlines()] == [f"bench: {k}/3 deals" for k in (1, 2, 3)]
    assert out.startswith("bench bid: A = normal  vs  B = easy\n3 deals x 2 seatings, seed 2")
    assert "A normal:" in out and "B easy:" in out and "contracts made" in out
    assert "difference A - B, points per hand:" in out and "3 deals)" in out


@pytest.mark.parametrize("args, said", [
    (["bench", "bid", "normal"], "'bench bid A B' or 'bench draft A B'"),
    (["bench", "play", "normal", "easy"], "'bench bid A B' or 'bench draft A B'"),
    (["bench", "bid", "normal", "genius"], "genius"),
    (["bench", "draft", "normal", "easy", "--deals", "0"], "--deals and --jobs must be at least 1"),
    (["bench", "draft", "normal", "easy", "--budget", "-1"], "--budget must be positive"),
])
def test_bad_bench_arguments_are_a_clear_message(capsys: pytest.CaptureFixture[str], args: list[str],
                                                 said: str) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and said in err and "Traceback" not in err
