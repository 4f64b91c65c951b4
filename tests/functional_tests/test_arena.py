"""The arena, external bots over the protocol, forfeits, and the arena's statistics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from spades_tui.arena.match import play_game
from spades_tui.arena.stats import (
    ArenaConfig,
    DealResult,
    SideStats,
    duplicate_margins,
    format_report,
    hand_stats,
    mean_ci,
    summarise,
    wilson,
)
from spades_tui.bots.base import BotError
from spades_tui.bots.external import ExternalBot
from spades_tui.bots.levels import make_bot
from spades_tui.engine.observation import observe
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, HandResult, Phase, ScoreLine, new_game
from spades_tui.session.dealer import Dealer
from tests.support.cli import run_spades

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PY = sys.executable



def bot_command(level: str = "easy") -> str:
    return f"{PY} -m spades_tui bot {level}"


# ---------------------------------------------------------------- statistics, checked by hand

def test_wilson_interval_matches_the_hand_computed_values() -> None:
    # 8 of 10: p = 0.8, z = 1.96: centre 0.7167, half-width 0.2266 -> 0.4902 .. 0.9433
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_and_duplicate_margins() -> None:
    # 1..5: mean 3, sample sd 1.5811, half-width 1.96 * 1.5811 / sqrt 5 = 1.3859
    m, lo, hi = mean_ci([1, 2, 3, 4, 5])
    assert m == 3 and lo == pytest.approx(1.6141, abs=1e-4) and hi == pytest.approx(4.3859, abs=1e-4)
    assert mean_ci([]) == (0.0, 0.0, 0.0)
    assert duplicate_margins([(30, -10), (0, 20)]) == [10, 10]


def _result(bids: tuple[object, object], tricks: tuple[int, int], points: tuple[int, int]) -> HandResult:
    lines = (ScoreLine(contract=points[0]), ScoreLine(contract=points[1]))
    return HandResult(0, bids, tricks, lines, points, (0, 0))  # type: ignore[arg-type]


def test_hand_statistics_and_summary_on_a_small_example() -> None:
    history = (
        _result((4, 8), (5, 8), (41, 80)),  # seat 0 makes 4 with a bag; seat 1 makes 8
        _result((0, 6), (1, 12), (-100, 66)),  # seat 0 fails Nil
        _result(("double_nil", 5), (0, 13), (200, 58)),  # seat 0 makes Double Nil
        _result((3, 7), (2, 11), (-30, 74)),  # seat 0 fails 3
    )
    state = GameState(rules=Rules(), first_drafter=0, history=history)
    s0, s1 = SideStats(), SideStats()
    hand_stats(state, 0, s0)
    hand_stats(state, 1, s1)
    assert (s0.hands, s0.points, s0.contracts, s0.made) == (4, 111, 2, 1)
    assert (s0.nil, s0.nil_made, s0.double_nil, s0.double_nil_made) == (1, 0, 1, 1)
    assert (s1.points, s1.contracts, s1.made) == (278, 4, 4)

    a1 = SideStats(games=2, wins=1.5, hands=2, points=100, times=[0.1, 0.3])
    b1 = SideStats(games=2, wins=0.5, hands=2, points=40, times=[0.2])
    a2 = SideStats(games=2, wins=2.0, hands=2, points=60, times=[0.2])
    b2 = SideStats(games=2, wins=0.0, hands=2, points=0, times=[0.4])
    summary = summarise(
        [DealResult(1, (a2, b2), (40.0, 20.0), []), DealResult(0, (a1, b1), (30.0, 0.0), ["deal 0: x"])]
    )
    a, b = summary.sides
    assert (a.games, a.wins, a.points, a.hands) == (4, 3.5, 160, 4)
    assert (b.games, b.wins, b.points) == (4, 0.5, 40)
    assert summary.margins == [15.0, 30.0]  # deal order, each the mean of its two seatings
    text = format_report(ArenaConfig("normal", "easy"), summary)
    assert "games won            3.5/4 = 87.5%" in text
    lo, hi = wilson(3.5, 4)
    assert f"(95% CI {100 * lo:.1f}% to {100 * hi:.1f}%)" in text
    assert "points per hand      40.0" in text  # 160 points over 4 hands
    assert "margin A - B" in text and "+22.5" in text
    assert "deal 0: x" in text


def test_the_report_says_how_often_each_bid_kind_was_bid_and_made() -> None:
    # Side A: 20 hands, 15 contracts (12 made), 4 Nils (3 made), 1 Double Nil (failed); B: contracts only.
    a = SideStats(games=20, hands=20, contracts=15, made=12, nil=4, nil_made=3, double_nil=1, double_nil_made=0)
    b = SideStats(games=20, hands=20, contracts=20, made=11)
    text = format_report(ArenaConfig("hard", "normal", hands_only=True), summarise([DealResult(0, (a, b), (0, 0), [])]))
    section_a, section_b = text.split("B normal:")
    assert "  contract bids        15/20 (75.0%) of hands, made 12/15 (80.0%)" in section_a
    assert "  Nil bids             4/20 (20.0%) of hands, made 3/4 (75.0%)" in section_a
    assert "  Double Nil bids      1/20 (5.0%) of hands, made 0/1 (0.0%)" in section_a
    assert "  contract bids        20/20 (100.0%) of hands, made 11/20 (55.0%)" in section_b
    assert "  Nil bids             0/20 (0.0%) of hands, made 0/0" in section_b
    assert "  Double Nil bids      0/20 (0.0%) of hands, made 0/0" in section_b


def test_the_report_gives_each_sides_mean_bid_tricks_and_bags_a_hand() -> None:
    # Seat 0: bids 4 (takes 5, one bag), Nil (takes 1), Double Nil (takes 0), 3 (takes 2):
    # mean bid (4 + 0 + 3) / 3 = 2.33, tricks 8 / 4 = 2.00, bags 1 / 4 = 0.25.
    lines = [((4, 8), (5, 8), (1, 0)), ((0, 6), (1, 12), (0, 6)), (("double_nil", 5), (0, 13), (0, 8)),
             ((3, 7), (2, 11), (0, 4))]
    history = tuple(
        HandResult(0, bids, tricks, (ScoreLine(bags_added=bags[0]), ScoreLine(bags_added=bags[1])),  # type: ignore[arg-type]
                   (0, 0), (0, 0))
        for bids, tricks, bags in lines
    )
    state = GameState(rules=Rules(), first_drafter=0, history=history)
    s0, s1 = SideStats(), SideStats()
    hand_stats(state, 0, s0)
    hand_stats(state, 1, s1)
    assert (s0.bid_sum, s0.bids, s0.tricks, s0.bags) == (7, 3, 8, 1)
    assert (s1.bid_sum, s1.bids, s1.tricks, s1.bags) == (26, 4, 44, 18)
    text = format_report(ArenaConfig("hard", "normal", hands_only=True),
                         summarise([DealResult(0, (s0, s1), (0, 0), [])]))
    section_a, section_b = text.split("B normal:")
    assert "\n  mean bid             2.33  (3 bids)\n" in section_a
    assert "\n  tricks per hand      2.00\n" in section_a
    assert "\n  bags per hand        0.25\n" in section_a
    assert "\n  mean bid             6.50  (4 bids)\n" in section_b
    assert "\n  tricks per hand      11.00\n" in section_b
    assert "\n  bags per hand        4.50\n" in section_b
    assert "mean bid             -  (0 bids)" in format_report(
        ArenaConfig("a", "b", hands_only=True), summarise([DealResult(0, (SideStats(), SideStats()), (0, 0), [])]))


# ---------------------------------------------------------------- the arena command

def test_arena_command_plays_duplicate_games() -> None:
    proc = run_spades("arena", "normal", "easy", "--games", "4", "--seed", "2", "--rules", "target=200")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "2 duplicate deals x 2 seatings = 4 games, seed 2" in out
    for label in ("A normal:", "B easy:", "games won", "95% CI", "points per hand", "contract bids",
                  "Nil bids", "Double Nil bids", "mean bid", "tricks per hand", "bags per hand", "decision time",
                  "margin A - B"):
        assert label in out


def test_arena_hands_only_with_a_reduced_hard_budget() -> None:
    proc = run_spades("arena", "hard", "normal", "--games", "2", "--hands-only", "--budget", "0.02")
    assert proc.returncode == 0, proc.stderr
    assert "2 hands" in proc.stdout and "margin A - B, points per hand:" in proc.stdout
    assert "games won" not in proc.stdout


@pytest.mark.slow
def test_arena_plays_the_expert_level() -> None:
    proc = run_spades("arena", "expert:iters=4", "easy", "--games", "2", "--hands-only",
                      "--rules", "see_second_card=on")
    assert proc.returncode == 0, proc.stderr
    assert "A expert:iters=4:" in proc.stdout and "forfeit" not in proc.stdout


def test_arena_rejects_bad_arguments_with_a_clear_message() -> None:
    proc = run_spades("arena", "medium", "easy")
    assert proc.returncode == 2 and "unknown bot 'medium'" in proc.stderr
    proc = run_spades("arena", "easy", "easy", "--games", "0")
    assert proc.returncode == 2 and "--games" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_arena_against_an_external_bot_through_the_protocol() -> None:
    proc = run_spades("arena", "normal", f"cmd:{bot_command('easy')}", "--games", "2", "--hands-only")
    assert proc.returncode == 0, proc.stderr
    assert "forfeit" not in proc.stdout
    assert "B cmd:" in proc.stdout


# ---------------------------------------------------------------- the bot command, driven directly

def _first_decision_state() -> GameState:
    dealer = Dealer(4)
    state = new_game(Rules(), 0)
    while state.to_act is None:
        chance = dealer.chance_action(state)
        assert chance is not None
        state = reduce(state, chance)
    return state


def test_bot_command_answers_the_protocol_over_a_real_pipe() -> None:
    dealer = Dealer(6)
    state = new_game(Rules(target=100), 1)
    lines = [json.dumps({"type": "hello", "protocol": 1, "seat": 0, "rules": state.rules.to_json()})]
    expected: list[list[dict[str, Any]]] = []
    # Seat 0's first few decisions, whatever seat 1 does (its first legal action).
    while len(expected) < 8:
        chance = dealer.chance_action(state)
        if chance is not None:
            state = reduce(state, chance)
            continue
        legal = legal_actions(state)
        if state.to_act == 0:
            obs = observe(state, 0)
            act = {"type": "act", "observation": obs.to_json(), "legal": [a.to_json() for a in legal]}
            lines.append(json.dumps(act))
            expected.append([a.to_json() for a in legal])
        state = reduce(state, legal[0])
    lines.append(json.dumps({"type": "result", "scores": [0, 0], "winner": None}))
    proc = subprocess.run(
        [PY, "-m", "spades_tui", "bot", "normal"], input="\n".join(lines) + "\n", cwd=ROOT, env=ENV,
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(expected)
    for answer, listed in zip(answers, expected, strict=True):
        assert answer["action"] in listed


def test_bot_command_rejects_garbage_input() -> None:
    proc = subprocess.run(
        [PY, "-m", "spades_tui", "bot", "easy"], input="this is not json\n", cwd=ROOT, env=ENV,
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "line 1" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_spades("bot", "grandmaster")
    assert proc.returncode == 2 and "unknown bot" in proc.stderr


def test_external_bot_plays_a_whole_game_in_process() -> None:
    bot = make_bot(f"cmd:{bot_command('easy')}", env=ENV, cwd=str(ROOT))
    result = play_game((make_bot("normal", seed=1), bot), seed=3, rules=Rules(target=150))
    assert result.forfeit is None, result.message
    assert result.state.phase is Phase.GAME_OVER


# ---------------------------------------------------------------- bad external bots forfeit

FAKE_BOTS = {
    "garbage": """
        import sys
        for line in sys.stdin:
            if '"act"' in line:
                print("I am not JSON", flush=True)
    """,
    "illegal": """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "act":
                seat = msg["observation"]["seat"]
                print(json.dumps({"action": {"type": "bid", "player": seat, "tricks": 99}}), flush=True)
    """,
    "silent": """
        import sys
        for line in sys.stdin:
            pass  # reads everything, never answers
    """,
    "crash": """
        import sys
        for line in sys.stdin:
            if '"act"' in line:
                sys.stderr.write("fatal: out of ideas\\n")
                sys.exit(3)
    """,
    "nothing": """
        import sys
        sys.exit(0)
    """,
}

REASONS = {
    "garbage": "answered garbage (not JSON)",
    "illegal": "answered an illegal action",
    "silent": "did not answer within 0.5 s",
    "crash": "died (exit status 3)",
    "nothing": "died",
}


@pytest.fixture
def fake_bot(tmp_path: Path) -> FakeBots:
    return FakeBots(tmp_path)


class FakeBots:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def spec(self, kind: str) -> str:
        path = self.folder / f"{kind}.py"
        path.write_text(textwrap.dedent(FAKE_BOTS[kind]))
        return f"cmd:{PY} {path}"


@pytest.mark.parametrize("kind", sorted(FAKE_BOTS))
def test_bad_external_bots_forfeit_cleanly(kind: str, fake_bot: FakeBots) -> None:
    bad = make_bot(fake_bot.spec(kind), timeout=0.5)
    result = play_game((make_bot("easy", seed=1), bad), seed=1, rules=Rules())
    assert result.forfeit == 1 and result.winner == 0
    assert REASONS[kind] in result.message
    assert "seat 1" in result.message
    if kind == "crash":
        assert "out of ideas" in result.message
    assert isinstance(bad, ExternalBot) and bad.proc is None  # closed: no process left behind


def test_external_bot_raises_bot_error_for_the_tui(fake_bot: FakeBots) -> None:
    bot = make_bot(fake_bot.spec("garbage"), timeout=0.5)
    assert isinstance(bot, ExternalBot)
    state = _first_decision_state()
    seat = state.to_act
    assert seat is not None
    bot.start(seat, state.rules)
    with pytest.raises(BotError, match="garbage"):
        bot.decide(observe(state, seat), legal_actions(state))
    bot.close()
    missing = make_bot("cmd:/nonexistent/program --flag")
    with pytest.raises(BotError, match="could not be started"):
        missing.start(0, Rules())


def test_arena_reports_forfeits_and_goes_on(fake_bot: FakeBots) -> None:
    proc = run_spades("arena", "easy", fake_bot.spec("illegal"), "--games", "2", "--timeout", "2")
    assert proc.returncode == 0, proc.stderr
    assert "forfeits (2):" in proc.stdout
    assert "answered an illegal action" in proc.stdout
    assert "games won            2/2 = 100.0%" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


# The expert as main built it before issue 30 (the yardstick new experts are measured against):
# built from the commit, not kept in the tree.
OLD_EXPERT = "fcb870a27fddc8ca82fcb3c36ff87e416fda62c4"


@pytest.mark.slow
def test_the_expert_of_an_earlier_commit_plays_in_the_arena_through_the_protocol() -> None:
    found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{OLD_EXPERT}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        pytest.fail(f"commit {OLD_EXPERT} (the old expert) is not in this clone at {ROOT}: "
                    "a shallow clone? fetch the history (git fetch --unshallow) to play it")
    spec = f"git:{OLD_EXPERT}:expert:iters=4"
    proc = run_spades("arena", "expert:iters=4", spec, "--games", "2", "--hands-only")
    assert proc.returncode == 0, proc.stderr
    assert f"B {spec}:" in proc.stdout
    assert "forfeit" not in proc.stdout and "2 hands" in proc.stdout


def test_a_git_bot_of_an_unknown_commit_is_a_clear_message() -> None:
    proc = run_spades("arena", "easy", "git:0123456789abcdef:expert", "--games", "2")
    assert proc.returncode == 2
    assert "commit '0123456789abcdef' is not in the repository" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_spades("arena", "easy", "git:HEAD", "--games", "2")
    assert proc.returncode == 2 and "expected git:COMMIT:BOT" in proc.stderr
