"""What the game screens say of the table: the news of what just happened, the trick's rows, the waiting line.

Shared by the view models (``viewmodels.py``): each function reads public facts of a seat's view, and of
the seat's own observation only what the seat may know (its draw, its exchange).  Pure text, no Textual.
"""

from __future__ import annotations

from typing import Sequence

from ..i18n.language import _, ngettext
from ..session.view import Card, Observation, Phase, SeatView
from .gameview import TableRow
from .notation import bid_note, bid_text, bid_won_note, is_you, sort_hand
from .panelmodel import panel_names


def opponent_picks(obs: Observation) -> str:
    """The other player's draft picks in words, for their side of the table ("" before their first)."""
    took = [d.take for d in obs.draft_log if d.player == obs.opponent]
    if not took:
        return ""
    return took_words(took)


def took_words(took: Sequence[str]) -> str:
    """'took 3 first, 4 second': how often the top card and how often the next one."""
    return _("took {first} first, {second} second").format(first=took.count("first"), second=took.count("second"))


def draft_picks(seat_view: SeatView, obs: Observation) -> tuple[str, ...]:
    """The draft's picks for the panel: public facts (which card of the two each player took, and when)."""
    lines = []
    short = panel_names(seat_view.names, 12)
    for p in (obs.opponent, obs.seat):
        took = [d.take for d in obs.draft_log if d.player == p]
        if took:
            lines.append(_("{player} took {first} first, {second} second").format(
                player=short[p], first=took.count("first"), second=took.count("second")))
    return tuple(lines)


def seen_passed(seat_view: SeatView, obs: Observation) -> dict[str, object]:
    """The cards this seat saw passed in the draft, which it knows are out of play (docs/rules.md: a player
    knows every card it saw in the draft).  Not once the other player made a Double Nil exchange: it draws
    from the discard pile, so a card seen passed may be in their hand, and the screen must not say which."""
    if obs.exchanged[obs.opponent]:
        return {}
    cards = tuple(sort_hand(obs.seen_discards - obs.hand))  # one's own exchange may have drawn some back
    return {"seen": cards, "seen_caption": _("Seen passed: out of play")} if cards else {}


def trick_rows(seat_view: SeatView, obs: Observation, names: tuple[str, str]) -> tuple[TableRow, ...]:
    """The trick in the middle, each card on its player's side; a complete trick stays, its winner
    marked, until the next card is led."""
    me, opp = obs.seat, obs.opponent
    if obs.trick:
        leader = obs.trick[0].player
        played = {pc.player: pc.card for pc in obs.trick}
        return tuple(TableRow(_("{player} led").format(player=names[p]) if p == leader else names[p], (played.get(p),))
                     for p in (opp, me))
    if obs.tricks:
        last = obs.tricks[-1]
        winner = seat_view.trick_winners[-1]
        played = {pc.player: pc.card for pc in last}
        won = _("{player} won trick {number}")
        return tuple(TableRow(won.format(player=names[p], number=len(obs.tricks)) if p == winner else names[p],
                              (played[p],),
                              mark=p == winner) for p in (opp, me))
    return tuple(TableRow(names[p], (None,)) for p in (opp, me))


def last_trick_words(seat_view: SeatView, names: tuple[str, str], short: bool = False) -> str:
    """The last complete trick in words; ``short``: on one line of a short terminal's table (issue 52)."""
    found = seat_view.last_trick
    if found is None:
        return ""
    (lead, follow), winner = found
    # Mid-sentence: a player called "You" is "you", never "You won".
    said = [_("you") if is_you(n) else n for n in names]
    values = {"leader": said[lead.player], "lead": lead.card.label(), "follower": said[follow.player],
              "follow": follow.card.label(), "winner": said[winner]}
    if short:
        return _("Last trick: {leader} {lead}, {follower} {follow}: {winner} won.").format(**values)
    return _("Last trick: {leader} led {lead}, {follower} played {follow}; {winner} won.").format(**values)


def news_lines(*parts: str) -> str:
    """News each on a line of its own, so that a narrow pane wraps none of them mid-phrase."""
    return "\n".join(p for p in parts if p)


def draw_news(seat_view: SeatView) -> str:
    """The seat's own last draft turn in words: what it kept, and the card drawn after a pass."""
    if seat_view.last_draw is None:
        return ""
    top, second, take = seat_view.last_draw
    if take == "second":
        if second is None:
            return _("Last turn you passed {card} and drew the next.").format(card=top.label())
        return _("Last turn you passed {card} and drew {drawn}.").format(card=top.label(), drawn=second.label())
    if second is None:
        return _("Last turn you took {card}.").format(card=top.label())
    return _("Last turn you took {card} and passed {passed}.").format(card=top.label(), passed=second.label())


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.label() for c in sort_hand(cards))


def exchange_news(seat_view: SeatView, obs: Observation) -> str:
    """The Double Nil exchanges of this hand, once done: the seat's own in cards (what it put back, what
    came back), the other player's as a count only (all the seat may know of it)."""
    parts = []
    mine = seat_view.last_exchange
    if mine is not None:
        gave, got = mine
        parts.append(_("You gave {gave} and got {got}.").format(gave=_cards(gave), got=_cards(got)) if gave else
                     _("You kept all your cards."))
    other = obs.opponent
    count = obs.exchanged[other]
    if count is not None:
        name = seat_view.names[other]
        parts.append(ngettext("{player} exchanged {count} card.", "{player} exchanged {count} cards.", count).format(
            player=name, count=count) if count else _("{player} kept all.").format(player=name))
    return news_lines(*parts)


def double_nil_news(seat_view: SeatView, obs: Observation) -> str:
    """The other player's Double Nil, said from the moment it is declared until the bidding shows it."""
    other = obs.opponent
    return _("{player} declared Double Nil.").format(player=seat_view.names[other]) if obs.double_nil[other] else ""


def play_news(seat_view: SeatView, obs: Observation) -> str:
    """What the other player did that the table no longer shows: their bid before the first trick, and
    the trick they won just before leading again (the table now shows their new lead)."""
    other = 1 - obs.seat
    name = seat_view.names[other]
    if not obs.tricks:
        bid = obs.bids[other]
        return _("{player} bid {bid}.").format(player=name, bid=bid_text(bid)) if bid is not None else ""
    found = seat_view.last_trick
    if found is None or not obs.trick or obs.trick[0].player != other or found[1] != other:
        return ""
    played = {pc.player: pc.card for pc in found[0]}
    return _("{player} won trick {number} with {card} (you played {yours}) and leads again.").format(
        player=name, number=len(obs.tricks), card=played[other].label(), yours=played[obs.seat].label())


def waiting_prompt(seat_view: SeatView) -> str:
    actor = seat_view.to_act
    if actor is None:
        return ""
    name = seat_view.names[actor]
    # This seat's own link to a network table is down.
    if seat_view.seat is not None and not seat_view.connected[seat_view.seat]:
        return _("Not connected: waiting for the table… (it is saved; nothing is sent until it is back)")
    if not seat_view.connected[actor]:
        return _("{player} is disconnected: the game waits for them (it is saved).").format(player=name)
    # At a table the other seat may be a bot (it thinks) or a person (who is waited for, never "thinking": issue 52).
    bot = seat_view.bot_thinking or (bool(seat_view.table) and seat_view.players[actor].bot_spec is not None)
    if bot:
        return _("{player} is thinking…").format(player=name)
    return (_("Waiting for {player} at the other machine.") if seat_view.table else
            _("Waiting for {player}.")).format(player=name)


# ---------------------------------------------------------------- the public view (a watcher, bots among themselves)


def public_cards(obs: Observation, player: int) -> int:
    """How many cards ``player`` holds, from public facts alone: a card a draft turn (either card taken), less
    the cards played; an exchange gives back as many as it puts back (cards set aside still count as held)."""
    drafted = sum(1 for d in obs.draft_log if d.player == player)
    played = sum(1 for t in obs.tricks for pc in t if pc.player == player) + \
        sum(1 for pc in obs.trick if pc.player == player)
    return max(0, drafted - played)


def watch_note(seat_view: SeatView, obs: Observation, player: int) -> str:
    """A player's side in the public view, beside their name and card count: the draft's picks while it goes
    on, then their Double Nil and exchange, their bid, the tricks they won."""
    phase = seat_view.phase
    parts = []
    if phase in (Phase.DOUBLE_NIL, Phase.DRAFT):
        took = [d.take for d in obs.draft_log if d.player == player]
        if took:
            parts.append(took_words(took))
    if obs.double_nil[player] and phase is not Phase.PLAY:
        parts.append(_("Double Nil"))
    exchanged = obs.exchanged[player]
    if exchanged is not None and phase in (Phase.EXCHANGE, Phase.EXCHANGE_DRAW, Phase.BIDDING):
        parts.append(_("exchanged {count}").format(count=exchanged) if exchanged else _("kept all"))
    if phase is Phase.BIDDING and obs.bids[player] is not None:
        parts.append(bid_note(obs.bids[player]))
    if phase is Phase.PLAY:
        parts.append(bid_won_note(obs.bids[player], obs.tricks_won[player]))
    return " · ".join(parts)


def watch_prompt(seat_view: SeatView) -> str:
    """Whose turn it is and at what, in the public view."""
    obs, actor = seat_view.observation, seat_view.to_act
    if actor is None:
        return ""
    name = seat_view.names[actor]
    if not seat_view.connected[actor]:
        return _("{player} is disconnected: the game waits for them.").format(player=name)
    phase = obs.phase
    if phase is Phase.DOUBLE_NIL:
        return _("{player} may declare Double Nil before drafting.").format(player=name)
    if phase is Phase.DRAFT:
        turn = sum(1 for d in obs.draft_log if d.player == actor) + 1
        return _("{player}: draft turn {turn} of 13.").format(player=name, turn=turn)
    if phase in (Phase.EXCHANGE, Phase.EXCHANGE_DRAW):
        return _("{player}: the Double Nil exchange.").format(player=name)
    if phase is Phase.BIDDING:
        return _("{player} bids.").format(player=name)
    if phase is Phase.PLAY:
        return (_("{player} to follow.") if obs.trick else _("{player} to lead.")).format(player=name)
    return ""


def watch_news(seat_view: SeatView, obs: Observation) -> str:
    """What the public view says beside the table: each Double Nil declared, until the bidding shows it; the
    bids once made, until the first trick is complete (then the sides say them)."""
    names, phase = seat_view.names, obs.phase
    lines = []
    if phase in (Phase.DOUBLE_NIL, Phase.DRAFT, Phase.EXCHANGE, Phase.EXCHANGE_DRAW):
        lines += [_("{player} declared Double Nil.").format(player=names[p]) for p in (0, 1) if obs.double_nil[p]]
    if phase is Phase.BIDDING or (phase is Phase.PLAY and not obs.tricks):
        lines += [_("{player} bid {bid}.").format(player=names[p], bid=bid_text(obs.bids[p]))
                  for p in (0, 1) if obs.bids[p] is not None]
    return news_lines(*lines)
