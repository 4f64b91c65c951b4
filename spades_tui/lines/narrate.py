"""What happened between two views of one seat, one line an event, in plain words and in the order it happened.

``events(before, after, words)`` compares two views of the same seat (or two public views) and says the
difference: a hand begun, Double Nil declared, each draft turn, an exchange, each bid, each card played and each
trick won, spades broken, a hand scored, the game's end, and a line said at a table.  It reads the views only,
so it says nothing the seat may not know: of a draft turn only what the seat saw (its own: ``last_draw``; the
other's: which of the two cards it took), of an exchange only the count.
"""

from __future__ import annotations

from typing import Optional

from ..i18n.language import _, ngettext, pgettext
from ..session.text import printable, speaker
from ..session.view import HandResult, Observation, PlayedCard, SeatView
from .words import Words, bid_words


def who(view: SeatView, player: int) -> str:
    """"You" for the seat's own player, else the name (a player called "You" in the public view reads as a name)."""
    return pgettext("the player, as a name", "You") if player == view.seat else view.names[player]


def _mid(view: SeatView, player: int) -> str:
    """A player as named inside a list: "you", never "You" there."""
    if player == view.seat or view.names[player] == "You":
        return pgettext("the player, inside a list", "you")
    return view.names[player]


def _plays(obs: Observation) -> list[PlayedCard]:
    played = [pc for t in obs.tricks for pc in t]
    return played + list(obs.trick)


def events(before: Optional[SeatView], after: SeatView, w: Words, hands_told: int = 0) -> list[str]:
    """The lines that say what happened from ``before`` (None: nothing said yet) to ``after``; the hands scored
    are said from ``hands_told`` on (hot-seat: a hand's score is said once, not again in each player's view)."""
    lines: list[str] = []
    old_hands = max(len(before.hands) if before is not None else len(after.hands), hands_told)
    obs = after.observation
    same_hand = before is not None and before.observation.hand_number == obs.hand_number
    if same_hand:
        assert before is not None
        lines += _in_hand(before.observation, after, w)
    for number in range(old_hands, len(after.hands)):
        lines += hand_lines(after, number, w)
    if not same_hand and after.in_hand:
        first = obs.first_drafter
        lines.append(_("Hand {number}. You draft first.").format(number=obs.hand_number) if first == after.seat else
                     _("Hand {number}. {player} drafts first.").format(number=obs.hand_number,
                                                                       player=after.names[first]))
        lines += _in_hand(None, after, w)
    if before is not None:
        lines += _table(before, after)
    if after.outcome is not None and (before is None or before.outcome is None):
        lines += end_lines(after, w)
    return lines


def _in_hand(base: Optional[Observation], view: SeatView, w: Words) -> list[str]:
    obs = view.observation
    lines: list[str] = []
    names = view.names
    for p in (0, 1):
        if obs.double_nil[p] and not (base is not None and base.double_nil[p]):
            lines.append(_("You declared Double Nil: you must win no trick.") if p == view.seat else
                         _("{player} declared Double Nil: they must win no trick.").format(player=names[p]))
    old = len(base.draft_log) if base is not None else 0
    mine = [i for i, d in enumerate(obs.draft_log) if d.player == view.seat]
    for i in range(old, len(obs.draft_log)):
        turn = obs.draft_log[i]
        yours = turn.player == view.seat
        if yours and i == mine[-1] and view.last_draw is not None:
            lines.append(_own_draw(view.last_draw, w))
        elif turn.take == "first":
            lines.append(_("You took the top card.") if yours else
                         _("{player} took the top card.").format(player=names[turn.player]))
        else:
            lines.append(_("You passed the top card and took the next one.") if yours else
                         _("{player} passed the top card and took the next one.").format(player=names[turn.player]))
    for p in (0, 1):
        if obs.exchanged[p] is not None and not (base is not None and base.exchanged[p] is not None):
            lines.append(_exchange(view, p, obs.exchanged[p] or 0, w))
    for p in (0, 1):
        bid = obs.bids[p]
        if bid is not None and bid != "double_nil" and not (base is not None and base.bids[p] is not None):
            lines.append(_("You bid {bid}.").format(bid=bid_words(bid)) if p == view.seat else
                         _("{player} bid {bid}.").format(player=names[p], bid=bid_words(bid)))
    lines += _play(base, view, w)
    return lines


def _own_draw(last: tuple[object, object, str], w: Words) -> str:
    top, second, take = last
    if take == "first":
        if second is None:
            return _("You kept {card}.").format(card=w.card(top))  # type: ignore[arg-type]
        return _("You kept {card}. {other} went to the discard pile.").format(
            card=w.card(top), other=w.card(second))  # type: ignore[arg-type]
    if second is None:
        return _("You passed {card} and took the next card.").format(card=w.card(top))  # type: ignore[arg-type]
    return _("You passed {card} and took {other}.").format(card=w.card(top), other=w.card(second))  # type: ignore[arg-type]


def _exchange(view: SeatView, p: int, count: int, w: Words) -> str:
    yours = p == view.seat
    if yours and view.last_exchange is not None:
        gave, got = view.last_exchange
        if not gave:
            return _("You kept all your cards.")
        return _("You gave back {cards} and drew {drawn}.").format(cards=w.cards(gave), drawn=w.cards(got))
    if count == 0:
        return _("You kept all your cards.") if yours else \
            _("{player} kept all their cards.").format(player=view.names[p])
    if yours:
        return ngettext("You exchanged {count} card.", "You exchanged {count} cards.", count).format(count=count)
    return ngettext("{player} exchanged {count} card.", "{player} exchanged {count} cards.", count).format(
        player=view.names[p], count=count)


def _play(base: Optional[Observation], view: SeatView, w: Words) -> list[str]:
    obs = view.observation
    played = _plays(obs)
    old = len(_plays(base)) if base is not None else 0
    lines: list[str] = []
    names = view.names
    for i in range(old, len(played)):
        pc = played[i]
        number = i // 2 + 1
        yours = pc.player == view.seat
        if i % 2 == 0:
            lines.append(_("You led {card}.").format(card=w.card(pc.card)) if yours else
                         _("{player} led {card}.").format(player=names[pc.player], card=w.card(pc.card)))
            continue
        lines.append(_("You played {card}.").format(card=w.card(pc.card)) if yours else
                     _("{player} played {card}.").format(player=names[pc.player], card=w.card(pc.card)))
        if number <= len(view.trick_winners):
            winner = view.trick_winners[number - 1]
            card = w.card(next(c.card for c in played[i - 1:i + 1] if c.player == winner))
            won = [sum(1 for x in view.trick_winners[:number] if x == p) for p in (0, 1)]
            me = view.seat if view.seat is not None else 0
            tally = _tally(view, me, won[me], won[1 - me])
            lines.append(_("You won trick {number} with {card}. Tricks: {tally}.").format(
                number=number, card=card, tally=tally) if winner == view.seat else
                _("{player} won trick {number} with {card}. Tricks: {tally}.").format(
                    player=names[winner], number=number, card=card, tally=tally))
    if obs.spades_broken and not (base is not None and base.spades_broken):
        lines.append(_("Spades are broken."))
    return lines


def _tally(view: SeatView, me: int, mine: object, theirs: object) -> str:
    """Two players' figures in a list, the seat's own first: "you 3, Bob 2"."""
    return ", ".join(pgettext("a player and a figure, in a list", "{player} {figure}").format(
        player=_mid(view, p), figure=figure) for p, figure in ((me, mine), (1 - me, theirs)))


def hand_lines(view: SeatView, index: int, w: Words) -> list[str]:
    """Hand ``index + 1`` scored: each player's bid, tricks and points (the seat's own first), then the score."""
    h: HandResult = view.hands[index]
    me = view.seat if view.seat is not None else 0
    parts = [_scored(view, h, p, w) for p in (me, 1 - me)]
    score = _tally(view, me, w.number(h.scores_after[me]), w.number(h.scores_after[1 - me]))
    bags = _tally(view, me, h.bags_after[me], h.bags_after[1 - me])
    return [" ".join([_("Hand {number} scored.").format(number=index + 1), *parts]),
            _("Score: {scores}. Bags: {bags}.").format(scores=score, bags=bags)]


def _scored(view: SeatView, h: HandResult, p: int, w: Words) -> str:
    line = h.lines[p]
    extra = []
    if line.bags_added:
        extra.append(ngettext("{count} bag", "{count} bags", line.bags_added).format(count=line.bags_added))
    if line.bag_penalty:
        extra.append(_("bag penalty {points}").format(points=w.signed(line.bag_penalty)))
    said = dict(player=view.names[p], bid=bid_words(h.bids[p]), tricks=h.tricks[p], points=w.signed(h.points[p]),
                details=", ".join(extra))
    if p == view.seat:
        return (_("You bid {bid} and won {tricks}: {points} ({details}).") if extra else
                _("You bid {bid} and won {tricks}: {points}.")).format(**said)
    return (_("{player} bid {bid} and won {tricks}: {points} ({details}).") if extra else
            _("{player} bid {bid} and won {tricks}: {points}.")).format(**said)


def _wins(view: SeatView, winner: int) -> bool:
    """Whether the winner is said as "You win" (the seat's own player, or a player called "You")."""
    return winner == view.seat or speaker(view.names[winner]) == "you"


def end_lines(view: SeatView, w: Words) -> list[str]:
    """The game's end: by a forfeit, or the winner and the score."""
    winner = view.winner
    if view.forfeit:
        said = [printable(view.forfeit, limit=190)]
        if winner is not None:
            said.append(_("You win by forfeit.") if _wins(view, winner) else
                        _("{player} wins by forfeit.").format(player=view.names[winner]))
        return said
    scores = view.observation.scores
    if winner is None:
        return [_("Game over.")]
    score, other = w.number(scores[winner]), w.number(scores[1 - winner])
    return [_("Game over: You win, {score} to {other}.").format(score=score, other=other) if _wins(view, winner) else
            _("Game over: {player} wins, {score} to {other}.").format(player=view.names[winner], score=score,
                                                                    other=other)] + (
        [view.shuffle] if view.shuffle else [])


def _table(before: SeatView, after: SeatView) -> list[str]:
    """At a network table: the lines said since (who sat down, dropped or came back the table says itself)."""
    lines = []
    old, new = before.said, after.said
    overlap = next((k for k in range(min(len(old), len(new)), 0, -1) if old[len(old) - k:] == new[:k]), 0)
    for name, text in new[overlap:]:
        lines.append(_("{player} says: {text}").format(player=printable(name, limit=40),
                                                      text=printable(text, limit=150)))
    return lines
