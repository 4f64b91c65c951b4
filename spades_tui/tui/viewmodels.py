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

from ..session.text import over_par_words, winner_words
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
from .notation import bid_text, exchange_label, minus_signs, num, pair, short_bid, signed, sort_hand
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
            lines = (HintLine("Hint: thinking…"),)
        else:
            lines = (HintLine(minus_signs(f"Hint: {hint.summary}")),) + tuple(
                HintLine(o.label, tuple(minus_signs(p) for p in (o.score, *o.detail.split(" · ")) if p), "  ",
                         minus_signs(o.figure))
                for o in hint.options)  # every choice: those past the first few listed compactly (hintpanel.py)
        text = "\n".join(line.text() for line in lines[:1 + HINT_OPTIONS])
    return dataclasses.replace(view, default=default, hint=text, hint_lines=lines, premark=premark)


def _hand(obs: Observation, names: tuple[str, str]) -> dict[str, object]:
    n = len(obs.hand)
    return {"hand_label": f"{_your_hand(names[obs.seat])} · {n} card{'' if n == 1 else 's'}",
            "hand": tuple(sort_hand(obs.hand))}


def _your_hand(name: str) -> str:
    """'Your hand', with the name unless it is "You" (hot-seat: whose hand it is)."""
    return "Your hand" if name.strip().casefold() == "you" else f"Your hand ({name})"


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
    return _view(seat_view, "handoff", f"Pass to {who}, then press Enter.",
                 info=f"No cards are shown until {who} is at the keyboard.",
                 items=(Item("ready", f"I am {who}: show my cards", command=Command.REVEAL),))


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
    label = [names[bottom], f"{count} card{'' if count == 1 else 's'}", *([note] if note else [])]
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
        from ..solver.words import tricks_words  # in here, as in play_view

        table = {"table": trick_rows(seat_view, obs, names), "last_trick": last_trick_words(seat_view, names),
                 "last_trick_short": last_trick_words(seat_view, names, short=True),
                 "piles": tuple((f"{names[p]}: {tricks_words(obs.tricks_won[p])}", obs.tricks_won[p])
                                for p in (top, bottom))}
    prompt = watch_prompt(seat_view) or f"{names[0]} and {names[1]} are playing."
    return _view(seat_view, "watching", prompt, info=watch_news(seat_view, obs), **side, **table)


def draft_view(seat_view: SeatView, marked: frozenset[Card] = frozenset()) -> GameView:
    """The Double Nil question, a draft turn, the exchange, or waiting for the other player."""
    mine = _mine(seat_view)
    if mine is None or seat_view.phase is Phase.SHUFFLE:
        return _view(seat_view, "waiting", "Dealing…")
    names, seat = seat_view.names, mine.seat
    me = _my_turn(seat_view)
    phase = seat_view.phase
    if me is not None and phase is Phase.DOUBLE_NIL:
        dn = seat_view.rules.double_nil_points
        return _view(
            seat_view, "double_nil",
            f"{names[seat]}: your first draft turn of hand {me.hand_number}. "
            "Declare Double Nil before seeing any card?",
            # The game's own points (they were always 200), and what the exchange is (issue 52).
            info=(f"Double Nil: win no trick at all, +{dn} if you do, −{dn} if not. After the draft you may swap up "
                  "to 3 cards for cards drawn from the discard pile."),
            items=(Item("no", "No, draft normally", action=DeclareDoubleNil(seat, False)),
                   Item("yes", "Declare Double Nil", action=DeclareDoubleNil(seat, True))),
            opponent=_opponent(me, names, opponent_picks(me)), stock=me.stock_left, picks=draft_picks(seat_view, me),
            **seen_passed(seat_view, me), **_hand(me, names))
    if me is not None and phase is Phase.DRAFT and me.drawn is not None:
        drawn = me.drawn
        turn = sum(1 for d in me.draft_log if d.player == seat) + 1
        prompt = f"{names[seat]}: draft turn {turn} of 13; on top of the stock is {drawn.label()}."
        return _view(seat_view, "draft", prompt,
                     info=news_lines(double_nil_news(seat_view, me),
                                 draw_news(seat_view)),  # the stock's count: beside its pile on the table
                     opponent=_opponent(me, names, opponent_picks(me)),
                     table=(TableRow("the top card of the stock", (drawn,)),), stock=me.stock_left - 1,
                     picks=draft_picks(seat_view, me), **seen_passed(seat_view, me),
                     items=(Item("first", f"Take {drawn.label()}", action=Draft(seat, "first")),
                            Item("second", f"Pass {drawn.label()}, take the next card", action=Draft(seat, "second"))),
                     **_hand(me, names))
    if me is not None and phase is Phase.EXCHANGE:
        full = len(marked) >= 3
        items = [Item(c.code, card=c, raised=c in marked, enabled=(c in marked or not full), command=Command.MARK)
                 for c in sort_hand(me.hand)]
        # The same words as the hint's: "Exchange 9♠ 7♥", "Keep all".
        exchange = Exchange(seat, tuple(sorted(marked)))
        items.append(Item("confirm", exchange_label(exchange), action=exchange))
        return _view(seat_view, "exchange",
                     f"{names[seat]}: Double Nil exchange. Mark up to three cards to swap for random cards from the "
                     "discard pile, then confirm.",
                     info=news_lines(draw_news(seat_view), "Space or Enter marks a card; marked cards are raised."),
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
    opponent = _opponent(mine, names, f"bid {bid_text(mine.bids[other])}" if mine.bids[other] is not None else "")
    # What came last before the bidding: the exchanges, and unless the seat exchanged, its 13th draft turn.
    news = news_lines(exchange_news(seat_view, mine), draw_news(seat_view) if seat_view.last_exchange is None else "")
    if _my_turn(seat_view) is None:
        # Before one's own bid there is none to show ("Your bid: —." read as a bid of nothing).
        yours = mine.bids[seat]
        said = news_lines(f"Your bid: {bid_text(yours)}." if yours is not None else
                          f"{names[other]} bids first; you bid next.", news)
        return _view(seat_view, "waiting", waiting_prompt(seat_view), info=said,
                     opponent=opponent, **_bidding_table(seat_view, mine), **_hand(mine, names))
    rules = seat_view.rules
    prompt = f"{names[seat]}: your bid (0 is Nil)." if rules.nil else f"{names[seat]}: your bid."
    ob = mine.bids[other]
    info = f"{names[other]} bid {bid_text(ob)}." if ob is not None else f"{names[other]} bids after you."
    if typed:
        info += f"  Typed: {typed}"
    info = news_lines(info, news)
    # The choices are the seat's legal bids (the engine's, by the rule book), not a range written here.
    bids = sorted(a.tricks for a in seat_view.legal if isinstance(a, Bid) and a.player == seat)
    items = tuple(Item(str(n), "Nil" if n == 0 else str(n), action=Bid(seat, n)) for n in bids)
    return _view(seat_view, "bidding", prompt, info=info, items=items,
                 typing_bid=True,
                 opponent=opponent, **_bidding_table(seat_view, mine), **_hand(mine, names))


def _bidding_table(seat_view: SeatView, obs: Observation) -> dict[str, object]:
    """Where there is room in the bidding: the trick's empty places, the draft's picks and the cards seen passed."""
    places = tuple(TableRow(seat_view.names[p], (None,)) for p in (obs.opponent, obs.seat))
    return {"places": places, "picks": draft_picks(seat_view, obs), **seen_passed(seat_view, obs)}


def play_view(seat_view: SeatView) -> GameView:
    from ..solver.words import tricks_words  # in here: the solver's words load with the play, not the start screen

    mine = _mine(seat_view)
    assert mine is not None, "the play screen needs a viewer"
    names, seat = seat_view.names, mine.seat
    table = trick_rows(seat_view, mine, names)
    other = mine.opponent
    shared = {"table": table, "last_trick": last_trick_words(seat_view, names),
              "last_trick_short": last_trick_words(seat_view, names, short=True),
              "opponent": _opponent(mine, names, f"bid {bid_text(mine.bids[other])} · won {mine.tricks_won[other]}"),
              "piles": tuple((f"{names[p]}: {tricks_words(mine.tricks_won[p])}", mine.tricks_won[p])
                             for p in (mine.opponent, seat))}
    news = play_news(seat_view, mine)
    if not mine.tricks and all(pc.player != seat for pc in mine.trick):
        news = news_lines(exchange_news(seat_view, mine), news)  # until the seat's first card: it may come here next
    if seat_view.trick_held:  # the hand is over, its last trick still on the table (tui/app/lasttrick.py)
        return _view(seat_view, "last_trick", f"Hand {mine.hand_number} is over: press any key for its summary.",
                     **shared, **_hand(mine, names))
    if _my_turn(seat_view) is None:
        return _view(seat_view, "waiting", waiting_prompt(seat_view), info=news, **shared, **_hand(mine, names))
    # Only the viewer's own legal plays: they are cards of the viewer's hand, nothing hidden.
    legal = {a.card for a in seat_view.legal if isinstance(a, Play) and a.player == seat}
    prompt = f"{names[seat]}: your turn to " + ("follow" if mine.trick else "lead") + " (raised cards are playable)."
    if not mine.trick and not mine.spades_broken and not seat_view.rules.spades_any_time:
        # Only spades left: they may be led all the same (rules 6.4), and the words say so (issue 52).
        only_spades = all(c.suit is Suit.SPADES for c in mine.hand)
        prompt += (" Only spades left: you may lead one, though spades are not broken." if only_spades else
                   " Spades are not broken yet.")
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
        ("Bid", bid_text(h.bids[0]), bid_text(h.bids[1])),
        ("Tricks won", str(h.tricks[0]), str(h.tricks[1])),
        ("Contract", signed(h.lines[0].contract), signed(h.lines[1].contract)),
        ("Overtricks", signed(h.lines[0].overtricks), signed(h.lines[1].overtricks)),
        ("Nil / Double Nil", signed(h.lines[0].nil), signed(h.lines[1].nil)),
        ("Bag penalty", signed(h.lines[0].bag_penalty), signed(h.lines[1].bag_penalty)),
        ("Hand points", signed(h.points[0]), signed(h.points[1])),
        ("Total score", num(h.scores_after[0]), num(h.scores_after[1])),
        ("Bags", str(h.bags_after[0]), str(h.bags_after[1])),
    )
    sheet = Sheet(f"Hand {len(seat_view.hands)}", ("", names[0], names[1]), rows)
    if seat_view.watcher:  # not a watcher's to deal: it moves on with the players, and Enter chooses nothing
        return _view(seat_view, "summary", f"Hand {len(seat_view.hands)} is over.", sheet=sheet,
                     info="The next hand comes once the players begin it.", items=_review_item(seat_view))
    items = [Item("next", "Next hand", command=Command.NEXT_HAND), *_review_item(seat_view)]
    if seat_view.vs_bot:  # practice is against a bot only
        items.append(Item("again", "Play this hand again (practice)", command=Command.REPLAY_HAND))
    return _view(seat_view, "summary", f"Hand {len(seat_view.hands)} is over.", sheet=sheet, items=tuple(items))


def lesson_end_view(seat_view: SeatView) -> GameView:
    """The lesson's end (``spades-tui learn``): the hand's score (explained line by line beside it, in the
    lesson's words), then a real game, the lesson again, or back."""
    summary = summary_view(seat_view)
    items = (Item("real", "Play a real game", command=Command.LESSON_REAL),
             Item("again", "The lesson again", command=Command.LESSON_AGAIN),
             Item("back", "Back", command=Command.LESSON_BACK))
    return _view(seat_view, "lesson_end", "The lesson is over: well played!", sheet=summary.sheet, items=items)


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
        rows.append((f"Hand {i + 1}", *scored, signed(mine), "…" if theirs is None else signed(theirs),
                     "…" if theirs is None else signed(mine - theirs)))
    over = challenge.over_par
    totals = (signed(sum(h.points[p] for h in seat_view.hands[:4])) for p in (me, 1 - me))
    rows.append(("Total", *totals, signed(challenge.result), "…" if par is None else signed(sum(par)),
                 "…" if over is None else signed(over)))
    sheet = Sheet("Points; margins (yours less the bot's) and the par", ("", "You", "Bot", "Margin", "Par", "Diff."),
                  tuple(rows))
    code = challenge.code
    if over is None:
        prompt = f"Challenge {code}: your margin {signed(challenge.result)}. The par is being worked out…"
        info = "The par: the expert's own margin in your seat on the same four deals, the expert in both seats."
    else:  # the result said once, in the line to share (the prompt said it too)
        prompt = f"Challenge {code} played: your margin {signed(challenge.result)}, the par's {signed(sum(par or ()))}."
        info = f"Share: spades-tui challenge {code}: {over_par_words(over)}"
    record = challenge.on_record
    if record is not None and record.over_par is not None:
        info += (f"\nThis was practice: your result on record is {over_par_words(record.over_par)}.")
    elif record is not None:
        info += "\nThis was practice: you played this challenge before."
    if challenge.problem:
        info += f"\n{challenge.problem}"
    items = (Item("back", "Back to the start screen", command=Command.NEW_GAME), *_review_item(seat_view),
             Item("again", "Play it again (practice)", command=Command.CHALLENGE_AGAIN))
    return _view(seat_view, "challenge_end", prompt, sheet=sheet, items=items, info=info)


def _review_item(seat_view: SeatView) -> tuple[Item, ...]:
    ready = seat_view.review is not None
    if not ready and seat_view.seat is None and not any(seat_view.persons):
        return ()  # a watcher: no hand of its own is rebuilt from the reveal, so no review would ever come
    return (Item("review", "Review this hand" if ready else "Review (analysing…)", enabled=ready,
                 command=Command.REVIEW),)


def game_over_view(seat_view: SeatView) -> GameView:
    """The end: by the rules (the winner and every hand) or by a forfeit."""
    names = seat_view.names
    items: tuple[Item, ...] = (Item("new", "New game", command=Command.NEW_GAME),
                               Item("quit", "Quit", command=Command.QUIT))
    rated = _rating_words(seat_view)
    if seat_view.forfeit:
        won = f"{winner_words(names[seat_view.winner])} by forfeit. " if seat_view.winner is not None else ""
        return _view(seat_view, "forfeit", seat_view.forfeit,
                     info=_lines(won + "The game record is kept in the autosave.", rated), items=items)
    # One cell per figure, both players in it (the first-named player first): it fits 80 columns
    # whatever the names, and negative scores read "267 · −40".
    columns = ("Hand", "First", "Bids", "Won", "Points", "Score")
    first = panel_names(names)
    rows = tuple(
        (str(i), first[h.first_drafter], pair(short_bid(h.bids[0]), short_bid(h.bids[1])),
         pair(str(h.tricks[0]), str(h.tricks[1])), pair(signed(h.points[0]), signed(h.points[1])),
         pair(num(h.scores_after[0]), num(h.scores_after[1])))
        for i, h in enumerate(seat_view.hands, 1)
    )
    winner, scores = seat_view.winner, seat_view.observation.scores
    prompt = (f"Game over: {winner_words(names[winner])}, {num(scores[winner])} to {num(scores[1 - winner])}."
              if winner is not None else "Game over.")
    how = seat_view.outcome.termination.value if seat_view.outcome is not None else ""
    if winner is not None and how == "thirteen":  # the house rules' other ends (docs/rules.md 8.4, 8.5)
        prompt += " All 13 tricks on a bid of 13 win the game."
    elif winner is not None and how == "losing_score":
        prompt += f" A score of {num(-seat_view.rules.losing_score)} or lower ends the game."
    title = f"Every hand ({names[0]} · {names[1]})"
    # At a network table, whether every hand's shuffle was revealed and checked: said here, where it is read.
    return _view(seat_view, "gameover", prompt, sheet=Sheet(title, columns, rows, first_column_left=False),
                 items=(*items, *_review_item(seat_view)), info=_lines(seat_view.shuffle, rated))


def _rating_words(seat_view: SeatView) -> str:
    """A rated game's end: each player's rating change, on a line of its own ("" elsewhere, or before it is told)."""
    facts = seat_view.table_facts
    lines = facts.ratings if facts is not None else ()
    return ("Rated: " + " · ".join(lines)) if lines else ""


def _lines(*parts: str) -> str:
    return "\n".join(part for part in parts if part)
