"""The analysis's lines of the bid and the draft (docs/analysis.md, "The bid" and "The draft"), in whole messages:
each bid beside best play's tricks from the first lead and the tricks taken, the difference named card by card; each
draft turn whose other card would have changed the tricks.  Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..engine.rulebook import TRICKS
from ..i18n.language import _, ngettext, translated
from .wording import Names, TrickPart, and_words, bid_short, is_you, part_words

if TYPE_CHECKING:  # for annotations only
    from .judgement import DraftAnalysis, HandAnalysis


def draft_words(d: DraftAnalysis, see_second_card: bool, who: Names, whose: Names) -> str:
    """A draft turn whose other card would have done better, saying for whom and by how many tricks:
    ``draft turn 5: you kept 7♣ and passed K♠, unseen; K♠ would have made you 1 more trick``."""
    name = who[d.player]
    you = is_you(name)
    unseen = not (see_second_card or d.other_seen)
    values = {"turn": d.turn, "kept": d.kept.label(), "passed": d.other.label(), "player": name}
    if d.tricks_other is None:
        if unseen:
            text = (_("draft turn {turn}: you kept {kept} and passed {passed}, unseen (not judged: {reason})")
                    if you else
                    _("draft turn {turn}: {player} kept {kept} and passed {passed}, unseen (not judged: {reason})"))
        else:
            text = (_("draft turn {turn}: you kept {kept} and passed {passed} (not judged: {reason})") if you
                    else _("draft turn {turn}: {player} kept {kept} and passed {passed} (not judged: {reason})"))
        return text.format(reason=translated(d.skipped), **values)
    n = abs(d.tricks_other - d.tricks)
    if d.aim == "fewest":
        if unseen:
            text = (ngettext("draft turn {turn}: you kept {kept} and passed {passed}, unseen; {passed} would have let "
                             "you be held to {count} fewer trick",
                             "draft turn {turn}: you kept {kept} and passed {passed}, unseen; {passed} would have let "
                             "you be held to {count} fewer tricks", n) if you else
                    ngettext("draft turn {turn}: {player} kept {kept} and passed {passed}, unseen; {passed} would have "
                             "let {player} be held to {count} fewer trick",
                             "draft turn {turn}: {player} kept {kept} and passed {passed}, unseen; {passed} would have "
                             "let {player} be held to {count} fewer tricks", n))
        else:
            text = (ngettext("draft turn {turn}: you kept {kept} and passed {passed}; {passed} would have let you be "
                             "held to {count} fewer trick",
                             "draft turn {turn}: you kept {kept} and passed {passed}; {passed} would have let you be "
                             "held to {count} fewer tricks", n) if you else
                    ngettext("draft turn {turn}: {player} kept {kept} and passed {passed}; {passed} would have let "
                             "{player} be held to {count} fewer trick",
                             "draft turn {turn}: {player} kept {kept} and passed {passed}; {passed} would have let "
                             "{player} be held to {count} fewer tricks", n))
    elif unseen:
        text = (ngettext("draft turn {turn}: you kept {kept} and passed {passed}, unseen; {passed} would have made "
                         "you {count} more trick",
                         "draft turn {turn}: you kept {kept} and passed {passed}, unseen; {passed} would have made "
                         "you {count} more tricks", n) if you else
                ngettext("draft turn {turn}: {player} kept {kept} and passed {passed}, unseen; {passed} would have "
                         "made {player} {count} more trick",
                         "draft turn {turn}: {player} kept {kept} and passed {passed}, unseen; {passed} would have "
                         "made {player} {count} more tricks", n))
    else:
        text = (ngettext("draft turn {turn}: you kept {kept} and passed {passed}; {passed} would have made you "
                         "{count} more trick",
                         "draft turn {turn}: you kept {kept} and passed {passed}; {passed} would have made you "
                         "{count} more tricks", n) if you else
                ngettext("draft turn {turn}: {player} kept {kept} and passed {passed}; {passed} would have made "
                         "{player} {count} more trick",
                         "draft turn {turn}: {player} kept {kept} and passed {passed}; {passed} would have made "
                         "{player} {count} more tricks", n))
    return text.format(count=n, **values)


def good_draft_words(player: int, turns: Sequence[int], tricks: int, aim: str, who: Names) -> str:
    """``well kept at your draft turns 7, 8 and 13: the other card would have cost you 1 trick at each``."""
    name = who[player]
    you = is_you(name)
    n = tricks
    if len(turns) == 1:
        if aim == "fewest":
            text = (ngettext("well kept at your draft turn {turns}: the other card would have given you {count} trick "
                             "more to take",
                             "well kept at your draft turn {turns}: the other card would have given you {count} "
                             "tricks more to take", n) if you else
                    ngettext("well kept at {player}'s draft turn {turns}: the other card would have given {player} "
                             "{count} trick more to take",
                             "well kept at {player}'s draft turn {turns}: the other card would have given {player} "
                             "{count} tricks more to take", n))
        else:
            text = (ngettext("well kept at your draft turn {turns}: the other card would have cost you {count} trick",
                             "well kept at your draft turn {turns}: the other card would have cost you {count} tricks",
                             n) if you else
                    ngettext("well kept at {player}'s draft turn {turns}: the other card would have cost {player} "
                             "{count} trick",
                             "well kept at {player}'s draft turn {turns}: the other card would have cost {player} "
                             "{count} tricks", n))
    elif aim == "fewest":
        text = (ngettext("well kept at your draft turns {turns}: the other card would have given you {count} trick "
                         "more to take at each",
                         "well kept at your draft turns {turns}: the other card would have given you {count} tricks "
                         "more to take at each", n) if you else
                ngettext("well kept at {player}'s draft turns {turns}: the other card would have given {player} "
                         "{count} trick more to take at each",
                         "well kept at {player}'s draft turns {turns}: the other card would have given {player} "
                         "{count} tricks more to take at each", n))
    else:
        text = (ngettext("well kept at your draft turns {turns}: the other card would have cost you {count} trick at "
                         "each",
                         "well kept at your draft turns {turns}: the other card would have cost you {count} tricks at "
                         "each", n) if you else
                ngettext("well kept at {player}'s draft turns {turns}: the other card would have cost {player} "
                         "{count} trick at each",
                         "well kept at {player}'s draft turns {turns}: the other card would have cost {player} "
                         "{count} tricks at each", n))
    return text.format(count=n, player=name, turns=and_words([str(t) for t in sorted(turns)]))


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


def _part(sign: int, kind: str, mover: int, found: Sequence[tuple[int, int]], who: Names) -> list[TrickPart]:
    """A part from ``(trick, tricks moved)`` pairs, in the words of ``kind`` (``wording.part_words``); none if
    nothing moved."""
    if not found:
        return []
    n = sum(k for _, k in found)
    return [TrickPart(sign, n, tuple(t for t, _ in found), part_words(kind, mover, found, who))]


def trick_parts(hand: HandAnalysis, player: int, who: Names, whose: Names) -> list[TrickPart]:
    """Where ``player``'s tricks came from beside best play from the first lead, card by card, so that best play's
    count plus the signed parts is the count taken.  Each card is judged in the game the hand was: both sides
    taking tricks; against a Nil, the Nil's fewest (the Nil bidder ducking, the other pushing tricks on it)."""
    p, q = player, 1 - player
    mine = [x for x in hand.plays if x.player == p]
    theirs = [x for x in hand.plays if x.player == q]
    if hand.is_nil(p):
        own = _part(+1, "let_more", p, [(x.trick, x.nil_loss) for x in mine if x.nil_loss > 0], who)
        if hand.is_nil(q):
            other = _part(-1, "let_fewer", q, [(x.trick, x.nil_loss) for x in theirs if x.nil_loss > 0], who)
        else:
            other = _part(-1, "push_fewer", q, [(x.trick, x.push_loss) for x in theirs if x.push_loss > 0], who)
        return own + other
    if hand.is_nil(q):
        other = _part(-1, "let_fewer", q, [(x.trick, x.nil_loss) for x in theirs if x.nil_loss > 0], who)
        own = _part(+1, "push_more", p, [(x.trick, x.push_loss) for x in mine if x.push_loss > 0], who)
        return other + own
    given = _part(+1, "given", q, [(x.trick, x.loss) for x in theirs if x.loss > 0], who)
    lost = _part(-1, "lost", p, [(x.trick, x.loss) for x in mine if x.loss > 0], who)
    return given + lost


def par_tricks(hand: HandAnalysis, player: int) -> int:
    """The tricks best play from the first lead gives ``player``: the most they can make; a Nil bidder the fewest
    they can be held to; against a Nil what is left once the Nil is held to its fewest."""
    if hand.is_nil(player):
        return hand.could_hold[player]
    if hand.is_nil(1 - player):
        return TRICKS - hand.could_hold[1 - player]
    return hand.could_make[player]


def _best_words(hand: HandAnalysis, player: int, who: Names) -> str:
    """The bid beside what best play for tricks from the first lead would have made of the hand: ``the bot bid 9;
    best play for tricks from the first lead would have made 7 for the bot`` (a Nil: the fewest it could be held
    to; against a Nil: what is left once the Nil is held to its fewest)."""
    bid = hand.bids[player]
    name, other = who[player], who[1 - player]
    par = par_tricks(hand, player)
    if hand.is_nil(player):
        if par == 0:
            text = (_("you bid {bid}; best play for tricks from the first lead would have held you to 0 tricks (it "
                      "would hold)") if is_you(name) else
                    _("{player} bid {bid}; best play for tricks from the first lead would have held {player} to 0 "
                      "tricks (it would hold)"))
        else:
            text = (ngettext("you bid {bid}; best play for tricks from the first lead would have held you to {count} "
                             "trick (it could not hold)",
                             "you bid {bid}; best play for tricks from the first lead would have held you to {count} "
                             "tricks (it could not hold)", par) if is_you(name) else
                    ngettext("{player} bid {bid}; best play for tricks from the first lead would have held {player} "
                             "to {count} trick (it could not hold)",
                             "{player} bid {bid}; best play for tricks from the first lead would have held {player} "
                             "to {count} tricks (it could not hold)", par))
        return text.format(bid=bid_short(bid) if bid is not None else "", player=name, count=par)
    if hand.is_nil(1 - player):
        # Against a Nil the two sides want other things (one ducks, the other pushes tricks on it), so "the most
        # it could make" (both playing for tricks) is not what best play makes: the Nil's fewest is.
        if is_you(name):
            text = ngettext("you bid {bid}; against {other}'s {nil}, best play for tricks from the first lead would "
                            "have left {count} trick to you",
                            "you bid {bid}; against {other}'s {nil}, best play for tricks from the first lead would "
                            "have left {count} tricks to you", par)
        elif is_you(other):
            text = ngettext("{player} bid {bid}; against your {nil}, best play for tricks from the first lead would "
                            "have left {count} trick to {player}",
                            "{player} bid {bid}; against your {nil}, best play for tricks from the first lead would "
                            "have left {count} tricks to {player}", par)
        else:
            text = ngettext("{player} bid {bid}; against {other}'s {nil}, best play for tricks from the first lead "
                            "would have left {count} trick to {player}",
                            "{player} bid {bid}; against {other}'s {nil}, best play for tricks from the first lead "
                            "would have left {count} tricks to {player}", par)
        nil = hand.bids[1 - player]
        return text.format(bid=bid, other=other, nil=bid_short(nil) if nil is not None else "", count=par,
                           player=name)
    text = (_("you bid {bid}; best play for tricks from the first lead would have made {tricks} for you")
            if is_you(name) else
            _("{player} bid {bid}; best play for tricks from the first lead would have made {tricks} for {player}"))
    return text.format(bid=bid, tricks=par, player=name)


def bid_line(hand: HandAnalysis, player: int, who: Names, whose: Names) -> str:
    """A bid beside what best play for tricks from the first lead would have made of the hand, and what was taken, with
    where the difference came from: ``the bot bid 9; best play for tricks from the first lead would have made 7 for the
    bot; the bot took 8, 1 given by you on trick 5`` (a Nil: the fewest the bidder could be held to).  Every
    figure says whose it is: the solver's tricks are marked as best play's, the real ones as taken."""
    name = who[player]
    best = _best_words(hand, player, who)
    final = hand.final_tricks
    if final is None:
        return _("{line} (the hand was cut short)").format(line=best)
    took = final[player]
    parts = [part.words for part in trick_parts(hand, player, who, whose)]
    if not parts:
        text = (_("{line}; you took {tricks}, as best play for tricks would have") if is_you(name) else
                _("{line}; {player} took {tricks}, as best play for tricks would have"))
    elif len(parts) == 1:
        text = _("{line}; you took {tricks}, {part}") if is_you(name) else _("{line}; {player} took {tricks}, {part}")
    else:  # both sides' cards moved the count
        text = _("{line}; you took {tricks}: {parts}") if is_you(name) else _("{line}; {player} took {tricks}: {parts}")
    return text.format(line=best, tricks=took, player=name, part=parts[0] if parts else "", parts="; ".join(parts))
