"""The documents the game shows (the players' guide, the rulebook, the lesson: assets/*.md) as a Swedish or Estonian
player reads them (docs/languages.md): no paragraph, heading, list item or table cell left in English, the Markdown
kept, the guide's topics first in every language, and a change of language never showing the other's words.

Read through the catalogs shipped under spades_tui/locale, as the game reads them."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from spades_tui.i18n import language
from spades_tui.i18n.documents import units
from spades_tui.tui.app import guide
from spades_tui.tui.app.resources import read_asset, read_document
from spades_tui.tui.lesson import LessonText

COMPLETE = ("sv", "et")
DOCUMENTS = ("guide.md", "rules.md", "lesson.md")
# What is the same in every language, so not words to translate: code (`double_nil`), the game record's true and
# false, numbers, signs and card notation.
NOT_WORDS = re.compile(r"`[^`]*`|\b(?:true|false)\b|[\W\d_]+")
# Words spelled the same in Swedish and Estonian: a preset's name (Standard).
SAME_IN_ALL = {"Standard"}


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    language.use(language.SOURCE)


def has_words(text: str) -> bool:
    return bool(NOT_WORDS.sub("", text)) and text not in SAME_IN_ALL


@pytest.mark.parametrize("name", DOCUMENTS)
@pytest.mark.parametrize("code", COMPLETE)
def test_a_document_shown_in_a_language_has_no_paragraph_left_in_english(speaking: None, code: str,
                                                                         name: str) -> None:
    english = units(read_asset(name))
    assert language.use(code) == code, f"no {code} catalog"
    shown = read_document(name)
    translated = units(shown)
    # Cut the same way: each heading, item, paragraph and cell is one in the translation too (Markdown kept).
    assert [(u.prefix.strip(), u.suffix.strip()) for u in translated] == [(u.prefix.strip(), u.suffix.strip())
                                                                         for u in english]
    left = [u.words[:60] for u, t in zip(english, translated, strict=True) if has_words(u.words) and t.words == u.words]
    assert not left, f"{len(left)} of {name}'s messages shown in English in {code}: {left[:5]}"
    assert {m for u in english for m in re.findall(r"\{\w+\}", u.words)} == set(re.findall(r"\{\w+\}", shown))


def test_english_shows_the_documents_as_they_are(speaking: None) -> None:
    for name in DOCUMENTS:
        assert read_document(name) == read_asset(name)
    assert guide.guide_text("draft") == guide.guide_for("draft", read_asset(guide.GUIDE))


@pytest.mark.parametrize("code", COMPLETE)
def test_the_guide_puts_each_screens_topics_first_in_every_language(speaking: None, code: str) -> None:
    language.use(code)
    for topic, headings in guide.TOPICS.items():
        first, rest = guide.guide_text(topic)
        wanted = [language.translated(h) for h in headings]
        assert all(w != h for w, h in zip(wanted, headings, strict=True)), f"{topic}: a heading not translated"
        assert re.findall(r"^## (.+)$", first, re.M) == wanted
        assert not set(re.findall(r"^## (.+)$", rest, re.M)) & set(wanted)
        assert not set(re.findall(r"^## (.+)$", first + rest, re.M)) & set(headings), "an English heading shown"


def test_a_change_of_language_reaches_the_guide_already_laid_out(speaking: None) -> None:
    guide.guide_in.cache_clear()
    english = guide.guide_markdown("play")
    assert guide.guide_markdown("play") is english  # laid out once a language
    language.use("sv")
    swedish = guide.guide_markdown("play")
    assert swedish is not english
    language.use(language.SOURCE)
    assert guide.guide_markdown("play") is english


@pytest.mark.parametrize("code", COMPLETE)
def test_the_lesson_keeps_its_deal_and_steps_and_says_them_in_the_language(speaking: None, code: str) -> None:
    english = LessonText.parse(read_asset("lesson.md"))
    language.use(code)
    shown = LessonText.parse(read_document("lesson.md"))
    assert shown.fields == english.fields  # the stock, who drafts first, the seed: data, not words
    assert shown.steps.keys() == english.steps.keys()
    for step, words in english.steps.items():
        assert shown.steps[step] != words, f"{step} in English"
        assert sorted(re.findall(r"\{\w+\}", shown.steps[step])) == sorted(re.findall(r"\{\w+\}", words)), step
