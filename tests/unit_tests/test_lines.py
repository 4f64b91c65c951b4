"""Line mode in this process: a game played through ``LinePlayer`` with every line checked as it is written against
the game's true state (tests/support/hidden.py), bad input at every kind of prompt, the words typed."""

from __future__ import annotations

import io
import queue
import re
from typing import Any, Optional

import pytest

from spades_tui.engine.actions import Play
from spades_tui.engine.cards import Card
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.lines.player import CLEAR, Done, LinePlayer, Typed
from spades_tui.lines.words import Words, parse_card
from spades_tui.session.session import Session, new_record
from tests.support.hidden import hidden_cards
from tests.support.lines import cards_named, plain_problems


class Watched(io.StringIO):
    """Line mode's output, each line checked as it is written against what the seat at the keyboard may know
    at that moment (the session's viewer; None on a hot-seat hand-off: nobody's cards)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.lines: list[str] = []
        self.leaks: list[str] = []
        self.clears = 0
        self.typed: set[Card] = set()  # a card the player typed is said back to them ("You do not hold 3♠")
        self._part = ""

    def write(self, text: str) -> int:
        if CLEAR in text:
            self.clears += 1
            self.lines.append("<clear>")
        self._part += text.replace(CLEAR, "")
        while "\n" in self._part:
            line, self._part = self._part.split("\n", 1)
            self.lines.append(line)
            state = self.session.state
            # Once a hand is scored all of its cards may be shown (docs/rules.md section 10): the review does.
            scored = state.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and bool(state.history)
            hidden = set() if scored else hidden_cards(state, self.session.viewer)
            leaked = (cards_named(line) - self.typed) & hidden
            if leaked:
                self.leaks.append(f"{sorted(c.code for c in leaked)} in {line!r}")
        return len(text)


def _pump(player: LinePlayer) -> None:
    """The bots' decisions under way, applied as ``run`` applies them."""
    while player.bots:
        event = player.events.get()
        if isinstance(event, Done):
            player.bots -= event.job.kind == "bot"
            event.job.done(event.result)
            player.publish()
        else:
            assert isinstance(event, Typed), event  # a local game's only other event: a line typed
            player.typed_ahead.append(event)


def _game(hotseat: bool = False, seed: int = 11, rules: Optional[Rules] = None) -> tuple[Session, LinePlayer, Watched]:
    names = ("Ann", "Bob") if hotseat else ("You", "Bot (easy)")
    record = new_record(rules or Rules(), 0, names, bot=None if hotseat else "easy", seed=seed)
    session = Session(record, seed=seed, hints=False)
    out = Watched(session)
    player = LinePlayer(session, out, hotseat=hotseat, clear=CLEAR)
    return session, player, out


def _type(player: LinePlayer, out: Watched, text: str) -> list[str]:
    mark = len(out.lines)
    player.typed(text)
    _pump(player)
    return out.lines[mark:]


def test_cards_are_read_as_people_type_them() -> None:
    for typed in ("10h", "10♥", "th", "TH", "ten of hearts", "10 hearts", " 10H "):
        assert parse_card(typed) == Card.parse("TH"), typed
    assert parse_card("q spades") == Card.parse("QS")
    assert parse_card("ace of clubs") == Card.parse("AC")
    for typed in ("1h", "xx", "11s", "ten of cups", "", "hearts"):
        assert parse_card(typed) is None, typed


def test_the_hand_is_grouped_by_suit_high_first() -> None:
    hand = [Card.parse(c) for c in ("4S", "AS", "TS", "8H", "KH", "QH", "TD", "9D", "8D")]
    assert Words().hand(hand) == "spades A, 10, 4; hearts K, Q, 8; clubs none; diamonds 10, 9, 8"
    assert Words(True).hand(hand[:2]) == "spades ace, four; hearts none; clubs none; diamonds none"
    assert Words(True).card(Card.parse("TH")) == "ten of hearts"


def test_bad_input_at_every_kind_of_prompt_loses_nothing() -> None:
    """At each kind of prompt: nonsense, a number out of range and an empty line each get one line and the prompt
    again, and the game is where it was; then 1 (the first choice, always legal) plays on."""
    session, player, out = _game(seed=5)
    player.publish()
    _pump(player)
    seen: set[str] = set()
    for _ in range(400):
        asked = player.asked
        assert asked is not None, out.lines[-5:]
        if asked.kind not in seen:
            seen.add(asked.kind)
            before = session.actions
            for bad, said in (("zzz", None), ("99", "There is no choice 99"), ("", None)):
                lines = _type(player, out, bad)
                assert session.actions == before and player.asked is not None and player.asked.key == asked.key
                assert lines[-len(asked.lines()):] == asked.lines(), lines  # the whole prompt again
                if bad:
                    assert len(lines) >= 2 and not lines[0].startswith("Choices"), lines
                if said:
                    assert lines[0].startswith(said), lines
            if asked.kind == "play":  # a card not held, and one that may not be played, each said why
                view = session.view()
                other = next(c for c in sorted(hidden_cards(session.state, 0)))
                out.typed = {other}
                assert _type(player, out, other.code)[0].startswith("You do not hold")
                out.typed = set()
                illegal = [c for c in view.observation.hand if Play(0, c) not in view.legal]
                if illegal:
                    assert "may not be" in _type(player, out, illegal[0].code)[0]
        # The first Double Nil question is answered yes, so that the exchange's prompt comes too.
        _type(player, out, "2" if asked.kind == "double_nil" and "exchange" not in seen else "1")
        if {"double_nil", "draft", "exchange", "bid", "play", "summary"} <= seen:
            break
    assert {"double_nil", "draft", "exchange", "bid", "play", "summary"} <= seen
    assert not out.leaks, out.leaks
    assert not plain_problems(out.lines)
    session.close_all()


@pytest.mark.slow
def test_a_whole_game_by_the_numbers_names_no_hidden_card() -> None:
    """A script answering 1 to every prompt plays a whole game against the easy bot to its end; no line named a
    card the player could not know when it was written."""
    session, player, out = _game(seed=8, rules=Rules.parse_assignments("quick"))
    player.events.put(Typed("hand"))
    for _ in range(3000):
        player.events.put(Typed("1"))
    player.events.put(Typed(None))
    player.run()
    assert session.outcome is not None, out.lines[-10:]
    assert any(line.startswith("Game over") for line in out.lines)
    assert not out.leaks, out.leaks
    assert not plain_problems(out.lines)
    session.close_all()


def test_hot_seat_says_no_card_before_ready() -> None:
    """Hot-seat by the numbers (1 is ready at a hand-off): each hand-off clears the screen and says only what
    both may know until the next player types ready; a hand's cards are said after it."""
    session, player, out = _game(hotseat=True, seed=4)
    player.publish()
    handoff = player.asked
    assert handoff is not None and handoff.kind == "handoff"
    assert _type(player, out, "hand")[0].startswith("No cards are said until Ann")
    assert _type(player, out, "zzz")[-1].startswith("Pass the keyboard to Ann")
    hands = 0
    for _ in range(600):
        asked = player.asked
        assert asked is not None
        _type(player, out, "1")
        if session.state.history:
            break
        hands += asked.kind == "handoff"
    assert session.state.history, out.lines[-5:]
    assert out.clears >= 2 * hands > 20
    assert not out.leaks, out.leaks
    assert not plain_problems(out.lines)


def test_words_spell_the_choices_and_wrap_long_lines() -> None:
    session, player, out = _game(seed=3)
    player.words = Words(True)
    player.publish()
    _pump(player)
    assert not plain_problems(out.lines)
    assert all(len(line) <= 200 for line in out.lines)
    session.close_all()


def test_end_of_input_saves_and_leaves(tmp_path: Any) -> None:
    record = new_record(Rules(), 0, ("You", "Bot (easy)"), bot="easy", seed=2)
    session = Session(record, seed=2, hints=False, autosave=tmp_path / "game.json")
    out = Watched(session)
    events: queue.Queue[Any] = queue.Queue()
    events.put(Typed("1"))
    events.put(Typed(None))
    player = LinePlayer(session, out, events=events)
    assert player.run() == "eof"
    assert out.lines[-1] == "End of input: the game is saved."
    assert (tmp_path / "game.json").exists()
    session.close_all()


def test_the_interface_and_words_settings() -> None:
    from spades_tui.lines.launch import wants_lines
    from spades_tui.settings.preferences import Preferences, dumps, parse

    prefs, problems = parse('interface = "lines"\nwords = true\n')
    assert not problems and prefs.interface == "lines" and prefs.words
    assert wants_lines(None, prefs) and not wants_lines(False, prefs) and wants_lines(True, Preferences())
    assert not wants_lines(None, Preferences())
    assert parse(dumps(prefs))[0] == prefs  # the settings screen's save keeps them
    bad, problems = parse('interface = "braille"\nwords = "yes"\n')
    assert bad.interface == "tui" and not bad.words and len(problems) == 2


def test_the_commands_answer_from_the_seats_view() -> None:
    session, player, out = _game(seed=6)
    player.publish()
    _pump(player)
    said = {name: _type(player, out, name) for name in ("score", "bids", "trick", "tricks", "seen", "rules", "help",
                                                        "say hello", "review", "hand")}
    assert said["score"][0].startswith("Score: You 0, Bot (easy) 0. Bags: You 0, Bot (easy) 0. Playing to 500.")
    assert said["bids"] == ["Bids: You not yet, Bot (easy) not yet."]
    assert said["trick"] == ["No card has been played in this hand."]
    assert said["seen"] == ["You have seen no card go to the discard pile this hand."]
    assert said["rules"][0] == "House rules: Standard. Playing to 500."
    assert said["help"][0].startswith("Commands at any prompt: hand, score") and said["help"][-1].startswith("Choices")
    assert said["say hello"] == ["There is nobody to talk to here: say is for a network table."]
    assert said["review"] == ["The review is of a hand that is over: ask after the hand."]
    assert said["hand"] == ["You hold no card now."]
    assert _type(player, out, "undo") == [
        "Nothing to take back: a take-back is for your own decision against a bot, in the hand being played."]
    _type(player, out, "1")  # no Double Nil: the first draft turn
    assert player.asked is not None and player.asked.kind == "draft"
    top = session.view().observation.drawn
    assert top is not None
    _type(player, out, "keep")
    assert top in session.view().observation.hand
    back = _type(player, out, "undo")
    assert back[0] == "Taken back: a practice game now." and top not in session.view().observation.hand
    assert not out.leaks and not plain_problems(out.lines)
    session.close_all()


def test_review_and_hint_in_words() -> None:
    """After a hand: the review in words, its cards spelt out with --words; a hint's odds when asked for."""
    record = new_record(Rules(), 0, ("You", "Bot (easy)"), bot="easy", seed=9)
    session = Session(record, seed=9, hint_samples=20)
    out = Watched(session)
    player = LinePlayer(session, out, words=Words(True))
    player.publish()
    _pump(player)
    hint = _type(player, out, "hint")
    assert hint[0] == "Working out the hint…" and hint[1].startswith("Hint: ") and "≈" not in "".join(hint)
    for _ in range(200):
        if player.asked is not None and player.asked.kind == "summary":
            break
        _type(player, out, "1")
    assert player.asked is not None and player.asked.kind == "summary"
    while session.view().review is None:
        event = player.events.get(timeout=120)
        assert isinstance(event, Done)
        player.handle(event)
    review = _type(player, out, "2")  # the summary's "Review this hand"
    assert review[0].startswith("Hand 1, judged by the score")
    assert any(line.startswith("Trick 13: ") for line in review)
    assert not any(re.search(r"[♠♥♦♣]", line) for line in review)
    assert not plain_problems(out.lines) and not out.leaks
    session.close_all()


def test_color_only_when_asked_and_only_red_suits() -> None:
    from spades_tui.lines.player import Output
    from spades_tui.lines.words import in_colour

    assert in_colour("You led 10♥, Bot played K♠.") == "You led \x1b[31m10♥\x1b[39m, Bot played K♠."
    assert in_colour("queen of diamonds, ace of spades") == "\x1b[31mqueen of diamonds\x1b[39m, ace of spades"
    plain, red = io.StringIO(), io.StringIO()
    Output(plain).say("Q♦ and a name \x1b[2J with an escape")
    Output(red, color=True).say("Q♦ and a name \x1b[2J with an escape")
    assert "\x1b" not in plain.getvalue()  # a name's escape sequence is shown, never obeyed
    assert red.getvalue().count("\x1b") == 2 and "\x1b[2J" not in red.getvalue()


def test_the_checks_would_catch_a_leak_and_a_drawn_line() -> None:
    """The checks these tests rely on do fail: a line naming the bot's card, a box-drawing line, a long one."""
    session, player, out = _game(seed=7)
    player.publish()
    _pump(player)
    theirs = session.state.hand.stock[-1] if session.state.hand is not None else None  # deep in the stock
    assert theirs is not None
    player.say(f"The stock ends with {Words().card(theirs)}.")
    assert out.leaks and theirs.code in out.leaks[-1]
    assert plain_problems(["┌──┐"]) and plain_problems(["x" * 201]) and plain_problems(["a \x1b[1m b"])
    assert not plain_problems([CLEAR + "Pass the keyboard to Bob."])
    session.close_all()
