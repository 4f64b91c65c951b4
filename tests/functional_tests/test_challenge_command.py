"""``spades-tui challenge`` from the command line (issue 40): headless play, the history, bad input."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from spades_tui.engine.record import loads_record, replay
from spades_tui.keep.challenges import ChallengeBook, Result
from spades_tui.session.challenge import margins
from tests.support.cli import run_spades

FAST = "4"  # the expert's samples a decision here: a quick par (the challenge's own is 200)


def headless(home: Path, code: str, bot: str) -> dict[str, object]:
    done = run_spades("challenge", code, "--bot", bot, "--iters", FAST, "--json", XDG_DATA_HOME=str(home))
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_a_bot_plays_the_seat_and_the_json_holds_the_par_the_result_and_a_record_that_replays(tmp_path: Path) -> None:
    easy = headless(tmp_path, "2026-12-01", "easy")
    normal = headless(tmp_path, "2026-12-01", "normal")
    assert easy["challenge"] == "2026-12-01" and easy["par"] == normal["par"]  # the par: whoever plays the seat
    assert easy["par_hands"] == normal["par_hands"] and len(easy["par_hands"]) == 4  # type: ignore[arg-type]
    record = loads_record(json.dumps(easy["record"]))
    state = replay(record)
    assert len(state.history) == 4 and list(margins(state.history)) == easy["hands"]
    assert easy["result"] == sum(easy["hands"]) and easy["over_par"] == easy["result"] - easy["par"]  # type: ignore
    shuffles = [a for a in record.actions if type(a).__name__ == "Shuffle"]
    other = loads_record(json.dumps(normal["record"]))
    assert shuffles == [a for a in other.actions if type(a).__name__ == "Shuffle"]  # the same four stocks
    # Nothing of a bot's play is kept: only a person's results are (a par of other samples is not kept either).
    assert not (tmp_path / "spades-tui" / "challenges.json").exists()


def test_the_text_says_each_hand_against_the_par(tmp_path: Path) -> None:
    done = run_spades("challenge", "2026-11-30:quick", "--bot", "easy", "--iters", FAST, XDG_DATA_HOME=str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Challenge 2026-11-30:quick: easy in your seat against the expert, four hands")
    assert [line.split(":")[0].strip() for line in lines[1:5]] == ["Hand 1", "Hand 2", "Hand 3", "Hand 4"]
    assert lines[5].startswith("Result ") and ("over par" in lines[5] or "under par" in lines[5]
                                                or "level with par" in lines[5])


def test_the_history_lists_results_newest_first(tmp_path: Path) -> None:
    path = tmp_path / "spades-tui" / "challenges.json"
    path.parent.mkdir(parents=True)
    first = Result("2026-11-30", "Ann", (10, 20, -5, 0), (5, 5, 5, 5), False, "2026-11-01T20:00:00Z", "g1")
    second = Result("2026-12-01", "Ann", (-40, 0, 0, 0), None, False, "2026-11-02T21:12:00Z", "g2")
    again = Result("2026-11-30", "Ann", (0, 0, 0, 0), (5, 5, 5, 5), True, "2026-11-03T08:00:00Z", "g3")
    path.write_text(json.dumps(ChallengeBook({}, (first, second, again)).to_json()), encoding="utf-8")
    done = run_spades("challenge", "--history", XDG_DATA_HOME=str(tmp_path), TZ="UTC")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()[1:]
    assert lines[0].startswith("  2026-11-30: 0, 20 under par (practice); Ann, 2026-11-03 08:00")
    assert lines[1].startswith("  2026-12-01: \u221240, par not known yet")
    assert lines[2].startswith("  2026-11-30: +25, +5 over par; Ann")
    data = json.loads(run_spades("challenge", "--history", "--json", XDG_DATA_HOME=str(tmp_path)).stdout)
    assert [r["game_id"] for r in data["results"]] == ["g3", "g2", "g1"]
    empty = run_spades("challenge", "--history", XDG_DATA_HOME=str(tmp_path / "none"))
    assert empty.returncode == 0 and "No challenge played yet" in empty.stdout


TOMORROW_BUT_ONE = (datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=2)).isoformat()


@pytest.mark.parametrize(("args", "said"), [
    (("2026-13-01", "--bot", "easy"), "is not a challenge"),
    (("12/01/2026", "--bot", "easy"), "is not a challenge"),
    (("2026-12-01:bridge", "--bot", "easy"), "is not a preset"),
    ((TOMORROW_BUT_ONE, "--bot", "easy"), "is not out yet"),
    (("2026-12-01", "--json"), "--json goes with --bot or --history"),
    (("2026-12-01", "--iters", "5"), "--iters goes with --bot"),
    (("2026-12-01", "--history"), "takes no DATE"),
    (("2026-12-01", "--bot", "genius"), "must be easy, normal"),
    (("2026-12-01", "--bot", "easy", "--iters", "0"), "must be 1 to 2000"),
])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    done = run_spades("challenge", *args, XDG_DATA_HOME=str(tmp_path))
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("args", [("--history",), ("2026-12-01", "--bot", "easy", "--iters", FAST), ("2026-12-01",)])
def test_a_damaged_results_file_is_refused_and_left_as_it_is(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "spades-tui" / "challenges.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "results": [{"challenge": 5}]}', encoding="utf-8")
    done = run_spades("challenge", *args, XDG_DATA_HOME=str(tmp_path))
    assert done.returncode == 2 and "is damaged" in done.stderr and "left as it is" in done.stderr
    assert path.read_text(encoding="utf-8") == '{"version": 1, "results": [{"challenge": 5}]}'


def test_replay_says_the_challenge_is_over_after_its_four_hands(tmp_path: Path) -> None:
    found = headless(tmp_path, "2026-12-01", "easy")
    path = tmp_path / "challenge.json"
    path.write_text(json.dumps(found["record"]), encoding="utf-8")
    text = run_spades("replay", str(path)).stdout
    assert "Phase: over: the challenge's four hands are played" in text
    assert "Challenge 2026-12-01: 4 of its four hands played" in text
    winner = 0 if found["result"] > 0 else 1 if found["result"] < 0 else None  # type: ignore[operator]
    said = "A draw" if winner is None else "Winner: " + ("Bot (easy)" if winner == 0 else "Expert")
    assert said in text
    data = json.loads(run_spades("replay", str(path), "--json").stdout)
    assert data["challenge"] == {"code": "2026-12-01", "over": True, "winner": winner}


def _result(**changed: object) -> dict[str, object]:
    result: dict[str, object] = {"challenge": "2026-11-30", "player": "Ann", "hands": [10, 20, -5, 0],
                                 "par": [5, 5, 5, 5], "practice": False, "finished": "2026-11-01T20:00:00Z",
                                 "game_id": "g1"}
    return {**result, **changed}


CRAFTED = {  # issue 49: each made ``challenge --history`` print a traceback (and the Statistics screen close)
    "year-9999-east": ({"version": 1, "results": [_result(finished="9999-12-31T23:59:59Z")]}, "JST-9"),
    "year-0001-west": ({"version": 1, "results": [_result(finished="0001-01-01T00:00:00Z")]}, "EST5"),
    "nested": ("[" * 100_000 + "]" * 100_000, "UTC"),
    "par-of-2": ({"version": 1, "results": [_result(par=[5, 5])]}, "UTC"),
    "par-of-13": ({"version": 1, "pars": {"2026-11-30": {"iterations": 40, "hands": [1] * 13}}, "results": []},
                  "UTC"),
    "13-hands": ({"version": 1, "results": [_result(hands=[999_999] * 13, par=[-999_999] * 13)]}, "UTC"),
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_a_crafted_results_file_is_one_line_and_exit_status_2(tmp_path: Path, name: str) -> None:
    """Issue 49: a result finished in year 9999 or 0001 (under some time zones), 100,000 nested brackets, a par of
    2 or 13 hands gave a traceback (and a 13-hand result read "+25999974 over par").  Now each is damage: one
    line on standard error, exit status 2, the file left as it is; the Statistics screen says the same words."""
    from spades_tui.keep.challenges import ChallengeFileError

    content, zone = CRAFTED[name]
    path = tmp_path / "spades-tui" / "challenges.json"
    path.parent.mkdir(parents=True)
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    done = run_spades("challenge", "--history", XDG_DATA_HOME=str(tmp_path), TZ=zone)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert len(done.stderr.splitlines()) == 1 and "is damaged" in done.stderr and "Traceback" not in done.stderr
    assert path.read_text(encoding="utf-8") == text
    with pytest.raises(ChallengeFileError) as refused:  # what the Statistics screen shows instead of the sheet
        ChallengeBook.load(path)
    assert str(refused.value) in done.stderr
