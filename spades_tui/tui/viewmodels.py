"""View models: pure functions from a seat's view to what a screen shows.

No Textual here, so every screen's content is unit-tested without a terminal.
Each function takes a ``SeatView`` (``session/view.py``: what one seat may know, or the
public view) plus the choice in progress (cards marked for an exchange, a half-typed bid)
and returns a frozen ``GameView``.  It never sees the whole game: what it shows of cards
comes from the view's observation, which holds no card its seat may not know, and in the
public view (a hot-seat hand-off, a spectator) no card of any hand.  Each choice carries
what it does, so the screens never decide by the phase again.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from ..keep.slots import SavedGame
from ..session.view import (
    Bid,
    BidValue,
    Card,
    DeclareDoubleNil,
    Draft,
    Exchange,
    Observation,
    Phase,
    Play,
    PlayerAction,
    PlayerInfo,
    SeatView,
    Suit,
)
from .houserules import house_rules_short

if TYPE_CHECKING:  # a review's type only: the solver loads with the first review, not at start-up
    from ..solver.analysis import HandReview

# Display order alternates colours: spades, hearts, clubs, diamonds.
_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}


def sort_hand(cards: Sequence[Card] | frozenset[Card]) -> list[Card]:
    """Sorted by suit, high rank first within a suit."""
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit], -c.rank))


class Command(str, Enum):
    """What a choice asks of the game when it is not a player's action."""

    REVEAL = "reveal"  # hot-seat: the player to act is at the keyboard
    NEXT_HAND = "next_hand"
    NEW_GAME = "new_game"  # back to the start screen
    QUIT = "quit"
    MARK = "mark"  # mark or unmark a card for the exchange
    REVIEW = "review"  # the finished hand judged double dummy
    REPLAY_HAND = "replay_hand"  # practice: the same deal again


@dataclass(frozen=True)
class Item:
    """One choice: a card face or a text button, and what choosing it does."""

    key: str  # stable identity, e.g. the card code or "confirm"
    text: str = ""
    card: Optional[Card] = None
    enabled: bool = True
    raised: bool = False  # drawn one row higher (legal cards, cards marked for exchange)
    action: Optional[PlayerAction] = None
    command: Optional[Command] = None


@dataclass(frozen=True)
class TableRow:
    """A row of cards in the middle of the table (None: an empty place), with its caption."""

    caption: str
    cards: tuple[Optional[Card], ...]
    mark: bool = False  # the winner's card of a complete trick


@dataclass(frozen=True)
class Opponent:
    """The other player's side of the table: public facts only."""

    name: str
    cards: int
    note: str = ""


@dataclass(frozen=True)
class Sheet:
    """A small table of facts (the hand summary, every hand of the game)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    first_column_left: bool = True  # the summary's row labels read left-aligned


@dataclass(frozen=True)
class HintLine:
    """One line of the hint panel: its head, then short phrases a narrow panel drops from the end."""

    head: str
    phrases: tuple[str, ...] = ()
    indent: str = ""
    figure: str = ""  # the number the hint ranks by, alone ("≈ 63%"): the compact list's (tui/hintpanel.py)

    def text(self, keep: Optional[int] = None) -> str:
        kept = self.phrases if keep is None else self.phrases[:keep]
        return self.indent + self.head + (": " + " · ".join(kept) if kept else "")


@dataclass(frozen=True)
class GameView:
    """Everything one game screen shows, and what its keys may do."""

    pane: str  # which part of the phase: "draft", "waiting", "handoff", ...
    status: str  # the score panel at the side
    prompt: str
    info: str = ""
    opponent: Optional[Opponent] = None
    table: tuple[TableRow, ...] = ()  # the middle: the opponent's row above, the viewer's below
    last_trick: str = ""  # the last complete trick in words, shown on a key
    hint: str = ""  # the hint panel's text ("" when it is off or there is no decision)
    hint_lines: tuple[HintLine, ...] = ()  # the same, line by line, for fitting a narrow panel (fit_hint)
    premark: Optional[frozenset[Card]] = None  # the exchange's recommended cards: marked until the person marks
    sheet: Optional[Sheet] = None
    items: tuple[Item, ...] = ()
    default: int = 0  # the highlighted choice when the decision is new
    hand_label: str = ""
    hand: tuple[Card, ...] = ()
    marking: bool = False  # Space marks cards (the Double Nil exchange)
    typing_bid: bool = False  # digits type a bid
    decision: tuple[object, ...] = ()  # changes when a new decision starts: the cursor and marks reset
    # What the table shows where the screen has room (docs/playing.md, "Screen sizes"):
    places: tuple[TableRow, ...] = ()  # the trick's empty places before the play (the bidding)
    stock: Optional[int] = None  # the stock's count: its pile beside its top card (the draft)
    discards: Optional[int] = None  # the discard pile's count: its pile (the exchange draws from it)
    seen: tuple[Card, ...] = ()  # the cards this seat saw passed, face up and small
    seen_caption: str = ""
    piles: tuple[tuple[str, int], ...] = ()  # each player's won tricks as a face-down pile: opponent's, then yours
    picks: tuple[str, ...] = ()  # the draft's picks in words, for the panel


class Kind(str, Enum):
    """Which screen the game needs now."""

    HANDOFF = "handoff"
    DRAFT = "draft"  # Double Nil question, draft, exchange
    BIDDING = "bidding"
    PLAY = "play"
    SUMMARY = "summary"
    GAME_OVER = "game_over"


def screen_kind(v: SeatView) -> Kind:
    if v.trick_held:  # the hand's last trick on the table, before its summary (tui/lasttrick.py)
        return Kind.PLAY
    if v.outcome is not None:  # over by the rules or by a forfeit
        return Kind.GAME_OVER
    if v.phase is Phase.SHUFFLE:
        return Kind.SUMMARY if v.hands else Kind.DRAFT
    if v.seat is None:
        return Kind.HANDOFF
    if v.phase is Phase.BIDDING:
        return Kind.BIDDING
    if v.phase is Phase.PLAY:
        return Kind.PLAY
    return Kind.DRAFT


MINUS = "\u2212"  # the true minus sign, as wide as "+" (the ASCII screen writes it as "-")


def num(n: int) -> str:
    """A number as the screens write it: ``−40`` with the true minus sign."""
    return str(n).replace("-", MINUS)


def decimal(x: float, places: int) -> str:
    """A figure with decimals as the screens write every number: ``−120.5`` with the true minus sign."""
    return num_text(f"{x:.{places}f}")


def num_text(text: str) -> str:
    """A number already written, its minus made the true one."""
    return text.replace("-", MINUS)


def signed(n: int) -> str:
    """Points as the screens write them: ``+12``, ``−200``, ``+0``."""
    return f"{n:+}".replace("-", MINUS)


_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")


def minus_signs(text: str) -> str:
    """A text's negative numbers with the true minus sign (``-100 expected`` reads ``−100 expected``)."""
    return _NEGATIVE.sub(MINUS, text)


def pair(a: str, b: str) -> str:
    """Both players' figures in one cell, the first player's first: ``12 · −40``."""
    return f"{a} · {b}"


def exchange_label(action: Exchange) -> str:
    """``Exchange 9♠ 7♥`` (spades first, high cards first) or ``Keep all``, as the hint names them."""
    if not action.discard:
        return "Keep all"
    return "Exchange " + " ".join(c.label() for c in sorted(action.discard, key=lambda c: (c.suit, -c.rank)))


def bid_text(bid: Optional[BidValue]) -> str:
    if bid is None:
        return "—"
    if bid == "double_nil":
        return "Double Nil"
    if bid == 0:
        return "Nil"
    return str(bid)


# ---------------------------------------------------------------- shared parts


def _mine(v: SeatView) -> Optional[Observation]:
    """The seat's own observation; None in the public view (whose observation has no private field)."""
    return v.observation if v.seat is not None else None


PAST_HANDS = 4  # the score panel's sheet of past hands


PANEL_WIDTH = 23  # the score panel's text columns (25 less its padding); ROOMY_PANEL_WIDTH from 120 columns
ROOMY_PANEL_WIDTH = 29


def panel_names(names: tuple[str, str], width: int = 8) -> tuple[str, str]:
    """Names short enough for the panel's columns, still told apart: "Bot (hard)" is "Bot",
    "Player 1" stays "Player 1"; a longer name keeps its start and its last letter ("Alexand…r")."""
    def shorten(name: str) -> str:
        name = name.split(" (")[0] or name
        return name if len(name) <= width else name[:width - 2] + "…" + name[-1]

    a, b = shorten(names[0]), shorten(names[1])
    return (a, b) if a != b else ("P1", "P2")


def status_text(v: SeatView, width: int = PANEL_WIDTH) -> str:
    """The score panel, public facts only: scores, bags, bids, tricks, whose turn, spades broken, past hands.

    ``width`` is the panel's text width: the two players' columns share what the labels leave."""
    names, obs, history = v.names, v.observation, v.hands
    label = 6  # "Score ", "Exch. ": then each player's column, a space between them
    column = (width - label - 1) // 2
    short = panel_names(names, column)
    in_hand = v.in_hand
    lines = []
    if v.save_error:
        lines.append("AUTOSAVE OFF")  # first, so it cannot be cut off
    if v.practice:
        lines.append(f"PRACTICE ({v.practice} take-back{'s' if v.practice != 1 else ''})")
    lines.append(f"Spades to {v.rules.target}")
    if v.rules.changed():  # house rules in force: said on one line, listed in full on a key (o)
        lines.append(house_rules_short(v.rules, width))
    if in_hand:
        line = f"Hand {obs.hand_number} · first: {short[obs.first_drafter]}"
        lines += [line] if len(line) <= width else [f"Hand {obs.hand_number}", f"first: {short[obs.first_drafter]}"]
        lines.append("spades broken" if obs.spades_broken else "spades not broken")
    elif history:
        lines.append(f"{len(history)} hand{'s' if len(history) != 1 else ''} played")
    lines.append("")
    lines.append(f"{'':<{label}}{short[0]:>{column}} {short[1]:>{column}}")
    rows: list[tuple[str, tuple[object, ...]]] = [("Score", obs.scores), ("Bags", obs.bags)]
    if in_hand:
        rows += [("Bid", tuple(_short_bid(b) if b is not None else bid_text(b) for b in obs.bids)),
                 ("Won", obs.tricks_won)]
        if any(e is not None for e in obs.exchanged):
            rows.append(("Exch.", tuple("—" if e is None else e for e in obs.exchanged)))
    lines += [f"{name:<{label}}{_cell(a):>{column}} {_cell(b):>{column}}" for name, (a, b) in rows]
    if v.to_act is not None:
        you = " (you)" if v.seat == v.to_act and not v.vs_bot else ""
        who = names[v.to_act] if len(names[v.to_act]) + len(you) + 9 <= width else short[v.to_act]
        lines.append(f"▶ {who}{you} to act")
    if v.table:
        lines += ["", *v.table.splitlines()]
    if history:
        lines += ["", "Past hands"]
        first = max(0, len(history) - PAST_HANDS)
        for n, h in enumerate(history[first:], first + 1):
            lines.append(f"{n:>3}{'':<{label - 3}}{signed(h.points[0]):>{column}} {signed(h.points[1]):>{column}}")
    return "\n".join(lines)


def tricks_list(v: SeatView, width: int = PANEL_WIDTH) -> tuple[str, ...]:
    """This hand's completed tricks for the panel, where it has room: the led card first, then who won."""
    obs = v.observation
    if not obs.tricks or obs.phase is not Phase.PLAY:
        return ()
    short = panel_names(v.names, width - 12)
    lines = ["", "Tricks (led card first)"]
    for n, ((lead, follow), winner) in enumerate(zip(obs.tricks, v.trick_winners, strict=True), 1):
        lines.append(f"{n:>2}  {lead.card.label():>3} {follow.card.label():>3}  {short[winner]}")
    return tuple(lines)


def _cell(value: object) -> str:
    return num(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _decision(v: SeatView, pane: str) -> tuple[object, ...]:
    return (pane, v.actions, v.seat)


def _view(v: SeatView, pane: str, prompt: str, **fields: object) -> GameView:
    view = GameView(pane, status_text(v), prompt, decision=_decision(v, pane), **fields)  # type: ignore[arg-type]
    return _advised(v, view) if pane in ADVISED else view


ADVISED = ("double_nil", "draft", "bidding", "play", "exchange")
HINT_OPTIONS = 4  # choices listed in the hint panel


def _same_action(a: Optional[PlayerAction], b: Optional[PlayerAction]) -> bool:
    """Equal actions; two exchanges of the same cards in any order are the same."""
    if isinstance(a, Exchange) and isinstance(b, Exchange):
        return a.player == b.player and set(a.discard) == set(b.discard)
    return a == b


def _advised(v: SeatView, view: GameView) -> GameView:
    """Enter's default is the view's (the hint's recommendation once it has come, until then the normal
    bot's choice, both chosen where the view was built); the panel shows the hint when it is on.  At the
    exchange the default's cards come marked (``premark``), so Enter there confirms it too."""
    hint = v.hint
    wanted = v.default
    default = next((i for i, it in enumerate(view.items)
                    if wanted is not None and _same_action(it.action, wanted) and it.enabled), view.default)
    premark: Optional[frozenset[Card]] = None
    if view.pane == "exchange" and isinstance(wanted, Exchange):
        premark = frozenset(wanted.discard)
    text = ""
    lines: tuple[HintLine, ...] = ()
    if v.show_hints:
        if hint is None:
            lines = (HintLine("Hint: thinking…"),)
        else:
            lines = (HintLine(minus_signs(f"Hint: {hint.summary}")),) + tuple(
                HintLine(o.label, tuple(minus_signs(p) for p in (o.score, *o.detail.split(" · ")) if p), "  ",
                         minus_signs(o.figure))
                for o in hint.options)  # every choice: those past the first few listed compactly (hintpanel.py)
        text = "\n".join(line.text() for line in lines[:1 + HINT_OPTIONS])
    return dataclasses.replace(view, default=default, hint=text, hint_lines=lines, premark=premark)


def fit_hint(lines: Sequence[HintLine], width: int, options: int = HINT_OPTIONS) -> str:
    """The hint panel's text for a panel ``width`` columns wide showing at most ``options`` choices: each
    choice on one line, its last phrases left out rather than cut; the summary wraps at words if it must."""
    out = []
    for i, line in enumerate(lines[: 1 + options]):
        if i == 0 or width <= 0:
            out.append(line.text())
            continue
        keep = len(line.phrases)
        while keep > 1 and len(line.text(keep)) > width:
            keep -= 1  # the first phrase (the measure the hint ranks by) always stays
        out.append(line.text(keep))
    return "\n".join(out)


def _hand(obs: Observation, names: tuple[str, str]) -> dict[str, object]:
    n = len(obs.hand)
    return {"hand_label": f"{_your_hand(names[obs.seat])} · {n} card{'' if n == 1 else 's'}",
            "hand": tuple(sort_hand(obs.hand))}


def _your_hand(name: str) -> str:
    """'Your hand', with the name unless it is "You" (hot-seat: whose hand it is)."""
    return "Your hand" if name.strip().casefold() == "you" else f"Your hand ({name})"


def _opponent(obs: Observation, names: tuple[str, str], note: str = "") -> Opponent:
    return Opponent(names[obs.opponent], obs.opponent_cards, note)


def _picks(obs: Observation) -> str:
    took = [d.take for d in obs.draft_log if d.player == obs.opponent]
    if not took:
        return ""
    return _took(took)


def _took(took: Sequence[str]) -> str:
    """'took 3 first, 4 second': how often the top card and how often the next one."""
    return f"took {took.count('first')} first, {took.count('second')} second"


def _draft_picks(v: SeatView, obs: Observation) -> tuple[str, ...]:
    """The draft's picks for the panel: public facts (which card of the two each player took, and when)."""
    lines = []
    short = panel_names(v.names, 12)
    for p in (obs.opponent, obs.seat):
        took = [d.take for d in obs.draft_log if d.player == p]
        if took:
            lines.append(f"{short[p]} {_took(took)}")
    return tuple(lines)


def _seen(v: SeatView, obs: Observation) -> dict[str, object]:
    """The cards this seat saw passed in the draft, which it knows are out of play (docs/rules.md: a player
    knows every card it saw in the draft).  Not once the other player made a Double Nil exchange: it draws
    from the discard pile, so a card seen passed may be in their hand, and the screen must not say which."""
    if obs.exchanged[obs.opponent]:
        return {}
    cards = tuple(sort_hand(obs.seen_discards - obs.hand))  # one's own exchange may have drawn some back
    return {"seen": cards, "seen_caption": "Seen passed: out of play"} if cards else {}


def _tricks(v: SeatView, obs: Observation, names: tuple[str, str]) -> tuple[TableRow, ...]:
    """The trick in the middle, each card on its player's side; a complete trick stays, its winner
    marked, until the next card is led."""
    me, opp = obs.seat, obs.opponent
    if obs.trick:
        leader = obs.trick[0].player
        played = {pc.player: pc.card for pc in obs.trick}
        return tuple(TableRow(names[p] + (" led" if p == leader else ""), (played.get(p),)) for p in (opp, me))
    if obs.tricks:
        last = obs.tricks[-1]
        winner = v.trick_winners[-1]
        played = {pc.player: pc.card for pc in last}
        return tuple(TableRow(f"{names[p]} won trick {len(obs.tricks)}" if p == winner else names[p], (played[p],),
                              mark=p == winner) for p in (opp, me))
    return tuple(TableRow(names[p], (None,)) for p in (opp, me))


def _last_trick(v: SeatView, names: tuple[str, str]) -> str:
    found = v.last_trick
    if found is None:
        return ""
    (lead, follow), winner = found
    return (f"Last trick: {names[lead.player]} led {lead.card.label()}, {names[follow.player]} played "
            f"{follow.card.label()}; {names[winner]} won.")


def _joined(*parts: str) -> str:
    return "  ".join(p for p in parts if p)


def _lines(*parts: str) -> str:
    """News each on a line of its own, so that a narrow pane wraps none of them mid-phrase."""
    return "\n".join(p for p in parts if p)


def _draw_news(v: SeatView) -> str:
    """The seat's own last draft turn in words: what it kept, and the card drawn after a pass."""
    if v.last_draw is None:
        return ""
    top, second, take = v.last_draw
    if take == "second":
        return f"Last turn you passed {top.label()} and drew {second.label() if second is not None else 'the next'}."
    return f"Last turn you took {top.label()}" + (f" and passed {second.label()}." if second is not None else ".")


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.label() for c in sort_hand(cards))


def _exchange_news(v: SeatView, obs: Observation) -> str:
    """The Double Nil exchanges of this hand, once done: the seat's own in cards (what it put back, what
    came back), the other player's as a count only (all the seat may know of it)."""
    parts = []
    mine = v.last_exchange
    if mine is not None:
        gave, got = mine
        parts.append(f"You gave {_cards(gave)} and got {_cards(got)}." if gave else "You kept all your cards.")
    other = obs.opponent
    count = obs.exchanged[other]
    if count is not None:
        name = v.names[other]
        parts.append(f"{name} exchanged {count} card{'' if count == 1 else 's'}." if count else f"{name} kept all.")
    return _lines(*parts)


def _double_nil_news(v: SeatView, obs: Observation) -> str:
    """The other player's Double Nil, said from the moment it is declared until the bidding shows it."""
    other = obs.opponent
    return f"{v.names[other]} declared Double Nil." if obs.double_nil[other] else ""


def _play_news(v: SeatView, obs: Observation) -> str:
    """What the other player did that the table no longer shows: their bid before the first trick, and
    the trick they won just before leading again (the table now shows their new lead)."""
    other = 1 - obs.seat
    name = v.names[other]
    if not obs.tricks:
        bid = obs.bids[other]
        return f"{name} bid {bid_text(bid)}." if bid is not None else ""
    found = v.last_trick
    if found is None or not obs.trick or obs.trick[0].player != other or found[1] != other:
        return ""
    played = {pc.player: pc.card for pc in found[0]}
    return (f"{name} won trick {len(obs.tricks)} with {played[other].label()} (you played "
            f"{played[obs.seat].label()}) and leads again.")


def _waiting_prompt(v: SeatView) -> str:
    actor = v.to_act
    if actor is None:
        return ""
    name = v.names[actor]
    if v.seat is not None and not v.connected[v.seat]:  # this seat's own link to a network table is down
        return "Not connected: waiting for the table… (it is saved; nothing is sent until it is back)"
    if not v.connected[actor]:
        return f"{name} is disconnected: the game waits for them (it is saved)."
    return f"{name} is thinking…" if v.bot_thinking or v.table else f"Waiting for {name}."


def _my_turn(v: SeatView) -> Optional[Observation]:
    """The seat's observation when it is the seat's decision, else None."""
    mine = _mine(v)
    return mine if mine is not None and v.my_turn else None


# ---------------------------------------------------------------- one function per screen


def handoff_view(v: SeatView) -> GameView:
    """Hot-seat: no card at all until the next player says they are at the keyboard.  With no person at
    this keyboard (bots among themselves) the public view: the trick on the table, no hand."""
    if not any(v.persons):
        return _view(v, "watching", f"{v.names[0]} and {v.names[1]} are playing.", info=_waiting_prompt(v),
                     table=_tricks(v, v.observation, v.names), last_trick=_last_trick(v, v.names),
                     items=(Item("new", "Back to the start screen", command=Command.NEW_GAME),))
    to_act = v.to_act
    who = v.names[to_act] if to_act is not None else ""
    return _view(v, "handoff", f"Pass to {who}, then press Enter.",
                 info=f"No cards are shown until {who} is at the keyboard.",
                 items=(Item("ready", f"I am {who}: show my cards", command=Command.REVEAL),))


def draft_view(v: SeatView, marked: frozenset[Card] = frozenset()) -> GameView:
    """The Double Nil question, a draft turn, the exchange, or waiting for the other player."""
    mine = _mine(v)
    if mine is None or v.phase is Phase.SHUFFLE:
        return _view(v, "waiting", "Dealing…")
    names, seat = v.names, mine.seat
    me = _my_turn(v)
    phase = v.phase
    if me is not None and phase is Phase.DOUBLE_NIL:
        return _view(
            v, "double_nil",
            f"{names[seat]}: your first draft turn of hand {me.hand_number}. "
            "Declare Double Nil before seeing any card?",
            info="Double Nil: +200 if you win no trick, −200 otherwise; you may then exchange up to 3 cards.",
            items=(Item("no", "No, draft normally", action=DeclareDoubleNil(seat, False)),
                   Item("yes", "Declare Double Nil", action=DeclareDoubleNil(seat, True))),
            opponent=_opponent(me, names, _picks(me)), stock=me.stock_left, picks=_draft_picks(v, me),
            **_seen(v, me), **_hand(me, names))
    if me is not None and phase is Phase.DRAFT and me.drawn is not None:
        drawn = me.drawn
        turn = sum(1 for d in me.draft_log if d.player == seat) + 1
        prompt = f"{names[seat]}: draft turn {turn} of 13; on top of the stock is {drawn.label()}."
        return _view(v, "draft", prompt,
                     info=_lines(_double_nil_news(v, me),
                                 _draw_news(v)),  # the stock's count: beside its pile on the table
                     opponent=_opponent(me, names, _picks(me)),
                     table=(TableRow("the top card of the stock", (drawn,)),), stock=me.stock_left - 1,
                     picks=_draft_picks(v, me), **_seen(v, me),
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
        return _view(v, "exchange",
                     f"{names[seat]}: Double Nil exchange. Mark up to three cards to swap for random cards from the "
                     "discard pile, then confirm.",
                     info=_lines(_draw_news(v), "Space or Enter marks a card; marked cards are raised."),
                     items=tuple(items),
                     default=len(items) - 1, marking=True, opponent=_opponent(me, names),
                     discards=len(me.draft_log), picks=_draft_picks(v, me), **_seen(v, me))
    if phase in (Phase.DRAFT, Phase.DOUBLE_NIL):
        info = _lines(_double_nil_news(v, mine), _draw_news(v))  # the stock's count: beside its pile
    elif phase in (Phase.EXCHANGE, Phase.EXCHANGE_DRAW):  # the other player's exchange: after my last turn
        info = _lines(_double_nil_news(v, mine), _exchange_news(v, mine), _draw_news(v))
    else:
        info = ""
    drafting = phase in (Phase.DRAFT, Phase.DOUBLE_NIL)
    return _view(v, "waiting", _waiting_prompt(v), info=info, opponent=_opponent(mine, names, _picks(mine)),
                 stock=mine.stock_left if drafting else None, picks=_draft_picks(v, mine), **_seen(v, mine),
                 **_hand(mine, names))


def bidding_view(v: SeatView, typed: str = "") -> GameView:
    mine = _mine(v)
    assert mine is not None, "the bidding screen needs a viewer"
    names, seat = v.names, mine.seat
    other = 1 - seat
    opponent = _opponent(mine, names, f"bid {bid_text(mine.bids[other])}" if mine.bids[other] is not None else "")
    # What came last before the bidding: the exchanges, and unless the seat exchanged, its 13th draft turn.
    news = _lines(_exchange_news(v, mine), _draw_news(v) if v.last_exchange is None else "")
    if _my_turn(v) is None:
        return _view(v, "waiting", _waiting_prompt(v), info=_lines(f"Your bid: {bid_text(mine.bids[seat])}.", news),
                     opponent=opponent, **_bidding_table(v, mine), **_hand(mine, names))
    rules = v.rules
    prompt = f"{names[seat]}: your bid (0 is Nil)." if rules.nil else f"{names[seat]}: your bid."
    ob = mine.bids[other]
    info = f"{names[other]} bid {bid_text(ob)}." if ob is not None else f"{names[other]} bids after you."
    if typed:
        info += f"  Typed: {typed}"
    info = _lines(info, news)
    # The choices are the seat's legal bids (the engine's, by the rule book), not a range written here.
    bids = sorted(a.tricks for a in v.legal if isinstance(a, Bid) and a.player == seat)
    items = tuple(Item(str(n), "Nil" if n == 0 else str(n), action=Bid(seat, n)) for n in bids)
    return _view(v, "bidding", prompt, info=info, items=items,
                 typing_bid=True,
                 opponent=opponent, **_bidding_table(v, mine), **_hand(mine, names))


def _bidding_table(v: SeatView, obs: Observation) -> dict[str, object]:
    """Where there is room in the bidding: the trick's empty places, the draft's picks and the cards seen passed."""
    places = tuple(TableRow(v.names[p], (None,)) for p in (obs.opponent, obs.seat))
    return {"places": places, "picks": _draft_picks(v, obs), **_seen(v, obs)}


def play_view(v: SeatView) -> GameView:
    from ..solver.words import tricks_words  # in here: the solver's words load with the play, not the start screen

    mine = _mine(v)
    assert mine is not None, "the play screen needs a viewer"
    names, seat = v.names, mine.seat
    table = _tricks(v, mine, names)
    other = mine.opponent
    shared = {"table": table, "last_trick": _last_trick(v, names),
              "opponent": _opponent(mine, names, f"bid {bid_text(mine.bids[other])} · won {mine.tricks_won[other]}"),
              "piles": tuple((f"{names[p]}: {tricks_words(mine.tricks_won[p])}", mine.tricks_won[p])
                             for p in (mine.opponent, seat))}
    news = _play_news(v, mine)
    if not mine.tricks and all(pc.player != seat for pc in mine.trick):
        news = _lines(_exchange_news(v, mine), news)  # until the seat's first card: it may come here next
    if v.trick_held:  # the hand is over, its last trick still on the table (tui/lasttrick.py)
        return _view(v, "last_trick", f"Hand {mine.hand_number} is over: press any key for its summary.",
                     **shared, **_hand(mine, names))
    if _my_turn(v) is None:
        return _view(v, "waiting", _waiting_prompt(v), info=news, **shared, **_hand(mine, names))
    # Only the viewer's own legal plays: they are cards of the viewer's hand, nothing hidden.
    legal = {a.card for a in v.legal if isinstance(a, Play) and a.player == seat}
    prompt = f"{names[seat]}: your turn to " + ("follow" if mine.trick else "lead") + " (raised cards are playable)."
    if not mine.trick and not mine.spades_broken and not v.rules.spades_any_time:
        prompt += " Spades are not broken yet."
    items = tuple(Item(c.code, card=c, raised=c in legal, enabled=c in legal, action=Play(seat, c))
                  for c in sort_hand(mine.hand))
    default = next((i for i, it in enumerate(items) if it.enabled), 0)
    return _view(v, "play", prompt, info=news, items=items,
                 default=default,
                 hand_label=_hand(mine, names)["hand_label"], **shared)


def summary_view(v: SeatView) -> GameView:
    """The hand just scored, rule by rule."""
    names = v.names
    h = v.hands[-1]
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
    sheet = Sheet(f"Hand {len(v.hands)}", ("", names[0], names[1]), rows)
    items = [Item("next", "Next hand", command=Command.NEXT_HAND), *_review_item(v)]
    if v.vs_bot:  # practice is against a bot only
        items.append(Item("again", "Play this hand again (practice)", command=Command.REPLAY_HAND))
    return _view(v, "summary", f"Hand {len(v.hands)} is over.", sheet=sheet, items=tuple(items))


def _review_item(v: SeatView) -> tuple[Item, ...]:
    ready = v.review is not None
    if not ready and v.seat is None and not any(v.persons):
        return ()  # a watcher: no hand of its own is rebuilt from the reveal, so no review would ever come
    return (Item("review", "Review this hand" if ready else "Review (analysing…)", enabled=ready,
                 command=Command.REVIEW),)


def _short_bid(bid: BidValue) -> str:
    return "DblNil" if bid == "double_nil" else bid_text(bid)


def _wins(name: str) -> str:
    """'Ada wins', but 'You win': the default name against the bot is "You"."""
    return "You win" if name.strip().casefold() == "you" else f"{name} wins"


def game_over_view(v: SeatView) -> GameView:
    """The end: by the rules (the winner and every hand) or by a forfeit."""
    names = v.names
    items: tuple[Item, ...] = (Item("new", "New game", command=Command.NEW_GAME),
                               Item("quit", "Quit", command=Command.QUIT))
    if v.forfeit:
        return _view(v, "forfeit", v.forfeit,
                     info=(f"{_wins(names[v.winner])} by forfeit. " if v.winner is not None else "")
                     + "The game record is kept in the autosave.", items=items)
    # One cell per figure, both players in it (the first-named player first): it fits 80 columns
    # whatever the names, and negative scores read "267 · −40".
    columns = ("Hand", "First", "Bids", "Won", "Points", "Score")
    first = panel_names(names)
    rows = tuple(
        (str(i), first[h.first_drafter], pair(_short_bid(h.bids[0]), _short_bid(h.bids[1])),
         pair(str(h.tricks[0]), str(h.tricks[1])), pair(signed(h.points[0]), signed(h.points[1])),
         pair(num(h.scores_after[0]), num(h.scores_after[1])))
        for i, h in enumerate(v.hands, 1)
    )
    winner, scores = v.winner, v.observation.scores
    prompt = (f"Game over: {_wins(names[winner])}, {num(scores[winner])} to {num(scores[1 - winner])}."
              if winner is not None else "Game over.")
    how = v.outcome.termination.value if v.outcome is not None else ""
    if winner is not None and how == "thirteen":  # the house rules' other ends (docs/rules.md 8.4, 8.5)
        prompt += " All 13 tricks on a bid of 13 win the game."
    elif winner is not None and how == "losing_score":
        prompt += f" A score of {num(-v.rules.losing_score)} or lower ends the game."
    title = f"Every hand ({names[0]} · {names[1]})"
    # At a network table, whether every hand's shuffle was revealed and checked: said here, where it is read.
    return _view(v, "gameover", prompt, sheet=Sheet(title, columns, rows, first_column_left=False),
                 items=(*items, *_review_item(v)), info=v.shuffle)


# ---------------------------------------------------------------- the review of a finished hand


@dataclass(frozen=True)
class ReviewTrick:
    """One step of the review: a trick, both hands as they stood before it, each play's cards valued."""

    title: str  # "Trick 5 of 13"
    hands: tuple[tuple[str, tuple[Card, ...]], ...]  # each player's label and cards before the trick
    played: tuple[Card, ...]  # the trick's cards (marked in the hands)
    lines: tuple[str, ...]  # the trick in words, then each play's legal cards with their margins


@dataclass(frozen=True)
class ReviewView:
    """A finished hand judged double dummy: both hands (no secret any more), then the costly plays."""

    title: str
    hands: tuple[tuple[str, tuple[Card, ...]], ...]  # each player's label and cards at the first lead
    totals: tuple[str, ...]  # what each player's card play cost, in words
    plays: tuple[str, ...]  # each costly play in words
    bids: tuple[str, ...] = ()  # each bid beside what the hand could make
    draft: tuple[str, ...] = ()  # the draft turns whose other card would have changed the tricks
    tricks: tuple[ReviewTrick, ...] = ()  # the hand trick by trick
    legend: str = ""  # what the numbers are
    chances: tuple[str, ...] = ()  # the other side's costly plays (against a bot: its errors)
    titles: tuple[str, str] = ("", "")  # the titles of ``plays`` and ``chances``


def review_view(v: SeatView) -> Optional[ReviewView]:
    """Only once the hand is over (the view carries a review only then), and to both players in hot-seat.
    Judged by points (``review_content``); against a bot, the person's seat is "you"."""
    review = v.review
    if review is None:
        return None
    return review_content(review, v.names, v.seat if v.vs_bot else None)


MARGIN_LEGEND = ("Points are margins: {whose} hand points minus {other}, bags, Nil and the bag limit "
                 "included, with both playing perfectly from there, all cards face up.")


def _review_label(name: str, bid: Optional[BidValue], won: Optional[int] = None) -> str:
    from ..solver.analysis import tricks_words  # in here: the solver loads with the first review, not the game
    from ..solver.words import bid_words

    label = f"{name}, {bid_words(bid)}"
    return label if won is None else f"{label}, {tricks_words(won)} won so far"


def review_content(review: HandReview, names: tuple[str, str], you: Optional[int] = None) -> ReviewView:
    """The review screen's content from one reviewed hand: by points, then the bids and the draft, then each
    trick.  ``you``: the seat called "you" (the person against a bot); None names both (hot-seat)."""
    from ..solver.words import review_words, trick_words  # in here: the solver loads with the first review

    # Against a bot: "you" and "the bot" ("your", "the bot's"), so the words read as grammar wants.
    who = tuple("you" if p == you else "the bot" if you is not None else names[p] for p in (0, 1))
    whose = tuple("your" if p == you else f"{who[p]}'s" for p in (0, 1))
    h = review.analysis
    words = review_words(h, who, whose)
    hands = tuple((_review_label(names[p], h.bids[p]), tuple(sort_hand(review.hands[p]))) for p in (0, 1))
    steps = []
    tricks = review.tricks
    for t in tricks:
        won = t.plays[0].won
        steps.append(ReviewTrick(
            f"Hand {review.hand}, trick {t.number} of {len(tricks)}",
            tuple((_review_label(names[p], h.bids[p], won[p]), tuple(sort_hand(t.hands[p]))) for p in (0, 1)),
            tuple(p.card for p in t.plays),
            trick_words(t, who, whose)))
    me = you if you is not None else 0
    legend = MARGIN_LEGEND.format(whose="your" if you is not None else "the player's",
                                  other=f"{names[1 - me]}'s" if you is not None else "the other's")
    return ReviewView(f"Hand {review.hand}, judged by the score with all cards face up", hands, words.totals,
                      words.plays, words.bids, words.draft, tuple(steps), legend, words.chances, words.titles)


# ---------------------------------------------------------------- the start screen's saved games


@dataclass(frozen=True)
class ResumeChoice:
    """One saved game the start screen offers to resume."""

    path: Path
    label: str
    elsewhere: bool  # another copy of the game plays it: resuming is refused


def played_when(mtime: float, now: float) -> str:
    """When a game was last played, in local time: ``today 14:05``, ``yesterday 09:30``, ``3 May 14:05``."""
    then, today = datetime.datetime.fromtimestamp(mtime), datetime.datetime.fromtimestamp(now).date()
    hm = f"{then:%H:%M}"
    if then.date() == today:
        return f"today {hm}"
    if then.date() == today - datetime.timedelta(days=1):
        return f"yesterday {hm}"
    if then.year == today.year:
        return f"{then.day} {then:%b} {hm}"
    return f"{then.day} {then:%b %Y} {hm}"


def game_kind_words(players: tuple[PlayerInfo, PlayerInfo], practice: bool = False) -> str:
    """What kind of game a saved one is: ``against the bot (normal)``, ``hot-seat``, ``a table with Hana``,
    each with ``, practice`` after a take-back."""
    remote = [p for p in players if p.kind == "remote"]
    bots = [p for p in players if p.kind.startswith("bot:")]
    if len(remote) == 1:
        text = f"a table with {remote[0].name}"
    elif remote:
        text = "a network table"
    elif len(bots) == 1:
        text = f"against the bot ({bots[0].kind.removeprefix('bot:')})"
    elif bots:
        text = "bot against bot"
    else:
        text = "hot-seat"
    return text + (", practice" if practice else "")


def resume_choices(games: Sequence[SavedGame], now: float) -> tuple[ResumeChoice, ...]:
    """The unfinished games, in the order given (``SlotDirectory.scan``: free ones first, latest first).

    A finished game is not offered (its file stays); one open in another window says so.
    """
    choices = []
    for game in games:
        if game.finished:
            continue
        names, scores = game.names, game.scores
        label = (f"Resume hand {game.hand_number}: {names[0]} {num(scores[0])} – {names[1]} {num(scores[1])}, "
                 f"{game_kind_words(game.players, game.practice)} (played {played_when(game.last_played, now)})")
        if game.held_elsewhere:
            label += "\n  open in another window: continue it there"
        choices.append(ResumeChoice(game.path, label, game.held_elsewhere))
    return tuple(choices)
