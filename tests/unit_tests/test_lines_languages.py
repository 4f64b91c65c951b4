"""Line mode in Swedish and Estonian (docs/languages.md): the cards in words as those players say them ("hjärter
tio", "ärtu kümme"), typed back in either order, with or without the accents; each language's own command and
answer words beside the English ones, none of them ambiguous, and the help naming them; a game played in the
language that names no hidden card; the lead said once."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from spades_tui.engine.cards import CARDS, Card
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.i18n import language as i18n
from spades_tui.i18n.language import _, pgettext
from spades_tui.lines import commands
from spades_tui.lines.ask import answers
from spades_tui.lines.player import CLEAR, LinePlayer
from spades_tui.lines.words import Words, folded, in_colour, parse_card
from spades_tui.session.session import Session, new_record
from tests.support.hidden import hidden_cards
from tests.support.lines import plain_problems
from tests.unit_tests.test_lines import Watched, _game, _pump, _type

LANGUAGES = ("sv", "et")


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    assert i18n.use(request.param) == request.param, "the catalogs are built (docs/languages.md)"
    yield request.param
    i18n.use("en")


def test_cards_in_words_as_the_players_of_the_language_say_them(language: str) -> None:
    said = {"sv": ("hjärter tio", "spader ess", "klöver knekt"), "et": ("ärtu kümme", "poti äss", "risti soldat")}
    ten, ace, jack = (Card.parse(c) for c in ("TH", "AS", "JC"))
    assert [Words(True).card(c) for c in (ten, ace, jack)] == list(said[language])
    assert Words().card(ten) == "10♥"  # the symbols are the same in every language
    for words, card in zip(said[language], (ten, ace, jack), strict=True):
        suit, rank = words.split()
        for typed in (words, f"{rank} {suit}", folded(words), words.upper()):
            assert parse_card(typed) == card, typed
    for typed in ("10h", "ten of hearts", "th"):  # the English ways still work
        assert parse_card(typed) == ten, typed
    assert parse_card("hjärter") is None and parse_card("tio tio") is None


def test_every_card_is_said_apart_and_read_back(language: str) -> None:
    said = {Words(True).card(c): c for c in CARDS}
    assert len(said) == 52
    for words, card in said.items():
        assert parse_card(words) == card, words


def test_red_cards_in_words_are_coloured(language: str) -> None:
    line = in_colour(f"{Words(True).card(Card.parse('TH'))}, {Words(True).card(Card.parse('TS'))}")
    assert line.count("\x1b[31m") == 1 and line.startswith("\x1b[31m")


def test_each_command_has_one_word_of_the_language_and_the_help_names_it(language: str) -> None:
    local = commands.local_names()
    words = {name: word for word, name in local.items()}
    assert len(set(local.values())) == len(local), f"two commands share a word: {local}"
    assert not set(local) & set(commands.NAMES), "a word of the language is another English command"
    help_line = folded(commands.help_lines()[0])
    for name in commands.NAMES:
        word = words.get(name, name)  # a command whose word is the English one ("hand" in Swedish)
        assert re.search(rf"\b{re.escape(word)}\b", help_line), (name, word)
        assert commands.command_name(word) == name
        assert commands.command_name(name) == name  # English always works
    assert commands.command_name("exit") == "quit"


def test_an_answer_word_is_no_command(language: str) -> None:
    """A command is read before the question's answers: an answer word of the language that were a command would
    never reach its question (review is both, and does the same either way)."""
    local = answers("keep", "take", "pass", "yes", "no", "next", "again", "ready", "real", "leave", "none")
    assert not [w for w in local if commands.Commands.is_command(w)]


def test_the_lead_is_said_once(language: str) -> None:
    """The player hears "Bob led 9♦." then the question "Trick 6, Bob led 9♦. ...": line mode drops the first when
    the second holds it, in every language."""
    told = _("{player} led {card}.").format(player="Bob", card="9♦")
    asked = _("Trick {number}, {player} led {card}.").format(number=6, player="Bob", card="9♦")
    assert told in asked


class Heard(Watched):
    """``Watched`` that also finds the cards said in the language's words, each line checked as it is written."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.spelled = {Words(True).card(c): c for c in CARDS}
        self.pattern = re.compile("|".join(re.escape(w) for w in sorted(self.spelled, key=len, reverse=True)))
        self.named: set[Card] = set()

    def write(self, text: str) -> int:
        mark = len(self.lines)
        written = super().write(text)
        state = self.session.state
        scored = state.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and bool(state.history)
        hidden = set() if scored else hidden_cards(state, self.session.viewer)
        for line in self.lines[mark:]:
            said = {self.spelled[m] for m in self.pattern.findall(line)}
            self.named |= said
            if said & hidden:
                self.leaks.append(f"{sorted(c.code for c in said & hidden)} in {line!r}")
        return written


def test_a_hand_in_the_language_names_no_hidden_card(language: str) -> None:
    """A hand against the bot with the cards in words, played with the language's own words, each line checked
    against what the player may know at that moment."""
    record = new_record(Rules(), 0, ("You", "Bot (easy)"), bot="easy", seed=7)
    session = Session(record, seed=7, hints=False)
    out = Heard(session)
    player = LinePlayer(session, out, words=Words(True), clear=CLEAR)
    player.publish()
    _pump(player)
    keep, bid = folded(pgettext("typed answer", "keep")), folded(pgettext("typed answer", "bid"))
    for _turn in range(120):
        asked = player.asked
        assert asked is not None, out.lines[-5:]
        if asked.kind == "summary":
            break
        answer = {"double_nil": folded(_("No")), "draft": keep, "bid": f"{bid} 3"}.get(asked.kind, "1")
        if asked.kind == "play":
            answer = asked.choices[0].label  # the card in words, as the player hears it
        before = session.actions
        lines = _type(player, out, answer)
        assert session.actions != before, (answer, lines)
    assert player.asked is not None and player.asked.kind == "summary"
    assert _("Hand {number} scored.").format(number=1) in "\n".join(out.lines)
    assert len(out.named) > 13, "the check finds the cards said in words"
    assert not out.leaks, out.leaks
    assert not plain_problems(out.lines)
    session.close_all()


def test_a_command_in_the_language(language: str) -> None:
    session, player, out = _game(seed=3)
    player.publish()
    _pump(player)
    word = {name: w for w, name in commands.local_names().items()}
    lines = _type(player, out, word["score"])
    assert lines[0].startswith(_("Score: {scores}. Bags: {bags}. Playing to {target}.").split("{")[0])
    lines = _type(player, out, word["help"])
    assert " ".join(lines).startswith(" ".join(commands.help_lines()))  # cut at words past 200 characters
    session.close_all()


def test_the_tables_own_score_lines_are_left_to_line_mode(language: str) -> None:
    """At a table line mode says a hand's score and the game's end in its own words: the table's lines of the same
    are left out in every language, its others (who sat down) kept."""
    from spades_tui.lines.table import said_by_line_mode

    scored = _("Hand {number} scored: {points} (score {first} to {second}).").format(
        number=2, points="+50", first=100, second=20)
    over = _("Game over: {player} wins, {first} to {second}.").format(player="Bob", first=510, second=20)
    assert said_by_line_mode(scored) and said_by_line_mode(over)
    assert said_by_line_mode("Hand 2 scored: Ann +50 (score 100 to 20).")  # a host speaking English
    assert not said_by_line_mode(_("{player} says: {text}").format(player="Bob", text="gg"))
