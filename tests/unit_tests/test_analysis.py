"""``analyse_record`` on random games, checked against the engine and against itself.

The invariant between consecutive plays of a hand (the heart of these tests):
``dd_after(P, c)`` is the tricks the player ``X`` who played ``c`` ends up with
among those left, with perfect play after ``c``.  The next play position ``P'``
is exactly the position after ``c``; so if ``w`` is 1 when ``c`` completed a
trick that ``X`` won (else 0) and ``n'`` the tricks left at ``P'``:

    played(P) = w + best(P')          when X acts again at P'
    played(P) = w + n' - best(P')     when the other player acts at P'

whether or not ``c`` was optimal; the same holds for the Nil aim's fields.  And
the last play of a hand keeps exactly the last trick if it wins it.
"""

from __future__ import annotations

from typing import Optional

import pytest

from spades_tui.engine.actions import Play
from spades_tui.engine.cards import CARDS, Card
from spades_tui.engine.record import GameRecord, ReplayError, replay
from spades_tui.engine.reducer import legal_actions, playable_cards, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.session.randomplay import random_game
from spades_tui.solver.analysis import Analysis, HandAnalysis, PlayAnalysis, Scoring, analyse_record, format_report
from spades_tui.solver.position import position_from_state
from spades_tui.solver.solver import Solver, legal_cards
from spades_tui.solver.words import MINOR_COST
from tests.support.positions import card, in_play, split_hands
from tests.support.reports import entries, sg

SEEDS = range(6)


def records() -> list[GameRecord]:
    out = []
    for seed in SEEDS:
        record, _ = random_game(seed, Rules(target=10_000), first_drafter=seed % 2, max_hands=2)
        out.append(record)
    # and one cut in the middle of its second hand's play
    record, _ = random_game(99, Rules(target=10_000), max_hands=2)
    plays = [i for i, a in enumerate(record.actions) if isinstance(a, Play)]
    out.append(record.truncated(plays[26 + 7] + 1))
    return out


RECORDS = records()


@pytest.fixture(scope="module", params=range(len(RECORDS)))
def analysed(request: pytest.FixtureRequest) -> tuple[GameRecord, Analysis]:
    record = RECORDS[request.param]
    return record, analyse_record(record)


def engine_walk(record: GameRecord) -> list[tuple[int, GameState, GameState]]:
    """(action index, state before, state after) for every play action."""
    out = []
    state = record.new_state()
    for i, action in enumerate(record.actions):
        after = reduce(state, action)
        if isinstance(action, Play):
            out.append((i, state, after))
        state = after
    return out


def test_every_play_action_is_analysed_once_and_described_right(analysed: tuple[GameRecord, Analysis]) -> None:
    record, analysis = analysed
    walk = engine_walk(record)
    assert len(analysis.plays) == len(walk) == sum(isinstance(a, Play) for a in record.actions)
    for p, (index, before, _) in zip(analysis.plays, walk, strict=True):
        action = record.actions[index]
        assert isinstance(action, Play)
        hand = before.hand
        assert hand is not None
        assert (p.action, p.player, p.card) == (index, action.player, action.card)
        assert p.hand == before.hand_number
        assert p.trick == len(hand.tricks) + 1 and 1 <= p.trick <= 13
        legal = playable_cards(hand, p.player)
        left = 14 - p.trick
        assert 0 <= p.played <= p.best <= left
        assert p.optimal and set(p.optimal) <= legal
        assert list(p.optimal) == sorted(p.optimal)
        assert (p.card in p.optimal) == (p.played == p.best)
        bid = hand.bid_of(p.player)
        if bid in (0, "double_nil"):
            assert p.nil_best is not None and p.nil_played is not None and p.nil_optimal
            assert 0 <= p.nil_best <= p.nil_played <= left
            assert (p.card in p.nil_optimal) == (p.nil_played == p.nil_best)
            assert set(p.nil_optimal) <= legal
        else:
            assert p.nil_best is None and p.nil_played is None and p.nil_optimal is None


def test_consecutive_plays_agree(analysed: tuple[GameRecord, Analysis]) -> None:
    """The invariant of the module docstring, for both aims."""
    record, analysis = analysed
    walk = engine_walk(record)
    checked = 0
    for k, p in enumerate(analysis.plays):
        _, before, after = walk[k]
        assert before.hand is not None and after.hand is not None
        won = after.hand.tricks_won[p.player] - before.hand.tricks_won[p.player]
        nxt: Optional[PlayAnalysis] = analysis.plays[k + 1] if k + 1 < len(analysis.plays) else None
        if nxt is None or nxt.hand != p.hand:
            if after.phase is not Phase.PLAY:  # the hand ended with this play
                assert p.trick == 13 and p.best == p.played == won
                checked += 1
            continue
        left = 14 - nxt.trick
        expected = won + (nxt.best if nxt.player == p.player else left - nxt.best)
        assert p.played == expected, (p, nxt)
        if p.nil_played is not None and nxt.nil_best is not None:
            expected = won + (nxt.nil_best if nxt.player == p.player else left - nxt.nil_best)
            assert p.nil_played == expected, (p, nxt)
        checked += 1
    assert checked == len(analysis.plays) - sum(1 for h in analysis.hands if not h.complete)


def test_the_values_are_the_solvers(analysed: tuple[GameRecord, Analysis]) -> None:
    """Spot checks with a fresh solver for each position: no state leaks between plays."""
    record, analysis = analysed
    walk = engine_walk(record)
    for p, (_, before, _) in list(zip(analysis.plays, walk, strict=True))[::5]:
        position = position_from_state(before)
        values = Solver().card_values(position)
        assert p.best == max(values.values()) and p.played == values[p.card]
        assert set(p.optimal) == {c for c, v in values.items() if v == p.best}


def test_hand_summaries(analysed: tuple[GameRecord, Analysis]) -> None:
    record, analysis = analysed
    state = replay(record)
    assert [p for h in analysis.hands for p in h.plays] == list(analysis.plays)
    assert [h.hand for h in analysis.hands] == sorted({p.hand for p in analysis.plays})
    for h in analysis.hands:
        assert all(p.hand == h.hand for p in h.plays)
        for player in (0, 1):
            assert h.tricks_lost[player] == sum(p.best - p.played for p in h.plays if p.player == player)
            if h.is_nil(player):
                assert h.nil_tricks_added[player] == sum(
                    p.nil_played - p.nil_best for p in h.plays if p.player == player  # type: ignore[operator]
                )
            else:
                assert h.nil_tricks_added[player] is None
        assert h.complete == (len(h.plays) == 26)
        if h.complete:
            assert h.bids == state.history[h.hand - 1].bids
    data = analysis.to_json()
    assert set(data) == {"plays", "draft", "hands"}
    assert data["hands"] == [h.to_json() for h in analysis.hands]
    for p, js in zip(analysis.plays, data["plays"], strict=True):
        assert js["action"] == p.action and js["card"] == p.card.code
        assert js["optimal"] == [c.code for c in p.optimal]
        assert ("nil_best" in js) == (p.nil_best is not None)


def test_a_cut_record_has_an_incomplete_last_hand() -> None:
    analysis = analyse_record(RECORDS[-1])
    assert [h.complete for h in analysis.hands] == [True, False]
    assert len(analysis.hands[-1].plays) == 8
    assert "cut short" in format_report(analysis)


def test_an_illegal_action_raises_replays_error() -> None:
    record, _ = random_game(3, Rules(target=10_000), max_hands=1)
    plays = [i for i, a in enumerate(record.actions) if isinstance(a, Play)]
    cut = record.truncated(plays[4])
    state = replay(cut)
    assert state.hand is not None and state.hand.to_act is not None
    p = state.hand.to_act
    bad = next(c for c in CARDS if c not in playable_cards(state.hand, p))
    broken = cut.with_action(Play(p, bad))
    with pytest.raises(ReplayError) as expected:
        replay(broken)
    with pytest.raises(ReplayError) as got:
        analyse_record(broken)
    assert str(got.value) == str(expected.value)
    assert str(got.value).startswith(f"action {plays[4]}: ")
    assert got.value.index == plays[4]


def test_a_hand_where_nothing_can_go_wrong() -> None:
    game = in_play(split_hands(0, 5), bids=(5, 8)).play_out()
    analysis = analyse_record(game.record())
    assert len(analysis.plays) == 26
    assert all(p.loss == 0 and p.nil_best is None for p in analysis.plays)
    assert all(p.points_loss == 0 for p in analysis.plays)
    report = format_report(analysis, ["Ada", "Bob"]).splitlines()
    assert report[:5] == [
        "Hand 1: Ada took 5 tricks on a bid of 5 (made, +50); Bob took 8 tricks on a bid of 8 "
        "(made, +80): \u221230 for Ada.",
        "  With all cards face up, best play from the first lead was worth \u221230 for Ada, and so it was played: "
        "no card of either side cost a point.",
        "  Ada:",
        "    Card play: no card cost points.",
        "    Ada bid 5; best play for tricks from the first lead would have made 5 for Ada; Ada took 5, as best play "
        "for tricks would have",
    ]
    bob = report.index("  Bob:")
    assert report[bob + 1:bob + 3] == [
        "    Card play: no card cost points.",
        "    Bob bid 8; best play for tricks from the first lead would have made 8 for Bob; Bob took 8, as best play "
        "for tricks would have",
    ]


def test_a_record_without_plays() -> None:
    record, _ = random_game(3, Rules(target=10_000), max_actions=10)
    analysis = analyse_record(record)
    assert analysis.plays == () and analysis.hands == ()
    assert analysis.to_json() == {"plays": [], "draft": [], "hands": []}
    assert format_report(analysis) == "No cards were played: nothing to analyse."


# ---------------------------------------------------------------- the report's words


def judged(trick: int, player: int, code: str, best: int, played: int, optimal: str, **nil: object) -> PlayAnalysis:
    return PlayAnalysis(
        action=40 + trick, hand=2, trick=trick, player=player, card=card(code), best=best, played=played,
        optimal=tuple(sorted(card(c) for c in optimal.split())), **nil,  # type: ignore[arg-type]
    )


def test_the_report_words_costly_plays_as_the_spec_does() -> None:
    """By points: what the card cost, why in the score, and what the better card kept (a margin)."""
    scoring = Scoring(Rules(), (7, 0), (0, 0))
    plays = (
        # Ada (bid 7) with 5 won and 9 tricks left: she could end with 7 (made), she ends with 6 (set).
        judged(5, 0, "KH", 2, 1, "QS AH", points_best=scoring.margin(0, 7), points_played=scoring.margin(0, 6),
               points_optimal=(card("AH"), card("QS")), won=(5, 0)),
        judged(5, 1, "2C", 5, 5, "2C", points_best=-scoring.margin(0, 7), points_played=-scoring.margin(0, 7),
               points_optimal=(card("2C"),), won=(5, 0)),
    )
    hand = HandAnalysis(hand=2, bids=(7, 0), plays=plays, complete=False, scoring=scoring)
    report = format_report(Analysis(plays, (hand,)), ["Ada", "Bob"])
    cost = scoring.margin(0, 7) - scoring.margin(0, 6)
    assert report.splitlines() == [
        "Hand 2: Ada bid 7, Bob Nil; cut short",
        "  Ada:",
        f"    Card play: 1 costly card, {cost} points in all, judged against best play from that card on.",
        "    Trick 5, Ada's K♥: Ada led K♥, Bob played 2♣ and Ada won the trick.",
        f"      Had Ada played A♥ or Q♠, best play from there would have made Ada's 7: "
        f"{sg(scoring.margin(0, 7))} for Ada (best play after K♥: {sg(scoring.margin(0, 6))}).",
        "  Bob:",
        "    Card play: no card cost points.",
    ]


def test_the_report_of_a_random_game_lists_exactly_the_costly_plays() -> None:
    record, analysis = RECORDS[0], analyse_record(RECORDS[0])
    report = entries(format_report(analysis, ["Ada", "Bob"]), ["Ada", "Bob"])
    costly = [line for line in report if line.text.startswith("Had ")]
    plays = sorted((p for p in analysis.plays if p.points_loss >= MINOR_COST),
                   key=lambda p: (p.hand, p.player, p.action))
    assert len(costly) == len(plays)
    for line, p in zip(costly, plays, strict=True):
        name = ["Ada", "Bob"][p.player]
        assert (line.hand, line.player) == (p.hand, p.player)
        assert line.text.startswith(f"Had {name} played ")
        after = f"(best play after {p.card.label()}: {sg(p.points_played)})"
        assert f": {sg(p.points_best)} for {name} {after}" in line.text
    # The cards that cost a bag or two: listed apart, each once, in its player's line of smaller costs.
    for p in analysis.plays:
        if 0 < p.points_loss < MINOR_COST:
            small = [line.text for line in report if line.hand == p.hand and line.player == p.player
                     and line.text.startswith("Smaller costs")]
            assert len(small) == 1 and f"{p.card.label()} on trick {p.trick}" in small[0]
    # Each player's sum says how its cards were judged: "each" for several, no "it judged" for one.
    for e in report:
        if e.text.startswith("Card play: ") and e.text != "Card play: no card cost points.":
            mine = [p for p in analysis.plays if p.hand == e.hand and p.player == e.player and p.points_loss > 0]
            each = "each " if len(mine) > 1 else ""
            assert e.text.endswith(f" in all, {each}judged against best play from that card on."), e.text
            assert ", judged" in e.text or len(mine) > 1
    assert record.actions  # (the record is the one analysed)


def test_legal_actions_and_solver_legality_agree_on_records(analysed: tuple[GameRecord, Analysis]) -> None:
    record, _ = analysed
    for _, before, _ in engine_walk(record)[::3]:
        position = position_from_state(before)
        assert {a.card for a in legal_actions(before)} == set(legal_cards(position))  # type: ignore[union-attr]
        assert all(isinstance(c, Card) for c in legal_cards(position))


@pytest.mark.slow
def test_review_of_one_hand_matches_the_whole_records_analysis() -> None:
    """The review solves only the hand's own actions; it must judge exactly as analysing the whole record."""
    from spades_tui.solver.analysis import review_hand

    record, _ = random_game(21, Rules(target=10_000, bag_limit=5), max_hands=3)
    whole = analyse_record(record)
    assert any(h.scoring is not None and any(h.scoring.bags) for h in whole.hands[1:])  # bags carried over
    for n in (1, 2, 3):
        review = review_hand(record, n)
        assert review is not None and review.hand == n
        alone, full = review.analysis, whole.hands[n - 1]
        # Everything, points and the draft included: the bag totals at the hand's start count.
        assert alone == full
        assert alone.scoring is not None
        assert alone.scoring.bags == replay(record.truncated(full.plays[0].action)).bags
        first_two = [p.card for p in full.plays[:2]]
        assert len(review.hands[0]) == len(review.hands[1]) == 13
        assert first_two[0] in review.hands[full.plays[0].player]  # the hands as they stood at the first lead
    assert review_hand(record, 4) is None and review_hand(record, 0) is None
