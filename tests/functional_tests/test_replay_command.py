"""``spades-tui replay FILE [--json]`` and ``spades-tui bench`` as real subprocesses (docs/game-record.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.actions import Play
from spades_tui.engine.cards import DECK
from spades_tui.engine.record import GameRecord, replay, summary
from spades_tui.engine.rules import Rules
from spades_tui.keep.storage import save_record
from tests.support.cli import loaded_by, output_loading_no_interface, run_spades
from tests.support.positions import Game, card, hand, in_play

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_spades(*args)


def known_game() -> Game:
    """Hand 1: player 0 bids 7 and wins 8, player 1 bids 3 and wins 5.
    Hand 2 (player 1 drafts first): player 0 makes Double Nil, player 1 bids 4 and wins all 13.
    Hand 3: shuffled, player 0 must decide Double Nil."""
    g = Game(first_drafter=0)
    g.scored_hand(8, (7, 3))
    g.scored_hand(0, ("double_nil", 4))
    g.shuffle(sorted(DECK))
    return g


EXPECTED_KNOWN: dict[str, Any] = {
    "phase": "double_nil",
    "hand": 3,
    "scores": [71 + 200, 32 + (40 + 9 - 100)],  # player 1: 2 + 9 = 11 bags, one penalty
    "bags": [1, 1],
    "winner": None,
    "to_act": 0,
    "hands": [
        {"first_drafter": 0, "bids": [7, 3], "tricks": [8, 5], "points": [71, 32]},
        {"first_drafter": 1, "bids": ["double_nil", 4], "tricks": [0, 13], "points": [200, -51]},
    ],
}


def write(tmp_path: Path, record: GameRecord, name: str = "game.json") -> Path:
    path = tmp_path / name
    save_record(path, record)
    return path


def replay_json(path: Path) -> dict[str, Any]:
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1  # exactly one JSON object
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_replay_json_prints_exactly_the_summary_of_a_known_game(tmp_path: Path) -> None:
    g = known_game()
    data = replay_json(write(tmp_path, g.record()))
    assert data == EXPECTED_KNOWN
    assert list(data) == ["phase", "hand", "scores", "bags", "winner", "to_act", "hands"]
    assert data == summary(g.state)  # and it agrees with the engine


def test_replay_without_json_prints_a_readable_summary(tmp_path: Path) -> None:
    g = known_game()
    record = GameRecord(g.rules, 0, None, tuple(g.actions))
    result = run("replay", str(write(tmp_path, record)))
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    assert "Phase: Double Nil decision" in out
    # A person reads the true minus (issue 37); --json keeps ASCII (replay_json above: -19, -51 as numbers).
    for fact in ("271", "Player 1 \u221219", "Double Nil", "hand 1", "hand 2", "+71", "+200", "\u221251", "player 0"):
        assert fact in out, (fact, out)
    assert "-19" not in out and "-51" not in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    raw = run("replay", "--json", str(write(tmp_path, record)))
    assert "\u2212" not in raw.stdout and '"scores": [271, -19]' in raw.stdout


def test_an_output_that_cannot_write_the_true_minus_gets_the_ascii_one(tmp_path: Path) -> None:
    """Standard output in ASCII (a Latin-1 or C terminal): "-19", never a traceback."""
    g = known_game()
    result = run_spades("replay", str(write(tmp_path, GameRecord(g.rules, 0, None, tuple(g.actions)))),
                        PYTHONIOENCODING="ascii")
    assert result.returncode == 0 and result.stderr == ""
    assert "Scores: Player 0 271, Player 1 -19" in result.stdout and "points +200 / -51" in result.stdout


@pytest.mark.parametrize(
    ("cut", "phase", "to_act", "hand_number"),
    [
        (0, "shuffle", None, 0),
        (1, "double_nil", 0, 1),  # right after the first shuffle
        (2, "draft", 0, 1),
        (3, "double_nil", 1, 1),
    ],
)
def test_a_truncated_record_replays_to_its_prefix(
    tmp_path: Path, cut: int, phase: str, to_act: int | None, hand_number: int
) -> None:
    record = known_game().record().truncated(cut)
    data = replay_json(write(tmp_path, record))
    assert (data["phase"], data["to_act"], data["hand"], data["hands"]) == (phase, to_act, hand_number, [])


@pytest.mark.slow
def test_truncated_records_in_exchange_draw_bidding_play_and_between_hands(tmp_path: Path) -> None:
    g = Game(first_drafter=1).deal(
        (hand(H="AKQJT98765432"), hand(D="AKQJT98765432")), double_nil=(True, False)
    )  # player 0 is second: it exchanges and then player 1 bids
    assert replay_json(write(tmp_path, g.record()))["phase"] == "exchange"
    g.exchange(0, "AH KH", "2S 3S")
    actions = g.record().actions
    data = replay_json(write(tmp_path, g.record().truncated(len(actions) - 1)))
    assert (data["phase"], data["to_act"]) == ("exchange_draw", None)  # chance is due
    data = replay_json(write(tmp_path, g.record()))
    assert (data["phase"], data["to_act"]) == ("bidding", 1)
    g.bids({1: 5})
    data = replay_json(write(tmp_path, g.record()))
    assert (data["phase"], data["to_act"]) == ("play", 0)  # the second player leads
    g.play_out()
    data = replay_json(write(tmp_path, g.record()))
    assert (data["phase"], data["to_act"], data["hand"]) == ("shuffle", None, 1)
    assert data["hands"][0]["bids"] == ["double_nil", 5]
    assert data["hands"][0]["first_drafter"] == 1


def test_a_finished_game_reports_its_winner(tmp_path: Path) -> None:
    g = Game(Rules(target=15, bag_limit=0)).scored_hand(2, (2, 2))
    data = replay_json(write(tmp_path, g.record()))
    assert data == {
        "phase": "game_over",
        "hand": 1,
        "scores": [20, 29],
        "bags": [0, 9],
        "winner": 1,
        "to_act": None,
        "hands": [{"first_drafter": 0, "bids": [2, 2], "tricks": [2, 11], "points": [20, 29]}],
    }
    result = run("replay", str(write(tmp_path, g.record())))
    assert result.returncode == 0 and "Winner" in result.stdout and "player 1" in result.stdout


def test_an_illegal_action_exits_1_naming_its_index(tmp_path: Path) -> None:
    h0 = hand(S="AKQ", H="AKQJT", C="AKQJT")
    h1 = hand(S="32", H="5432", D="AKQJ", C="432")
    g = in_play((h0, h1)).play("2H")
    index = len(g.actions)
    record = g.record().with_action(Play(0, card("AC")))
    record = record.with_action(Play(0, card("AH")))  # actions after the bad one do not matter
    result = run("replay", str(write(tmp_path, record)), "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == f"action {index}: player 0 must follow suit (hearts)\n"
    result = run("replay", str(write(tmp_path, record)))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"action {index}: player 0 must follow suit (hearts)\n"


def test_an_illegal_first_action_is_action_0(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"format": "spades-tui-game", "version": 1, "actions": [{"type": "bid", "player": 1, "tricks": 3}]}),
        encoding="utf-8",
    )
    result = run("replay", str(path))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "action 0: cannot bid now: the game is in the shuffle phase\n"


def test_a_short_shuffle_is_illegal_not_malformed(tmp_path: Path) -> None:
    path = tmp_path / "short.json"
    path.write_text(
        json.dumps({"format": "spades-tui-game", "version": 1, "actions": [{"type": "shuffle", "stock": ["AS"]}]}),
        encoding="utf-8",
    )
    result = run("replay", str(path), "--json")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "action 0: a shuffle must list each of the 52 cards exactly once\n"


BAD_FILES = [
    ("notjson.json", b"this is not json", "not valid JSON"),
    ("array.json", b"[1, 2, 3]", "must be a JSON object"),
    ("format.json", b'{"format": "chess", "version": 1, "actions": []}', "format is 'chess'"),
    ("version.json", b'{"format": "spades-tui-game", "version": 9, "actions": []}', "unsupported record version 9"),
    ("rule.json", b'{"format": "spades-tui-game", "version": 1, "rules": {"jokers": 2}, "actions": []}',
     "unknown rule option 'jokers'"),
    ("action.json", b'{"format": "spades-tui-game", "version": 1, "actions": [{"type": "play", "player": 0}]}',
     "action 0: play action lacks field 'card'"),
    ("card.json", b'{"format": "spades-tui-game", "version": 1, "actions": '
     b'[{"type": "play", "player": 0, "card": "XX"}]}', "'XX' is not a card"),
    ("latin1.json", "{\"format\": \"spades-tui-game\", \"note\": \"é\"}".encode("latin-1"), "not UTF-8"),
    ("empty.json", b"", "not valid JSON"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES)
def test_an_unreadable_record_exits_2_with_a_clear_message(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    result = run("replay", str(path), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert name in result.stderr  # says which file
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_missing_file_or_a_directory_exits_2(tmp_path: Path) -> None:
    for path, message in ((tmp_path / "nope.json", "no such file"), (tmp_path, "is a directory")):
        result = run("replay", str(path))
        assert result.returncode == 2 and result.stdout == ""
        assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [[], ["a.json", "b.json"], ["a.json", "--xml"], ["--json"]])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    result = run("replay", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "spades-tui replay" in result.stderr and "Traceback" not in result.stderr


def test_replay_does_not_import_textual(tmp_path: Path) -> None:
    path = write(tmp_path, known_game().record())
    assert output_loading_no_interface("replay", str(path), "--json").startswith("{")


@pytest.mark.slow
def test_importing_everything_below_the_interface_loads_neither_textual_nor_rich() -> None:
    code = (
        "import importlib, pkgutil\n"
        "import spades_tui.cli\n"
        "for package in ('engine', 'session', 'keep', 'settings', 'bots', 'arena'):\n"
        "    found = importlib.import_module(f'spades_tui.{package}')\n"
        "    for module in pkgutil.iter_modules(found.__path__):\n"
        "        importlib.import_module(f'spades_tui.{package}.{module.name}')\n"
    )
    assert loaded_by(code) == []


def test_bench_runs_and_prints_both_figures() -> None:
    result = run("bench", "--seconds", "0.2", "--seed", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("engine: ") and "complete random hands/s" in lines[0] and "seed 3" in lines[0]
    assert lines[1].startswith("record: load + replay of a 10-hand record") and lines[1].endswith(" ms")


def test_bench_refuses_bad_arguments() -> None:
    result = run("bench", "--seconds", "soon")
    assert result.returncode == 2 and "Traceback" not in result.stderr and result.stdout == ""


def test_a_closed_stdout_gives_no_traceback(tmp_path: Path) -> None:
    """``spades-tui replay FILE | head -0``: the reader is gone before anything is written."""
    path = write(tmp_path, known_game().record())
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_tui", "replay", str(path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # long before the child has loaded the record
    stderr = proc.stderr.read()
    proc.stderr.close()
    proc.wait(timeout=60)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr


def test_replay_reports_a_recorded_forfeit(tmp_path: Path) -> None:
    """A forfeit is kept in the record as a top-level ``result``; replay reports it, other readers may ignore it."""
    import dataclasses

    record = known_game().record()
    record = dataclasses.replace(record, metadata=(("result", {"forfeit": 1, "reason": "Bot forfeits: timeout"}),))
    path = write(tmp_path, record)
    data = replay_json(path)
    assert data["result"] == {"forfeit": 1, "reason": "Bot forfeits: timeout"}
    assert {k: v for k, v in data.items() if k != "result"} == summary(replay(record))
    text = run("replay", str(path)).stdout
    assert "Result: Player 1 (player 1) forfeited: Bot forfeits: timeout" in text


def test_the_summary_says_a_practice_game_and_no_phase_twice(tmp_path: Path) -> None:
    from spades_tui.keep.meta import with_meta
    from spades_tui.session.randomplay import random_game

    record, _ = random_game(3, Rules(), max_hands=2)
    plain = tmp_path / "plain.json"
    save_record(plain, record)
    out = run("replay", str(plain)).stdout
    assert "Practice" not in out
    for line in out.splitlines():
        if line.startswith("Phase: "):
            words = line.removeprefix("Phase: ")
            assert not words.endswith(f"[{words.split(' [')[0]}]")  # never "play [play]"
    practice = tmp_path / "practice.json"
    save_record(practice, with_meta(record, practice={"takebacks": 1, "from_hand": 2}))
    out = run("replay", str(practice)).stdout
    assert ("Practice: a take-back made this a practice game from hand 2 on (in the statistics hand 1 counts)"
            in out.splitlines())
    record_in_play = record.truncated(next(i for i, a in enumerate(record.actions) if isinstance(a, Play)) + 1)
    save_record(plain, record_in_play)
    assert "Phase: play" in run("replay", str(plain)).stdout.splitlines()
