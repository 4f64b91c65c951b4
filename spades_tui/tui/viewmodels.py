"""View models: pure functions from a seat's view to what a screen shows.

No Textual here, so every screen's content is unit-tested without a terminal.
Each function takes a ``SeatView`` (``session/view.py``: what one seat may know, or the
public view) plus the choice in progress (cards marked for an exchange, a half-typed bid)
and returns a frozen ``GameView``.  It never sees the whole game: what it shows of cards
comes from the view's observation, which holds no card its seat may not know, and in the
public view (a hot-seat hand-off, a spectator) no card of any hand.  Each choice carries
what it does, so the screens never decide by the phase again.

Beside them: the values they return (``gameview.py``), what the table says (``news.py``), how
numbers and bids are written (``notation.py``), the score panel's text (``panelmodel.py``), the
review's (``reviewmodel.py``) and the start screen's list of saved games (``startlist.py``).
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ..i18n.language import _, ngettext
from ..session.text import over_par_words
from ..session.view import (
    Bid,
    Card,
    DeclareDoubleNil,
    Draft,
    Exchange,
    Observation,
    Phase,
    Play,
    PlayerAction,
    SeatView,
    Suit,
)
from .gameview import Command, GameView, HintLine, Item, Opponent, Sheet, TableRow
from .hintpanel import HINT_OPTIONS
from .news import (
    double_nil_news,
    draft_picks,
    draw_news,
    exchange_news,
    last_trick_words,
    news_lines,
    opponent_picks,
    play_news,
    public_cards,
    seen_passed,
    trick_rows,
    waiting_prompt,
    watch_news,
    watch_note,
    watch_prompt,
)
from .notation import (
    bid_note,
    bid_text,
    bid_won_note,
    exchange_label,
    is_you,
    minus_signs,
    num,
    pair,
    short_bid,
    signed,
    sort_hand,
)
from .panelmodel import panel_names, status_text

# ---------------------------------------------------------------- shared parts


def _mine(seat_view: SeatView) -> Optional[Observation]:
    """The seat's own observation; None in the public view (whose observation has no private field)."""
    return seat_view.observation if seat_view.seat is not None else None


def _decision(seat_view: SeatView, pane: str) -> tuple[object, ...]:
    return (pane, seat_view.actions, seat_view.seat)


def _view(seat_view: SeatView, pane: str, prompt: str, **fields: object) -> GameView:
    view = GameView(pane, status_text(seat_view), prompt, decision=_decision(seat_view, pane), **fields)  # type: ignore[arg-type]
    return _advised(seat_view, view) if pane in ADVISED else view


ADVISED = ("double_nil", "draft", "bidding", "play", "exchange")


def _same_action(a: Optional[PlayerAction], b: Optional[PlayerAction]) -> bool:
    """Equal actions; two exchanges of the same cards in any order are the same."""
    if isinstance(a, Exchange) and isinstance(b, Exchange):
        return a.player == b.player and set(a.discard) == set(b.discard)
    return a == b


def _advised(seat_view: SeatView, view: GameView) -> GameView:
    """Enter's default is the view's (the hint's recommendation once it has come, until then the normal
    bot's choice, both chosen where the view was built); the panel shows the hint when it is on.  At the
    exchange the default's cards come marked (``premark``), so Enter there confirms it too."""
    hint = seat_view.hint
    wanted = seat_view.default
    default = next((i for i, it in enumerate(view.items)
                    if wanted is not None and _same_action(it.action, wanted) and it.enabled), view.default)
    premark: Optional[frozenset[Card]] = None
    if view.pane == "exchange" and isinstance(wanted, Exchange):
        premark = frozenset(wanted.discard)
    text = ""
    lines: tuple[HintLine, ...] = ()
    if seat_view.show_hints:
        if hint is None:
            lines = (HintLine(_("Hint: thinking…")),)
        else:
            lines = (HintLine(minus_signs(_("Hint: {summary}").format(summary=hint.summary))),) + tuple(
                HintLine(o.label, tuple(minus_signs(p) for p in (o.score, *o.detail.split(" · ")) if p), "  ",
                         minus_signs(o.figure))
                for o in hint.options)  # every choice: those past the first few listed compactly (hintpanel.py)
        text = "\n".join(line.text() for line in lines[:1 + HINT_OPTIONS])
    return dataclasses.replace(view, default=default, hint=text, hint_lines=lines, premark=premark)


def _hand(obs: Observation, names: tuple[str, str]) -> dict[str, object]:
    return {"hand_label": f"{_your_hand(names[obs.seat])} · {cards_words(len(obs.hand))}",
            "hand": tuple(sort_hand(obs.hand))}


def _your_hand(name: str) -> str:
    """'Your hand', with the name unless it is "You" (hot-seat: whose hand it is)."""
    return _("Your hand") if is_you(name) else _("Your hand ({player})").format(player=name)


def _pile_words(name: str, won: int) -> str:
    """A player's pile of won tricks: ``Ada: 3 tricks``."""
    return ngettext("{player}: {count} trick", "{player}: {count} tricks", won).format(player=name, count=won)


def cards_words(count: int) -> str:
    """``1 card``, ``12 cards``."""
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def _opponent(obs: Observation, names: tuple[str, str], note: str = "") -> Opponent:
    return Opponent(names[obs.opponent], obs.opponent_cards, note)


def _my_turn(seat_view: SeatView) -> Optional[Observation]:
    """The seat's observation when it is the seat's decision, else None."""
    mine = _mine(seat_view)
    return mine if mine is not None and seat_view.my_turn else None


# ---------------------------------------------------------------- one function per screen


def handoff_view(seat_view: SeatView) -> GameView:
    """Hot-seat: no card at all until the next player says they are at the keyboard.  With no person at
    this keyboard (a watcher, bots among themselves) the public view (``watching_view``)."""
    if not any(seat_view.persons):
        return watching_view(seat_view)
    to_act = seat_view.to_act
    who = seat_view.names[to_act] if to_act is not None else ""
    return _view(seat_view, "handoff", _("Pass to {player}, then press Enter.").format(player=who),
                 info=_("No cards are shown until {player} is at the keyboard.").format(player=who),
                 items=(Item("ready", _("I am {player}: show my cards").format(player=who), command=Command.REVEAL),))


def watching_view(seat_view: SeatView) -> GameView:
    """The public view, both players alike: each one's cards face down with their count and their side's facts
    (the draft's picks, a Double Nil, the exchange, the bid, the tricks won), the stock in the draft, the trick
    on the table, whose turn.  No card of any hand: the view holds none.  No choice either, so Enter does
    nothing here; leaving is its own key (``l``), never an idle Enter."""
    names, obs = seat_view.names, seat_view.observation
    top, bottom = obs.opponent, obs.seat  # seat 1 above, seat 0 below (the public view's side)
    phase = obs.phase
    note = watch_note(seat_view, obs, bottom)
    count = public_cards(obs, bottom)
    label = [names[bottom], cards_words(count), *([note] if note else [])]
    side = {"opponent": Opponent(names[top], public_cards(obs, top), watch_note(seat_view, obs, top)),
            "hand_label": " · ".join(label), "hand_backs": count, "picks": draft_picks(seat_view, obs)}
    table: dict[str, object] = {}
    if phase in (Phase.DOUBLE_NIL, Phase.DRAFT):
        table = {"stock": obs.stock_left}
    elif phase in (Phase.EXCHANGE, Phase.EXCHANGE_DRAW):
        table = {"discards": len(obs.draft_log)}  # a card passed each draft turn: the pile the exchange draws from
    elif phase is Phase.BIDDING:
        table = {"places": tuple(TableRow(names[p], (None,)) for p in (top, bottom))}
    elif phase is Phase.PLAY:
        table = {"table": trick_rows(seat_view, obs, names), "last_trick": last_trick_words(seat_view, names),
                 "last_trick_short": last_trick_words(seat_view, names, short=True),
                 "piles": tuple((_pile_words(names[p], obs.tricks_won[p]), obs.tricks_won[p])
                                for p in (top, bottom))}
    prompt = watch_prompt(seat_view) or _("{first} and {second} are playing.").format(first=names[0], second=names[1])
    return _view(seat_view, "watching", prompt, info=watch_news(seat_view, obs), **side, **table)


def draft_view(seat_view: SeatView, marked: frozenset[Card] = frozenset()) -> GameView:
    """The Double Nil question, a draft turn, the exchange, or waiting for the other player."""
    mine = _mine(seat_view)
    if mine is None or seat_view.phase is Phase.SHUFFLE:
        return _view(seat_view, "waiting", _("Dealing…"))
    names, seat = seat_view.names, mine.seat
    me = _my_turn(seat_view)
    phase = seat_view.phase
    if me is not None and phase is Phase.DOUBLE_NIL:
        dn = seat_view.rules.double_nil_points
        return _view(
            seat_view, "double_nil",
            _("{player}: your first draft turn of hand {hand}. Declare Double Nil before seeing any card?").format(
                player=names[seat], hand=me.hand_number),
            # The game's own points (they were always 200), and what the exchange is (issue 52).
            info=_("Double Nil: win no trick at all, +{points} if you do, −{points} if not. After the draft you may "
                   "swap up to 3 cards for cards drawn from the discard pile.").format(points=dn),
            items=(Item("no", _("No, draft normally"), action=DeclareDoubleNil(seat, False)),
                   Item("yes", _("Declare Double Nil"), action=DeclareDoubleNil(seat, True))),
            opponent=_opponent(me, names, opponent_picks(me)), stock=me.stock_left, picks=draft_picks(seat_view, me),
            **seen_passed(seat_view, me), **_hand(me, names))
    if me is not None and phase is Phase.DRAFT and me.drawn is not None:
        drawn = me.drawn
        turn = sum(1 for d in me.draft_log if d.player == seat) + 1
        prompt = _("{player}: draft turn {turn} of 13; on top of the stock is {card}.").format(
            player=names[seat], turn=turn, card=drawn.label())
        return _view(seat_view, "draft", prompt,
                     info=news_lines(double_nil_news(seat_view, me),
                                 draw_news(seat_view)),  # the stock's count: beside its pile on the table
                     opponent=_opponent(me, names, opponent_picks(me)),
                     table=(TableRow(_("the top card of the stock"), (drawn,)),), stock=me.stock_left - 1,
                     picks=draft_picks(seat_view, me), **seen_passed(seat_view, me),
                     items=(Item("first", _("Take {card}").format(card=drawn.label()), action=Draft(seat, "first")),
                            Item("second", _("Pass {card}, take the next card").format(card=drawn.label()),
                                 action=Draft(seat, "second"))),
                     **_hand(me, names))
    if me is not None and phase is Phase.EXCHANGE:
        full = len(marked) >= 3
        items = [Item(c.code, card=c, raised=c in marked, enabled=(c in marked or not full), command=Command.MARK)
                 for c in sort_hand(me.hand)]
        # The same words as the hint's: "Exchange 9♠ 7♥", "Keep all".
        exchange = Exchange(seat, tuple(sorted(marked)))
        items.append(Item("confirm", exchange_label(exchange), action=exchange))
        return _view(seat_view, "exchange",
                     _("{player}: Double Nil exchange. Mark up to three cards to swap for random cards from the "
                       "discard pile, then confirm.").format(player=names[seat]),
                     info=news_lines(draw_news(seat_view), _("Space or Enter marks a card; marked cards are raised.")),
                     items=tuple(items),
                     default=len(items) - 1, marking=True, opponent=_opponent(me, names),
                     discards=len(me.draft_log), picks=draft_picks(seat_view, me), **seen_passed(seat_view, me))
    if phase in (Phase.DRAFT, Phase.DOUBLE_NIL):
        info = news_lines(double_nil_news(seat_view, mine), draw_news(seat_view))  # the stock's count: beside its pile
    elif phase in (Phase.EXCHANGE, Phase.EXCHANGE_DRAW):  # the other player's exchange: after my last turn
        info = news_lines(double_nil_news(seat_view, mine), exchange_news(seat_view, mine), draw_news(seat_view))
    else:
        info = ""
    drafting = phase in (Phase.DRAFT, Phase.DOUBLE_NIL)
    return _view(seat_view, "waiting", waiting_prompt(seat_view), info=info,
                 opponent=_opponent(mine, names, opponent_picks(mine)), stock=mine.stock_left if drafting else None,
                 picks=draft_picks(seat_view, mine), **seen_passed(seat_view, mine), **_hand(mine, names))


def bidding_view(seat_view: SeatView, typed: str = "") -> GameView:
    mine = _mine(seat_view)
    assert mine is not None, "the bidding screen needs a viewer"
    names, seat = seat_view.names, mine.seat
    other = 1 - seat
    opponent = _opponent(mine, names, bid_note(mine.bids[other]) if mine.bids[other] is not None else "")
    # What came last before the bidding: the exchanges, and unless the seat exchanged, its 13th draft turn.
    news = news_lines(exchange_news(seat_view, mine), draw_news(seat_view) if seat_view.last_exchange is None else "")
    if _my_turn(seat_view) is None:
        # Before one's own bid there is none to show ("Your bid: —." read as a bid of nothing).
        yours = mine.bids[seat]
        said = news_lines(_("Your bid: {bid}.").format(bid=bid_text(yours)) if yours is not None else
                          _("{player} bids first; you bid next.").format(player=names[other]), news)
        return _view(seat_view, "waiting", waiting_prompt(seat_view), info=said,
                     opponent=opponent, **_bidding_table(seat_view, mine), **_hand(mine, names))
    rules = seat_view.rules
    prompt = (_("{player}: your bid (0 is Nil).") if rules.nil else _("{player}: your bid.")).format(player=names[seat])
    ob = mine.bids[other]
    info = (_("{player} bid {bid}.").format(player=names[other], bid=bid_text(ob)) if ob is not None else
            _("{player} bids after you.").format(player=names[other]))
    if typed:
        info += "  " + _("Typed: {typed}").format(typed=typed)
    info = news_lines(info, news)
    # The choices are the seat's legal bids (the engine's, by the rule book), not a range written here.
    bids = sorted(a.tricks for a in seat_view.legal if isinstance(a, Bid) and a.player == seat)
    items = tuple(Item(str(n), _("Nil") if n == 0 else str(n), action=Bid(seat, n)) for n in bids)
    return _view(seat_view, "bidding", prompt, info=info, items=items,
                 typing_bid=True,
                 opponent=opponent, **_bidding_table(seat_view, mine), **_hand(mine, names))


def _bidding_table(seat_view: SeatView, obs: Observation) -> dict[str, object]:
    """Where there is room in the bidding: the trick's empty places, the draft's picks and the cards seen passed."""
    places = tuple(TableRow(seat_view.names[p], (None,)) for p in (obs.opponent, obs.seat))
    return {"places": places, "picks": draft_picks(seat_view, obs), **seen_passed(seat_view, obs)}


def play_view(seat_view: SeatView) -> GameView:
    mine = _mine(seat_view)
    assert mine is not None, "the play screen needs a viewer"
    names, seat = seat_view.names, mine.seat
    table = trick_rows(seat_view, mine, names)
    other = mine.opponent
    shared = {"table": table, "last_trick": last_trick_words(seat_view, names),
              "last_trick_short": last_trick_words(seat_view, names, short=True),
              "opponent": _opponent(mine, names, bid_won_note(mine.bids[other], mine.tricks_won[other])),
              "piles": tuple((_pile_words(names[p], mine.tricks_won[p]), mine.tricks_won[p])
                             for p in (mine.opponent, seat))}
    news = play_news(seat_view, mine)
    if not mine.tricks and all(pc.player != seat for pc in mine.trick):
        news = news_lines(exchange_news(seat_view, mine), news)  # until the seat's first card: it may come here next
    if seat_view.trick_held:  # the hand is over, its last trick still on the table (tui/app/lasttrick.py)
        return _view(seat_view, "last_trick",
                     _("Hand {hand} is over: press any key for its summary.").format(hand=mine.hand_number),
                     **shared, **_hand(mine, names))
    if _my_turn(seat_view) is None:
        return _view(seat_view, "waiting", waiting_prompt(seat_view), info=news, **shared, **_hand(mine, names))
    # Only the viewer's own legal plays: they are cards of the viewer's hand, nothing hidden.
    legal = {a.card for a in seat_view.legal if isinstance(a, Play) and a.player == seat}
    prompt = (_("{player}: your turn to follow (raised cards are playable).") if mine.trick else
              _("{player}: your turn to lead (raised cards are playable).")).format(player=names[seat])
    if not mine.trick and not mine.spades_broken and not seat_view.rules.spades_any_time:
        # Only spades left: they may be led all the same (rules 6.4), and the words say so (issue 52).
        only_spades = all(c.suit is Suit.SPADES for c in mine.hand)
        prompt += " " + (_("Only spades left: you may lead one, though spades are not broken.") if only_spades else
                         _("Spades are not broken yet."))
    items = tuple(Item(c.code, card=c, raised=c in legal, enabled=c in legal, action=Play(seat, c))
                  for c in sort_hand(mine.hand))
    default = next((i for i, it in enumerate(items) if it.enabled), 0)
    return _view(seat_view, "play", prompt, info=news, items=items,
                 default=default,
                 hand_label=_hand(mine, names)["hand_label"], **shared)


def summary_view(seat_view: SeatView) -> GameView:
    """The hand just scored, rule by rule."""
    names = seat_view.names
    h = seat_view.hands[-1]
    rows = (
        (_("Bid"), bid_text(h.bids[0]), bid_text(h.bids[1])),
        (_("Tricks won"), str(h.tricks[0]), str(h.tricks[1])),
        (_("Contract"), signed(h.lines[0].contract), signed(h.lines[1].contract)),
        (_("Overtricks"), signed(h.lines[0].overtricks), signed(h.lines[1].overtricks)),
        (_("Nil / Double Nil"), signed(h.lines[0].nil), signed(h.lines[1].nil)),
        (_("Bag penalty"), signed(h.lines[0].bag_penalty), signed(h.lines[1].bag_penalty)),
        (_("Hand points"), signed(h.points[0]), signed(h.points[1])),
        (_("Total score"), num(h.scores_after[0]), num(h.scores_after[1])),
        (_("Bags"), str(h.bags_after[0]), str(h.bags_after[1])),
    )
    number = len(seat_view.hands)
    sheet = Sheet(_("Hand {number}").format(number=number), ("", names[0], names[1]), rows)
    over = _("Hand {number} is over.").format(number=number)
    if seat_view.watcher:  # not a watcher's to deal: it moves on with the players, and Enter chooses nothing
        return _view(seat_view, "summary", over, sheet=sheet,
                     info=_("The next hand comes once the players begin it."), items=_review_item(seat_view))
    items = [Item("next", _("Next hand"), command=Command.NEXT_HAND), *_review_item(seat_view)]
    if seat_view.vs_bot:  # practice is against a bot only
        items.append(Item("again", _("Play this hand again (practice)"), command=Command.REPLAY_HAND))
    return _view(seat_view, "summary", over, sheet=sheet, items=tuple(items))


def lesson_end_view(seat_view: SeatView) -> GameView:
    """The lesson's end (``spades-tui learn``): the hand's score (explained line by line beside it, in the
    lesson's words), then a real game, the lesson again, or back."""
    summary = summary_view(seat_view)
    items = (Item("real", _("Play a real game"), command=Command.LESSON_REAL),
             Item("again", _("The lesson again"), command=Command.LESSON_AGAIN),
             Item("back", _("Back"), command=Command.LESSON_BACK))
    return _view(seat_view, "lesson_end", _("The lesson is over: well played!"), sheet=summary.sheet, items=items)


def challenge_end_view(seat_view: SeatView) -> GameView:
    """The daily challenge's end (``spades-tui challenge``): each hand's margin beside the par's, the total
    against the par, the line to share, the last hand's review, the challenge again (practice) or back."""
    challenge = seat_view.challenge
    assert challenge is not None
    par = challenge.par
    me = seat_view.seat if seat_view.seat is not None else 0
    rows: list[tuple[str, ...]] = []
    for i, mine in enumerate(challenge.mine):
        theirs = par[i] if par is not None and i < len(par) else None
        points = seat_view.hands[i].points if i < len(seat_view.hands) else None
        scored = (signed(points[me]), signed(points[1 - me])) if points is not None else ("", "")
        # Each hand's points too: the fourth hand's score was shown nowhere else (issue 52).
        rows.append((_("Hand {number}").format(number=i + 1), *scored, signed(mine),
                     "…" if theirs is None else signed(theirs), "…" if theirs is None else signed(mine - theirs)))
    over = challenge.over_par
    totals = (signed(sum(h.points[p] for h in seat_view.hands[:4])) for p in (me, 1 - me))
    rows.append((_("Total"), *totals, signed(challenge.result), "…" if par is None else signed(sum(par)),
                 "…" if over is None else signed(over)))
    sheet = Sheet(_("Points; margins (yours less the bot's) and the par"),
                  ("", _("You"), _("Bot"), _("Margin"), _("Par"), _("Diff.")), tuple(rows))
    code = challenge.code
    if over is None:
        prompt = _("Challenge {code}: your margin {margin}. The par is being worked out…").format(
            code=code, margin=signed(challenge.result))
        info = _("The par: the expert's own margin in your seat on the same four deals, the expert in both seats.")
    else:  # the result said once, in the line to share (the prompt said it too)
        prompt = _("Challenge {code} played: your margin {margin}, the par's {par}.").format(
            code=code, margin=signed(challenge.result), par=signed(sum(par or ())))
        info = _("Share: spades-tui challenge {code}: {result}").format(code=code, result=over_par_words(over))
    record = challenge.on_record
    if record is not None and record.over_par is not None:
        info += "\n" + _("This was practice: your result on record is {result}.").format(
            result=over_par_words(record.over_par))
    elif record is not None:
        info += "\n" + _("This was practice: you played this challenge before.")
    if challenge.problem:
        info += f"\n{challenge.problem}"
    items = (Item("back", _("Back to the start screen"), command=Command.NEW_GAME), *_review_item(seat_view),
             Item("again", _("Play it again (practice)"), command=Command.CHALLENGE_AGAIN))
    return _view(seat_view, "challenge_end", prompt, sheet=sheet, items=items, info=info)


def _review_item(seat_view: SeatView) -> tuple[Item, ...]:
    ready = seat_view.review is not None
    if not ready and seat_view.seat is None and not any(seat_view.persons):
        return ()  # a watcher: no hand of its own is rebuilt from the reveal, so no review would ever come
    return (Item("review", _("Review this hand") if ready else _("Review (analysing…)"), enabled=ready,
                 command=Command.REVIEW),)


def game_over_view(seat_view: SeatView) -> GameView:
    """The end: by the rules (the winner and every hand) or by a forfeit."""
    names = seat_view.names
    items: tuple[Item, ...] = (Item("new", _("New game"), command=Command.NEW_GAME),
                               Item("quit", _("Quit"), command=Command.QUIT))
    rated = _rating_words(seat_view)
    if seat_view.forfeit:
        won = _forfeit_words(names[seat_view.winner]) if seat_view.winner is not None else ""
        kept = _("The game record is kept in the autosave.")
        return _view(seat_view, "forfeit", seat_view.forfeit,
                     info=_lines(f"{won} {kept}" if won else kept, rated), items=items)
    # One cell per figure, both players in it (the first-named player first): it fits 80 columns
    # whatever the names, and negative scores read "267 · −40".
    columns = (_("Hand"), _("First"), _("Bids"), _("Won"), _("Points"), _("Score"))
    first = panel_names(names)
    rows = tuple(
        (str(i), first[h.first_drafter], pair(short_bid(h.bids[0]), short_bid(h.bids[1])),
         pair(str(h.tricks[0]), str(h.tricks[1])), pair(signed(h.points[0]), signed(h.points[1])),
         pair(num(h.scores_after[0]), num(h.scores_after[1])))
        for i, h in enumerate(seat_view.hands, 1)
    )
    winner, scores = seat_view.winner, seat_view.observation.scores
    prompt = (_game_over_words(names[winner], num(scores[winner]), num(scores[1 - winner]))
              if winner is not None else _("Game over."))
    how = seat_view.outcome.termination.value if seat_view.outcome is not None else ""
    if winner is not None and how == "thirteen":  # the house rules' other ends (docs/rules.md 8.4, 8.5)
        prompt += " " + _("All 13 tricks on a bid of 13 win the game.")
    elif winner is not None and how == "losing_score":
        prompt += " " + _("A score of {score} or lower ends the game.").format(score=num(-seat_view.rules.losing_score))
    title = _("Every hand ({first} · {second})").format(first=names[0], second=names[1])
    # At a network table, whether every hand's shuffle was revealed and checked: said here, where it is read.
    return _view(seat_view, "gameover", prompt, sheet=Sheet(title, columns, rows, first_column_left=False),
                 items=(*items, *_review_item(seat_view)), info=_lines(seat_view.shuffle, rated))


def _rating_words(seat_view: SeatView) -> str:
    """A rated game's end: each player's rating change, on a line of its own ("" elsewhere, or before it is told)."""
    facts = seat_view.table_facts
    lines = facts.ratings if facts is not None else ()
    return _("Rated: {ratings}").format(ratings=" · ".join(lines)) if lines else ""


def _forfeit_words(winner: str) -> str:
    """``Ada wins by forfeit.``, ``You win by forfeit.`` for a player called "You"."""
    if is_you(winner):
        return _("You win by forfeit.")
    return _("{player} wins by forfeit.").format(player=winner)


def _game_over_words(winner: str, score: str, other: str) -> str:
    """``Game over: Ada wins, 510 to 320.``, ``Game over: You win, …`` for a player called "You"."""
    if is_you(winner):
        return _("Game over: You win, {score} to {other}.").format(score=score, other=other)
    return _("Game over: {player} wins, {score} to {other}.").format(player=winner, score=score, other=other)


def _lines(*parts: str) -> str:
    return "\n".join(part for part in parts if part)
