"""The review tells the story (issue 29): for each costly choice what happened (the real trick, the hand's
real result), then, marked "Had ...", what the better card would have led to with best play after it; the
other side's costly cards in a section of their own; the totals add up to the real score.

Three kinds of hand, played by the normal bot on both seats (seat 0 named "You"): a made contract, a set
contract and a broken Nil (seat 0 made to bid Nil).  What happened is checked against the engine's own
result of the hand and the record's own tricks, never against the analysis that wrote the words.
"""

from __future__ import annotations

from functools import cache

import pytest

from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import Bid, PlayerAction
from spades_tui.engine.cards import Card
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.reducer import legal_actions, reduce, trick_winner
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, HandResult, Phase, PlayedCard, new_game
from spades_tui.session import loop
from spades_tui.session.dealer import Dealer
from spades_tui.solver.analysis import analyse_record, format_report, review_hand
from spades_tui.solver.judgement import HandAnalysis, PlayAnalysis, Scoring
from spades_tui.solver.words import MINOR_COST, review_words, story_lines
from spades_tui.tui.reviewmodel import ReviewView, review_content
from tests.support.reports import sg

NAMES = (PlayerInfo("You"), PlayerInfo("Bot (normal)", "bot:normal"))


@cache
def bot_game(seed: int, nil: bool, hands: int) -> tuple[GameRecord, GameState]:
    """The normal bot on both seats; with ``nil`` seat 0 bids Nil whenever it may (and plays as a Nil bidder)."""
    rules = Rules()
    bots = [make_bot("normal"), make_bot("normal")]
    for seat in (0, 1):
        bots[seat].start(seat, rules)
    actions = []

    def apply(state: GameState, action: object) -> GameState:
        actions.append(action)
        return reduce(state, action)  # type: ignore[arg-type]

    def decide(state: GameState, seat: int) -> PlayerAction:
        legal = legal_actions(state)
        if nil and seat == 0 and state.phase is Phase.BIDDING and Bid(0, 0) in legal:
            return Bid(0, 0)
        return bots[seat].decide(observe(state, seat), legal)

    state = loop.run(new_game(rules, 0), Dealer(seed), decide, apply=apply,
                     stop=lambda s: s.phase is Phase.SHUFFLE and len(s.history) >= hands)
    return GameRecord(rules, 0, NAMES, tuple(actions)), state  # type: ignore[arg-type]


def find_hand(kind: str) -> tuple[GameRecord, int, HandResult]:
    """A hand of ``kind`` (made, set, broken_nil) for seat 0 in which some card cost points."""
    for seed in range(60):
        record, state = bot_game(seed, kind == "broken_nil", 1 if kind == "broken_nil" else 6)
        for number, result in enumerate(state.history, 1):
            bid, took = result.bids[0], result.tricks[0]
            fits = {"made": bid is not None and bid > 0 and took >= bid,
                    "set": bid is not None and bid > 0 and took < bid,
                    "broken_nil": bid == 0 and took > 0}[kind]
            if fits:
                review = review_hand(record, number)
                if review is not None and any(review.analysis.points_lost):
                    return record, number, result
    pytest.fail(f"no {kind} hand with a costly card in the games")


def real_tricks(record: GameRecord, number: int) -> dict[int, tuple[tuple[int, str], tuple[int, str], int]]:
    """Hand ``number``'s tricks from the record alone: per trick, the lead and answer (player, card) and who won."""
    state = record.new_state()
    hand, out, pending = 0, {}, []
    for action in record.actions:
        before = state
        state = reduce(state, action)
        if before.phase is Phase.SHUFFLE or (before.hand_number != state.hand_number):
            hand = state.hand_number
        if hand == number and before.phase is Phase.PLAY and before.hand is not None:
            card = getattr(action, "card", None)
            if card is not None:
                pending.append(PlayedCard(action.player, card))  # type: ignore[attr-defined]
                if len(pending) == 2:
                    t = len(before.hand.tricks) + 1
                    first, second = pending
                    out[t] = ((first.player, first.card.label()), (second.player, second.card.label()),
                              trick_winner((first, second)))
                    pending = []
    return out


def view_of(record: GameRecord, number: int) -> tuple[ReviewView, HandAnalysis]:
    review = review_hand(record, number)
    assert review is not None
    return review_content(review, ("You", "Bot (normal)"), 0), review.analysis


WHO = ("you", "the bot")


def outcome(result: HandResult, p: int) -> str:
    bid, took = result.bids[p], result.tricks[p]
    points = result.lines[p].contract + result.lines[p].overtricks + result.lines[p].nil + result.lines[p].bag_penalty
    on = "a Nil" if bid == 0 else f"a bid of {bid}"
    state = ("kept" if took == 0 else "broken") if bid == 0 else ("made" if took >= (bid or 0) else "set")
    if result.lines[p].bag_penalty:
        state += ", bags to the limit"
    figure = sg(points)
    return f"{WHO[p]} took {took} trick{'' if took == 1 else 's'} on {on} ({state}, {figure})"


@pytest.mark.parametrize("kind", ["made", "set", "broken_nil"])
@pytest.mark.slow
def test_the_review_tells_what_happened_then_what_the_better_card_would_have_led_to(kind: str) -> None:
    record, number, result = find_hand(kind)
    rv, analysis = view_of(record, number)
    points = [ln.contract + ln.overtricks + ln.nil + ln.bag_penalty for ln in result.lines]
    margin = points[0] - points[1]
    m = sg(margin)
    # What happened, from the engine's own scoring of the hand.
    assert rv.totals[0] == f"What happened: {outcome(result, 0)}; {outcome(result, 1)}: {m} for you."
    # The totals add up to the real score: the worth at the first lead, less your costs, plus the bot's.
    lost = analysis.points_lost
    start = analysis.plays[0].points_best * (1 if analysis.plays[0].player == 0 else -1)
    assert start - lost[0] + lost[1] == margin
    if lost == (0, 0):
        assert rv.totals[1].endswith(", and so it was played: no card of either side cost a point.")
    else:  # each side's cost said once, in points, with no bracket to repeat
        cost, back = (f"{n} point{'' if n == 1 else 's'}" if n else none
                      for n, none in zip(lost, ("nothing", "none"), strict=True))
        assert rv.totals[1].endswith(f"your cards cost {cost} of that and the bot's gave {back} back: {m}, as it "
                                     "was played.")
    assert rv.titles == ("Your costly cards", "Where the bot gave you a chance")
    tricks = real_tricks(record, number)
    for player, lines in ((0, rv.plays), (1, rv.chances)):
        costly = [p for p in analysis.plays if p.player == player and p.points_loss >= MINOR_COST]
        small = [p for p in analysis.plays if p.player == player and 0 < p.points_loss < MINOR_COST]
        if small:  # one line after the stories, each such card in it once
            assert lines[-1].startswith(f"Smaller costs, under {MINOR_COST} points each: ")
            assert all(lines[-1].count(f"{p.card.label()} on trick {p.trick}") == 1 for p in small)
            lines = lines[:-1]
        if not costly:
            assert small or (len(lines) == 1 and not lines[0].startswith(("Trick", "  Had")))
            continue
        assert len(lines) == 2 * len(costly)  # each: what happened, then what might have been
        for p, happened, had in zip(costly, lines[::2], lines[1::2], strict=True):
            lead, answer, winner = tricks[p.trick]
            assert happened.startswith(f"Trick {p.trick}: ")
            # the real trick: both cards, and who won it, as the record has them
            assert lead[1] in happened and answer[1] in happened and f"{WHO[winner]} won the trick" in happened
            # what happened in the hand is said once, at the top: the trick's story ends with the trick
            assert happened.endswith(".") and " ended " not in happened
            # marked as what might have been, and only ever about this side's own card
            assert had.startswith(f"  Had {WHO[player]} played ") and "best play from there would have " in had
            assert f"{sg(p.points_best)} for {WHO[player]}" in had
            assert WHO[1 - player] + " played" not in had
    # Nothing of the old wording that read the imagined as fact.
    assert not any(" and it cost " in line for line in rv.plays + rv.chances)


def test_the_words_of_a_set_contract_exactly() -> None:
    """A constructed last trick, its text whole: you led K♥ and lost it to A♥, and your 4 with it; leading
    Q♠ would have made it (bid 4 against 3: +40 - 36 = +4 made, -40 - 37 = -77 set)."""
    scoring = Scoring(Rules(), (4, 3), (0, 0))
    kh, ah, qs = Card.parse("KH"), Card.parse("AH"), Card.parse("QS")
    lead = PlayAnalysis(action=0, hand=1, trick=13, player=0, card=kh, best=1, played=0, optimal=(qs,),
                        points_best=scoring.margin(0, 4), points_played=scoring.margin(0, 3), points_optimal=(qs,),
                        won=(3, 9))
    answer = PlayAnalysis(action=1, hand=1, trick=13, player=1, card=ah, best=1, played=1, optimal=(ah,),
                          points_best=-scoring.margin(0, 3), points_played=-scoring.margin(0, 3),
                          points_optimal=(ah,), won=(3, 9))
    hand = HandAnalysis(1, (4, 3), (lead, answer), False, scoring)
    happened, had = story_lines(hand, lead, WHO, ("your", "the bot's"))
    assert happened == "trick 13: you led K♥ and the bot won the trick with A♥."
    assert had == ("  Had you played Q♠, best play from there would have made your 4: +4 for you "
                   "(best play after K♥: \u221277).")


@pytest.mark.slow
def test_analyse_says_you_and_your_never_you_s() -> None:
    record, _, _ = find_hand("set")
    report = format_report(analyse_record(record.truncated(len(record.actions))), ["You", "Bot (normal)"])
    # "You" only where a line begins ("You bid 4; ..."), never mid-sentence or as a possessive.
    lines = [line.strip() for line in report.splitlines()]
    assert not any("You's" in line or " You " in line or "Your's" in line for line in lines)
    assert "your " in report and "for you" in report and "Bot (normal)'s" in report


def test_review_words_name_each_side_once_in_hot_seat() -> None:
    record, number, _ = find_hand("made")
    review = review_hand(record, number)
    assert review is not None
    words = review_words(review.analysis, ("Ann", "Bob"), ("Ann's", "Bob's"))
    assert words.titles == ("Ann's costly cards", "Bob's costly cards")
    assert all(line.startswith("  Had Ann ") for line in words.plays if line.startswith("  Had"))
    assert all(line.startswith("  Had Bob ") for line in words.chances if line.startswith("  Had"))


@pytest.mark.slow
def test_a_bid_against_a_nil_is_measured_against_the_nils_fewest_not_the_most_tricks() -> None:
    """Against a Nil one side ducks and the other pushes tricks on it, so the contract side's best is what is left
    once the Nil is held to its fewest: "The bot bid 7; best play would have made 9 for the bot; the bot took 11,
    1 lost by the bot's own cards" read as a contradiction (took more than best, yet lost one)."""
    record, number, _ = find_hand("broken_nil")
    review = review_hand(record, number)
    assert review is not None
    hand = review.analysis
    assert hand.is_nil(0) and not hand.is_nil(1) and hand.final_tricks is not None
    words = review_words(hand, WHO, ("your", "the bot's"))
    line = words.bids[1]
    par = 13 - hand.could_hold[0]
    assert line.startswith(f"The bot bid {hand.bids[1]}; against your Nil, best play for tricks from the first lead "
                           f"would have left {par} tricks to the bot; the bot took {hand.final_tricks[1]}")
    let_in = sum(p.nil_loss for p in hand.plays if p.player == 0)
    assert "lost by the bot's own cards" not in line
    if let_in:
        assert f", {let_in} fewer as your own cards let " in line
    elif hand.final_tricks[1] == par:
        assert line.endswith(", as best play for tricks would have")


def find_both_back() -> tuple[GameRecord, int, HandAnalysis]:
    """A played-out hand in which each side played a card that cost points (10 or more): each gave points back."""
    for seed in range(60):
        record, state = bot_game(seed, False, 6)
        for number in range(1, len(state.history) + 1):
            review = review_hand(record, number)
            if review is None:
                continue
            hand = review.analysis
            if hand.final_tricks is not None and all(
                    any(p.player == q and p.points_loss >= MINOR_COST for p in hand.plays) for q in (0, 1)):
                return record, number, hand
    pytest.fail("no hand in which both sides gave points back")


@pytest.mark.slow
def test_a_hand_where_both_sides_gave_points_back_names_each_card_once_under_its_side() -> None:
    """Both sides' costly cards: the review lists each under its own side, each Had line two best-play values of
    its own card's moment (never where the points came back, which compared best play with the hand), and
    ``analyse`` tells each card under its player's header, named as that player's, so a trick told twice is never
    the same line twice."""
    record, number, hand = find_both_back()
    rv, _ = view_of(record, number)
    costly = {q: [p for p in hand.plays if p.player == q and p.points_loss >= MINOR_COST] for q in (0, 1)}
    for q, lines in ((0, rv.plays), (1, rv.chances)):
        told = [line for line in lines if line.startswith("Trick ")]
        assert [int(line.split(":")[0].split()[1]) for line in told] == [p.trick for p in costly[q]]
        for p, had in zip(costly[q], [line for line in lines if line.startswith("  Had ")], strict=True):
            # two best-play values from the same moment, never the points "given back" later in the hand
            assert had.endswith(f"(best play after {p.card.label()}: {sg(p.points_played)}).") and "back" not in had
    # The totals: both sides' costs said, and they add up to the real result.
    lost = hand.points_lost
    assert f"your cards cost {lost[0]} point" in rv.totals[1] and f"the bot's gave {lost[1]} point" in rv.totals[1]
    report = format_report(analyse_record(record), ["You", "Bot (normal)"])
    block = report.split("\n\n")[number - 1]
    assert block.startswith(f"Hand {number}: you ")
    names = ("your", "Bot (normal)'s")
    for q, title in ((0, "  You:"), (1, "  Bot (normal):")):
        part = block.split(title)[1].split("\n  Bot (normal):")[0] if q == 0 else block.split(title)[1]
        for p in costly[q]:  # each costly card under its own player, named as that player's
            assert f"Trick {p.trick}, {names[q]} {p.card.label()}: " in part
        judged = sum(1 for p in hand.plays if p.player == q and p.points_loss > 0)  # the smaller costs too
        assert f"{'each ' if judged > 1 else ''}judged against best play from that card on." in part
