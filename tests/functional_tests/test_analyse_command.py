"""``spades-tui analyse FILE [--json]`` as a real subprocess (docs/analysis.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.actions import Draft, Play
from spades_tui.engine.cards import CARDS, Card
from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.reducer import playable_cards
from spades_tui.engine.rules import Rules
from spades_tui.keep.storage import save_record
from spades_tui.session.randomplay import random_game
from spades_tui.solver.words import MINOR_COST
from tests.support.cli import ROOT, run_spades
from tests.support.positions import in_play, split_hands
from tests.support.reports import entries, sg


def write(tmp_path: Path, record: GameRecord, name: str = "game.json") -> Path:
    path = tmp_path / name
    save_record(path, record)
    return path


def a_game(hands: int = 2, seed: int = 4) -> GameRecord:
    record, _ = random_game(seed, Rules(target=10_000), max_hands=hands)
    return GameRecord(
        record.rules, record.first_drafter, (PlayerInfo("Ada"), PlayerInfo("Bob", "bot:hard")), record.actions
    )


def analyse_json(path: Path) -> dict[str, Any]:
    result = run_spades("analyse", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == 1  # exactly one JSON object
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def check_plays(record: GameRecord, data: dict[str, Any]) -> None:
    plays = data["plays"]
    indices = [i for i, a in enumerate(record.actions) if isinstance(a, Play)]
    assert [p["action"] for p in plays] == indices
    for p in plays:
        assert {"action", "hand", "trick", "player", "card", "best", "played", "optimal"} <= set(p)
        for key in ("action", "hand", "trick", "player", "best", "played"):
            assert type(p[key]) is int, (key, p)
        action = record.actions[p["action"]]
        assert isinstance(action, Play)
        assert (p["player"], p["card"]) == (action.player, action.card.code)
        assert p["hand"] >= 1 and 1 <= p["trick"] <= 13 and p["player"] in (0, 1)
        assert 0 <= p["played"] <= p["best"] <= 14 - p["trick"]
        assert isinstance(p["optimal"], list) and p["optimal"]
        assert all(isinstance(c, str) and len(c) == 2 for c in p["optimal"])
        assert (p["card"] in p["optimal"]) == (p["played"] == p["best"])
        pts = p["points"]
        assert set(pts) == {"best", "played", "optimal"} and type(pts["best"]) is int
        assert pts["played"] <= pts["best"] and (p["card"] in pts["optimal"]) == (pts["played"] == pts["best"])
    drafts = [i for i, a in enumerate(record.actions) if isinstance(a, Draft)]
    judged_hands = {h["hand"] for h in data["hands"]}
    entries = data["draft"]
    assert all(e["hand"] in judged_hands for e in entries)
    assert [e["action"] for e in entries] == [i for i in drafts if any(e["action"] == i for e in entries)]
    assert len(entries) == 26 * len(judged_hands)
    for e in entries:
        assert {"action", "hand", "player", "kept", "other", "tricks", "tricks_other"} <= set(e)
        action = record.actions[e["action"]]
        assert isinstance(action, Draft) and action.player == e["player"]
        assert e["tricks_other"] is None or 0 <= e["tricks_other"] <= 13


def test_json_of_a_valid_record(tmp_path: Path) -> None:
    record = a_game()
    data = analyse_json(write(tmp_path, record))
    check_plays(record, data)
    assert len(data["plays"]) == 52
    assert [p["hand"] for p in data["plays"]] == [1] * 26 + [2] * 26
    assert [p["trick"] for p in data["plays"][:26]] == [t for t in range(1, 14) for _ in (0, 1)]
    assert [h["hand"] for h in data["hands"]] == [1, 2]
    for h in data["hands"]:
        mine = [p for p in data["plays"] if p["hand"] == h["hand"]]
        assert h["tricks_lost"] == [sum(p["best"] - p["played"] for p in mine if p["player"] == q) for q in (0, 1)]


def test_a_record_cut_mid_hand(tmp_path: Path) -> None:
    record = a_game()
    plays = [i for i, a in enumerate(record.actions) if isinstance(a, Play)]
    cut = record.truncated(plays[26 + 9] + 1)  # ten plays into hand 2
    data = analyse_json(write(tmp_path, cut))
    check_plays(cut, data)
    assert len(data["plays"]) == 36
    assert [h["complete"] for h in data["hands"]] == [True, False]
    before_play = record.truncated(plays[0])  # dealt and bid, nothing played
    assert analyse_json(write(tmp_path, before_play, "none.json"))["plays"] == []


@pytest.mark.slow
def test_the_report_for_a_person(tmp_path: Path) -> None:
    record = a_game()
    result = run_spades("analyse", str(write(tmp_path, record)))
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    report = entries(result.stdout, ("Ada", "Bob"))
    # A header per hand (what happened: its tricks, bids and points, said once) and, under it, one per player.
    assert lines[0].startswith("Hand 1: Ada ") and " for Ada" in lines[0]
    assert [line for line in lines if line.startswith("Hand ")][1].startswith("Hand 2: Ada ")
    for hand in (1, 2):
        assert [e.player for e in report if e.hand == hand and e.text in ("Ada:", "Bob:")] == [0, 1]
        assert sum(1 for e in report if e.hand == hand and e.text.startswith("Card play: ")) == 2
    data = analyse_json(write(tmp_path, record, "again.json"))
    costly = [p for p in data["plays"] if p["points"]["best"] - p["points"]["played"] >= MINOR_COST]
    # Each costly play, under its hand and its player: the card judged named, what happened, then (marked
    # "Had") what the better card would have led to.
    costly.sort(key=lambda p: (p["hand"], p["player"], p["action"]))
    worded = [i for i, e in enumerate(report) if e.text.startswith("Had ")]
    assert len(worded) == len(costly) > 0
    for i, p in zip(worded, costly, strict=True):
        name, label = ("Ada", "Bob")[p["player"]], Card.parse(p["card"]).label()
        line = report[i]
        assert (line.hand, line.player) == (p["hand"], p["player"])
        assert line.text.startswith(f"Had {name} played ") and "best play from there would have " in line.text
        assert f": {sg(p['points']['best'])} for {name} (best play after {label}: " in line.text
        before = report[i - 1].text
        assert before.startswith(f"Trick {p['trick']}, {name}'s {label}: ") and " ended " not in before
    # A trick told under both players names a different card (each player's own) each time.
    named = [(e.hand, e.text.split(":")[0]) for e in report if e.text.startswith("Trick ")]
    assert len(named) == len(set(named))
    assert sum(1 for e in report if e.text.startswith(("Ada bid ", "Ada Double Nil", "Ada Nil"))) >= 2
    # Negative numbers with the true minus, as on the screens; --json keeps plain numbers.
    assert not re.search(r"(?<![\w.])-\d", result.stdout)
    assert "\u2212" in result.stdout or all(p["points"]["played"] >= 0 for p in data["plays"])
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


def test_a_hand_without_a_costly_play_says_so(tmp_path: Path) -> None:
    game = in_play(split_hands(1, 6), bids=(7, 6)).play_out()
    result = run_spades("analyse", str(write(tmp_path, game.record())))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:5] == [
        "Hand 1: Player 0 took 7 tricks on a bid of 7 (made, +70); Player 1 took 6 tricks on a bid "
        "of 6 (made, +60): +10 for Player 0.",
        "  With all cards face up, best play from the first lead was worth +10 for Player 0, and so it was "
        "played: no card of either side cost a point.",
        "  Player 0:",
        "    Card play: no card cost points.",
        "    Player 0 bid 7; best play for tricks from the first lead would have made 7 for Player 0; Player 0 took 7, "
        "as best play for tricks would have",
    ]
    other = lines.index("  Player 1:")
    assert lines[other + 1] == "    Card play: no card cost points."


@pytest.mark.slow
def test_an_illegal_action_exits_1_naming_its_index(tmp_path: Path) -> None:
    record = a_game(hands=1)
    plays = [i for i, a in enumerate(record.actions) if isinstance(a, Play)]
    cut = record.truncated(plays[6])
    state = replay(cut)
    assert state.hand is not None and state.hand.to_act is not None
    p = state.hand.to_act
    bad = next(c for c in CARDS if c not in playable_cards(state.hand, p))
    path = write(tmp_path, cut.with_action(Play(p, bad)).with_action(Play(1 - p, bad)))
    replayed = run_spades("replay", str(path))
    for args in (["--json"], []):
        result = run_spades("analyse", str(path), *args)
        assert result.returncode == 1
        assert result.stdout == ""
        assert result.stderr.startswith(f"action {plays[6]}: ") and result.stderr.count("\n") == 1
        assert result.stderr == replayed.stderr  # the very words of replay


BAD_FILES = [
    ("notjson.json", b"this is not json", "not valid JSON"),
    ("array.json", b"[1, 2, 3]", "must be a JSON object"),
    ("format.json", b'{"format": "chess", "version": 1, "actions": []}', "format is 'chess'"),
    ("version.json", b'{"format": "spades-tui-game", "version": 9, "actions": []}', "unsupported record version 9"),
    ("action.json", b'{"format": "spades-tui-game", "version": 1, "actions": [{"type": "play", "player": 0}]}',
     "action 0: play action lacks field 'card'"),
    ("empty.json", b"", "not valid JSON"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES)
def test_an_unreadable_record_exits_2(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    result = run_spades("analyse", str(path), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr and name in result.stderr
    assert result.stderr.startswith("spades-tui analyse: ")
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_missing_file_or_bad_arguments_exit_2(tmp_path: Path) -> None:
    result = run_spades("analyse", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and result.stdout == ""
    assert "no such file" in result.stderr and "Traceback" not in result.stderr
    for args in ([], ["a.json", "b.json"], ["a.json", "--xml"]):
        result = run_spades("analyse", *args)
        assert result.returncode == 2 and result.stdout == ""
        assert "spades-tui analyse" in result.stderr and "Traceback" not in result.stderr


def test_analyse_does_not_import_textual(tmp_path: Path) -> None:
    path = write(tmp_path, a_game(hands=1))
    code = (
        "import sys, io, contextlib\n"
        "from spades_tui.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    rc = main(['analyse', {str(path)!r}, '--json'])\n"
        "assert rc == 0, rc\n"
        "assert out.getvalue().startswith('{'), out.getvalue()\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not loaded, loaded\n"
        "print('clean')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "clean\n"


def test_a_closed_stdout_gives_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, a_game())
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tui", "analyse", str(path)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before anything is written
    stderr = proc.stderr.read()
    proc.stderr.close()
    proc.wait(timeout=60)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr


def test_the_help_mentions_analyse() -> None:
    result = run_spades("--help")
    assert result.returncode == 0 and "analyse" in result.stdout and "double dummy" in result.stdout
