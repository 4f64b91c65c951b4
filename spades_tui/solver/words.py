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
from ..engine.text import plural
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


def final_tricks(scoring: Scoring, player: int, won: int, left: int, margin: int, near: int) -> int:
    """A final trick count of ``player`` that gives ``margin``, among those still possible (``won`` to
    ``won + left``), the nearest to ``near`` (where the trick count would end with perfect play)."""
    counts = [t for t in range(won, won + left + 1) if scoring.margin(player, t) == margin]
    if not counts:
        return near
    return min(counts, key=lambda t: (abs(t - near), t))


def outcome_counts(scoring: Scoring, player: int, won: int, left: int, margin: int) -> list[int]:
    """Every final trick count of ``player`` still possible (``won`` to ``won + left``) that gives ``margin``."""
    return [t for t in range(won, won + left + 1) if scoring.margin(player, t) == margin]


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


@dataclass(frozen=True)
class TrickPart:
    """One side's cards that moved a player's trick count away from best play's: ``sign`` +1 (more tricks for the
    player) or -1, ``count`` tricks in all, on ``tricks`` (the trick numbers), in ``words`` (count first)."""

    sign: int
    count: int
    tricks: tuple[int, ...]
    words: str


def _part(sign: int, found: Sequence[tuple[int, int]], words: str) -> list[TrickPart]:
    """A part from ``(trick, tricks moved)`` pairs; none if nothing moved.  ``words`` has ``{n}`` (the count),
    ``{one}`` ("one", the count where each card moved one, else "tricks") and ``{on}`` (``trick 5``, ``tricks 3
    and 9``)."""
    if not found:
        return []
    n = sum(k for _, k in found)
    numbers = tuple(t for t, _ in found)
    # One card may move best play's count by more than one trick: "let 10 in on 6 tricks" would not add up.
    one = "one" if n == 1 else str(n) if n == len(numbers) else "tricks"
    text = words.format(n=n, one=one, on=_listed("trick", numbers))
    return [TrickPart(sign, n, numbers, text)]


def trick_parts(hand: HandAnalysis, player: int, who: Names, whose: Names) -> list[TrickPart]:
    """Where ``player``'s tricks came from beside best play from the first lead, card by card, so that best play's
    count plus the signed parts is the count taken.  Each card is judged in the game the hand was: both sides
    taking tricks; against a Nil, the Nil's fewest (the Nil bidder ducking, the other pushing tricks on it)."""
    p, q = player, 1 - player
    mine = [x for x in hand.plays if x.player == p]
    theirs = [x for x in hand.plays if x.player == q]
    if hand.is_nil(p):
        own = _part(+1, [(x.trick, x.nil_loss) for x in mine if x.nil_loss > 0],
                    f"{{n}} more as {whose[p]} own cards let {{one}} in on {{on}}")
        if hand.is_nil(q):
            other = _part(-1, [(x.trick, x.nil_loss) for x in theirs if x.nil_loss > 0],
                          f"{{n}} fewer as {whose[q]} own cards let {{one}} in on {{on}}")
        else:
            other = _part(-1, [(x.trick, x.push_loss) for x in theirs if x.push_loss > 0],
                          f"{{n}} fewer as {whose[q]} own cards took {{one}} that could have been pushed on "
                          f"{who[p]}, on {{on}}")
        return own + other
    if hand.is_nil(q):
        other = _part(-1, [(x.trick, x.nil_loss) for x in theirs if x.nil_loss > 0],
                      f"{{n}} fewer as {whose[q]} own cards let {{one}} in on {{on}}")
        own = _part(+1, [(x.trick, x.push_loss) for x in mine if x.push_loss > 0],
                    f"{{n}} more as {whose[p]} own cards took {{one}} that could have been pushed on {who[q]}, "
                    f"on {{on}}")
        return other + own
    given = _part(+1, [(x.trick, x.loss) for x in theirs if x.loss > 0], f"{{n}} given by {who[q]} on {{on}}")
    lost = _part(-1, [(x.trick, x.loss) for x in mine if x.loss > 0], f"{{n}} lost by {whose[p]} own cards on {{on}}")
    return given + lost


def par_tricks(hand: HandAnalysis, player: int) -> int:
    """The tricks best play from the first lead gives ``player``: the most they can make; a Nil bidder the fewest
    they can be held to; against a Nil what is left once the Nil is held to its fewest."""
    if hand.is_nil(player):
        return hand.could_hold[player]
    if hand.is_nil(1 - player):
        return TRICKS - hand.could_hold[1 - player]
    return hand.could_make[player]


def bid_line(hand: HandAnalysis, player: int, who: Names, whose: Names) -> str:
    """A bid beside what best play for tricks from the first lead would have made of the hand, and what was taken, with
    where the difference came from: ``the bot bid 9; best play for tricks from the first lead would have made 7 for the
    bot; the bot took 8, 1 given by you on trick 5`` (a Nil: the fewest the bidder could be held to).  Every
    figure says whose it is: the solver's tricks are marked as best play's, the real ones as taken."""
    bid = hand.bids[player]
    w = who[player]
    final = hand.final_tricks
    par = par_tricks(hand, player)
    if hand.is_nil(player):
        verdict = "it would hold" if par == 0 else "it could not hold"
        best = (f"{w} bid {bid_words(bid)}; best play for tricks from the first lead would have held {w} to "
                f"{tricks_words(par)} ({verdict})")
    elif hand.is_nil(1 - player):
        # Against a Nil the two sides want other things (one ducks, the other pushes tricks on it), so "the most
        # it could make" (both playing for tricks) is not what best play makes: the Nil's fewest is.
        other = 1 - player
        best = (f"{w} {bid_words(bid)}; against {whose[other]} {bid_words(hand.bids[other])}, best play for tricks "
                f"from the first lead would have left {tricks_words(par)} to {w}")
    else:
        best = f"{w} {bid_words(bid)}; best play for tricks from the first lead would have made {par} for {w}"
    if final is None:
        return best + " (the hand was cut short)"
    took = final[player]
    parts = [part.words for part in trick_parts(hand, player, who, whose)]
    if not parts:
        return f"{best}; {w} took {took}, as best play for tricks would have"
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


def alternative_words(scoring: Scoring, player: int, alt: Sequence[int], played: Sequence[int], who: Names,
                      whose: Names) -> str:
    """How best play after the better card (``player`` ending with one of the counts ``alt``) differs from best play
    after the card played (one of ``played``), both from the same moment: ``would have set the bot's 10``,
    ``would have kept your Nil``, ``would have given you 2 more tricks``.  A bid is said made (set, kept, broken)
    only when every count of that side's says so, and the other side's the opposite."""
    phrases: list[str] = []
    for x in (player, 1 - player):
        def mine(t: int) -> int:
            return t if x == player else TRICKS - t  # noqa: B023 (used at once, in this turn of the loop)

        made_alt = {scoring.made(x, mine(t)) for t in alt}
        made_played = {scoring.made(x, mine(t)) for t in played}
        bid = _bid_short(scoring.bids[x])
        if len(made_alt) == 1 and len(made_played) == 1 and made_alt != made_played:
            now = made_alt == {True}
            if scoring.is_nil(x):
                phrases.append(f"{'kept' if now else 'broken'} {whose[x]} {bid}")
            else:
                phrases.append(f"{'made' if now else 'set'} {whose[x]} {bid}")
        pen_alt = {scoring.penalties(x, mine(t)) for t in alt}
        pen_played = {scoring.penalties(x, mine(t)) for t in played}
        if len(pen_alt) == 1 and len(pen_played) == 1 and pen_alt != pen_played:
            if min(pen_alt) < min(pen_played):
                phrases.append(f"kept {whose[x]} bags under the limit")
            else:
                phrases.append(f"taken {whose[x]} bags to the limit")
    if not phrases:
        n = min(alt, default=0) - min(played, default=0)
        if n:
            phrases.append(f"given {who[player]} {tricks_words(abs(n))} {'more' if n > 0 else 'fewer'}")
        else:
            phrases.append(f"scored better for {who[player]}")
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
    """A costly choice told as a story: first the real trick (what happened in the hand is said once, at the top),
    then, marked as such, two best-play values from that same moment, the better card's and the card played's::

        trick 9: you led J♠ and the bot won the trick with Q♠.
          Had you played 9♠, best play from there would have set the bot's 10: +140 for you
          (best play after J♠: −140).

    Both are what best play by both sides makes of the rest of the hand, all cards face up; neither is compared
    with how the hand went on."""
    scoring = hand.scoring
    assert scoring is not None
    p = play.player
    won, left = play.won[p], play.tricks_left
    alt = outcome_counts(scoring, p, won, left, play.points_best)
    played = outcome_counts(scoring, p, won, left, play.points_played)
    happened = f"trick {play.trick}: {trick_story_words(hand, play, who)}."
    words = alternative_words(scoring, p, alt, played, who, whose)
    had = (f"  Had {who[p]} played {either_words(play.points_optimal)}, best play from there {words}: "
           f"{signed(play.points_best)} for {who[p]} (best play after {play.card.label()}: "
           f"{signed(play.points_played)}).")
    return happened, had


def _me(who: Names) -> int:
    """The player the totals are told for: the one called "you", else the first."""
    return 1 if who[1] == "you" and who[0] != "you" else 0


def _points_or(n: int, none: str) -> str:
    return points_words(n) if n else none


def happened_words(scoring: Scoring, final: tuple[int, int], who: Names) -> str:
    """The hand as it was, said once: ``you took 3 tricks on a bid of 4 (set, −40); the bot took 10 tricks on a
    bid of 10 (made, +100): −140 for you.``"""
    me = _me(who)
    return (f"{took_words(scoring, 0, final[0], who)}; {took_words(scoring, 1, final[1], who)}: "
            f"{signed(scoring.margin(me, final[me]))} for {who[me]}.")


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
    happened = f"What happened: {happened_words(scoring, final, who)}"
    other = 1 - me
    if not lost[me] and not lost[other] and start == real:
        explained = (f"With all cards face up, best play from the first lead was worth {signed(start)} for "
                     f"{who[me]}, and so it was played: no card of either side cost a point.")
    elif start - lost[me] + lost[other] == real:
        explained = (f"With all cards face up, best play from the first lead was worth {signed(start)} for "
                     f"{who[me]}; {whose[me]} cards cost {_points_or(lost[me], 'nothing')} of that and {whose[other]} "
                     f"gave {_points_or(lost[other], 'none')} back: {signed(real)}, as it was played.")
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


def small_cost_words(scoring: Scoring, play: PlayAnalysis, who: Names, whose: Names) -> str:
    """What a card that cost under ``MINOR_COST`` points changed in the score, between best play after the better
    card and after the card played: ``1 overtrick more for the bot``, ``1 overtrick fewer for you`` (an overtrick
    scores a point, and is a bag), else in points (``your hand 5 points less``)."""
    p, q = play.player, 1 - play.player
    won, left = play.won[p], play.tricks_left
    t_alt = final_tricks(scoring, p, won, left, play.points_best, won + play.best)
    t_played = final_tricks(scoring, p, won, left, play.points_played, won + play.played)
    parts: list[str] = []
    for x, alt, played in ((p, t_alt, t_played), (q, TRICKS - t_alt, TRICKS - t_played)):
        points = scoring.points(x, played) - scoring.points(x, alt)
        bags = scoring.bags_added(x, played) - scoring.bags_added(x, alt)
        if not points:
            continue
        if bags == points and scoring.made(x, played) and scoring.made(x, alt) and not scoring.is_nil(x):
            # an overtrick (a bag): a point now, counted towards the bag limit
            parts.append(f"{plural(abs(bags), 'overtrick')} {'more' if bags > 0 else 'fewer'} for {who[x]}")
        else:
            parts.append(f"{whose[x]} hand {points_words(abs(points))} {'more' if points > 0 else 'less'}")
    return " and ".join(parts) if parts else "the margin fell"


def small_costs(hand: HandAnalysis, player: int) -> list[PlayAnalysis]:
    """``player``'s cards that cost under ``MINOR_COST`` points: listed apart from the stories."""
    return [p for p in hand.plays if p.player == player and 0 < p.points_loss < MINOR_COST]


def small_costs_line(hand: HandAnalysis, player: int, who: Names, whose: Names) -> Optional[str]:
    """``player``'s cards that cost under ``MINOR_COST`` points in one sentence, those that cost the same in the
    same way together, so that no bracket is said twice: ``Smaller costs, under 10 points each: A♦ on trick 5 and
    4♦ on trick 9 (1 point each: 1 overtrick more for the bot)``."""
    scoring = hand.scoring
    small = small_costs(hand, player)
    if scoring is None or not small:
        return None
    groups: dict[tuple[int, str], list[PlayAnalysis]] = {}
    for p in small:
        groups.setdefault((p.points_loss, small_cost_words(scoring, p, who, whose)), []).append(p)
    told = []
    for (points, why), plays in groups.items():
        cards = [f"{p.card.label()} on trick {p.trick}" for p in plays]
        listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
        each = " each" if len(plays) > 1 else ""
        told.append(f"{listed} ({points_words(points)}{each}: {why})")
    return f"Smaller costs, under {MINOR_COST} points each: " + "; ".join(told)


def costly_lines(hand: HandAnalysis, player: int, who: Names, whose: Names) -> list[str]:
    """Each costly choice of ``player`` as a story (two lines, ``story_lines``); the cards that cost under
    ``MINOR_COST`` points (a bag or two) after them, in one line."""
    lines: list[str] = []
    if hand.scoring is None:
        return lines
    for p in hand.plays:
        if p.player == player and p.points_loss >= MINOR_COST:
            lines.extend(_capital(line) for line in story_lines(hand, p, who, whose))
    small = small_costs_line(hand, player, who, whose)
    if small:
        lines.append(small + ".")
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
    bids = [_capital(bid_line(hand, p, who, whose)) for p in (0, 1)] if hand.from_lead else []
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
