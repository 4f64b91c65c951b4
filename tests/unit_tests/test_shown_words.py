"""How a number and a moment are written for a person (engine/text.py, issue 37): one minus, one date format.

The moments are given in fixed zones (``tz``), so the tests mean the same on any machine's clock and zone.
"""

from __future__ import annotations

import datetime

import pytest

from spades_tui.engine.text import MINUS, decimal, last_played, minus_signs, num, signed, when_words

UTC = datetime.UTC
EAST = datetime.timezone(datetime.timedelta(hours=10))


def at(year: int, month: int, day: int, hour: int, minute: int, tz: datetime.tzinfo = UTC) -> float:
    return datetime.datetime(year, month, day, hour, minute, tzinfo=tz).timestamp()


@pytest.mark.parametrize(("then", "now", "words"), [
    (at(2026, 12, 1, 9, 5), at(2026, 12, 1, 21, 11), "today 09:05"),
    (at(2026, 12, 1, 21, 11), at(2026, 12, 1, 21, 11), "today 21:11"),
    (at(2026, 11, 30, 21, 12), at(2026, 12, 1, 8, 0), "yesterday 21:12"),
    (at(2026, 11, 29, 23, 59), at(2026, 12, 1, 0, 1), "2026-11-29 23:59"),  # two days back: its date
    (at(2025, 12, 1, 21, 12), at(2026, 12, 1, 21, 12), "2025-12-01 21:12"),
    # Around midnight: the date decides, not 24 hours.
    (at(2026, 12, 1, 0, 0), at(2026, 12, 1, 23, 59), "today 00:00"),
    (at(2026, 11, 30, 23, 59), at(2026, 12, 1, 0, 0), "yesterday 23:59"),
    (at(2026, 11, 30, 0, 0), at(2026, 12, 1, 23, 59), "yesterday 00:00"),
    (at(2026, 11, 29, 23, 59), at(2026, 12, 1, 0, 0), "2026-11-29 23:59"),
    (at(2025, 12, 31, 23, 50), at(2026, 1, 1, 0, 5), "yesterday 23:50"),  # across a year
    (at(2024, 2, 28, 22, 0), at(2024, 3, 1, 1, 0), "2024-02-28 22:00"),  # a leap day between
    (at(2026, 12, 2, 9, 0), at(2026, 12, 1, 21, 0), "2026-12-02 09:00"),  # another machine's clock ahead
])
def test_a_moment_is_today_yesterday_or_its_date(then: float, now: float, words: str) -> None:
    assert when_words(then, now, UTC) == words


def test_the_zone_decides_the_day() -> None:
    """The same two moments are one day in UTC and two in a zone ten hours east (local time is the reader's)."""
    then, now = at(2026, 12, 1, 13, 0), at(2026, 12, 1, 15, 0)  # 23:00 and 01:00 the next day in EAST
    assert when_words(then, now, UTC) == "today 13:00"
    assert when_words(then, now, EAST) == "yesterday 23:00"
    assert when_words(at(2026, 12, 1, 9, 0, tz=EAST), at(2026, 12, 1, 10, 0, tz=EAST), EAST) == "today 09:00"


def test_the_local_zone_by_default() -> None:
    now = datetime.datetime(2026, 12, 1, 21, 11).timestamp()  # a naive moment: the machine's own zone
    assert when_words(now, now) == "today 21:11"
    assert when_words(datetime.datetime(2026, 11, 30, 8, 0).timestamp(), now) == "yesterday 08:00"
    assert when_words(datetime.datetime(2020, 2, 3, 4, 5).timestamp(), now) == "2020-02-03 04:05"


def test_last_played_is_the_one_phrase() -> None:
    now = at(2026, 12, 1, 21, 11)
    assert last_played(at(2026, 12, 1, 21, 11), now, UTC) == "last played today 21:11"
    assert last_played(at(2026, 11, 1, 21, 12), now, UTC) == "last played 2026-11-01 21:12"
    assert last_played(0, now, UTC) == "not played yet"


def test_a_person_reads_the_true_minus() -> None:
    assert MINUS == "\u2212"
    assert num(-58) == "\u221258" and num(58) == "58" and num(0) == "0"
    assert signed(-200) == "\u2212200" and signed(12) == "+12" and signed(0) == "+0"
    assert decimal(-120.456, 1) == "\u2212120.5"
    assert minus_signs("-100 expected, best -5") == "\u2212100 expected, best \u22125"
    # A hyphen between digits or words is no minus: dates and scores written "40-58" stay.
    assert minus_signs("2026-12-01, a-5, 40-58, 1.-2") == "2026-12-01, a-5, 40-58, 1.-2"
