"""``spades-tui stats [--json]`` with XDG_DATA_HOME in a temporary directory."""

from __future__ import annotations

import json
from pathlib import Path

from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.rules import Rules
from spades_tui.keep.stats import STATS_NAME, open_stats, record_game
from spades_tui.session.randomplay import random_game
from tests.support.cli import output_loading_no_interface, run_spades


def fill(data_home: Path) -> list[int]:
    record, _ = random_game(0, rules=Rules(target=100), max_hands=12)
    record = GameRecord(record.rules, 0, (PlayerInfo("You"), PlayerInfo("Bot", "bot:easy")), record.actions,
                        (("game_id", "one"),))
    conn, _ = open_stats(data_home / "spades-tui" / STATS_NAME)
    record_game(conn, record)
    conn.close()
    return [h.scores_after[0] for h in replay(record).history]


def test_text_and_json(tmp_path: Path) -> None:
    scores = fill(tmp_path)
    result = run_spades("stats", "--json", XDG_DATA_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["finished_games"] == 1 and data["by_opponent"]["easy"]["played"] == 1
    assert data["recent"] == [scores]
    assert data["recent_games"] == [{"opponent": "easy", "won": data["by_opponent"]["easy"]["won"] == 1,
                                     "winner": None, "scores": scores}]
    text = run_spades("stats", XDG_DATA_HOME=str(tmp_path))
    assert text.returncode == 0, text.stderr
    assert "Finished games: 1" in text.stdout and "vs easy bot: won" in text.stdout
    # The text writes a negative score with the true minus, the JSON (above) with ASCII (issue 37).
    assert "vs easy bot, " + ("won" if data["recent_games"][0]["won"] else "lost") + ": " + " ".join(
        str(x).replace("-", "\u2212") for x in scores) in text.stdout


def test_no_database_prints_empty_figures(tmp_path: Path) -> None:
    result = run_spades("stats", "--json", XDG_DATA_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hands"] == 0


def test_a_corrupt_database_is_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "spades-tui"
    folder.mkdir()
    (folder / STATS_NAME).write_bytes(b"not sqlite" * 200)
    result = run_spades("stats", "--json", XDG_DATA_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "could not be read" in result.stderr and json.loads(result.stdout)["hands"] == 0
    assert any(p.name.startswith("stats.corrupt-") for p in folder.iterdir())


def test_stats_does_not_import_textual(tmp_path: Path) -> None:
    assert output_loading_no_interface("stats", "--json", XDG_DATA_HOME=str(tmp_path)).startswith("{")
