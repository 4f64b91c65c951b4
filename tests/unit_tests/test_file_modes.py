"""Every file the game writes in its data and config folders is the user's alone: files 0600, folders 0700,
given when each is made, whatever the umask (issue 25: ``stats.sqlite3`` was 0644).

The umask is set to 0 for each test, so that a mode the code does not ask for would show: under the usual
022 a folder made with the default mode would read 0755, and under 0 it reads 0777.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.keep.slots import open_games
from spades_tui.keep.stats import STATS_NAME, StatsRecorder, open_stats
from spades_tui.keep.storage import atomic_write_text, private_dir, private_file, save_record
from spades_tui.session.randomplay import random_game
from spades_tui.session.store import GameStore
from spades_tui.settings.preferences import Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.table.seat.seat_file import SeatFile, seat_path

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def modes(top: Path) -> dict[str, int]:
    """Every file and folder under ``top`` (itself included): its permission bits."""
    found = {".": stat.S_IMODE(top.stat().st_mode)}
    for path in top.rglob("*"):
        found[str(path.relative_to(top))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def assert_private(top: Path) -> None:
    wrong = {name: oct(mode) for name, mode in modes(top).items()
             if mode != (0o700 if (top / name).is_dir() else 0o600)}
    assert not wrong, f"not private: {wrong}"


def a_finished_bot_game() -> GameRecord:
    """A game played to its end against a bot (so that it counts in the statistics)."""
    record, state = random_game(0, rules=Rules(target=100), max_hands=12)
    assert state.winner is not None
    players = (PlayerInfo("You", "human"), PlayerInfo("Bot (easy)", "bot:easy"))
    return GameRecord(record.rules, record.first_drafter, players, record.actions)


def test_games_locks_index_statistics_preferences_and_seats_are_0600_in_0700_folders(tmp_path: Path) -> None:
    data = tmp_path / "deep" / "data"  # folders above it missing too: each made 0700
    config = tmp_path / "config"
    slots, _ = open_games(data)
    slot = slots.claim_new()
    record = GameRecord(Rules(), 0, (PlayerInfo("You", "human"), PlayerInfo("Bot (easy)", "bot:easy")))
    store = GameStore(record, seed=3, autosave=slot.path)
    store.settle()  # the shuffle, the first deal: saved atomically in its slot
    store.dispatch(legal_actions(store.state)[0])
    slots.scan()  # writes games.index
    slot.release()
    conn, _ = open_stats(data / STATS_NAME)
    conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
    conn.execute("INSERT INTO t VALUES (1)")  # a write: SQLite's journal comes and goes with the file's mode
    conn.close()
    save_preferences(config / "spades-tui" / "preferences.toml", Preferences())
    seat = seat_path(data, "ws://127.0.0.1:7000/table")
    private_dir(seat.parent)
    atomic_write_text(seat, json.dumps(SeatFile("ws://127.0.0.1:7000/table", "t" * 32, 1, ("A", "B")).to_json()))
    found = modes(tmp_path / "deep")
    assert {"data/games", "data/games/game-1.json", "data/games/game-1.lock", "data/games/games.index",
            "data/stats.sqlite3", "data/tables"} <= set(found), found
    assert_private(tmp_path / "deep")
    assert_private(config)


def test_the_statistics_recorder_makes_its_database_0600(tmp_path: Path) -> None:
    record = a_finished_bot_game()
    recorder = StatsRecorder(tmp_path / "data" / STATS_NAME)
    assert recorder.record(record, replay(record)) is None
    assert (tmp_path / "data" / STATS_NAME).stat().st_size > 0
    assert_private(tmp_path / "data")


def test_a_finished_game_moves_into_a_0700_folder(tmp_path: Path) -> None:
    slots, _ = open_games(tmp_path / "data")
    slot = slots.claim_new()
    save_record(slot.path, a_finished_bot_game())
    slot.release()
    slots, _ = open_games(tmp_path / "data")
    slots.scan()
    assert list((tmp_path / "data" / "games" / "finished").glob("game-*.json"))
    assert_private(tmp_path / "data")


def test_private_file_leaves_an_existing_file_and_private_dir_an_existing_folder(tmp_path: Path) -> None:
    mine = tmp_path / "kept"
    mine.mkdir(mode=0o755)
    private_dir(mine / "a" / "b")
    assert stat.S_IMODE(mine.stat().st_mode) == 0o755  # not ours to change
    assert stat.S_IMODE((mine / "a").stat().st_mode) == 0o700
    existing = mine / "f"
    existing.write_text("x")
    existing.chmod(0o640)
    private_file(existing)
    assert existing.read_text() == "x" and stat.S_IMODE(existing.stat().st_mode) == 0o640
    private_file(mine / "g")
    assert stat.S_IMODE((mine / "g").stat().st_mode) == 0o600


def test_a_data_folder_and_database_an_older_version_left_open_are_closed_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    stats_file = data / STATS_NAME
    open_stats(stats_file)[0].close()
    stats_file.chmod(0o644)  # as fcb870a left it
    open_games(data)
    open_stats(stats_file)[0].close()
    assert stat.S_IMODE(data.stat().st_mode) == 0o700 and stat.S_IMODE(stats_file.stat().st_mode) == 0o600
