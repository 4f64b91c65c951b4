"""The view models in Swedish and Estonian (issue 56, docs/languages.md): the score panel still fits its width with
the names whole, and a percentage and a place in the field are written as each language writes them.

Each test speaks the language through its catalog; where the catalog does not hold these words yet (a branch
before the catalogs are built), it is skipped rather than read English as a language."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest

from spades_tui.engine.record import PlayerInfo
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.i18n import language
from spades_tui.i18n.language import _
from tests.support.views import snap
from tests.unit_tests.test_viewmodels import game_states


@pytest.fixture(params=["sv", "et"])
def speaking(request: pytest.FixtureRequest) -> Iterator[str]:
    language.use(request.param)
    try:
        if _("Your hand") == "Your hand":
            pytest.skip("the catalog holds no translation of the view models' words yet")
        yield request.param
    finally:
        language.use("en")


def test_the_panel_fits_its_width_in_each_language_with_the_names_whole(speaking: str) -> None:
    from spades_tui.tui.panelmodel import PANEL_WIDTH, ROOMY_PANEL_WIDTH, status_text

    players = (PlayerInfo("Player 1"), PlayerInfo("Player 2"))
    states = game_states(14, Rules(target=300, bag_limit=5), hands=2)
    seen = {Phase.DRAFT, Phase.BIDDING, Phase.PLAY, Phase.SHUFFLE}
    picked = [next(s for s in states if s.phase is phase) for phase in seen]
    picked.append(states[-1])  # after two hands: the past hands' sheet
    for state in picked:
        for seat in (0, 1):
            view = dataclasses.replace(snap(state, seat, players=players), practice=2, save_error="disk full")
            for width in (PANEL_WIDTH, ROOMY_PANEL_WIDTH):
                text = status_text(view, width)
                assert all(len(line) <= width for line in text.splitlines()), text
                assert re.search(r" Player 1 +Player 2$", text, re.M), text  # both names whole, apart
                assert _("Bags") in text and "Bags" not in text


def test_a_percentage_has_a_comma_and_a_place_is_written_the_language_s_way(speaking: str) -> None:
    from spades_tui.tui.fieldmodel import ordinal
    from spades_tui.tui.notation import percent

    assert percent(45.25, 1) == "45,2 %"
    places = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22, 23)]
    assert places == {"sv": ["1:a", "2:a", "3:e", "4:e", "11:e", "12:e", "21:a", "22:a", "23:e"],
                      "et": ["1.", "2.", "3.", "4.", "11.", "12.", "21.", "22.", "23."]}[speaking]


def test_english_keeps_its_decimal_point_and_endings() -> None:
    from spades_tui.tui.fieldmodel import ordinal
    from spades_tui.tui.notation import percent

    language.use("en")
    assert percent(45.25, 1) == "45.2%"
    assert [ordinal(n) for n in (1, 2, 3, 11, 12, 13, 21, 111)] == ["1st", "2nd", "3rd", "11th", "12th", "13th",
                                                                    "21st", "111th"]
