"""The arena's report in Swedish and Estonian (docs/languages.md): its headings and labels translated, figures with
the decimal comma and the true minus, the labels' column as wide as the longest; English as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spades_tui.arena.stats import ArenaConfig, SideStats, Summary, format_report
from spades_tui.i18n import language as i18n


@pytest.fixture
def english() -> Iterator[None]:
    yield
    i18n.use("en")


def _summary() -> Summary:
    a = SideStats(games=4, wins=1.5, hands=40, points=-130, contracts=38, made=30, nil=2, nil_made=1, bid_sum=150,
                  bids=40, tricks=250, bags=31, times=[0.001, 0.002], kind_times={"play": [0.001, 0.002]})
    b = SideStats(games=4, wins=2.5, hands=40, points=410, contracts=40, made=33, bid_sum=170, bids=40, tricks=270,
                  bags=20)
    return Summary((a, b), [-12.25, -2.5], [])


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("games won            1.5/4 = 37.5%", "points per hand      −3.2  (40 hands)", "mean bid", "card play")),
    ("sv", ("vunna partier", "1,5/4 = 37,5%", "−3,2  (40 giv)", "medelbud", "kortspel", "marginal A - B")),
    ("et", ("võidetud mängud", "1,5/4 = 37,5%", "−3,2  (40 jagamist)", "keskmine pakkumine", "kaardikäik")),
])
def test_the_report_in_each_language(english: None, language: str, words: tuple[str, ...]) -> None:
    assert i18n.use(language) == language, "the catalogs are built (docs/languages.md)"
    text = format_report(ArenaConfig("easy", "normal", seed=2), _summary())
    for said in words:
        assert said in text, (said, text)
    rows = [line for line in text.splitlines() if line.startswith("  ") and not line.startswith("    ")]
    # Each side's figures start in one column, whatever the labels' lengths in the language.
    columns = {len(line) - len(line[2:].split("  ", 1)[1].lstrip()) for line in rows if "  " in line[2:]}
    assert len(columns) == 1, rows
    if language != "en":
        assert "." not in text.split("\n", 1)[1].replace("...", ""), text  # no decimal point below the heading
