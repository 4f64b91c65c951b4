"""The analysis's and the hints' words are whole messages of the catalog (issue 56, docs/languages.md).

A "shouting" catalog translates every message into its own words in capitals (placeholders kept): any lowercase
letter left in the report of ``analyse``, the review's words or a hint is English glued on outside a message, which no
translation could reach.  Names are written in capitals too, so they cannot hide a lowercase word; "You" is the
grammatical "you", whose sentences are messages of their own.
"""

from __future__ import annotations

import gettext
import io
import pickle
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache

import pytest

from spades_tui.bots.hints import hint
from spades_tui.bots.process import _serve
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.state import Phase
from spades_tui.i18n import language
from spades_tui.solver.analysis import Analysis, analyse_record, format_report, review_hand
from spades_tui.solver.words import review_words, trick_words
from tests.unit_tests.test_review_compares import play

_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def shout(message: str) -> str:
    """``message`` with every letter outside its placeholders in capitals."""
    return "".join(part if _PLACEHOLDER.fullmatch(part) else part.upper() for part in _PLACEHOLDER.split(message))


class Shouting(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return shout(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return shout(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return shout(message)


@pytest.fixture
def shouting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(language, "_catalog", Shouting())
    yield


def unreached(text: str) -> list[str]:
    """The lines of ``text`` with a lowercase letter: words no message holds."""
    return [line for line in text.splitlines() if re.search(r"[a-zà-ÿ]", line)]


def bot_game(seed: int, preset: str, nil: bool, hands: int) -> GameRecord:
    """The easy bot on both seats (seat 0 bidding Nil whenever it may, with ``nil``), seat 1 named in capitals."""
    record, _leads = play(seed, preset, ("easy", "easy"), nil, hands)
    return replace(record, players=(PlayerInfo("You"), PlayerInfo("BOB")))


GAMES = ((3, "standard", False), (4, "casual", True), (5, "tournament", True))


@cache
def analysed() -> tuple[tuple[GameRecord, Analysis], ...]:
    out = []
    for seed, preset, nil in GAMES:
        record = bot_game(seed, preset, nil, 2)
        # Cut short in the third hand's play: its header says so.
        third = bot_game(seed, preset, nil, 3)
        cut = third.truncated(len(record.actions) + 30)
        out.append((cut, analyse_record(cut)))
    return tuple(out)


@pytest.mark.slow
def test_every_word_of_the_report_comes_from_a_whole_message(shouting: None) -> None:
    told = set()
    for _record, analysis in analysed():
        for names in (("You", "BOB"), ("ADA", "BOB"), ("ADA", "You")):
            report = format_report(analysis, names)
            assert not unreached(report), unreached(report)
            told |= {word for word in ("CUT SHORT", "DRAFT TURN", "WELL KEPT", "HAD ", "SMALLER COSTS", "NIL")
                     if word in report}
    assert told == {"CUT SHORT", "DRAFT TURN", "WELL KEPT", "HAD ", "SMALLER COSTS", "NIL"}, told


@pytest.mark.slow
def test_every_word_of_the_review_comes_from_a_whole_message(shouting: None) -> None:
    for record, _analysis in analysed():
        for number in (1, 2):
            review = review_hand(record, number)
            assert review is not None
            for who in (("you", "THE BOT"), ("THE BOT", "you"), ("ADA", "BOB")):
                words = review_words(review.analysis, who, who)
                lines = [*words.titles, *words.totals, *words.plays, *words.chances, *words.bids, *words.draft]
                lines += [line for trick in review.tricks for line in trick_words(trick, who, who)]
                assert not unreached("\n".join(lines)), unreached("\n".join(lines))


def test_every_word_of_a_hint_comes_from_a_whole_message(shouting: None) -> None:
    record = bot_game(7, "standard", False, 1)
    state = record.new_state()
    kinds = set()
    for action in record.actions:
        seat = getattr(action, "player", None)
        if seat is not None:
            got = hint(observe(state, seat), legal_actions(state), 0, samples=2)
            text = "\n".join([got.summary, got.measure, *(got.line(o) for o in got.options)])
            assert not unreached(text), unreached(text)
            kinds.add(got.kind)
        state = reduce(state, action)
    assert {"draft", "bidding", "play"} <= kinds


def test_a_decimal_in_a_hint_is_written_as_the_language_writes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    class Comma(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return "," if (context, message) == ("decimal separator", ".") else message

    record = bot_game(7, "standard", False, 1)
    state = record.new_state()
    monkeypatch.setattr(language, "_catalog", Comma())
    for action in record.actions:
        seat = getattr(action, "player", None)
        if seat is not None and state.phase is Phase.DRAFT:
            got = hint(observe(state, seat), legal_actions(state), 0, samples=2)
            details = [o.detail for o in got.options]
            assert all(re.search(r"≈ \d+,\d tricks", d) for d in details), details
            return
        state = reduce(state, action)
    pytest.fail("no draft decision")


def answer_language() -> object:
    """A bot for ``_serve`` whose one method says which language the child speaks."""

    class Speaker:
        def language(self) -> str:
            return language.current()

        def close(self) -> None:
            """Nothing to release."""

    return Speaker()


def test_the_bot_process_speaks_the_hosts_language() -> None:
    """A hint is made in the child process: its words are in the language the host sends with each call."""
    calls = io.BytesIO()
    for message in (answer_language, ("language", (), "sv"), ("language", (), "en"), ("close", (), "en")):
        pickle.dump(message, calls)
    calls.seek(0)
    out = io.BytesIO()
    try:
        _serve(calls, out)
    finally:
        language.use("en")
    out.seek(0)
    assert [pickle.load(out), pickle.load(out)] == [(True, "sv"), (True, "en")]


def test_a_level_is_shown_in_the_language_and_kept_as_it_is(shouting: None) -> None:
    from spades_tui.bots.levels import LEVELS, level_name

    assert [level_name(level) for level in LEVELS] == ["EASY", "NORMAL", "HARD", "EXPERT"]
    assert level_name("cmd:./mybot") == "cmd:./mybot"
