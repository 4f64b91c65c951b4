"""A client's remembered seats (table/seat/seat_file.py): one per table game, labelled, finished ones gone."""

from __future__ import annotations

import json
import time
from pathlib import Path

from spades_tui.engine.text import when_words
from spades_tui.table.seat.seat_file import SeatFile, others_of, saved_seats, seat_path
from spades_tui.tui.startlist import seat_label


def write(data_dir: Path, url: str, seat: SeatFile) -> Path:
    path = seat_path(data_dir, url)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(seat.to_json()), encoding="utf-8")
    return path


def test_one_entry_per_table_game_labelled_with_who_the_score_the_hand_and_when(tmp_path: Path) -> None:
    now = time.time()
    # The same game met at two ports (the host came back elsewhere): one entry, the latest played.
    write(tmp_path, "ws://127.0.0.1:1000/table", SeatFile("ws://127.0.0.1:1000/table", "t1", 1, ("Gus", "Ada"),
                                                          code="aaaa-bbbb-cccc", scores=(40, 12), hand=2,
                                                          played=now - 600))
    newer = write(tmp_path, "ws://127.0.0.1:2000/table",
                  SeatFile("ws://127.0.0.1:2000/table", "t1", 1, ("Gus", "Ada"), code="aaaa-bbbb-cccc",
                           scores=(80, 64), hand=3, played=now))
    # A finished game and an abandoned one (the table did not know the seat) leave the list.
    write(tmp_path, "ws://127.0.0.1:3000/table", SeatFile("ws://127.0.0.1:3000/table", "t2", 0, ("Ada", "Bot"),
                                                          code="dddd-eeee-ffff", over=True, played=now))
    found = saved_seats(tmp_path)
    assert [path for path, _ in found] == [newer]
    label = seat_label(found[0][1], now)
    assert label == "vs Gus, 64 – 80, hand 3, last played " + when_words(now, now)
    assert others_of(tmp_path, newer, "aaaa-bbbb-cccc") == [seat_path(tmp_path, "ws://127.0.0.1:1000/table")]


def test_a_hostile_or_older_seat_file_reads_safely(tmp_path: Path) -> None:
    path = seat_path(tmp_path, "ws://h:1/table")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"url": "ws://h:1/table", "token": "t", "seat": 0, "names": ["\x1b[31mX", "Y"],
                                "scores": ["a", 3], "hand": -4, "played": "soon", "code": 7}), encoding="utf-8")
    (found,) = saved_seats(tmp_path)
    seat = found[1]
    assert seat.scores == (0, 0) and seat.hand == 0 and seat.played == 0.0 and seat.code is None
    label = seat_label(seat, time.time())
    assert "\x1b" not in label and label.endswith("not played yet")
