"""The daily challenge's core (issue 40): codes, the same stocks for everyone, the par's determinism, the
record, the results file."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import Shuffle
from spades_tui.engine.outcome import Termination
from spades_tui.engine.record import GameRecord, loads_record, replay
from spades_tui.keep.challenges import ChallengeBook, ChallengeFileError, Result
from spades_tui.keep.meta import CHALLENGE_HANDS, RecordMeta, game_outcome, hands_scored
from spades_tui.session.challenge import (
    ChallengeCode,
    ChallengeError,
    ChallengeSession,
    challenge_record,
    compute_par,
    make_challenge_bot,
    margins,
    play_out,
)
from spades_tui.session.loop import between_hands

ROOT = Path(__file__).resolve().parents[2]
TODAY = datetime.date(2026, 12, 3)
FAST = 6  # samples a decision: the tests' expert, quick; the challenge's own is ITERATIONS


def stocks(record: GameRecord) -> list[tuple[object, ...]]:
    return [a.stock for a in record.actions if isinstance(a, Shuffle)]


# ---------------------------------------------------------------- codes

@pytest.mark.parametrize(("text", "code", "preset"), [
    ("2026-12-01", "2026-12-01", "standard"), (" 2026-12-01:tournament ", "2026-12-01:tournament", "tournament"),
    ("2026-12-01:Kitchen table", "2026-12-01:casual", "casual"), ("2026-12-04", "2026-12-04", "standard"),
    ("2026-12-01:standard", "2026-12-01", "standard"),
])
def test_a_code_names_a_date_and_a_preset(text: str, code: str, preset: str) -> None:
    found = ChallengeCode.parse(text, today=TODAY)
    assert str(found) == code and found.preset == preset
    assert ChallengeCode.read(str(found)) == found


@pytest.mark.parametrize(("text", "said"), [
    ("2026-12-05", "not out yet"), ("2031-01-01", "not out yet"), ("2025-12-31", "no challenge before"),
    ("2026-13-01", "YYYY-MM-DD"), ("12/01/2026", "YYYY-MM-DD"), ("", "YYYY-MM-DD"), ("2026-12-1", "YYYY-MM-DD"),
    ("2026-12-01:bridge", "not a preset"), ("2026-12-01\x1b[31m", "YYYY-MM-DD"),
])
def test_a_bad_code_is_said(text: str, said: str) -> None:
    with pytest.raises(ChallengeError, match=said):
        ChallengeCode.parse(text, today=TODAY)


def test_the_rules_are_the_presets_for_four_hands() -> None:
    standard = ChallengeCode.parse("2026-12-01", today=TODAY).rules
    tournament = ChallengeCode.parse("2026-12-01:tournament", today=TODAY).rules
    assert standard.changed() == {"target": 10000}
    assert tournament.ten_for_200 and tournament.double_nil_behind == 100
    assert not tournament.thirteen_wins and tournament.losing_score == 0  # four hands are always played


# ---------------------------------------------------------------- the same deals for everyone

def test_the_same_stocks_whoever_plays_and_whatever_the_preset() -> None:
    code = ChallengeCode.parse("2026-12-01", today=TODAY)
    easy, _ = play_out(code, (make_bot("easy", 1), make_challenge_bot(code, 1, FAST)))
    normal, state = play_out(code, (make_bot("normal", 2), make_challenge_bot(code, 1, FAST)))
    assert len(set(stocks(easy))) == CHALLENGE_HANDS and stocks(easy) == stocks(normal)  # four stocks, each its own
    assert easy.actions != normal.actions  # the seat's play differed, not the deals
    assert len(state.history) == CHALLENGE_HANDS
    tournament = ChallengeCode.parse("2026-12-01:tournament", today=TODAY)
    other_rules, _ = play_out(tournament, (make_bot("easy", 1), make_challenge_bot(tournament, 1, FAST)), hands=1)
    assert stocks(other_rules)[0] == stocks(easy)[0]
    next_day = ChallengeCode.parse("2026-12-02", today=TODAY)
    other, _ = play_out(next_day, (make_bot("easy", 1), make_challenge_bot(next_day, 1, FAST)), hands=1)
    assert stocks(other)[0] != stocks(easy)[0]


def test_the_record_replays_and_ends_after_the_fourth_hand() -> None:
    code = ChallengeCode.parse("2026-11-30", today=TODAY)
    record, state = play_out(code, (make_bot("normal", 3), make_challenge_bot(code, 1, FAST)))
    again = loads_record(record.dumps())
    replayed = replay(again)
    assert replayed.history == state.history and RecordMeta.of(again).challenge == "2026-11-30"
    outcome = game_outcome(again, replayed)
    assert outcome is not None and outcome.termination is Termination.HAND_LIMIT
    assert game_outcome(again.truncated(len(again.actions) - 1), replay(again.truncated(len(again.actions) - 1))) \
        is None  # the fourth hand's last card not played: the game goes on
    assert margins(state.history) == tuple(h.points[0] - h.points[1] for h in state.history)


# ---------------------------------------------------------------- the par

def test_the_par_is_the_same_every_time_whatever_the_time_budget() -> None:
    code = ChallengeCode.parse("2026-12-01", today=TODAY)
    par = compute_par(code, FAST, hands=2)
    assert compute_par(code, FAST, hands=2, budget=0.001) == par
    assert compute_par(code, FAST, hands=2, budget=30.0) == par
    # A fresh interpreter, another hash seed: the same par (nothing rests on Python's string hashing).
    probe = ("import json\nfrom spades_tui.session.challenge import ChallengeCode, compute_par\n"
             f"print(json.dumps(compute_par(ChallengeCode.read('2026-12-01'), {FAST}, hands=2)))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=120, env={**os.environ, "PYTHONHASHSEED": "12345"}).stdout
    assert tuple(json.loads(out)) == par
    # The par is the expert's own game: the expert in the player's seat makes it exactly.
    _, state = play_out(code, (make_challenge_bot(code, 0, FAST), make_challenge_bot(code, 1, FAST)), hands=2)
    assert margins(state.history) == par


def test_another_challenge_another_par_seed() -> None:
    a, b = ChallengeCode.parse("2026-12-01", today=TODAY), ChallengeCode.parse("2026-12-01:quick", today=TODAY)
    assert a.deal_seed == b.deal_seed and a.bot_seed(1) != b.bot_seed(1) and a.bot_seed(0) != a.bot_seed(1)
    record = challenge_record(a, ("You", "Bot (expert)"))
    assert RecordMeta.of(record).seed == a.deal_seed and record.first_drafter == a.first


# ---------------------------------------------------------------- the results file

def result(code: str, game: str, hands: tuple[int, ...] = (10, -20, 30, 5)) -> Result:
    return Result.new(code, "Ann", hands, None, game)


def test_the_first_result_is_on_record_and_later_ones_practice(tmp_path: Path) -> None:
    path = tmp_path / "challenges.json"
    assert ChallengeBook.load(path) == ChallengeBook()
    ChallengeBook.update(path, lambda b: b.with_result(result("2026-12-01", "g1")))
    book = ChallengeBook.update(path, lambda b: b.with_result(result("2026-12-01", "g2", (50, 0, 0, 0))))
    book = ChallengeBook.update(path, lambda b: b.with_result(result("2026-12-01", "g2")))  # the same game: once
    assert [(r.game_id, r.practice) for r in book.results] == [("g1", False), ("g2", True)]
    assert book.on_record("2026-12-01") is not None and book.on_record("2026-12-01").game_id == "g1"  # type: ignore
    assert book.results[0].over_par is None  # left before the par was known...
    book = ChallengeBook.update(path, lambda b: b.with_par("2026-12-01", 40, (5, 5, 5, 5)))
    assert [r.over_par for r in book.results] == [25 - 20, 50 - 20]  # ...and given it once it is
    assert ChallengeBook.load(path) == book and book.par("2026-12-01", 40) == (5, 5, 5, 5)
    assert book.par("2026-12-01", 41) is None  # a par of other samples is another par
    late = ChallengeBook.update(path, lambda b: b.with_result(result("2026-12-01:quick", "g3")))
    assert late.results[-1].par is None and not late.results[-1].practice


@pytest.mark.parametrize("text", ["{not json", "[]", '{"version": 2}', '{"version": 1, "results": [{"x": 1}]}',
                                  '{"version": 1, "pars": {"2026-12-01": {"iterations": "40", "hands": [1]}}}',
                                  '{"version": 1, "results": [{"challenge": "c", "player": "A", "hands": "1",'
                                  ' "par": null, "practice": false, "finished": "", "game_id": ""}]}'])
def test_a_damaged_file_is_refused_and_left_as_it_is(tmp_path: Path, text: str) -> None:
    path = tmp_path / "challenges.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ChallengeFileError, match="damaged"):
        ChallengeBook.load(path)
    with pytest.raises(ChallengeFileError):
        ChallengeBook.update(path, lambda b: b.with_result(result("2026-12-01", "g1")))
    assert path.read_text(encoding="utf-8") == text  # nothing lost


def test_names_from_the_file_are_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "challenges.json"
    entry = result("2026-12-01", "g1").to_json() | {"player": "Ann\x1b]0;pwned\x07[bold]"}
    path.write_text(json.dumps({"version": 1, "results": [entry]}), encoding="utf-8")
    (loaded,) = ChallengeBook.load(path).results
    assert "\x1b" not in loaded.player and "\x07" not in loaded.player


# ---------------------------------------------------------------- a person's challenge

def play_by_defaults(session: ChallengeSession) -> None:
    """The person's seat plays Enter's default (the normal bot's choice) until the four hands are scored."""
    while not hands_scored(session.state):
        view = session.view()
        if view.legal:
            assert view.default is not None
            assert session.act(view.default) is None
        elif between_hands(session.state):
            session.next_hand()
        else:
            session.run_bots()


def test_a_person_s_challenge_keeps_its_result_and_its_par_apart_from_the_statistics(tmp_path: Path) -> None:
    code = ChallengeCode.parse("2026-12-01", today=TODAY)
    book = tmp_path / "challenges.json"

    def no_statistics() -> None:
        raise AssertionError("a challenge is not counted in the statistics")

    session = ChallengeSession(challenge_record(code, ("Ann", "Bot (expert)")), book=book, iterations=FAST)
    try:
        (par_job,) = [job for job in session.jobs() if job.kind == "par"]
        assert not any(job.kind == "par" for job in session.jobs())  # asked once
        assert not session.take_back() and session.view().challenge is not None
        play_by_defaults(session)
        session.next_hand()  # nothing after the fourth hand
        assert len(session.state.history) == CHALLENGE_HANDS and session.outcome is not None
        assert session.record_stats(no_statistics) is None
        (kept,) = ChallengeBook.load(book).results
        assert kept.hands == margins(session.state.history) and kept.par is None and not kept.practice
        work = par_job.start()
        assert work is not None
        par_job.done(work())  # the par, computed in its own process
        assert session.par == compute_par(code, FAST)
        view = session.view().challenge
        assert view is not None and view.over and view.over_par == sum(kept.hands) - sum(session.par)
        assert ChallengeBook.load(book).results[0].par == session.par  # given to the result kept before it
    finally:
        session.close_all()
    again = ChallengeSession(challenge_record(code, ("Ann", "Bot (expert)")), book=book, iterations=FAST)
    try:
        seen = again.view().challenge
        assert seen is not None and seen.on_record is not None and again.par == session.par  # practice, par kept
        assert not any(job.kind == "par" for job in again.jobs())
    finally:
        again.close_all()


def test_the_par_is_not_in_the_view_before_the_four_hands_are_played(tmp_path: Path) -> None:
    code = ChallengeCode.parse("2026-12-01", today=TODAY)
    book = tmp_path / "challenges.json"
    ChallengeBook.update(book, lambda b: b.with_par(str(code), FAST, (1, 2, 3, 4)))  # known from an earlier play
    session = ChallengeSession(challenge_record(code, ("Ann", "Bot (expert)")), book=book, iterations=FAST)
    try:
        assert session.par == (1, 2, 3, 4) and not any(job.kind == "par" for job in session.jobs())
        view = session.view().challenge
        assert view is not None and view.par is None and view.over_par is None  # it would tell of deals to come
    finally:
        session.close_all()
