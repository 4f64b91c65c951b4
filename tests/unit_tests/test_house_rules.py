"""The house rules of docs/rules.md (sections 4, 6, 7, 8, 9): the engine and ``replay --json`` agree with an
independent reading of the rules (tests/support/reference_rules.py) on records under every option and preset:
legal, cut, illegal and malformed records, the value ranges included."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.errors import RecordError, RulesError
from spades_tui.engine.record import ReplayError, loads_record, replay, summary
from spades_tui.engine.rules import PRESETS, Rules
from tests.support import reference_rules as ref
from tests.support.records import all_spades_record, record

ROOT = Path(__file__).resolve().parents[2]

# Each option alone at a value that changes the game, a few together, and every preset.
OPTION_SETS: list[dict[str, Any]] = [
    {"spades_any_time": True},
    {"nil_points": 50},
    {"nil_points": 10, "double_nil_points": 1000},
    {"double_nil_behind": 30},
    {"double_nil_behind": 30, "double_nil": False},  # allowed, and has no effect (section 9)
    {"ten_for_200": True},
    {"losing_score": 60},
    {"thirteen_wins": True},
    {"losing_score": 40, "target": 80, "bag_limit": 2, "bag_penalty": 30, "nil_tricks_are_bags": True},
    {"spades_any_time": True, "see_second_card": True, "nil": False, "ten_for_200": True, "thirteen_wins": True},
    *(PRESETS[name].rules.to_json() for name in PRESETS),
]



def estimate(hand: set[str], rng: random.Random) -> int:
    """A rough bid, so that contracts are made as well as set (and now and then Nil)."""
    high = sum(1 for c in hand if c[0] in "AKQ") + max(0, sum(1 for c in hand if c[1] == "S") - 3)
    return 0 if rng.random() < 0.15 else max(1, min(13, high + rng.choice((-1, 0, 0, 1))))


def random_record(rules: dict[str, Any], seed: int, hands: int = 6) -> dict[str, Any]:
    """Random legal play chosen by the reference itself, so the engine plays no part in making it."""
    rng = random.Random(seed)
    game = ref.Game(ref.rules_of(rules), seed % 2)
    actions: list[dict[str, Any]] = []
    while game.phase != "game_over" and not (game.phase == "shuffle" and len(game.history) >= hands):
        if game.phase == "shuffle":
            stock = list(ref.DECK)
            rng.shuffle(stock)
            a: dict[str, Any] = {"type": "shuffle", "stock": stock}
        elif game.phase == "exchange_draw":
            a = {"type": "exchange_draw", "player": game.to_act,
                 "cards": rng.sample(sorted(game.discard), len(game.aside))}
        elif game.phase == "bidding":
            assert game.to_act is not None
            n = estimate(game.hands[game.to_act], rng)
            a = {"type": "bid", "player": game.to_act, "tricks": n if n or rules.get("nil", True) else 1}
        elif game.phase == "double_nil":
            a = {"type": "double_nil", "player": game.to_act, "declare": rng.random() < 0.1}
        else:
            a = rng.choice(game.legal())
        actions.append(a)
        game.apply(a)
    return record(rules, actions, seed % 2)



def engine_answer(data: dict[str, Any]) -> tuple[int, Any]:
    """What the engine says of a record, in the reference's terms."""
    try:
        rec = loads_record(json.dumps(data))
    except (RecordError, RulesError):
        return 2, None
    try:
        return 0, json.loads(json.dumps(summary(replay(rec))))
    except ReplayError as exc:
        return 1, exc.index


def cli_answer(data: dict[str, Any], tmp_path: Path) -> tuple[int, Any]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "spades_tui", "replay", "--json", str(path)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)
    if done.returncode == 0:
        return 0, json.loads(done.stdout)
    if done.returncode == 1:
        assert done.stdout == ""
        return 1, int(done.stderr.split(":")[0].split()[-1])  # "action N: why"
    assert "Traceback" not in done.stderr and done.stderr.strip()
    return done.returncode, None


def illegal_variants(data: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The record with one decision replaced by an illegal one (the reference says which index fails)."""
    out = []
    actions = data["actions"]
    for i in rng.sample(range(len(actions)), min(12, len(actions))):
        a = dict(actions[i])
        if a["type"] == "play":
            a["card"] = rng.choice(ref.DECK)
        elif a["type"] == "bid":
            a["tricks"] = rng.choice((-1, 0, 14))
        elif a["type"] == "draft":
            a = {"type": "double_nil", "player": a["player"], "declare": True}
        else:
            continue
        out.append({**data, "actions": actions[:i] + [a] + actions[i + 1:]})
    return out


CASES = [(i, rules, seed) for i, rules in enumerate(OPTION_SETS) for seed in (1, 2, 3)]


@pytest.mark.parametrize("rules, seed", [pytest.param(r, s, id=f"{i}-{s}") for i, r, s in CASES])
def test_the_engine_agrees_with_the_reference_on_legal_cut_and_illegal_records(rules: dict[str, Any],
                                                                               seed: int) -> None:
    data = random_record(rules, seed * 7 + 1)
    want = ref.run(data)
    assert want[0] == 0
    assert engine_answer(data) == want
    rng = random.Random(seed)
    for cut in sorted(rng.sample(range(len(data["actions"])), 8)):
        short = {**data, "actions": data["actions"][:cut]}
        assert engine_answer(short) == ref.run(short), cut
    for bad in illegal_variants(data, rng):
        got, expected = engine_answer(bad), ref.run(bad)
        assert got == expected


@pytest.mark.parametrize("rules, bid, points, winner", [
    ({"thirteen_wins": True}, 13, 130, 0),  # 8.5: the game is won at once, far below the target
    ({"thirteen_wins": False}, 13, 130, None),
    ({"ten_for_200": True}, 10, 203, None),  # 7.1: 20 x 10, and 3 over
    ({"ten_for_200": True}, 9, 94, None),  # below 10: the plain 10 a trick
    ({"ten_for_200": True, "thirteen_wins": True, "target": 10000}, 13, 260, 0),
    ({"ten_for_200": False}, 10, 103, None),
])
def test_all_thirteen_tricks(rules: dict[str, Any], bid: int, points: int, winner: Any) -> None:
    data = all_spades_record(rules, bid)
    code, got = engine_answer(data)
    assert (code, got) == ref.run(data)
    assert got["hands"][0]["tricks"] == [13, 0] and got["hands"][0]["points"][0] == points
    assert got["winner"] == winner
    assert got["phase"] == ("game_over" if winner is not None else "shuffle")


def test_a_score_at_the_losing_floor_ends_the_game_and_the_outcome_says_so() -> None:
    from spades_tui.engine.outcome import Termination, outcome_of

    for seed in range(40):
        data = random_record({"losing_score": 50}, seed, hands=20)
        state = replay(loads_record(json.dumps(data)))
        if state.winner is not None:
            assert min(state.scores) <= -50 and max(state.scores) < 500
            outcome = outcome_of(state)
            assert outcome is not None and outcome.termination is Termination.LOSING_SCORE
            assert outcome.winner == (0 if state.scores[0] > state.scores[1] else 1)
            break
    else:
        pytest.fail("no game reached the losing floor")
    state = replay(loads_record(json.dumps(all_spades_record({"thirteen_wins": True}, 13))))
    outcome = outcome_of(state)
    assert outcome is not None and outcome.termination is Termination.THIRTEEN and outcome.winner == 0


def test_double_nil_only_for_a_player_far_enough_behind() -> None:
    asked_behind = asked_ahead = 0
    for seed in range(30):
        data = random_record({"double_nil_behind": 30}, seed, hands=5)
        game = ref.Game(ref.rules_of(data["rules"]), data["first_drafter"])
        for a in data["actions"]:
            if a["type"] == "double_nil":
                p = a["player"]
                assert game.scores[1 - p] - game.scores[p] >= 30
                asked_behind += 1
            elif a["type"] == "shuffle":
                asked_ahead += 1
            game.apply(a)
        assert engine_answer(data) == ref.run(data)
    assert asked_behind and asked_ahead
    # In the first hand nobody is behind: a declaration there is refused in words.
    data = random_record({"double_nil_behind": 30}, 5, hands=1)
    bad = {**data, "actions": data["actions"][:1] + [{"type": "double_nil", "player": 0, "declare": True}]}
    assert engine_answer(bad) == (1, 1)
    with pytest.raises(ReplayError, match="not asked about Double Nil: only a player at least 30 points behind"):
        replay(loads_record(json.dumps(bad)))


def test_a_spade_may_be_led_at_once_under_spades_any_time() -> None:
    from spades_tui.engine.actions import Bid, Draft, Play, Shuffle
    from spades_tui.engine.cards import CARDS
    from spades_tui.engine.reducer import legal_actions, reduce
    from spades_tui.engine.state import new_game

    for any_time in (False, True):
        state = reduce(new_game(Rules(double_nil=False, spades_any_time=any_time)), Shuffle(tuple(CARDS)))
        while state.phase.value == "draft":
            state = reduce(state, Draft(state.to_act or 0, "first"))
        while state.phase.value == "bidding":
            state = reduce(state, Bid(state.to_act or 0, 3))
        leader = state.to_act
        assert leader is not None
        spades = [a for a in legal_actions(state) if isinstance(a, Play) and a.card < 13]
        held_spades = [c for c in state.hand.hands[leader] if c < 13] if state.hand else []
        held_other = [c for c in state.hand.hands[leader] if c >= 13] if state.hand else []
        assert held_spades and held_other
        assert bool(spades) == any_time


MALFORMED_RULES = [
    {"target": 0}, {"target": 10001}, {"bag_limit": 51}, {"bag_limit": -1}, {"bag_penalty": 1001},
    {"nil_points": 9}, {"nil_points": 501}, {"double_nil_points": 9}, {"double_nil_points": 1001},
    {"double_nil_behind": -1}, {"double_nil_behind": 10001}, {"losing_score": -1}, {"losing_score": 10001},
    {"spades_any_time": "yes"}, {"ten_for_200": 1}, {"thirteen_wins": None}, {"nil_points": True},
    {"losing_score": 2.5}, {"boston": True},
]
EDGE_RULES = [
    {"target": 1}, {"target": 10000}, {"bag_limit": 0}, {"bag_limit": 50}, {"bag_penalty": 1000},
    {"nil_points": 10}, {"nil_points": 500}, {"double_nil_points": 1000}, {"double_nil_behind": 10000},
    {"losing_score": 10000},
]


@pytest.mark.parametrize("rules", MALFORMED_RULES, ids=lambda r: json.dumps(r))
def test_values_outside_the_ranges_are_malformed(rules: dict[str, Any]) -> None:
    data = random_record({}, 3, hands=1)
    data["rules"] = rules
    assert ref.run(data) == (2, None)
    assert engine_answer(data) == (2, None)


@pytest.mark.parametrize("rules", EDGE_RULES, ids=lambda r: json.dumps(r))
def test_values_at_the_ends_of_the_ranges_are_allowed(rules: dict[str, Any]) -> None:
    data = random_record(rules, 4, hands=2)
    assert engine_answer(data) == ref.run(data)
    assert ref.run(data)[0] == 0


def test_replay_json_agrees_with_the_reference_through_the_command(tmp_path: Path) -> None:
    """The real command line, on a record of each kind (a few: each is a process)."""
    rng = random.Random(11)
    legal = random_record({"ten_for_200": True, "losing_score": 60, "nil_points": 50}, 12)
    bad_rules = {**legal, "rules": {"nil_points": 501}}
    illegal = illegal_variants(legal, rng)[0]
    cut = {**legal, "actions": legal["actions"][:137]}
    thirteen = all_spades_record({"thirteen_wins": True}, 13)
    for data in (legal, bad_rules, illegal, cut, thirteen):
        assert cli_answer(data, tmp_path) == ref.run(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bad_rules), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "spades_tui", "replay", str(path)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "rule nil_points must be 10 to 500, not 501" in done.stderr


def test_presets_and_the_command_line_form() -> None:
    assert Rules().preset == "standard"
    for name, preset in PRESETS.items():
        assert Rules.parse_assignments(name) == preset.rules
        assert preset.rules.preset == name
    tournament = PRESETS["tournament"].rules
    assert Rules.parse_assignments("Tournament, target=300").target == 300
    assert Rules.parse_assignments("tournament,target=300").ten_for_200 == tournament.ten_for_200
    assert Rules.parse_assignments("tournament,target=300").preset is None
    with pytest.raises(RulesError, match="unknown preset 'boston' \\(known: standard, tournament, casual, quick\\)"):
        Rules.parse_assignments("boston")
    with pytest.raises(RulesError, match="rule losing_score must be 0 to 10000, not 20000"):
        Rules.parse_assignments("quick,losing_score=20000")
    with pytest.raises(RulesError, match="a preset's name may come first"):
        Rules.parse_assignments("target=300,tournament")
    assert Rules(nil_points=50).changed() == {"nil_points": 50}


def test_each_preset_has_one_name_shown_capitalised_and_the_old_names_still_read() -> None:
    """Issue 37: one name a preset, the same on the command line, the form, the rules panel and the docs; the
    names of before (article, club, kitchen, kitchen-table, quick-game) still read, in any case, and never listed."""
    from spades_tui.engine.rules import OLD_PRESET_NAMES, find_preset
    from spades_tui.tui.houserules import house_rules_lines, house_rules_short, rules_title

    assert list(PRESETS) == ["standard", "tournament", "casual", "quick"]
    assert [p.title for p in PRESETS.values()] == ["Standard", "Tournament", "Casual", "Quick"]
    for name, preset in PRESETS.items():
        assert rules_title(preset.rules) == preset.title == name.capitalize()
        assert house_rules_short(preset.rules, 40) == f"Rules: {preset.title}"
        # The panel's lines begin with its words, which use no other name for it.
        first = house_rules_lines(preset.rules)[0].lower()
        assert not any(old in first for old in ("article", "kitchen", "club", "quick game"))
    for old, name in {"article": "standard", "Article": "standard", "club": "tournament", "KITCHEN": "casual",
                      "kitchen-table": "casual", "Kitchen table": "casual", "kitchen_table": "casual",
                      "quick-game": "quick", "Quick game": "quick"}.items():
        assert find_preset(old) is PRESETS[name]
        assert Rules.parse_assignments(f"{old},target=300") == dataclasses.replace(PRESETS[name].rules, target=300)
    assert set(OLD_PRESET_NAMES.values()) <= set(PRESETS)
    with pytest.raises(RulesError) as caught:
        find_preset("kitchen-sink")
    assert str(caught.value) == "unknown preset 'kitchen-sink' (known: standard, tournament, casual, quick)"


def test_the_game_over_screen_says_how_the_house_rules_ended_it() -> None:
    from spades_tui.engine.outcome import outcome_of
    from spades_tui.engine.record import PlayerInfo
    from spades_tui.session.view import seat_view
    from spades_tui.tui.viewmodels import game_over_view

    players = (PlayerInfo("Ada"), PlayerInfo("Bo"))
    state = replay(loads_record(json.dumps(all_spades_record({"thirteen_wins": True}, 13))))
    view = game_over_view(seat_view(state, 0, players, outcome=outcome_of(state)))
    assert "Ada wins" in view.prompt and "All 13 tricks on a bid of 13 win the game." in view.prompt
    for seed in range(40):
        state = replay(loads_record(json.dumps(random_record({"losing_score": 50}, seed, hands=20))))
        if state.winner is not None:
            view = game_over_view(seat_view(state, 0, players, outcome=outcome_of(state)))
            assert "A score of −50 or lower ends the game." in view.prompt, view.prompt
            break
    else:
        pytest.fail("no game reached the losing floor")
