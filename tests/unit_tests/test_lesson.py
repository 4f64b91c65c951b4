"""The lesson's text (assets/lesson.md) and its deal: every step has its words, every section is used, the
stock is the 52 cards (issue 39)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest

from spades_tui.session.lesson import LessonDeal, LessonError, LessonSession
from spades_tui.session.view import Bid, Phase, PlayerAction, SeatView
from spades_tui.tui.app.resources import read_asset
from spades_tui.tui.lesson import PARTS, STEPS, Lesson, LessonText

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
             "reason", "who", "won", "won_tricks", "nil_name", "contract", "contract_lost", "over", "nil", "bot_bid",
             "bot_won", "bot_points", "missed", "advice", "bot_took"}
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


def suggested(view: SeatView) -> PlayerAction:
    assert view.default is not None
    return view.default


def lesson_hand(choose: Callable[[SeatView], PlayerAction] = suggested
                ) -> tuple[Lesson, list[SeatView], list[SeatView]]:
    """The lesson's hand played headless by ``choose`` (the suggestions): the lesson, the learner's views at their
    decisions, and the views while the bot was to act (each read by the lesson as the screen would)."""
    deal = LessonDeal.parse(TEXT.fields["stock"], TEXT.fields["first"], TEXT.fields["seed"])
    session = LessonSession(deal)
    lesson = Lesson(TEXT)
    mine: list[SeatView] = []
    bots: list[SeatView] = []
    try:
        for _ in range(200):
            view = session.view()
            lesson.words(view)
            if view.phase is Phase.SHUFFLE and view.hands:
                mine.append(view)
                return lesson, mine, bots
            if view.my_turn:
                mine.append(view)
                action = choose(view)
                lesson.chose(view, action)
                assert session.act(action) is None
            else:
                bots.append(view)
                session.run_bots()
    finally:
        session.close_all()
    raise AssertionError("the lesson's hand never ended")


def test_the_last_trick_held_on_the_table_says_the_hand_is_over_not_the_last_suggestion() -> None:
    lesson, mine, _ = lesson_hand()
    end = mine[-1]
    held = lesson.words(replace(end, trick_held=True))
    # Before: the held 13th trick read "You lead: you won the last trick. Suggested: play Q♠", a card already
    # played.
    assert "won the 13th and last trick" in held and "Suggested" not in held
    assert held.startswith("You won") == (end.trick_winners[-1] == end.seat)
    assert "The hand is over. Your score, line by line" in lesson.words(end)


def test_a_key_refused_while_the_bot_is_to_act_is_explained() -> None:
    lesson, _, bots = lesson_hand()
    waiting = next(v for v in bots if v.phase is Phase.PLAY)
    before = lesson.words(waiting)
    lesson.refused_key(waiting, "x")
    said = lesson.words(waiting)
    assert said.startswith("The key x does nothing here") and said.endswith(before)


@pytest.mark.parametrize("nil", ["nil"])
def test_the_end_names_a_nil_as_bid_and_counts_its_tricks(nil: str) -> None:
    def choose(view: SeatView) -> PlayerAction:
        if view.phase is Phase.BIDDING:
            return next(a for a in view.legal if isinstance(a, Bid) and a.tricks == 0)
        return suggested(view)

    lesson, mine, _ = lesson_hand(choose)
    end = mine[-1]
    won = end.hands[-1].tricks[end.seat if end.seat is not None else 0]
    said = lesson.words(end)
    # Before: "Double Nil: −200 (1 tricks won)", and the same "Double Nil" for a bid of Nil.
    name = "Double Nil" if nil == "double_nil" else "Nil"
    assert f"You bid {name} and won {won} trick{'' if won == 1 else 's'}:" in said
    assert (nil == "nil") == ("Double Nil" not in said)


def test_the_lesson_teaches_in_the_order_a_hand_goes_and_asks_no_double_nil_before_the_draft_is_explained() -> None:
    """Issue 52: the first screen asked about Double Nil (and its exchange) before the draft was explained, and the
    exchange was never explained.  Now: the draft first, then Double Nil and its exchange as the draft ends, then
    bids with Nil, then play; no Double Nil question at all."""
    lesson, mine, _ = lesson_hand()
    assert all(v.phase is not Phase.DOUBLE_NIL for v in mine)
    order = [step for step in lesson.shown if step in ("draft-first", "bot-picks", "double-nil", "draft-last", "bid",
                                                         "bid-first", "follow", "lead")]
    assert order[:5] == ["draft-first", "bot-picks", "double-nil", "draft-last", "bid"], order
    said = {v.actions: lesson.words(v) for v in mine}
    first = said[min(said)]
    assert "Double Nil" not in first and "stock" in first and "discard pile" in first
    exchange = next(words for words in said.values() if "Double Nil:" in words)
    assert "exchange" in exchange and "up to 3 cards" in exchange
    bidding = next(words for v, words in zip(mine, said.values(), strict=True) if v.phase is Phase.BIDDING)
    assert "0 is Nil: +100 if you win no trick" in bidding and "second to draft bids first" in bidding
    draft_two = said[sorted(said)[1]]
    assert re.search(r"\"took \d first, \d second\" counts the bot's draft turns", draft_two)


def test_the_bidding_advice_follows_from_the_hand_shown() -> None:
    """Issue 52: "Count your sure winners: high spades, aces, kings. Suggested: bid 8." over a hand with one ace and
    no king.  The advice names the hand's own spades, aces and kings, and says so when there is none."""
    from spades_tui.engine.cards import Card
    from spades_tui.tui.lesson import hand_advice

    lesson, mine, _ = lesson_hand()
    view = next(v for v in mine if v.phase is Phase.BIDDING)
    words = lesson.words(view)
    hand = view.observation.hand
    for card in hand:
        if card.rank >= 13 and card.suit.name != "SPADES":
            assert card.label() in words
    assert "kings" not in words.lower() or any(c.rank == 13 for c in hand)
    assert "6 spades (Q♠ high)" in words and "A♣: an ace wins" in words and "About 8 tricks" in words
    weak = [Card.parse(c) for c in "2S 3H 4H 5H 6H 7D 8D 9D 2C 3C 4C 5C 6C".split()]
    said = hand_advice(weak, 1)
    assert "No ace or king" in said and "1 spade (2♠ high)" in said and "About 1 trick in" in said
