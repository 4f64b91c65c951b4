"""Every sentence of the review and of ``analyse`` compares like with like (issue 51), read over many random hands.

Games between the easy, normal, hard and expert bots (the last two on two samples a decision) under every rule preset
(seat 0 made to bid Nil in some, so that Nils are read too) are analysed once each; the review screen's words and the
report for a person are then read line by line and held to the rule of docs/analysis.md:

- a card's "Had" line compares two best-play values from the same moment: the better card's beats the card
  played's, both are the solver's for that very play, and the cards named are every card that reaches it;
- "would have made (set, kept, broken) X's bid" holds for every final trick count that best play after the better
  card can end with, and the opposite for best play after the card played;
- a smaller cost called overtricks (bags) is one: that side's bid made both ways and its bags changed by that many;
- the bid line's figures add up: best play's tricks from the first lead, plus what the other side's cards gave,
  less what one's own lost, is the tricks taken, each part on the tricks it names;
- what happened is said once, at the top, and no sentence says the same bracket twice.

The double-dummy work is the analysis of each game, done once and shared by the review and the report (the draft
turns, most of that work and none of these sentences, judged in one game in eight); the checks read the sentences and
the judgements behind them, never a second solve.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Optional, Sequence

import pytest

from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import Action, Bid, PlayerAction
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import PRESETS
from spades_tui.engine.state import GameState, Phase, new_game
from spades_tui.session import loop
from spades_tui.session.dealer import Dealer
from spades_tui.solver.analysis import Analysis, analyse_record, format_report
from spades_tui.solver.judgement import TRICKS, HandAnalysis, HandReview, PlayAnalysis, Scoring
from spades_tui.solver.words import MINOR_COST
from spades_tui.tui.reviewmodel import ReviewView, review_content

MINUS = "\u2212"
HANDS = 300  # at least this many played-out hands are read
# (preset, bots of seats 0 and 1, seat 0 bids Nil whenever it may): several bots, every preset, Nils among them
TABLES = [
    ("standard", ("normal", "easy"), False),
    ("tournament", ("easy", "normal"), False),
    ("casual", ("normal", "normal"), True),
    ("quick", ("easy", "easy"), False),
    ("standard", ("easy", "normal"), True),
    ("quick", ("normal", "easy"), True),
    ("tournament", ("normal", "normal"), False),
    ("casual", ("easy", "easy"), False),
    # The hard and expert bots play by solved samples: two a decision keep a game under a second.
    ("standard", ("hard:iters=2", "normal"), False),
    ("tournament", ("easy", "expert:iters=2,workers=1"), True),
]
NAMES = ("You", "Ada")


@dataclass(frozen=True)
class Game:
    record: GameRecord
    analysis: Analysis
    first_leads: tuple[tuple[frozenset, frozenset], ...]  # type: ignore[type-arg]  # both hands, per hand


def play(seed: int, preset: str, bots: Sequence[str], nil: bool, hands: int) -> tuple[GameRecord, list]:  # type: ignore[type-arg]
    rules = PRESETS[preset].rules
    players = [make_bot(bots[0], seed), make_bot(bots[1], seed + 1)]
    for seat in (0, 1):
        players[seat].start(seat, rules)
    actions: list[Action] = []
    leads: list = []  # type: ignore[type-arg]

    def apply(state: GameState, action: Action) -> GameState:
        actions.append(action)
        after = reduce(state, action)
        if after.phase is Phase.PLAY and state.phase is not Phase.PLAY and after.hand is not None:
            leads.append(after.hand.hands)
        return after

    def decide(state: GameState, seat: int) -> PlayerAction:
        legal = legal_actions(state)
        if nil and seat == 0 and state.phase is Phase.BIDDING and Bid(0, 0) in legal:
            return Bid(0, 0)
        return players[seat].decide(observe(state, seat), legal)

    loop.run(new_game(rules, seed % 2), Dealer(seed), decide, apply=apply,
             stop=lambda s: s.phase is Phase.SHUFFLE and len(s.history) >= hands)
    infos = (PlayerInfo(NAMES[0]), PlayerInfo(NAMES[1], f"bot:{bots[1]}"))
    return GameRecord(rules, seed % 2, infos, tuple(actions)), leads


@cache
def games() -> tuple[Game, ...]:
    out: list[Game] = []
    played = 0
    seed = 0
    while played < HANDS:
        preset, bots, nil = TABLES[seed % len(TABLES)]
        record, leads = play(1000 + seed, preset, bots, nil, 8)
        # The draft turns are most of an analysis's work and none of these sentences: judged in one game in eight.
        analysis = analyse_record(record, draft=seed % 8 == 0)
        out.append(Game(record, analysis, tuple(leads)))
        played += sum(1 for h in analysis.hands if h.final_tricks is not None)
        seed += 1
    return tuple(out)


def number(text: str) -> int:
    return int(text.replace(MINUS, "-").lstrip("+"))


def counts(scoring: Scoring, play: PlayAnalysis, margin: int) -> list[int]:
    """The final trick counts of the player to act, still possible at ``play``, that give ``margin``."""
    won = play.won[play.player]
    return [t for t in range(won, won + TRICKS - play.trick + 2) if scoring.margin(play.player, t) == margin]


HAD = re.compile(r"Had (?P<who>.+?) played (?P<cards>.+?), best play from there would have (?P<what>.+?): "
                 r"(?P<alt>[+\u22120-9]+) for (?P=who) \(best play after (?P<card>\S+): (?P<played>[+\u22120-9]+)\)\.$")
CLAIM = r"(made|set|kept|broken) (?P<whose>{}) (?P<bid>\d+|Nil|Double Nil)\b"
SMALL = re.compile(r"(?P<card>\S+) on trick (?P<trick>\d+)")
SMALL_GROUP = re.compile(r"(?P<cards>[^;()]+?) \((?P<points>\d+) points?(?: each)?: (?P<why>[^()]+)\)")
OVER = re.compile(r"(?P<n>\d+) overtricks? (?P<dir>more|fewer) for (?P<who>.+?)$")
BID = re.compile(r"^(?P<who>.+?) bid (?:\d+|Nil|Double Nil);")
PAR = re.compile(r"would have (?:made (?P<made>\d+) for|held .+? to (?P<held>\d+) tricks?|left (?P<left>\d+) tricks? "
                 r"to)")
TOOK = re.compile(r"; (?:.+?) took (?P<took>\d+)(?P<rest>[^;]*(?:;.*)?)$")
PART = re.compile(r"(?P<n>\d+) (?P<kind>given|lost|more|fewer)\b.*? on tricks? (?P<tricks>[\d, and]+)")


def card_of(hand: HandAnalysis, label: str) -> PlayAnalysis:
    return next(p for p in hand.plays if p.card.label() == label)


def check_had(line: str, hand: HandAnalysis, who: Sequence[str], whose: Sequence[str]) -> None:
    m = HAD.search(line)
    assert m, f"a Had line that does not read as two best-play values: {line!r}"
    play = card_of(hand, m["card"])
    p = play.player
    assert m["who"] == who[p]
    alt, played = number(m["alt"]), number(m["played"])
    values = dict(play.point_values)
    # Both figures are the solver's for this very play, from the same moment; the better one beats the card's.
    assert played == values[play.card] == play.points_played and alt == max(values.values()) == play.points_best
    assert alt - played >= MINOR_COST, line
    named = {c for c, v in values.items() if v == alt}
    assert {c.label() for c in named} == set(re.split(r", | or ", m["cards"])), line
    scoring = hand.scoring
    assert scoring is not None
    alt_counts, played_counts = counts(scoring, play, alt), counts(scoring, play, played)
    assert alt_counts and played_counts
    for claim in re.finditer(CLAIM.format("|".join(re.escape(w) for w in whose)), m["what"]):
        x = next(i for i in (0, 1) if whose[i] == claim["whose"])
        verb = claim[1]
        mine = [t if x == p else TRICKS - t for t in alt_counts]
        theirs = [t if x == p else TRICKS - t for t in played_counts]
        good = verb in ("made", "kept")
        assert all(scoring.made(x, t) == good for t in mine), f"best play after the better card: {line!r}"
        assert all(scoring.made(x, t) != good for t in theirs), f"best play after the card played: {line!r}"
    assert "ended as the hand did" not in line and "gave" not in line  # never a comparison with what happened


def check_small(line: str, hand: HandAnalysis, player: int, who: Sequence[str]) -> None:
    """Each smaller cost: the card's real cost, and "overtricks" only where that side made its bid both ways and its
    bags changed by that many."""
    body = line.split(": ", 1)[1].rstrip(".")
    told = []
    scoring = hand.scoring
    assert scoring is not None
    for group in SMALL_GROUP.finditer(body):
        for card in SMALL.finditer(group["cards"]):
            play = card_of(hand, card["card"])
            assert play.player == player and play.trick == int(card["trick"])
            assert play.points_loss == int(group["points"]) < MINOR_COST
            told.append(play)
            for why in group["why"].split(" and "):
                over = OVER.match(why)
                if "bag" in why or "overtrick" in why:
                    assert over, line
                    x = who.index(over["who"])
                    alt = counts(scoring, play, play.points_best)
                    played = counts(scoring, play, play.points_played)
                    sign = 1 if over["dir"] == "more" else -1
                    pairs = [(a if x == play.player else TRICKS - a, b if x == play.player else TRICKS - b)
                             for a in alt for b in played]
                    assert any(scoring.made(x, a) and scoring.made(x, b) and not scoring.is_nil(x)
                               and scoring.bags_added(x, b) - scoring.bags_added(x, a) == sign * int(over["n"])
                               for a, b in pairs), f"called overtricks, not overtricks: {line!r}"
    assert sorted(p.action for p in told) == sorted(
        p.action for p in hand.plays if p.player == player and 0 < p.points_loss < MINOR_COST), line


def check_bid(line: str, hand: HandAnalysis, player: int, who: Sequence[str]) -> None:
    """The bid line adds up: best play's tricks from the first lead, plus the parts, is the tricks taken."""
    m = BID.match(line)
    assert m and m["who"].lower() == who[player].lower(), line
    final = hand.final_tricks
    par_m = PAR.search(line)
    took_m = TOOK.search(line)
    assert final is not None and par_m and took_m and int(took_m["took"]) == final[player], line
    par = int(next(g for g in (par_m["made"], par_m["held"], par_m["left"]) if g is not None))
    rest = took_m["rest"]
    total = par
    for part in PART.finditer(rest):
        n = int(part["n"])
        total += n if part["kind"] in ("given", "more") else -n
        tricks = [int(t) for t in re.findall(r"\d+", part["tricks"])]
        assert tricks == sorted(set(tricks)) and all(1 <= t <= TRICKS for t in tricks), line
    assert total == final[player], f"the bid line does not add up: {line!r}"
    if rest in ("", ", as best play for tricks would have"):
        assert par == final[player], line


def check_sentences(lines: Sequence[str]) -> None:
    """No bracket said twice in a sentence; what happened said once; no comparison of best play with the hand."""
    for line in lines:
        brackets = re.findall(r"\(([^()]*)\)", line)
        assert len(brackets) == len(set(brackets)), f"a bracket said twice: {line!r}"
        assert "the hand ended" not in line and "as the hand did" not in line, line
        assert "(bags)" not in line, line
    assert sum(1 for line in lines if re.search(r"took \d+ tricks? on (a bid of|a Nil|Double Nil)", line)) == 1


def review_lines(view: ReviewView) -> list[str]:
    return [*view.totals, *view.plays, *view.chances, *view.bids, *view.draft,
            *(line for trick in view.tricks for line in trick.lines)]


def read_hand(hand: HandAnalysis, lines: Sequence[str], who: Sequence[str], whose: Sequence[str],
              player_of: Optional[Sequence[Optional[int]]] = None) -> None:
    check_sentences(lines)
    for i, line in enumerate(lines):
        text = line.strip()
        owner = player_of[i] if player_of is not None else None
        if text.startswith("Had "):
            check_had(text, hand, who, whose)
        elif text.startswith("Smaller costs"):
            assert owner is not None
            check_small(text, hand, owner, who)
        elif BID.match(text) and "best play for tricks from the first lead would have" in text:
            p = next(q for q in (0, 1) if text.lower().startswith(who[q].lower() + " "))
            check_bid(text, hand, p, who)
    costly = [p for p in hand.plays if p.points_loss >= MINOR_COST]
    assert sum(1 for line in lines if line.strip().startswith("Had ")) == len(costly)


@pytest.mark.slow
def test_every_review_and_report_compares_like_with_like() -> None:
    seen = {"made": 0, "set": 0, "nil": 0, "both_back": 0, "hands": 0}
    for game in games():
        report = format_report(game.analysis, list(NAMES))
        blocks = report.split("\n\n")
        finished = [h for h in game.analysis.hands]
        assert len(blocks) == len(finished)
        for hand, block in zip(finished, blocks, strict=True):
            if hand.final_tricks is None:
                continue
            seen["hands"] += 1
            scoring = hand.scoring
            assert scoring is not None
            seen["nil"] += hand.is_nil(0) or hand.is_nil(1)
            seen["set"] += any(not scoring.made(p, hand.final_tricks[p]) and not hand.is_nil(p) for p in (0, 1))
            seen["made"] += any(scoring.made(p, hand.final_tricks[p]) and not hand.is_nil(p) for p in (0, 1))
            seen["both_back"] += all(any(x.player == p and x.points_loss >= MINOR_COST for x in hand.plays)
                                     for p in (0, 1))
            # The report for a person: each line under the player whose header it is under.
            lines = block.splitlines()
            owners: list[Optional[int]] = []
            owner: Optional[int] = None
            for line in lines:
                if line.startswith("  ") and not line.startswith("   "):
                    owner = {"You:": 0, "Ada:": 1}.get(line.strip())
                owners.append(owner)
            read_hand(hand, lines, ("you", "Ada"), ("your", "Ada's"), owners)
            # The review screen, against a bot: "you" and "the bot".
            leads = game.first_leads[hand.hand - 1]
            view = review_content(HandReview(hand.hand, leads, hand), NAMES, 0)
            text = review_lines(view)
            owners = [None] * len(view.totals) + [0] * len(view.plays) + [1] * len(view.chances)
            owners += [None] * (len(text) - len(owners))
            read_hand(hand, text, ("you", "the bot"), ("your", "the bot's"), owners)
            assert sum(1 for line in text if line.startswith("What happened")) == 1
    assert seen["hands"] >= HANDS
    assert all(seen[k] >= 10 for k in ("made", "set", "nil", "both_back")), seen
