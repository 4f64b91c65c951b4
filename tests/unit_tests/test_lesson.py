"""The lesson's text (assets/lesson.md) and its deal: every step has its words, every section is used, the
stock is the 52 cards (issue 39)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spades_tui.session.lesson import LessonDeal, LessonError
from spades_tui.tui.app.resources import read_asset
from spades_tui.tui.lesson import PARTS, STEPS, LessonText

TEXT = LessonText.parse(read_asset("lesson.md"))
SOURCE = (Path(__file__).parents[2] / "spades_tui" / "tui" / "lesson.py").read_text(encoding="utf-8")


def test_every_step_has_its_words_and_every_section_is_a_step() -> None:
    assert set(STEPS) == set(TEXT.steps), (set(STEPS) ^ set(TEXT.steps))
    assert all(TEXT.steps[step] for step in STEPS), "a step with no words"
    assert {step for step, _ in PARTS} <= set(STEPS)


def test_every_step_named_in_the_code_is_listed_and_every_listed_step_is_named() -> None:
    listed = SOURCE[SOURCE.index("STEPS: tuple"):SOURCE.index("_HEADING =")]
    rest = SOURCE.replace(listed, "")
    named = set(re.findall(r'"([a-z][a-z0-9]*(?:-[a-z0-9]+)+|draft|bid|lead|follow|trump|void|play|end|exchange|'
                           r'refused)"', rest))
    named |= {f"{a}-{b}" for a, b in re.findall(r'"(why)-" ?\+ ?"([a-z-]+)"', rest)}
    for step in STEPS:
        assert f'"{step}"' in rest, f"{step} is listed but never said"
    assert named <= set(STEPS) | {"first", "second"}, named - set(STEPS)


def test_the_words_fill_only_blanks_the_lesson_knows() -> None:
    known = {"top", "suggest", "why", "passed", "bid", "card", "chosen", "led", "led_one", "bot", "turn", "key",
             "reason", "won", "contract", "contract_lost", "over", "nil", "bot_bid", "bot_won", "bot_points",
             "missed"}
    for step, words in TEXT.steps.items():
        unknown = set(re.findall(r"\{([a-z_]+)\}", words)) - known
        assert not unknown, f"{step}: {unknown}"


def test_the_lesson_deal_is_the_52_cards_you_first_and_a_seed() -> None:
    deal = LessonDeal.parse(TEXT.fields["stock"], TEXT.fields["first"], TEXT.fields["seed"])
    assert len(set(deal.stock)) == 52 and deal.first == 0 and deal.seed == 39
    stock = TEXT.fields["stock"]
    for bad in (stock.replace("QC", "QS"), " ".join(stock.split()[:51]), "XX " + stock):
        with pytest.raises(LessonError):
            LessonDeal.parse(bad, "you", "39")
    with pytest.raises(LessonError):
        LessonDeal.parse(stock, "nobody", "39")
    with pytest.raises(LessonError):
        LessonDeal.parse(stock, "you", "many")


def test_a_missing_step_or_blank_reads_as_nothing() -> None:
    text = LessonText.parse("---\nstock: x\n---\n## a\nHello {who}{nobody}.\n")
    assert text.fields == {"stock": "x"}
    assert text.say("a", {"who": "you"}) == "Hello you."
    assert text.say("missing", {}) == ""
