"""The analysis in plain words, for the report of ``analyse`` and the review screen.

Each function takes how to name the players: ``who`` (``"you"`` or ``"Ada"``) and
``whose`` (``"your"`` or ``"Ada's"``), indexed by player.  Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..engine.cards import Card
from ..engine.state import BidValue
from .judgement import DraftAnalysis, HandAnalysis, PlayAnalysis, Scoring, TrickReview

Names = Sequence[str]


def tricks_words(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def points_words(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def signed(m: int) -> str:
    """A margin with its sign: ``+68``, ``-41``, ``0``."""
    return f"{m:+d}" if m else "0"


def either_words(cards: Sequence[Card]) -> str:
    """``A♥``, ``A♥ or Q♠``, ``A♥, Q♠ or 9♣``: high ranks first, then by suit."""
    labels = [c.label() for c in sorted(cards, key=lambda c: (-c.rank, c.suit))]
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " or " + labels[-1]


def bid_words(bid: Optional[BidValue]) -> str:
    """``Double Nil``, ``Nil``, ``bid 4`` (a label that says what the number is)."""
    if bid == "double_nil":
        return "Double Nil"
    if bid == 0:
        return "Nil"
    return "no bid" if bid is None else f"bid {bid}"


def _contract_words(bid: BidValue) -> str:
    if bid == "double_nil":
        return "Double Nil"
    if bid == 0:
        return "Nil"
    return f"contract of {bid}"


def final_tricks(scoring: Scoring, player: int, won: int, left: int, margin: int, near: int) -> int:
    """A final trick count of ``player`` that gives ``margin``, among those still possible (``won`` to
    ``won + left``), the nearest to ``near`` (where the trick count would end with perfect play)."""
    counts = [t for t in range(won, won + left + 1) if scoring.margin(player, t) == margin]
    if not counts:
        return near
    return min(counts, key=lambda t: (abs(t - near), t))


def why_words(scoring: Scoring, player: int, best: int, played: int, who: Names, whose: Names) -> str:
    """What changed in the score between ``player`` ending with ``best`` tricks and with ``played``:
    ``your contract of 4 was set``, ``Bot's Nil was not broken``, ``your bags reached the limit (-100)``."""
    p, q = player, 1 - player
    reasons: list[str] = []
    if scoring.made(p, best) and not scoring.made(p, played):
        broken = "was broken" if scoring.is_nil(p) else "was set"
        reasons.append(f"{whose[p]} {_contract_words(scoring.bids[p])} {broken}")
    if scoring.made(q, 13 - played) and not scoring.made(q, 13 - best):
        kept = "was not broken" if scoring.is_nil(q) else "was not set"
        reasons.append(f"{whose[q]} {_contract_words(scoring.bids[q])} {kept}")
    penalty = scoring.rules.bag_penalty
    if scoring.penalties(p, played) > scoring.penalties(p, best):
        reasons.append(f"{whose[p]} bags reached the limit (-{penalty})")
    if scoring.penalties(q, 13 - played) < scoring.penalties(q, 13 - best):
        reasons.append(f"{whose[q]} bags did not reach the limit")
    if not reasons:
        bags = scoring.bags_added(p, played) - scoring.bags_added(p, best)
        mine = scoring.points(p, played) - scoring.points(p, best)
        theirs = scoring.points(q, 13 - played) - scoring.points(q, 13 - best)
        if bags > 0 and not scoring.is_nil(p):
            reasons.append(f"{who[p]} took {bags} more bag{'s' if bags > 1 else ''}")
        elif mine < 0:
            reasons.append(f"{whose[p]} hand scored {points_words(-mine)} less")
        if theirs > 0:
            reasons.append(f"{whose[q]} hand scored {points_words(theirs)} more")
        elif theirs < 0 and not reasons:
            reasons.append(f"{whose[q]} hand scored {points_words(-theirs)} less")
    return "; ".join(reasons[:2]) if reasons else "the margin fell"


def play_cost_words(play: PlayAnalysis, scoring: Scoring, who: Names, whose: Names) -> str:
    """``trick 5: you played K♥ and it cost 41 points (your contract of 4 was set); A♥ kept +68``."""
    p = play.player
    left = play.tricks_left
    won = play.won[p]
    t_best = final_tricks(scoring, p, won, left, play.points_best, won + play.best)
    t_played = final_tricks(scoring, p, won, left, play.points_played, won + play.played)
    why = why_words(scoring, p, t_best, t_played, who, whose)
    return (f"trick {play.trick}: {who[p]} played {play.card.label()} and it cost "
            f"{points_words(play.points_loss)} ({why}); {either_words(play.points_optimal)} kept "
            f"{signed(play.points_best)}")


def draft_words(d: DraftAnalysis, see_second_card: bool, who: Names, whose: Names) -> str:
    """``draft turn 5: you took 7♣ and passed K♠, unseen; with K♠ your hand makes 1 more trick``
    (a decision whose other card would have done better: ``gain`` above 0)."""
    p = d.player
    kept, other = d.kept.label(), d.other.label()
    if d.take == "first":
        choice = f"{who[p]} took {kept} and passed {other}" + ("" if see_second_card else ", unseen")
    else:
        choice = f"{who[p]} passed {other} and took {kept}"
    if d.tricks_other is None:
        return f"draft turn {d.turn}: {choice} (not judged: {d.skipped})"
    n = abs(d.tricks_other - d.tricks)
    if d.aim == "fewest":
        effect = f"with {other} {whose[p]} hand could be held to {n} fewer {'trick' if n == 1 else 'tricks'}"
    else:
        effect = f"with {other} {whose[p]} hand makes {n} more {'trick' if n == 1 else 'tricks'}"
    return f"draft turn {d.turn}: {choice}; {effect}"


def good_draft_words(player: int, turns: Sequence[int], who: Names) -> str:
    """``the other card would have done worse at your draft turns 7, 8 and 13``."""
    listed = [str(t) for t in turns]
    text = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
    whose = "your" if who[player] == "you" else f"{who[player]}'s"
    return f"the other card would have done worse at {whose} draft turn{'s' if len(listed) > 1 else ''} {text}"


def draft_lines(draft: Sequence[DraftAnalysis], see_second_card: bool, who: Names, whose: Names) -> list[str]:
    """Each draft decision whose other card would have made more tricks (fewer for a Nil), then per
    player the turns where it would have done worse; decisions the swap does not change are left out."""
    lines = [draft_words(d, see_second_card, who, whose) for d in draft if d.gain > 0]
    for p in (0, 1):
        good = [d.turn for d in draft if d.player == p and d.gain < 0]
        if good:
            lines.append(good_draft_words(p, good, who))
    return lines


def bid_line(hand: HandAnalysis, player: int, who: Names) -> str:
    """``you bid 4; with all cards face up you could make 6`` (a Nil: the fewest they could be held to)."""
    bid = hand.bids[player]
    w = who[player]
    if hand.is_nil(player):
        held = hand.could_hold[player]
        verdict = "it would hold" if held == 0 else "it could not hold"
        return (f"{w} bid {bid_words(bid)}; with all cards face up {w} could be held to "
                f"{tricks_words(held)} ({verdict})")
    return f"{w} {bid_words(bid)}; with all cards face up {w} could make {hand.could_make[player]}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class ReviewWords:
    """A reviewed hand in words: what card play cost, each costly play, the bids, the draft."""

    totals: tuple[str, ...]
    plays: tuple[str, ...]
    bids: tuple[str, ...]
    draft: tuple[str, ...]


def review_words(hand: HandAnalysis, who: Names, whose: Names) -> ReviewWords:
    """The review screen's text: by points (a play that cost nothing in the score is not listed, whatever
    it did to tricks), then each bid beside what the hand could make, then the draft."""
    totals = []
    for p in (0, 1):
        lost = hand.points_lost[p]
        totals.append(f"{_capital(whose[p])} card play cost {points_words(lost)}.")
    plays = [play_cost_words(p, hand.scoring, who, whose) for p in hand.plays
             if p.points_loss and hand.scoring is not None]
    if not plays:
        plays = ["No play cost points: both played every card as well as it could be played for the score."]
    bids = [_capital(bid_line(hand, p, who)) for p in (0, 1)] if hand.draft else []
    see = hand.scoring.rules.see_second_card if hand.scoring is not None else False
    draft = [_capital(line) for line in draft_lines(hand.draft, see, who, whose)]
    if hand.draft and not draft:
        draft = ["No draft turn's other card would have changed the tricks."]
    return ReviewWords(tuple(totals), tuple(plays), tuple(bids), tuple(draft))


def trick_words(trick: TrickReview, who: Names, whose: Names) -> tuple[str, ...]:
    """One trick: what was played and who won, then each play's legal cards valued in points (the margin
    the player could make sure of after each card), the card played marked with what it cost."""
    plays = trick.plays
    head = f"Trick {trick.number}: {who[plays[0].player]} led {plays[0].card.label()}"
    if len(plays) > 1:
        head += f", {who[plays[1].player]} played {plays[1].card.label()}"
    if trick.winner is not None:
        head += f"; {who[trick.winner]} {'win' if who[trick.winner] == 'you' else 'wins'} it"
    lines = [head + "."]
    for p in plays:
        groups: dict[int, list[Card]] = {}
        for c, v in p.point_values:
            groups.setdefault(v, []).append(c)
        parts = []
        for v in sorted(groups, reverse=True):
            cards = sorted(groups[v], key=lambda c: (-c.rank, c.suit))
            labels = [f"[{c.label()}]" if c == p.card else c.label() for c in cards]
            parts.append(f"{signed(v)} {' '.join(labels)}")
        cost = f"; [{p.card.label()}] cost {points_words(p.points_loss)}" if p.points_loss else ""
        lines.append(f"{_capital(who[p.player])}, margin after each card: " + " · ".join(parts) + cost)
    return tuple(lines)
