"""The expert's rules of issue 30: the T / T-1 bid rule on the hand margin, the sampled
double-dummy draft, Double Nil valued on solved drafts, the clear decisions that take no
time, the ablation choices, and the ``git:`` bots of an earlier commit."""

from __future__ import annotations

import random
from typing import Optional

import pytest

from spades_tui.arena.gitbot import GitBotError, GitBots, parse_git_spec
from spades_tui.bots.core import utility_table, view_of
from spades_tui.bots.expert import ExpertBot, drawn_is_top, equivalent
from spades_tui.bots.hard import HardBot
from spades_tui.bots.levels import make_bot
from spades_tui.bots.sampling import DD_DISCOUNT, SLIP, BidTally, bid_tally, margin_table
from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.cards import Card
from spades_tui.engine.observation import Observation
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase, PlayedCard


def c(code: str) -> int:
    return int(Card.parse(code))


def test_the_margin_charges_each_bag_its_share_of_the_penalty() -> None:
    rules = Rules()  # 100 points every 10 bags: 10 a bag
    table = margin_table(rules, 4, 8)
    assert table[5] == 41 - 80 - 10  # 4 made with a bag; they make 8 exactly
    assert table[4] == 40 - 81 + 10  # 4 made exactly; they make 8 with a bag
    assert table[3] == -40 - 82 + 20  # 4 set; they make 8 with two bags
    assert margin_table(Rules(bag_limit=0), 4, 8)[5] == 41 - 80  # no penalty: a bag is a point
    # A bag beyond the limit is charged by the bag, never the whole penalty at once.
    assert margin_table(rules, 1, 12)[13] == 1 * 10 + 12 - (-120) - 10 * 12


def test_a_deal_solved_to_three_tricks_is_bid_two_by_the_slip_rule_and_three_by_the_old() -> None:
    rules = Rules()
    allowed = list(range(14))
    slip = BidTally(rules, (0, 0), (0, 0), allowed, SLIP, "margin", nil_slip=True)
    old = BidTally(rules, (0, 0), (0, 0), allowed, DD_DISCOUNT, "win")
    for tally in (slip, old):
        tally.add(3, 3, 4, 1.0)  # three tricks double dummy (three trying to lose); they bid 4
    m2, m3 = margin_table(rules, 2, 4), margin_table(rules, 3, 4)
    # Half the time the slip rule takes two tricks: 3 is set then, 2 is made either way.
    assert slip.value(2) == pytest.approx((m2[3] + m2[2]) / 2)
    assert slip.value(3) == pytest.approx((m3[3] + m3[2]) / 2)
    assert slip.best() == 2 and slip.chance(3) == pytest.approx(0.5) and slip.chance(2) == 1.0
    table = utility_table(rules, (0, 0), (0, 0), 3, 4)
    assert old.value(3) == pytest.approx((1 - DD_DISCOUNT) * table[3] + DD_DISCOUNT * table[2])
    assert old.best() == 3
    # A Nil slips the other way: half the time it takes one trick more.
    slip.add(5, 0, 4, 1.0)
    nil = margin_table(rules, 0, 4)
    assert slip.chance(0) == pytest.approx(0.25)  # made only by the second deal's unslipped half
    assert slip.value(0) == pytest.approx((0.5 * nil[3] + 0.5 * nil[4] + 0.5 * nil[0] + 0.5 * nil[1]) / 2)


def test_the_played_rule_spreads_the_slip_rules_tricks_both_ways() -> None:
    from spades_tui.bots.sampling import PLAYED_SPREAD, bid_tally

    rules = Rules()
    allowed = list(range(14))
    played, slip = (bid_tally(rules, (0, 0), (0, 0), allowed, rule) for rule in ("played", "slip"))
    assert sum(share for _, share in PLAYED_SPREAD) == pytest.approx(1.0)
    assert sum(d * share for d, share in PLAYED_SPREAD) == pytest.approx(0.0)  # measured: no slip on average
    for tally in (played, slip):
        tally.add(4, 4, 5, 1.0)  # four tricks double dummy; they bid 5
    # Half at 4 and half at 3, as slip; each of them then a trick short 25% and two short 5%.
    assert slip.chance(4) == pytest.approx(0.5) and slip.chance(3) == 1.0
    assert played.chance(4) == pytest.approx(0.5 * 0.70 + 0.5 * 0.30)
    assert played.chance(3) == pytest.approx(0.5 * 0.95 + 0.5 * 0.70)
    assert played.chance(5) == pytest.approx(0.5 * 0.30 + 0.5 * 0.05)
    m4 = margin_table(rules, 4, 5)
    assert played.value(4) == pytest.approx(sum(0.5 * share * m4[t + d] for t in (4, 3) for d, share in PLAYED_SPREAD))
    # The spread stays within 0..13 tricks.
    edge = bid_tally(rules, (0, 0), (0, 0), allowed, "played")
    edge.add(13, 13, 1, 1.0)
    assert edge.chance(13) == pytest.approx(0.5 * 0.70 + 0.5 * 0.30)  # no trick past 13: the spread piles up there
    # A Nil is valued as the slip rule values it.
    for tally in (played, slip):
        tally.add(6, 0, 5, 1.0)
    assert played.value(0) == pytest.approx(slip.value(0)) and played.chance(0) == pytest.approx(slip.chance(0))


def test_equivalent_cards_and_a_drawn_top_spade_are_clear() -> None:
    hand = c("KH") | 0
    keep = (1 << c("KH")) | (1 << c("QH"))
    assert equivalent([c("KH"), c("QH")], keep)
    # JH unseen between KH and TH: they differ.
    keep_t = (1 << c("KH")) | (1 << c("TH"))
    assert not equivalent([c("KH"), c("TH")], keep_t)
    assert equivalent([c("KH"), c("TH")], keep_t | 1 << c("JH") | 1 << c("QH"))  # both gone in tricks
    assert not equivalent([c("KH"), c("KD")], keep | 1 << c("KD"))  # two suits
    assert equivalent([c("2C")], 1 << c("2C")) and hand


def _draft_obs(hand: list[str], drawn: str, seen: list[str] = (), dn: bool = False) -> Observation:  # type: ignore[assignment]
    cards = frozenset(Card.parse(x) for x in hand)
    return Observation(
        seat=0, rules=Rules(), hand_number=1, first_drafter=0, phase=Phase.DRAFT, to_act=0,
        scores=(0, 0), bags=(0, 0), hand=cards, drawn=Card.parse(drawn),
        seen_discards=frozenset(Card.parse(x) for x in seen), draft_log=(), stock_left=40,
        double_nil=(dn, False), exchanged=(None, None), bids=(None, None), tricks_won=(0, 0),
        trick=(), tricks=(), spades_broken=False, opponent_cards=len(cards),
    )


def test_a_drawn_spade_nobody_can_beat_is_kept_without_a_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    obs = _draft_obs(["AS", "3H", "4D"], "KS")
    assert drawn_is_top(c("KS"), view_of(obs))
    assert not drawn_is_top(c("QH"), view_of(obs))
    assert not drawn_is_top(c("KS"), view_of(_draft_obs(["3H", "4D"], "KS")))  # AS is still out there
    for draft in ("dd", "hard"):
        bot = ExpertBot(1, budget=None, iterations=20, workers=1, choices={"draft": draft})
        monkeypatch.setattr(bot, "_run", lambda *a: pytest.fail("solved a clear draft"))
        monkeypatch.setattr(HardBot, "keep_top", lambda *a: pytest.fail("estimated a clear draft"))
        assert bot.keep_top(obs, random.Random(1))


@pytest.mark.slow
def test_the_sampled_double_dummy_draft_keeps_an_ace_and_passes_a_deuce() -> None:
    hand = ["KS", "QS", "5H", "9D", "3C", "7C"]
    bot = ExpertBot(1, budget=None, iterations=40, workers=1, choices={"draft": "dd"})
    assert bot.keep_top(_draft_obs(hand, "AH"), random.Random(2))
    assert not bot.keep_top(_draft_obs(hand, "2D"), random.Random(2))
    # A Double Nil drafter wants the opposite: fewest tricks.
    assert bot.keep_top(_draft_obs(hand, "2D", dn=True), random.Random(2))
    assert not bot.keep_top(_draft_obs(hand, "AH", dn=True), random.Random(2))


def test_the_expert_does_not_declare_double_nil_blind_at_an_even_score() -> None:
    import dataclasses

    obs = dataclasses.replace(_draft_obs([], "2H"), phase=Phase.DOUBLE_NIL, drawn=None, stock_left=52)
    bot = ExpertBot(1, budget=None, iterations=48, workers=1)
    assert bot.double_nil(obs, random.Random(1)) is False


def test_a_play_with_one_choice_in_effect_is_made_without_a_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tui.engine.actions import Play

    cards = frozenset(Card.parse(x) for x in ("KH", "QH", "3D"))
    obs = Observation(
        seat=0, rules=Rules(), hand_number=1, first_drafter=0, phase=Phase.PLAY, to_act=0,
        scores=(0, 0), bags=(0, 0), hand=cards, drawn=None, seen_discards=frozenset(), draft_log=(),
        stock_left=0, double_nil=(False, False), exchanged=(None, None), bids=(4, 5), tricks_won=(0, 0),
        trick=(PlayedCard(1, Card.parse("5H")),), tricks=(), spades_broken=False, opponent_cards=2,
    )
    bot = ExpertBot(1, budget=None, iterations=20, workers=1)
    monkeypatch.setattr(bot, "card_values", lambda *a, **k: pytest.fail("solved a clear play"))
    legal = [Play(0, Card.parse("KH")), Play(0, Card.parse("QH"))]
    assert bot.play(obs, legal, random.Random(1)) == c("QH")


def test_the_expert_choices_are_bot_options() -> None:
    bot = make_bot("expert:bid=dd,draft=hard,objective=win,sampler=plain,iters=5,workers=1")
    assert isinstance(bot, ExpertBot)
    assert bot.choices == {"bid": "dd", "draft": "hard", "objective": "win", "sampler": "plain"}
    assert make_bot("expert:workers=1").choices == {  # type: ignore[attr-defined]
        "bid": "played", "draft": "hard", "objective": "margin", "sampler": "draft"}
    for bad in ("expert:bid=maybe", "hard:bid=dd", "normal:draft=dd", "expert:colour=red"):
        with pytest.raises(ValueError):
            make_bot(bad)


@pytest.mark.parametrize(("spec", "want"), [
    ("git:fcb870a:expert", ("fcb870a", "expert")),
    ("git:HEAD~3:hard:budget=0.2", ("HEAD~3", "hard:budget=0.2")),
    ("expert", None),
])
def test_git_specs_name_a_commit_and_a_bot(spec: str, want: Optional[tuple[str, str]]) -> None:
    assert parse_git_spec(spec) == want


@pytest.mark.parametrize("bad", ["git:", "git:abc", "git::expert", "git:abc:cmd:evil", "git:-x:expert",
                                 "git:a;b:expert"])
def test_bad_git_specs_are_refused(bad: str) -> None:
    with pytest.raises(GitBotError):
        parse_git_spec(bad)


def test_a_git_expert_solves_alone_with_the_commits_package_first_on_the_path() -> None:
    with GitBots() as git:
        spec, env = git.resolve("git:HEAD:expert:iters=3", budget=0.2)
        assert env is not None and spec.startswith("cmd:")
        assert spec.endswith("bot expert:iters=3,workers=1 --budget 0.2")
        tree = env["PYTHONPATH"]
        from pathlib import Path

        assert (Path(tree) / "spades_tui" / "bots" / "expert.py").is_file()
        assert git.resolve("hard", None) == ("hard", None)
    assert not Path(tree).exists()  # removed with the match


def _dn_obs() -> Observation:
    import dataclasses

    return dataclasses.replace(_draft_obs([], "2H"), phase=Phase.DOUBLE_NIL, drawn=None, stock_left=52)


def test_double_nil_is_declared_when_the_solved_drafts_say_it_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every simulated Double Nil solved to no trick and every ordinary hand to none either: the Double
    # Nil (made half the time by the slip rule: 0 a hand) beats any contract (set: -10 a trick bid).
    bot = ExpertBot(1, budget=None, iterations=12, workers=1)
    aims: list[str] = []

    def solved(pool: object, lanes: int, items: list[tuple[int, int, bool, str]], job: object,
               run: object) -> list[int]:
        aims.extend(d[3] for d in items)
        return [0] * len(items)

    monkeypatch.setattr(bot, "_run", solved)
    assert bot.double_nil(_dn_obs(), random.Random(1)) is True
    assert aims.count("fewest") == 12 and 8 <= aims.count("most") <= 12


def test_double_nil_stops_after_a_probe_where_none_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = ExpertBot(1, budget=None, iterations=48, workers=1)
    aims: list[str] = []

    def solved(pool: object, lanes: int, items: list[tuple[int, int, bool, str]], job: object,
               run: object) -> list[int]:
        aims.extend(d[3] for d in items)
        return [1] * len(items)

    monkeypatch.setattr(bot, "_run", solved)
    assert bot.double_nil(_dn_obs(), random.Random(1)) is False
    assert set(aims) == {"fewest"} and len(aims) == 8  # the probe only: no ordinary hand solved


def test_a_play_samples_to_its_cap_unless_the_early_stop_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tui.engine.actions import Play

    hand = ("AH", "KH", "3D", "4C", "5S")
    obs = Observation(
        seat=0, rules=Rules(), hand_number=1, first_drafter=0, phase=Phase.PLAY, to_act=0,
        scores=(0, 0), bags=(0, 0), hand=frozenset(Card.parse(x) for x in hand), drawn=None,
        seen_discards=frozenset(), draft_log=(), stock_left=0, double_nil=(False, False),
        exchanged=(None, None), bids=(4, 5), tricks_won=(4, 4), trick=(), tricks=(), spades_broken=False,
        opponent_cards=5,
    )
    legal = [Play(0, Card.parse(x)) for x in hand if x != "5S"]
    for early, most in ((False, 60), (True, 59)):
        bot = ExpertBot(1, budget=None, iterations=60, workers=1)
        solved = [0]
        run = bot._run

        def counted(*args: object, run: object = run, solved: list[int] = solved) -> object:
            solved[0] += len(args[2])  # type: ignore[arg-type]
            return run(*args)  # type: ignore[operator]

        monkeypatch.setattr(bot, "_run", counted)
        assert bot.card_values(obs, legal, random.Random(1), early=early) is not None
        assert solved[0] <= most and (early or solved[0] == 60)


# ---------------------------------------------------------------- the fit bid rule (issue 38)


def test_the_fit_weight_is_the_likelihood_of_the_bid_given_the_opponents_solved_tricks() -> None:
    from spades_tui.bots.sampling import FIT_NIL_WEIGHTS, FIT_WEIGHTS, fit_weight
    from spades_tui.engine.rulebook import DOUBLE_NIL

    # Bidders bid about a trick under what they make double dummy: a trick over the bid fits best.
    assert fit_weight(9, 8) == 1.0 == max(FIT_WEIGHTS)
    assert fit_weight(8, 8) == 0.8 and fit_weight(7, 8) == 0.5 and fit_weight(10, 8) == 0.45
    assert fit_weight(2, 8) == fit_weight(5, 8) == 0.05 == fit_weight(13, 8)  # far off: the floor, never 0
    # A Nil by the fewest tricks the hand is held to.
    assert fit_weight(0, 0) == 1.0 and fit_weight(1, DOUBLE_NIL) == 0.5 and fit_weight(9, 0) == FIT_NIL_WEIGHTS[-1]


def test_the_fit_rule_counts_deals_where_the_opponents_bid_is_implausible_for_little() -> None:
    from spades_tui.bots.sampling import add_solved, bid_tally

    rules = Rules()
    allowed = list(range(1, 14))  # no Nil: only the most tricks are solved
    slip = bid_tally(rules, (0, 0), (0, 0), allowed, "slip")
    fit = bid_tally(rules, (0, 0), (0, 0), allowed, "fit")
    # They bid 8.  In one deal their hand makes 9 (I make 4), a fit; in two others it makes 3 (I make 10):
    # a hand that would not have bid 8.
    for tally, fitted in ((slip, False), (fit, True)):
        add_solved(tally, allowed, 4, -1, 8, 1.0, fitted)
        add_solved(tally, allowed, 10, -1, 8, 1.0, fitted)
        add_solved(tally, allowed, 10, -1, 8, 1.0, fitted)
    assert slip.total == 3.0 and fit.total == pytest.approx(1.1)
    for b in (3, 4, 9):
        m = margin_table(rules, b, 8)
        low, high = ((m[t] + m[t - 1]) / 2 for t in (4, 10))  # each deal half at its tricks, half a trick short
        assert slip.value(b) == pytest.approx((low + 2 * high) / 3)
        assert fit.value(b) == pytest.approx((1.0 * low + 2 * 0.05 * high) / 1.1)
    # All deals alike, the slip rule bids for the ten-trick deals; the fit rule bids the plausible one.
    assert slip.best() == 9 and fit.best() == 3
    # An opponent's Nil is fitted by the fewest tricks their hand is held to (13 less mine, both losing).
    nil = bid_tally(rules, (0, 0), (0, 0), list(range(14)), "fit")
    add_solved(nil, nil.allowed, -1, 13, 0, 1.0, True)  # they are held to none: their Nil fits
    add_solved(nil, nil.allowed, -1, 11, 0, 1.0, True)  # they take two at least: it hardly does
    assert nil.total == pytest.approx(1.0 + 0.15)


def _bidding_obs(seed: int, second: bool) -> tuple[Observation, list[PlayerAction]]:
    """A bidding decision of a random game: the first bidder's or (``second``) the second's."""
    from spades_tui.engine.observation import observe
    from spades_tui.engine.reducer import legal_actions
    from tests.support.positions import decision_states

    states = [s for s in decision_states(seed, Rules(double_nil=False)) if s.phase is Phase.BIDDING]
    state = states[1 if second else 0]
    assert state.to_act is not None
    obs = observe(state, state.to_act)
    assert (obs.bids[1 - obs.seat] is not None) == second
    return obs, list(legal_actions(state))


def _tallies(monkeypatch: pytest.MonkeyPatch) -> list[BidTally]:
    """Every bid tally the expert builds from now on."""
    import spades_tui.bots.expert as expert_module

    made: list[BidTally] = []
    real = bid_tally

    def keep(*args: object, **kwargs: object) -> BidTally:
        made.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(expert_module, "bid_tally", keep)
    return made


def test_bidding_first_the_fit_rule_is_the_slip_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    tallies = _tallies(monkeypatch)
    obs, legal = _bidding_obs(3, second=False)
    bids = [ExpertBot(1, budget=None, iterations=16, workers=1, choices={"bid": rule}).bid(obs, legal, random.Random(5))
            for rule in ("slip", "fit")]
    slip, fit = tallies
    assert bids[0] == bids[1] and slip.total == fit.total
    assert all(slip.value(b) == fit.value(b) for b in slip.allowed)


def test_bidding_second_the_fit_rule_weighs_the_same_deals_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    tallies = _tallies(monkeypatch)
    obs, legal = _bidding_obs(3, second=True)
    for rule in ("slip", "fit"):
        ExpertBot(1, budget=None, iterations=16, workers=1, choices={"bid": rule}).bid(obs, legal, random.Random(5))
    slip, fit = tallies
    # The same sampled deals, weighted by their exact tricks' fit instead of their hand's estimate.
    assert slip.total != pytest.approx(fit.total)
    assert any(slip.value(b) != pytest.approx(fit.value(b)) for b in slip.allowed)


def test_the_fit_rule_is_an_expert_option_and_a_wrong_one_says_what_is_right() -> None:
    assert make_bot("expert:bid=fit,workers=1").choices["bid"] == "fit"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"expert option bid must be one of played, slip, dd, fit, not 'fits'"):
        make_bot("expert:bid=fits")
    with pytest.raises(ValueError, match=r"bot option bid is an expert's, one of played, slip, dd, fit"):
        make_bot("hard:bid=fit")


def test_a_bid_samples_within_its_share_of_the_budget_under_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: a bid within 1.0 s median and no decision over 3 s. A bid's sampling is bounded by the budget
    times BID_SCALE, 0.9 s at the default budget, leaving the rest of the second for the tally."""
    from spades_tui.bots.expert import BID_SCALE, DEFAULT_BUDGET

    asked: list[Optional[float]] = []

    def solve(self: ExpertBot, *args: object) -> list[object]:
        asked.append(args[-1])  # type: ignore[arg-type]
        return []

    monkeypatch.setattr(ExpertBot, "_solve", solve)
    obs, legal = _bidding_obs(5, second=False)
    for budget in (DEFAULT_BUDGET, 0.4):
        ExpertBot(seed=1, budget=budget).decide(obs, legal)
    assert asked == [DEFAULT_BUDGET * BID_SCALE, 0.4 * BID_SCALE]
    assert asked[0] is not None and asked[0] <= 0.9
