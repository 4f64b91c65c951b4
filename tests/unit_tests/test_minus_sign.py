"""One minus for a person, another for a program (issue 37; docs/commands.md, "Numbers and dates in the
output"): the commands' text and the screens write "−58" (U+2212), their JSON and the records "-58"."""

from __future__ import annotations

import json
from pathlib import Path

from spades_tui.arena.stats import ArenaConfig, SideStats, Summary, format_report
from spades_tui.cli.stats import describe
from spades_tui.engine.rules import Rules
from spades_tui.keep.records import found_records
from spades_tui.keep.stats import empty_summary
from spades_tui.keep.storage import save_record
from spades_tui.session.randomplay import random_game

MINUS = "\u2212"


def test_stats_text_writes_the_true_minus_and_its_json_the_ascii_one() -> None:
    s = empty_summary()
    s.update(hands=2, points_per_hand=-35.5, recent=[[-200, -270]],
             recent_games=[{"opponent": "easy", "won": False, "scores": [-200, -270], "winner": None}])
    text = describe(s)
    assert f"Points per hand: {MINUS}35.50" in text
    assert f"vs easy bot, lost: {MINUS}200 {MINUS}270" in text
    assert "-2" not in text and "-3" not in text
    machine = json.dumps(s)
    assert MINUS not in machine and "[-200, -270]" in machine and "-35.5" in machine


def test_the_load_list_writes_a_negative_score_with_the_true_minus(tmp_path: Path) -> None:
    record, state = random_game(0, rules=Rules(), max_hands=2)
    assert state.scores == (-270, 113)  # seed 0: player 0 set twice
    save_record(tmp_path / "set.json", record)
    (found,) = found_records([tmp_path])
    assert found.label == f"set.json: Player 1 {MINUS}270 – Player 2 113, hand 2"
    assert '"actions"' in (tmp_path / "set.json").read_text(encoding="utf-8")  # the record itself: JSON, ASCII
    assert MINUS not in (tmp_path / "set.json").read_text(encoding="utf-8")


def test_the_arena_report_writes_its_negative_figures_with_the_true_minus() -> None:
    a = SideStats(games=2, hands=4, points=-160)
    b = SideStats(games=2, hands=4, points=40)
    text = format_report(ArenaConfig("easy", "normal"), Summary((a, b), [-50.0, -40.0], []))
    assert f"points per hand      {MINUS}40.0" in text and "points per hand      10.0" in text
    assert f"points per hand (game average): {MINUS}45.0" in text
    assert "margin A - B" in text  # the words' hyphen is no minus


def test_a_tables_lines_write_the_true_minus_and_an_ascii_stream_gets_the_ascii_one() -> None:
    """The lobby's list, a table's events ("Hand 3 scored: ... (score 40 to −58)") and the headless result: text
    for a person, so the true minus; a stream that cannot encode it gets "-", never a traceback."""
    import io

    from spades_tui.engine.text import score_words
    from spades_tui.table.run import line_out
    from spades_tui.table.seat.finder import ListedTable

    listed = ListedTable(None, "w", ("Cy", "Dee"), Rules(), 600, (40, -58), 3, 2)
    assert listed.line().startswith(f"Cy 40 – {MINUS}58 Dee, hand 3, 2 watching")
    assert score_words(40, -58) == f"40 to {MINUS}58" and score_words(-5, -10) == f"{MINUS}5 to {MINUS}10"
    raw = io.BytesIO()
    ascii_stream = io.TextIOWrapper(raw, encoding="ascii")
    line_out(f"Game over: Cy wins, {score_words(510, -58)}. Zo\u00eb says hi", ascii_stream)
    assert raw.getvalue() == b"Game over: Cy wins, 510 to -58. Zo? says hi\n"
    wide = io.StringIO()
    line_out(f"Game over: Cy wins, {score_words(510, -58)}.", wide)
    assert wide.getvalue() == f"Game over: Cy wins, 510 to {MINUS}58.\n"

