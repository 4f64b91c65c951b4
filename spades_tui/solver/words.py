"""The analysis in plain words, for the report of ``analyse`` and the review screen.

Each function takes how to name the players: ``who`` (``"you"`` or ``"Ada"``), indexed by player; ``whose`` (``"your"``
or ``"Ada's"``) is taken for the callers' sake and no longer read.  Every sentence is a whole message of the catalog
(``wording``): one a sentence shape, "you" and a name each with their own, so that word order, cases and the verb's
person are the translator's.  Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from ..engine.cards import Card
from ..engine.rulebook import TRICKS
from ..engine.text import signed_or_zero as signed
from ..engine.text import speaker as speaker
from ..i18n.language import _, ngettext
from .bidwords import bid_line, draft_lines, draft_words, good_draft_words, par_tricks, trick_parts
from .wording import (
    YOU,
    Names,
    TrickPart,
    and_words,
    bid_short,
    bid_words,
    capital,
    either_words,
    is_you,
    points_words,
    said_bid,
    tricks_words,
)

if TYPE_CHECKING:  # for annotations only: the play screen's plurals load without the judgements
    from .judgement import HandAnalysis, PlayAnalysis, Scoring, TrickReview

__all__ = [
    "Names", "TrickPart", "bid_line", "bid_words", "draft_lines", "draft_words", "good_draft_words", "par_tricks",
    "trick_parts", "either_words", "points_words", "said_bid", "speaker", "tricks_words",
]


def possessive(name: str) -> str:
    """``your`` for "you", else ``Ada's`` (``the bot's``)."""
    return "your" if name == YOU else f"{name}'s"


MINOR_COST = 10  # points: a card that cost less (a bag or two) is listed apart from the blunders


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


def _result_words(scoring: Scoring, player: int, tricks: int) -> str:
    """How a bid ended, in brackets after the tricks: ``made``, ``set``, ``kept`` or ``broken`` (a Nil), and the
    hand's points: ``set, −40``; ``made, bags to the limit, +32``."""
    made = scoring.made(player, tricks)
    if scoring.is_nil(player):
        state = _("kept") if made else _("broken")
    else:
        state = _("made") if made else _("set")
    if scoring.penalties(player, tricks):
        state = _("{result}, bags to the limit").format(result=state)
    return _("{result}, {points}").format(result=state, points=signed(scoring.points(player, tricks)))


def took_words(scoring: Scoring, player: int, tricks: int, who: Names) -> str:
    """What one player's hand came to: ``you took 3 tricks on a bid of 4 (set, −40)``."""
    bid = scoring.bids[player]
    name = who[player]
    you = is_you(name)
    if bid == "double_nil":
        text = (ngettext("you took {count} trick on Double Nil ({result})",
                         "you took {count} tricks on Double Nil ({result})", tricks) if you else
                ngettext("{player} took {count} trick on Double Nil ({result})",
                         "{player} took {count} tricks on Double Nil ({result})", tricks))
    elif bid == 0:
        text = (ngettext("you took {count} trick on a Nil ({result})",
                         "you took {count} tricks on a Nil ({result})", tricks) if you else
                ngettext("{player} took {count} trick on a Nil ({result})",
                         "{player} took {count} tricks on a Nil ({result})", tricks))
    else:
        text = (ngettext("you took {count} trick on a bid of {bid} ({result})",
                         "you took {count} tricks on a bid of {bid} ({result})", tricks) if you else
                ngettext("{player} took {count} trick on a bid of {bid} ({result})",
                         "{player} took {count} tricks on a bid of {bid} ({result})", tricks))
    return text.format(count=tricks, player=name, bid=bid, result=_result_words(scoring, player, tricks))


def _changed_words(scoring: Scoring, x: int, made_now: Optional[bool], bags_kept: Optional[bool],
                   who: Names) -> list[str]:
    """What best play after the better card did to ``x``'s bid (``made_now``: made or kept, else set or broken) and
    bags (``bags_kept``: under the limit, else to it), as phrases after "would have"."""
    name = who[x]
    you = is_you(name)
    bid = bid_short(scoring.bids[x])
    phrases: list[str] = []
    if made_now is not None:
        if scoring.is_nil(x):
            text = ((_("kept your {bid}") if you else _("kept {player}'s {bid}")) if made_now else
                    (_("broken your {bid}") if you else _("broken {player}'s {bid}")))
        else:
            text = ((_("made your {bid}") if you else _("made {player}'s {bid}")) if made_now else
                    (_("set your {bid}") if you else _("set {player}'s {bid}")))
        phrases.append(text.format(bid=bid, player=name))
    if bags_kept is not None:
        text = ((_("kept your bags under the limit") if you else _("kept {player}'s bags under the limit")) if bags_kept
                else (_("taken your bags to the limit") if you else _("taken {player}'s bags to the limit")))
        phrases.append(text.format(player=name))
    return phrases


def alternative_words(scoring: Scoring, player: int, alt: Sequence[int], played: Sequence[int], who: Names,
                      whose: Names) -> str:
    """How best play after the better card (``player`` ending with one of the counts ``alt``) differs from best play
    after the card played (one of ``played``), both from the same moment, as phrases after "would have": ``set the
    bot's 10``, ``kept your Nil``, ``given you 2 more tricks``.  A bid is said made (set, kept, broken) only when
    every count of that side's says so, and the other side's the opposite."""
    phrases: list[str] = []
    for x in (player, 1 - player):
        def mine(t: int) -> int:
            return t if x == player else TRICKS - t  # noqa: B023 (used at once, in this turn of the loop)

        made_alt = {scoring.made(x, mine(t)) for t in alt}
        made_played = {scoring.made(x, mine(t)) for t in played}
        made_now = made_alt == {True} if len(made_alt) == 1 and len(made_played) == 1 and made_alt != made_played \
            else None
        pen_alt = {scoring.penalties(x, mine(t)) for t in alt}
        pen_played = {scoring.penalties(x, mine(t)) for t in played}
        bags_kept = min(pen_alt) < min(pen_played) if len(pen_alt) == 1 and len(pen_played) == 1 \
            and pen_alt != pen_played else None
        phrases += _changed_words(scoring, x, made_now, bags_kept, who)
    if not phrases:
        name = who[player]
        n = min(alt, default=0) - min(played, default=0)
        if n > 0:
            text = (ngettext("given you {count} trick more", "given you {count} tricks more", n) if is_you(name) else
                    ngettext("given {player} {count} trick more", "given {player} {count} tricks more", n))
        elif n < 0:
            text = (ngettext("given you {count} trick fewer", "given you {count} tricks fewer", -n) if is_you(name)
                    else ngettext("given {player} {count} trick fewer", "given {player} {count} tricks fewer", -n))
        else:
            text = _("scored better for you") if is_you(name) else _("scored better for {player}")
        phrases.append(text.format(count=abs(n), player=name))
    return and_words(phrases)


def _story(leader: int, lead: str, card: Optional[str], winner: Optional[int], who: Names) -> str:
    """One trick as it happened, told from its lead: ``you led 4♥; the bot played 2♥ and you won the trick``.
    ``card``: the second card (None: not played yet); ``winner``: who won (None: not known)."""
    x, y = who[leader], who[1 - leader]
    if card is None:
        text = _("you led {lead}") if is_you(x) else _("{player} led {lead}")
    elif winner is None:
        text = (_("you led {lead}, {other} played {card}") if is_you(x) else
                _("{player} led {lead}, you played {card}") if is_you(y) else
                _("{player} led {lead}, {other} played {card}"))
    elif winner == leader:
        text = (_("you led {lead}, {other} played {card} and you won the trick") if is_you(x) else
                _("{player} led {lead}, you played {card} and {player} won the trick") if is_you(y) else
                _("{player} led {lead}, {other} played {card} and {player} won the trick"))
    else:
        text = (_("you led {lead} and {other} won the trick with {card}") if is_you(x) else
                _("{player} led {lead} and you won the trick with {card}") if is_you(y) else
                _("{player} led {lead} and {other} won the trick with {card}"))
    return text.format(player=x, other=y, lead=lead, card=card)


def trick_story_words(hand: HandAnalysis, play: PlayAnalysis, who: Names) -> str:
    """The trick of ``play`` as it happened: ``you played J♠ and the bot won the trick with Q♠``,
    ``you led 4♥; the bot played 2♥ and you won the trick``."""
    both = hand.trick_plays(play.trick)
    winner = hand.trick_winner(play.trick)
    if both and both[0] is not play:
        return _story(both[0].player, both[0].card.label(), play.card.label(), winner, who)
    if len(both) < 2 or winner is None:
        return _story(play.player, play.card.label(), None, None, who)
    return _story(play.player, play.card.label(), both[1].card.label(), winner, who)


def had_words(hand: HandAnalysis, play: PlayAnalysis, who: Names) -> str:
    """The better card's best play beside the card played's, both from the same moment: ``Had you played 9♠, best
    play from there would have set the bot's 10: +140 for you (best play after J♠: −140).``"""
    scoring = hand.scoring
    assert scoring is not None
    p = play.player
    won, left = play.won[p], play.tricks_left
    alt = outcome_counts(scoring, p, won, left, play.points_best)
    played = outcome_counts(scoring, p, won, left, play.points_played)
    text = (_("Had you played {cards}, best play from there would have {outcome}: {best} for you (best play after "
              "{card}: {played}).") if is_you(who[p]) else
            _("Had {player} played {cards}, best play from there would have {outcome}: {best} for {player} (best "
              "play after {card}: {played})."))
    return text.format(player=who[p], cards=either_words(play.points_optimal),
                       outcome=alternative_words(scoring, p, alt, played, who, who), best=signed(play.points_best),
                       card=play.card.label(), played=signed(play.points_played))


def story_lines(hand: HandAnalysis, play: PlayAnalysis, who: Names, whose: Names) -> tuple[str, str]:
    """A costly choice told as a story: first the real trick (what happened in the hand is said once, at the top),
    then, marked as such, two best-play values from that same moment, the better card's and the card played's::

        trick 9: you led J♠ and the bot won the trick with Q♠.
          Had you played 9♠, best play from there would have set the bot's 10: +140 for you
          (best play after J♠: −140).

    Both are what best play by both sides makes of the rest of the hand, all cards face up; neither is compared
    with how the hand went on."""
    happened = _("trick {trick}: {story}.").format(trick=play.trick, story=trick_story_words(hand, play, who))
    return happened, "  " + had_words(hand, play, who)


def _me(who: Names) -> int:
    """The player the totals are told for: the one called "you", else the first."""
    return 1 if is_you(who[1]) and not is_you(who[0]) else 0


def happened_words(scoring: Scoring, final: tuple[int, int], who: Names) -> str:
    """The hand as it was, said once: ``you took 3 tricks on a bid of 4 (set, −40); the bot took 10 tricks on a
    bid of 10 (made, +100): −140 for you.``"""
    me = _me(who)
    text = (_("{first}; {second}: {margin} for you.") if is_you(who[me]) else
            _("{first}; {second}: {margin} for {player}."))
    return text.format(first=took_words(scoring, 0, final[0], who), second=took_words(scoring, 1, final[1], who),
                       margin=signed(scoring.margin(me, final[me])), player=who[me])


def _play_cost_words(player: int, lost: int, who: Names) -> str:
    """``Your card play cost 5 points.``"""
    return capital((ngettext("Your card play cost {count} point.", "Your card play cost {count} points.", lost)
                    if is_you(who[player]) else
                    ngettext("{player}'s card play cost {count} point.", "{player}'s card play cost {count} points.",
                             lost)).format(count=lost, player=who[player]))


def _explained_words(start: int, real: int, lost: tuple[int, int], me: int, who: Names) -> str:
    """How the card play of each side explains the score, from best play at the first lead (``start``, for ``me``)
    to what was played (``real``)."""
    other = 1 - me
    you = is_you(who[me])
    if not lost[me] and not lost[other] and start == real:
        text = (_("With all cards face up, best play from the first lead was worth {start} for you, and so it was "
                  "played: no card of either side cost a point.") if you else
                _("With all cards face up, best play from the first lead was worth {start} for {player}, and so it "
                  "was played: no card of either side cost a point."))
    elif start - lost[me] + lost[other] != real:  # not expected (the solver is exact): the sums alone
        text = (_("Your card play cost {cost}, {other}'s {back}.") if you else
                _("{player}'s card play cost {cost}, {other}'s {back}."))
        return capital(text.format(player=who[me], other=who[other], cost=points_words(lost[me]),
                                   back=points_words(lost[other])))
    elif not lost[other]:
        text = (_("With all cards face up, best play from the first lead was worth {start} for you; your cards cost "
                  "{cost} of that and {other}'s gave none back: {real}, as it was played.") if you else
                _("With all cards face up, best play from the first lead was worth {start} for {player}; {player}'s "
                  "cards cost {cost} of that and {other}'s gave none back: {real}, as it was played."))
    elif not lost[me]:
        text = (_("With all cards face up, best play from the first lead was worth {start} for you; your cards cost "
                  "nothing of that and {other}'s gave {back} back: {real}, as it was played.") if you else
                _("With all cards face up, best play from the first lead was worth {start} for {player}; {player}'s "
                  "cards cost nothing of that and {other}'s gave {back} back: {real}, as it was played."))
    else:
        text = (_("With all cards face up, best play from the first lead was worth {start} for you; your cards cost "
                  "{cost} of that and {other}'s gave {back} back: {real}, as it was played.") if you else
                _("With all cards face up, best play from the first lead was worth {start} for {player}; {player}'s "
                  "cards cost {cost} of that and {other}'s gave {back} back: {real}, as it was played."))
    return text.format(start=signed(start), real=signed(real), player=who[me], other=who[other],
                       cost=points_words(lost[me]), back=points_words(lost[other]))


def totals_words(hand: HandAnalysis, who: Names, whose: Names) -> tuple[str, ...]:
    """What happened in the score, then how the card play of each side explains it::

        What happened: you took 3 tricks on a bid of 4 (set, −40); the bot took 10 tricks on a bid
        of 10 (made, +100): −140 for you.
        With all cards face up, best play from the first lead was worth +141 for you; your cards cost
        281 points of that and the bot's gave none back: −140, as it was played.
    """
    scoring, final = hand.scoring, hand.final_tricks
    me = _me(who)
    lost = hand.points_lost
    if scoring is None or final is None or not hand.plays:
        return tuple(_play_cost_words(p, lost[p], who) for p in (0, 1))
    real = scoring.margin(me, final[me])
    first = hand.plays[0]
    start = first.points_best if first.player == me else -first.points_best
    happened = _("What happened: {happened}").format(happened=happened_words(scoring, final, who))
    return (happened, _explained_words(start, real, (lost[0], lost[1]), me, who))


def section_titles(who: Names, whose: Names) -> tuple[str, str]:
    """The titles of the two sections of costly choices: the player's own, then the other side's
    (against a bot: "Where the bot gave you a chance", so a line never blames one side for the other's card)."""
    me = _me(who)
    other = 1 - me
    if is_you(who[me]):
        return (_("Your costly cards"), _("Where {player} gave you a chance").format(player=who[other]))
    return (capital(_("{player}'s costly cards").format(player=who[me])),
            capital(_("{player}'s costly cards").format(player=who[other])))


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


def _small_part(x: int, bags: int, points: int, overtricks: bool, who: Names) -> str:
    """``1 overtrick more for the bot``, ``your hand 5 points less``."""
    name = who[x]
    you = is_you(name)
    if overtricks:
        n = abs(bags)
        if bags > 0:
            text = (ngettext("{count} overtrick more for you", "{count} overtricks more for you", n) if you else
                    ngettext("{count} overtrick more for {player}", "{count} overtricks more for {player}", n))
        else:
            text = (ngettext("{count} overtrick fewer for you", "{count} overtricks fewer for you", n) if you else
                    ngettext("{count} overtrick fewer for {player}", "{count} overtricks fewer for {player}", n))
    else:
        n = abs(points)
        if points > 0:
            text = (ngettext("your hand {count} point more", "your hand {count} points more", n) if you else
                    ngettext("{player}'s hand {count} point more", "{player}'s hand {count} points more", n))
        else:
            text = (ngettext("your hand {count} point less", "your hand {count} points less", n) if you else
                    ngettext("{player}'s hand {count} point less", "{player}'s hand {count} points less", n))
    return text.format(count=n, player=name)


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
        # an overtrick (a bag): a point now, counted towards the bag limit
        overtricks = bags == points and scoring.made(x, played) and scoring.made(x, alt) and not scoring.is_nil(x)
        parts.append(_small_part(x, bags, points, overtricks, who))
    return and_words(parts) if parts else _("the margin fell")


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
        cards = and_words([_("{card} on trick {trick}").format(card=p.card.label(), trick=p.trick) for p in plays])
        text = (ngettext("{cards} ({count} point: {why})", "{cards} ({count} points: {why})", points)
                if len(plays) == 1 else
                ngettext("{cards} ({count} point each: {why})", "{cards} ({count} points each: {why})", points))
        told.append(text.format(cards=cards, count=points, why=why))
    return _("Smaller costs, under {limit} points each: {costs}").format(limit=MINOR_COST, costs="; ".join(told))


def costly_lines(hand: HandAnalysis, player: int, who: Names, whose: Names) -> list[str]:
    """Each costly choice of ``player`` as a story (two lines, ``story_lines``); the cards that cost under
    ``MINOR_COST`` points (a bag or two) after them, in one line."""
    lines: list[str] = []
    if hand.scoring is None:
        return lines
    for p in hand.plays:
        if p.player == player and p.points_loss >= MINOR_COST:
            lines.extend(capital(line) for line in story_lines(hand, p, who, whose))
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
        plays = [_("No card of yours cost points: each was as good as any for the score.") if is_you(who[me]) else
                 _("No card of {player}'s cost points: each was as good as any for the score.").format(player=who[me])]
    chances = costly_lines(hand, other, who, whose)
    if not chances:
        chances = [_("None: you played every card as well as it could be played for the score.") if is_you(who[other])
                   else _("None: {player} played every card as well as it could be played for the score.").format(
                       player=who[other])]
    bids = [capital(bid_line(hand, p, who, whose)) for p in (0, 1)] if hand.from_lead else []
    see = hand.scoring.rules.see_second_card if hand.scoring is not None else False
    draft = [capital(line) for line in draft_lines(hand.draft, see, who, whose)]
    if hand.draft and not draft:
        draft = [_("No draft turn's other card would have changed the tricks.")]
    return ReviewWords(totals_words(hand, who, whose), tuple(plays), tuple(bids), tuple(draft), tuple(chances),
                       section_titles(who, whose))


def _trick_head(trick: TrickReview, who: Names) -> str:
    """``Trick 5: you led K♥, the bot played A♥; the bot wins it.``"""
    plays = trick.plays
    leader = plays[0].player
    x, y = who[leader], who[1 - leader]
    values = {"trick": trick.number, "lead": plays[0].card.label(), "player": x, "other": y,
              "card": plays[1].card.label() if len(plays) > 1 else ""}
    if len(plays) < 2:
        if trick.winner is None:
            text = _("Trick {trick}: you led {lead}.") if is_you(x) else _("Trick {trick}: {player} led {lead}.")
        else:
            text = _("Trick {trick}: you led {lead}; you win it.") if is_you(x) else \
                _("Trick {trick}: {player} led {lead}; {player} wins it.")
    elif trick.winner is None:
        text = (_("Trick {trick}: you led {lead}, {other} played {card}.") if is_you(x) else
                _("Trick {trick}: {player} led {lead}, you played {card}.") if is_you(y) else
                _("Trick {trick}: {player} led {lead}, {other} played {card}."))
    elif trick.winner == leader:
        text = (_("Trick {trick}: you led {lead}, {other} played {card}; you win it.") if is_you(x) else
                _("Trick {trick}: {player} led {lead}, you played {card}; {player} wins it.") if is_you(y) else
                _("Trick {trick}: {player} led {lead}, {other} played {card}; {player} wins it."))
    else:
        text = (_("Trick {trick}: you led {lead}, {other} played {card}; {other} wins it.") if is_you(x) else
                _("Trick {trick}: {player} led {lead}, you played {card}; you win it.") if is_you(y) else
                _("Trick {trick}: {player} led {lead}, {other} played {card}; {other} wins it."))
    return text.format(**values)


def trick_words(trick: TrickReview, who: Names, whose: Names) -> tuple[str, ...]:
    """One trick: what was played and who won, then each play's legal cards valued in points (the margin
    the player could make sure of after each card), the card played marked with what it cost."""
    lines = [_trick_head(trick, who)]
    for p in trick.plays:
        groups: dict[int, list[Card]] = {}
        for c, v in p.point_values:
            groups.setdefault(v, []).append(c)
        parts = []
        for v in sorted(groups, reverse=True):
            cards = sorted(groups[v], key=lambda c: (-c.rank, c.suit))
            labels = [f"[{c.label()}]" if c == p.card else c.label() for c in cards]
            parts.append(f"{signed(v)} {' '.join(labels)}")
        name = who[p.player]
        n = p.points_loss
        if n:
            text = (ngettext("You, margin after each card: {values}; [{card}] cost {count} point",
                             "You, margin after each card: {values}; [{card}] cost {count} points", n)
                    if is_you(name) else
                    ngettext("{player}, margin after each card: {values}; [{card}] cost {count} point",
                             "{player}, margin after each card: {values}; [{card}] cost {count} points", n))
        else:
            text = (_("You, margin after each card: {values}") if is_you(name) else
                    _("{player}, margin after each card: {values}"))
        lines.append(capital(text.format(player=name, values=" · ".join(parts), card=p.card.label(), count=n)))
    return tuple(lines)
