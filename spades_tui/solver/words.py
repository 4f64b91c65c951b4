"""The analysis in plain words, for the report of ``analyse`` and the review screen.

Each function takes how to name the players: ``who`` (``"you"`` or ``"Ada"``) and
``whose`` (``"your"`` or ``"Ada's"``), indexed by player.  Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from ..engine.cards import Card
from ..engine.rulebook import TRICKS
from ..engine.state import BidValue
from ..engine.text import MINUS, plural
from ..engine.text import signed_or_zero as signed
from ..engine.text import speaker as speaker

if TYPE_CHECKING:  # for annotations only: the play screen's plurals load without the judgements
    from .judgement import DraftAnalysis, HandAnalysis, PlayAnalysis, Scoring, TrickReview

Names = Sequence[str]


def possessive(name: str) -> str:
    """``your`` for "you", else ``Ada's`` (``the bot's``)."""
    return "your" if name == "you" else f"{name}'s"


MINOR_COST = 10  # points: a card that cost less (a bag or two) is listed apart from the blunders


def tricks_words(n: int) -> str:
    return plural(n, "trick")


def points_words(n: int) -> str:
    return plural(n, "point")


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
        reasons.append(f"{whose[p]} bags reached the limit ({MINUS}{penalty})")
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
    """A draft turn whose other card would have done better, saying for whom and by how many tricks:
    ``draft turn 5: you kept 7♣ and passed K♠, unseen; K♠ would have made you 1 more trick``."""
    p = d.player
    kept, other = d.kept.label(), d.other.label()
    choice = f"{who[p]} kept {kept} and passed {other}" + ("" if see_second_card or d.other_seen else ", unseen")
    if d.tricks_other is None:
        return f"draft turn {d.turn}: {choice} (not judged: {d.skipped})"
    n = abs(d.tricks_other - d.tricks)
    if d.aim == "fewest":
        effect = f"{other} would have let {who[p]} be held to {n} fewer {'trick' if n == 1 else 'tricks'}"
    else:
        effect = f"{other} would have made {who[p]} {n} more {'trick' if n == 1 else 'tricks'}"
    return f"draft turn {d.turn}: {choice}; {effect}"


def good_draft_words(player: int, turns: Sequence[int], tricks: int, aim: str, who: Names) -> str:
    """``well kept at your draft turns 7, 8 and 13: the other card would have cost you 1 trick at each``."""
    whose = possessive(who[player])
    cost = (f"given {who[player]} {tricks_words(tricks)} more to take" if aim == "fewest"
            else f"cost {who[player]} {tricks_words(tricks)}")
    return f"well kept at {whose} draft {_listed('turn', turns)}: the other card would have {cost}" + \
        (" at each" if len(turns) > 1 else "")


def draft_lines(draft: Sequence[DraftAnalysis], see_second_card: bool, who: Names, whose: Names) -> list[str]:
    """Each draft decision whose other card would have made more tricks (fewer for a Nil), then per
    player the turns kept well, grouped by the tricks the other card would have cost; decisions the swap
    does not change are left out."""
    lines = [draft_words(d, see_second_card, who, whose) for d in draft if d.gain > 0]
    for p in (0, 1):
        good = [d for d in draft if d.player == p and d.gain < 0]
        for n in sorted({-d.gain for d in good}):
            same = [d for d in good if -d.gain == n]
            lines.append(good_draft_words(p, [d.turn for d in same], n, same[0].aim, who))
    return lines


def _listed(noun: str, numbers: Sequence[int]) -> str:
    """``trick 5``, ``tricks 3 and 9``, ``turns 2, 6 and 11``: numbers in order after their noun."""
    listed = [str(n) for n in sorted(numbers)]
    if len(listed) == 1:
        return f"{noun} {listed[0]}"
    return f"{noun}s " + ", ".join(listed[:-1]) + " and " + listed[-1]


def _given_and_lost(hand: HandAnalysis, player: int, who: Names, whose: Names, nil: bool) -> list[str]:
    """Where ``player``'s tricks came from beside best play: the other's cards that gave them tricks, their own
    that lost tricks (a Nil bidder's own cards that let tricks in)."""
    # A Nil bidder's ducks are no gifts: tricks are given only by a contract's side.
    giver_nil = hand.is_nil(1 - player)
    given = [(p.trick, p.loss) for p in hand.plays if p.player != player and p.loss > 0 and not nil and not giver_nil]
    lost = [(p.trick, p.nil_loss if nil else p.loss) for p in hand.plays if p.player == player
            and (p.nil_loss if nil else p.loss) > 0]
    parts = []
    if given:
        n = sum(k for _, k in given)
        parts.append(f"{n} given by {who[1 - player]} on {_listed('trick', [t for t, _ in given])}")
    if lost:
        n = sum(k for _, k in lost)
        verb = "let in" if nil else "lost"
        parts.append(f"{n} {verb} by {whose[player]} own cards on {_listed('trick', [t for t, _ in lost])}")
    return parts


def _let_in(hand: HandAnalysis, player: int, took: int, par: int, who: Names, whose: Names) -> list[str]:
    """Against a Nil, where ``player``'s count came from beside best play: the tricks the Nil bidder's own cards let
    in (each one fewer for ``player``), and those ``player``'s own cards took that could have been pushed on the
    Nil bidder (what is left of the difference: the pushing side's own cards are judged by no other measure)."""
    nil_player = 1 - player
    let = [(p.trick, p.nil_loss) for p in hand.plays if p.player == nil_player and p.nil_loss > 0]
    n = sum(k for _, k in let)
    back = took - (par - n)
    parts = []
    if n:
        parts.append(f"{n} fewer as {whose[nil_player]} own cards let {'one' if n == 1 else n} in on "
                     f"{_listed('trick', [t for t, _ in let])}")
    if back > 0:
        parts.append(f"{back} more as {whose[player]} own cards took {'one' if back == 1 else back} that could have "
                     f"been pushed on {who[nil_player]}")
    return parts


def bid_line(hand: HandAnalysis, player: int, who: Names, whose: Names) -> str:
    """A bid beside what best play from the first lead would have made of the hand, and what was taken, with
    where the difference came from: ``the bot bid 9; best play from the first lead would have made 7 for the
    bot; the bot took 8, 1 given by you on trick 5`` (a Nil: the fewest the bidder could be held to).  Every
    figure says whose it is: the solver's tricks are marked as best play's, the real ones as taken."""
    bid = hand.bids[player]
    w = who[player]
    final = hand.final_tricks
    nil = hand.is_nil(player)
    if nil:
        held = hand.could_hold[player]
        verdict = "it would hold" if held == 0 else "it could not hold"
        best = (f"{w} bid {bid_words(bid)}; best play from the first lead would have held {w} to "
                f"{tricks_words(held)} ({verdict})")
        par = held
    elif hand.is_nil(1 - player):
        # Against a Nil the two sides want other things (one ducks, the other pushes tricks on it), so "the most
        # it could make" (both playing for tricks) is not what best play makes: the Nil's fewest is.
        other = 1 - player
        par = TRICKS - hand.could_hold[other]
        best = (f"{w} {bid_words(bid)}; against {whose[other]} {bid_words(hand.bids[other])}, best play from the "
                f"first lead would have left {tricks_words(par)} to {w}")
    else:
        par = hand.could_make[player]
        best = f"{w} {bid_words(bid)}; best play from the first lead would have made {par} for {w}"
    if final is None:
        return best + " (the hand was cut short)"
    took = final[player]
    parts = (_let_in(hand, player, took, par, who, whose) if not nil and hand.is_nil(1 - player)
             else _given_and_lost(hand, player, who, whose, nil))
    if took == par and not parts:
        return f"{best}; {w} took {took}, as best play would have"
    if not parts:  # the other side's cards kept a Nil bidder from being given what best play would have
        return f"{best}; {w} took {took}"
    if len(parts) == 1:
        return f"{best}; {w} took {took}, {parts[0]}"
    return f"{best}; {w} took {took}: " + "; ".join(parts)  # both sides' cards moved the count


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _bid_short(bid: BidValue) -> str:
    """``4``, ``Nil``, ``Double Nil``: what follows "your" ("your 4 was set")."""
    return "Double Nil" if bid == "double_nil" else "Nil" if bid == 0 else str(bid)


def took_words(scoring: Scoring, player: int, tricks: int, who: Names) -> str:
    """What one player's hand came to: ``you took 3 tricks on a bid of 4 (set, -40)``."""
    bid = scoring.bids[player]
    on = "Double Nil" if bid == "double_nil" else "a Nil" if bid == 0 else f"a bid of {bid}"
    made = scoring.made(player, tricks)
    state = ("kept" if made else "broken") if scoring.is_nil(player) else ("made" if made else "set")
    if scoring.penalties(player, tricks):
        state += ", bags to the limit"
    return f"{who[player]} took {tricks_words(tricks)} on {on} ({state}, {signed(scoring.points(player, tricks))})"


def alternative_words(scoring: Scoring, player: int, t_alt: int, t_real: int, who: Names, whose: Names) -> str:
    """How a hand ending with ``t_alt`` tricks for ``player`` differs from the hand as it ended
    (``t_real``): ``would have set the bot's 10``, ``would have kept your Nil``, ``would have ended as
    the hand did``."""
    phrases: list[str] = []
    for x in (player, 1 - player):
        alt, real = (t_alt, t_real) if x == player else (TRICKS - t_alt, TRICKS - t_real)
        bid = _bid_short(scoring.bids[x])
        made_alt, made_real = scoring.made(x, alt), scoring.made(x, real)
        if made_alt != made_real:
            if scoring.is_nil(x):
                phrases.append(f"{'kept' if made_alt else 'broken'} {whose[x]} {bid}")
            else:
                phrases.append(f"{'made' if made_alt else 'set'} {whose[x]} {bid}")
        pen_alt, pen_real = scoring.penalties(x, alt), scoring.penalties(x, real)
        if pen_alt < pen_real:
            phrases.append(f"kept {whose[x]} bags under the limit")
        elif pen_alt > pen_real:
            phrases.append(f"taken {whose[x]} bags to the limit")
    if not phrases:
        if t_alt == t_real:
            return "would have ended as the hand did"
        n = t_alt - t_real
        phrases.append(f"given {who[player]} {tricks_words(abs(n))} {'more' if n > 0 else 'fewer'}")
    text = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return "would have " + text


def trick_story_words(hand: HandAnalysis, play: PlayAnalysis, who: Names) -> str:
    """The trick of ``play`` as it happened: ``you played J♠ and the bot won the trick with Q♠``,
    ``you led 4♥; the bot played 2♥ and you won the trick``."""
    p, q = play.player, 1 - play.player
    both = hand.trick_plays(play.trick)
    winner = hand.trick_winner(play.trick)
    card = play.card.label()
    if both and both[0] is not play:
        lead = both[0].card.label()
        if winner == p:
            return f"{who[q]} led {lead} and {who[p]} won the trick with {card}"
        text = f"{who[q]} led {lead}, {who[p]} played {card}"
        return text + ("" if winner is None else f" and {who[q]} won the trick")
    if len(both) < 2 or winner is None:
        return f"{who[p]} led {card}"
    answer = both[1].card.label()
    if winner == p:
        return f"{who[p]} led {card}, {who[q]} played {answer} and {who[p]} won the trick"
    return f"{who[p]} led {card} and {who[q]} won the trick with {answer}"


def story_lines(hand: HandAnalysis, play: PlayAnalysis, who: Names, whose: Names) -> tuple[str, str]:
    """A costly choice told as a story: first what happened (the real trick and how the hand ended), then,
    marked as such, what the better card would have led to with best play from both sides after it::

        trick 9: you led J♠ and the bot won the trick with Q♠; the hand ended -140 for you.
          Had you played 9♠, best play from there would have set the bot's 10: +140 for you
          (best play after J♠: -140).
    """
    scoring = hand.scoring
    assert scoring is not None
    p = play.player
    won, left = play.won[p], play.tricks_left
    t_best = final_tricks(scoring, p, won, left, play.points_best, won + play.best)
    final = hand.final_tricks
    happened = f"trick {play.trick}: {trick_story_words(hand, play, who)}"
    if final is None:
        happened += " (the hand was cut short)."
        t_real = final_tricks(scoring, p, won, left, play.points_played, won + play.played)
    else:
        t_real = final[p]
        happened += f"; the hand ended {signed(scoring.margin(p, t_real))} for {who[p]}."
    alt = alternative_words(scoring, p, t_best, t_real, who, whose)
    had = (f"  Had {who[p]} played {either_words(play.points_optimal)}, best play from there {alt}: "
           f"{signed(play.points_best)} for {who[p]} (best play after {play.card.label()}: "
           f"{signed(play.points_played)})")
    back = _given_back(hand, play)
    if final is not None and play.points_best < scoring.margin(p, t_real):
        had += f"; the hand did better, as {who[1 - p]} gave points back {back}"
    elif final is not None and play.points_best == scoring.margin(p, t_real) and t_best == t_real:
        had += f"; {who[1 - p]} gave the points back {back}"
    return happened, had + "."


def _given_back(hand: HandAnalysis, play: PlayAnalysis) -> str:
    """When the other player's cards gave back what ``play`` cost: ``at once, in the same trick`` or ``on
    trick 9`` (their next costly card), ``later`` when none is found."""
    back = next((x for x in hand.plays if x.player != play.player and x.action > play.action and x.points_loss > 0),
                None)
    if back is None:
        return "later"
    if back.trick == play.trick:
        return f"at once, with {back.card.label()} in the same trick"
    return f"on trick {back.trick}"


def _me(who: Names) -> int:
    """The player the totals are told for: the one called "you", else the first."""
    return 1 if who[1] == "you" and who[0] != "you" else 0


def totals_words(hand: HandAnalysis, who: Names, whose: Names) -> tuple[str, ...]:
    """What happened in the score, then how the card play of each side explains it::

        What happened: you took 3 tricks on a bid of 4 (set, -40); the bot took 10 tricks on a bid
        of 10 (made, +100): -140 for you.
        With all cards face up, best play from the first lead was worth +141 for you; your cards cost
        281 points of that and the bot's gave 0 back: -140, as it was played.
    """
    scoring, final = hand.scoring, hand.final_tricks
    me = _me(who)
    lost = hand.points_lost
    if scoring is None or final is None or not hand.plays:
        return tuple(f"{_capital(whose[p])} card play cost {points_words(lost[p])}." for p in (0, 1))
    real = scoring.margin(me, final[me])
    first = hand.plays[0]
    start = first.points_best if first.player == me else -first.points_best
    happened = (f"What happened: {took_words(scoring, 0, final[0], who)}; {took_words(scoring, 1, final[1], who)}: "
                f"{signed(real)} for {who[me]}.")
    other = 1 - me
    minor = [sum(x.points_loss for x in hand.plays if x.player == p and 0 < x.points_loss < MINOR_COST)
             for p in (0, 1)]

    def cost(p: int) -> str:
        share = "all of it" if minor[p] == lost[p] else f"{points_words(minor[p])} of it"
        small = f" ({share} in cards that cost under {MINOR_COST} points, listed apart)" if minor[p] else ""
        return points_words(lost[p]) + small

    if start - lost[me] + lost[other] == real:
        explained = (f"With all cards face up, best play from the first lead was worth {signed(start)} for "
                     f"{who[me]}; {whose[me]} cards cost {cost(me)} of that and {whose[other]} gave "
                     f"{cost(other)} back: {signed(real)}, as it was played.")
    else:  # not expected (the solver is exact): say the sums alone rather than an equation that fails
        explained = (f"{_capital(whose[me])} card play cost {points_words(lost[me])}, {whose[other]} "
                     f"{points_words(lost[other])}.")
    return (happened, explained)


def section_titles(who: Names, whose: Names) -> tuple[str, str]:
    """The titles of the two sections of costly choices: the player's own, then the other side's
    (against a bot: "Where the bot gave you a chance", so a line never blames one side for the other's card)."""
    me = _me(who)
    other = 1 - me
    if who[me] == "you":
        return ("Your costly cards", f"Where {who[other]} gave you a chance")
    return (f"{_capital(whose[me])} costly cards", f"{_capital(whose[other])} costly cards")


@dataclass(frozen=True)
class ReviewWords:
    """A reviewed hand in words: what happened and what card play cost, the costly choices of each side
    (each a line of what happened, then one of what the better card would have led to), the bids, the draft."""

    totals: tuple[str, ...]
    plays: tuple[str, ...]  # the first side's costly choices (against a bot: the person's)
    bids: tuple[str, ...]
    draft: tuple[str, ...]
    chances: tuple[str, ...] = ()  # the other side's costly choices
    titles: tuple[str, str] = ("", "")  # the titles of ``plays`` and ``chances``


def minor_costs(hand: HandAnalysis, player: int) -> list[str]:
    """``player``'s cards that cost under ``MINOR_COST`` points (a bag or two), each ``trick 7, 5♣ (1 point)``:
    listed apart from the stories, by the review and by ``analyse``."""
    return [f"trick {p.trick}, {p.card.label()} ({points_words(p.points_loss)})" for p in hand.plays
            if p.player == player and 0 < p.points_loss < MINOR_COST]


def costly_lines(hand: HandAnalysis, player: int, who: Names, whose: Names) -> list[str]:
    """Each costly choice of ``player`` as a story (two lines, ``story_lines``); the cards that cost under
    ``MINOR_COST`` points (a bag or two) after them, in one line."""
    lines: list[str] = []
    if hand.scoring is None:
        return lines
    for p in hand.plays:
        if p.player == player and p.points_loss >= MINOR_COST:
            lines.extend(_capital(line) for line in story_lines(hand, p, who, whose))
    minor = minor_costs(hand, player)
    if minor:
        lines.append(f"Smaller costs, under {MINOR_COST} points each (bags): " + "; ".join(minor) + ".")
    return lines


def review_words(hand: HandAnalysis, who: Names, whose: Names) -> ReviewWords:
    """The review screen's text: what happened and what card play cost, then each side's costly choices
    by points (a play that cost nothing in the score is not listed, whatever it did to tricks), then each
    bid beside what the hand could make, then the draft."""
    me = _me(who)
    other = 1 - me
    plays = costly_lines(hand, me, who, whose)
    if not plays:
        plays = [f"No card of {'yours' if who[me] == 'you' else whose[me]} cost points: each was as good "
                 "as any for the score."]
    chances = costly_lines(hand, other, who, whose)
    if not chances:
        chances = [f"None: {who[other]} played every card as well as it could be played for the score."]
    bids = [_capital(bid_line(hand, p, who, whose)) for p in (0, 1)] if hand.draft else []
    see = hand.scoring.rules.see_second_card if hand.scoring is not None else False
    draft = [_capital(line) for line in draft_lines(hand.draft, see, who, whose)]
    if hand.draft and not draft:
        draft = ["No draft turn's other card would have changed the tricks."]
    return ReviewWords(totals_words(hand, who, whose), tuple(plays), tuple(bids), tuple(draft), tuple(chances),
                       section_titles(who, whose))


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
