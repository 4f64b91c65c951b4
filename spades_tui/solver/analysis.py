"""Double-dummy analysis of a game record (docs/analysis.md): what each play, draft turn and bid cost.

``analyse_record`` replays the record through the engine's ``reduce`` and judges,
with all cards face up:

- every ``play`` action by tricks: ``best`` (the most tricks the player could
  still make sure of), ``played`` (what they keep after the card played) and the
  optimal cards; for a Nil or Double Nil bidder also the other aim (``nil_*``:
  the fewest tricks);
- every ``play`` action by points (``points_*``): the margin of hand points
  (the player's minus the other's, bags, Nil and the bag limit included) the
  player could make sure of, and after the card played, for every legal card;
- every ``draft`` action: the drafter's double-dummy tricks from the first lead
  with the hand as it was and with the other card of the turn in place of the
  kept one (for a Nil or Double Nil bidder the fewest tricks);
- per hand, what each hand could make (and be held to) double dummy beside its bid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional, Sequence

from ..engine.actions import Action, Draft, Play, Shuffle
from ..engine.cards import CARDS, Card
from ..engine.errors import IllegalActionError
from ..engine.record import GameRecord, ReplayError
from ..engine.reducer import reduce
from ..engine.state import BidValue, GameState, Phase
from ..i18n.language import N_, _, ngettext
from .judgement import (
    TRICKS,
    Analysis,
    CardValues,
    DraftAnalysis,
    HandAnalysis,
    HandReview,
    PlayAnalysis,
    Scoring,
    TrickReview,
)
from .position import Position, position_from_state
from .solver import Aim, Solver
from .wording import capital, is_you, said_bid
from .words import (
    MINOR_COST,
    bid_line,
    draft_lines,
    either_words,
    had_words,
    happened_words,
    points_words,
    possessive,
    small_costs,
    small_costs_line,
    speaker,
    totals_words,
    trick_story_words,
    tricks_words,
)

__all__ = [
    "Analysis", "DraftAnalysis", "HandAnalysis", "HandReview", "PlayAnalysis", "Scoring", "TrickReview",
    "analyse_record",
    "either_words", "format_report", "review_hand", "tricks_words",
]

def _optimal(values: dict[Card, int], best: int) -> tuple[Card, ...]:
    return tuple(sorted(c for c, v in values.items() if v == best))


def _sorted_values(values: dict[Card, int]) -> CardValues:
    return tuple(sorted(values.items()))


@dataclass
class _DraftTurnSeen:
    action: int
    player: int
    turn: int
    take: Literal["first", "second"]
    kept: Card
    other: Card


def first_lead_position(state: GameState) -> Position:
    """The position at a hand's first lead (``state`` there, before any card)."""
    return position_from_state(state)


def _judge_draft(
    solver: Solver, state: GameState, turns: Sequence[_DraftTurnSeen], scoring: Scoring
) -> tuple[tuple[DraftAnalysis, ...], tuple[int, int], tuple[int, int]]:
    """At the first lead: every draft turn with its other card swapped in (none if ``turns`` is empty), and what
    each hand could make."""
    position = first_lead_position(state)
    leader = position.to_act
    n = TRICKS
    most_leader = solver.solve(position, "most")
    fewest_leader = solver.solve(position, "fewest")
    # Zero-sum: the other's most (fewest) is what the leader is left with under the same play.
    could_make = (most_leader, n - most_leader) if leader == 0 else (n - most_leader, most_leader)
    could_hold = (fewest_leader, n - fewest_leader) if leader == 0 else (n - fewest_leader, fewest_leader)
    hand = state.hand
    assert hand is not None
    out = []
    for t in turns:
        p = t.player
        aim: Aim = "fewest" if scoring.is_nil(p) else "most"
        base = (could_hold if aim == "fewest" else could_make)[p]
        held = hand.hands[p]
        skipped = ""
        if t.kept not in held:
            skipped = N_("the kept card left the hand in the exchange")
        elif t.other in held or t.other in hand.hands[1 - p]:
            skipped = N_("the other card came back into a hand in the exchange")
        if skipped:
            out.append(DraftAnalysis(t.action, state.hand_number, p, t.turn, t.take, t.kept, t.other, aim, base, None,
                                     skipped))
            continue
        swapped = list(position.hands)
        swapped[p] = (swapped[p] & ~(1 << int(t.kept))) | 1 << int(t.other)
        alt = Position((swapped[0], swapped[1]), None, leader, position.spades_broken)
        guess = base if p == leader else n - base
        v = guess if solver.same_deal(position, alt) else solver.solve_near(alt, aim, guess)
        other_tricks = v if p == leader else n - v
        out.append(DraftAnalysis(t.action, state.hand_number, p, t.turn, t.take, t.kept, t.other, aim, base,
                                 other_tricks))
    return tuple(out), could_make, could_hold


def analyse_record(record: GameRecord, *, draft: bool = True) -> Analysis:
    """Replay ``record`` through ``reduce`` and judge every ``play`` and ``draft`` action (``draft=False``: every
    ``play`` and each hand's bids beside best play, not the draft turns, most of the work).

    Raises the engine's ``ReplayError`` (``action N: why``) for an illegal action,
    as ``replay`` does.
    """
    return _analyse(record.new_state(), record.actions, 0, draft)


def _analyse(state: GameState, actions: Sequence[Action], offset: int, judge_draft: bool = True) -> Analysis:
    """``actions`` from ``state`` on (``offset``: the index of the first in its record)."""
    plays: list[PlayAnalysis] = []
    hands: list[HandAnalysis] = []
    current: list[PlayAnalysis] = []
    turns: list[_DraftTurnSeen] = []
    solver = Solver()
    bids: tuple[Optional[BidValue], Optional[BidValue]] = (None, None)
    scoring: Optional[Scoring] = None
    draft: tuple[DraftAnalysis, ...] = ()
    could: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    from_lead = False
    hand_number = 0

    def close_hand(complete: bool) -> None:
        if current:
            hands.append(HandAnalysis(hand_number, bids, tuple(current), complete, scoring, draft, *could, from_lead))
            current.clear()

    for index, action in enumerate(actions, offset):
        try:
            after = reduce(state, action)
        except IllegalActionError as exc:
            raise ReplayError(index, str(exc)) from None
        if isinstance(action, Shuffle):
            turns = []
        elif isinstance(action, Draft) and state.hand is not None and len(state.hand.stock) >= 2:
            top, nxt = state.hand.stock[0], state.hand.stock[1]
            kept, other = (top, nxt) if action.take == "first" else (nxt, top)
            turn = 1 + sum(1 for d in state.hand.draft_log if d.player == action.player)
            turns.append(_DraftTurnSeen(index, action.player, turn, action.take, kept, other))
        if isinstance(action, Play):
            hand = state.hand
            assert hand is not None and state.phase is Phase.PLAY
            if state.hand_number != hand_number:
                close_hand(False)
                solver = Solver()  # a new hand: little of the last one can recur
                hand_number = state.hand_number
                bids = (hand.bid_of(0), hand.bid_of(1))
                assert bids[0] is not None and bids[1] is not None
                scoring = Scoring(state.rules, (bids[0], bids[1]), state.bags)
                from_lead = not hand.tricks and not hand.trick
                if from_lead:
                    draft, *rest = _judge_draft(solver, state, turns if judge_draft else (), scoring)
                    could = (rest[0], rest[1])
                else:
                    draft, could = (), ((0, 0), (0, 0))
            assert scoring is not None
            position = position_from_state(state)
            values = solver.card_values(position)
            best = max(values.values())
            nil: tuple[Optional[int], Optional[int], Optional[tuple[Card, ...]]] = (None, None, None)
            push: tuple[Optional[int], Optional[int]] = (None, None)
            if bids[action.player] in (0, "double_nil"):
                fewest = solver.card_values(position, "fewest")
                nil_best = min(fewest.values())
                nil = (nil_best, fewest[action.card], _optimal(fewest, nil_best))
            elif bids[1 - action.player] in (0, "double_nil"):
                # Against a Nil the game is the Nil's fewest: this side pushes tricks on it (its own fewest).
                fewest = solver.card_values(position, "fewest")
                push = (min(fewest.values()), fewest[action.card])
            p = action.player
            payoff = scoring.payoff(p, hand.tricks_won[p], position.tricks_left)
            points = solver.points_values(position, payoff)
            points_best = max(points.values())
            analysed = PlayAnalysis(
                action=index,
                hand=state.hand_number,
                trick=len(hand.tricks) + 1,
                player=p,
                card=CARDS[action.card],
                best=best,
                played=values[action.card],
                optimal=_optimal(values, best),
                nil_best=nil[0],
                nil_played=nil[1],
                nil_optimal=nil[2],
                points_best=points_best,
                points_played=points[action.card],
                points_optimal=_optimal(points, points_best),
                values=_sorted_values(values),
                point_values=_sorted_values(points),
                won=hand.tricks_won,
                push_best=push[0],
                push_played=push[1],
            )
            plays.append(analysed)
            current.append(analysed)
            if after.phase is not Phase.PLAY:
                close_hand(True)
        state = after
    close_hand(False)
    return Analysis(tuple(plays), tuple(hands))


# ---------------------------------------------------------------- the report for a person


def format_report(analysis: Analysis, names: Sequence[str] = ("Player 0", "Player 1")) -> str:
    """A report for a person: per hand, a header (the bids and how it ended), what happened and how each
    side's card play explains it; then, under a header per player, what their card play cost, their costly cards, their
    smaller costs, their bid beside what the hand could make and their draft turns whose other card would
    have changed the tricks.  A costly card reads as two lines, what happened and then, marked as such,
    what the better card would have led to, and names whose card it judges (a trick appears under each
    player whose card in it was costly)::

        Hand 2: Ada bid 4, Bob bid 7; it ended −41 for Ada
          ...
          Ada:
            Card play: 1 costly card, 41 points (1 trick) in all, judged against best play from that card on.
            Trick 5, Ada's K♥: Ada led K♥ and Bob won the trick with A♥; the hand ended −41 for Ada.
              Had Ada played A♥, best play from there would have made Ada's 4: +68 for Ada
              (best play after K♥: +27).

    A player called "You" in the record is the grammatical "you" ("your", never "You's").  A play that
    cost nothing in the score is not listed, whatever it did to tricks.  Negative numbers are written with
    the true minus sign, as on the screens (``--json`` keeps plain numbers).
    """
    if not analysis.hands:
        return _("No cards were played: nothing to analyse.")
    who = [speaker(n) for n in names]
    whose = [possessive(n) for n in who]
    lines: list[str] = []
    for h in analysis.hands:
        if lines:
            lines.append("")
        lines.append(_hand_header(h, who))
        if h.scoring is not None and h.final_tricks is not None:
            # What happened is the header, said once; then how each side's card play explains it.
            lines.extend("  " + line for line in totals_words(h, who, whose)[1:])
        see = h.scoring.rules.see_second_card if h.scoring is not None else False
        for player in (0, 1):
            lines.append("  " + (_("You:") if is_you(who[player]) else f"{capital(who[player])}:"))
            lines.append("    " + _card_play(h, player))
            lines.extend("    " + line for line in _costly_report(h, player, who, whose))
            if h.from_lead:
                lines.append("    " + capital(bid_line(h, player, who, whose)))
                mine = [d for d in h.draft if d.player == player]
                lines.extend("    " + capital(line) for line in draft_lines(mine, see, who, whose))
    return "\n".join(lines)


def _hand_header(h: HandAnalysis, who: Sequence[str]) -> str:
    """What happened, said once: ``Hand 2: Ada took 3 tricks on a bid of 4 (set, −40); Bob took 10 tricks on a bid
    of 10 (made, +100): −140 for Ada.`` (``Hand 2: Ada bid 4, Bob Nil; cut short`` for a hand not played out)."""
    if h.scoring is None or h.final_tricks is None:
        return _("Hand {hand}: {first}, {second}; cut short").format(
            hand=h.hand, first=said_bid(who[0], h.bids[0]), second=said_bid(who[1], h.bids[1]))
    return _("Hand {hand}: {happened}").format(hand=h.hand, happened=happened_words(h.scoring, h.final_tricks, who))


def _card_play(h: HandAnalysis, player: int) -> str:
    """``Card play: 2 costly cards and 1 smaller cost, 150 points (2 tricks) in all, each judged against best
    play from it on`` (or ``no card cost points``).  Each card's cost is against best play from that card on,
    so both players' sums may be large in a hand worth little: each gave back what the other's cards cost."""
    costly = sum(1 for p in h.plays if p.player == player and p.points_loss >= MINOR_COST)
    minor = len(small_costs(h, player))
    lost = h.points_lost[player]
    if not lost or h.scoring is None:
        return _("Card play: no card cost points.")
    cost = points_words(lost)  # in points alone: the tricks are the bid line's, beside best play's
    # One card: "each judged" would read as a slip.
    if costly and minor:
        cards = ngettext("{count} costly card", "{count} costly cards", costly).format(count=costly)
        smaller = ngettext("{count} smaller cost", "{count} smaller costs", minor).format(count=minor)
        return _("Card play: {costly} and {minor}, {points} in all, each judged against best play from that card "
                 "on.").format(costly=cards, minor=smaller, points=cost)
    if costly:
        return ngettext("Card play: {count} costly card, {points} in all, judged against best play from that card on.",
                        "Card play: {count} costly cards, {points} in all, each judged against best play from that "
                        "card on.", costly).format(count=costly, points=cost)
    return ngettext("Card play: {count} smaller cost, {points} in all, judged against best play from that card on.",
                    "Card play: {count} smaller costs, {points} in all, each judged against best play from that card "
                    "on.", minor).format(count=minor, points=cost)


def _costly_report(h: HandAnalysis, player: int, who: Sequence[str], whose: Sequence[str]) -> list[str]:
    """``player``'s costly cards, each named (``Trick 5, Ada's K♥:``) with its story, then the smaller costs."""
    if h.scoring is None:
        return []
    lines: list[str] = []
    for p in h.plays:
        if p.player == player and p.points_loss >= MINOR_COST:
            story = trick_story_words(h, p, who)
            text = (_("Trick {trick}, your {card}: {story}.") if is_you(who[player]) else
                    _("Trick {trick}, {player}'s {card}: {story}."))
            lines.append(text.format(trick=p.trick, card=p.card.label(), story=story, player=who[player]))
            lines.append("  " + had_words(h, p, who))
    small = small_costs_line(h, player, who, whose)
    if small:
        lines.append(small)
    return lines


# ---------------------------------------------------------------- one hand, for the review screen


def review_hand(record: GameRecord, hand: int) -> Optional[HandReview]:
    """Hand ``hand`` (1-based) of ``record`` alone: only its own actions are solved, so the review of
    the tenth hand costs no more than the first.  None if that hand has no card play."""
    shuffles = [i for i, a in enumerate(record.actions) if isinstance(a, Shuffle)]
    if not 1 <= hand <= len(shuffles):
        return None
    start = shuffles[hand - 1]
    end = shuffles[hand] if hand < len(shuffles) else len(record.actions)
    before = record.new_state()
    for action in record.actions[:start]:
        before = reduce(before, action)
    # From the state at the hand's start: its scores and bag totals count for the points.
    analysis = _analyse(before, record.actions[start:end], start)
    if not analysis.hands:
        return None
    state = before
    for action in record.actions[start:end]:
        if state.phase is Phase.PLAY:
            break
        state = reduce(state, action)
    assert state.hand is not None
    return HandReview(hand, state.hand.hands, analysis.hands[0])
