"""View models: pure functions from the session's snapshot to what a screen shows.

No Textual here, so every screen's content is unit-tested without a terminal.
Each function takes a ``Snapshot`` (plus the choice in progress: cards marked for
an exchange, a half-typed bid) and returns a frozen ``GameView``.  What it shows of
cards comes only from ``observe(state, viewer)``; with no viewer (a hot-seat
hand-off) it shows public facts only.  Each choice carries what it does, so the
screens never decide by the phase again.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Optional, Sequence

from ..engine import (
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
    Suit,
    legal_actions,
    observe,
    trick_winner,
)
from ..session import SavedGame, Snapshot

# A titled group of card places: (title, ((card or None for an empty place, caption), ...)).
CardGroup = tuple[str, tuple[tuple[Optional[Card], str], ...]]

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
class Sheet:
    """A small table of facts (the hand summary, every hand of the game)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    first_column_left: bool = True  # the summary's row labels read left-aligned


@dataclass(frozen=True)
class GameView:
    """Everything one game screen shows, and what its keys may do."""

    pane: str  # which part of the phase: "draft", "waiting", "handoff", ...
    status: str
    prompt: str
    info: str = ""
    table: tuple[CardGroup, ...] = ()
    sheet: Optional[Sheet] = None
    items: tuple[Item, ...] = ()
    default: int = 0  # the highlighted choice when the decision is new
    hand_label: str = ""
    hand: tuple[Card, ...] = ()
    marking: bool = False  # Space marks cards (the Double Nil exchange)
    typing_bid: bool = False  # digits type a bid
    decision: tuple[object, ...] = ()  # changes when a new decision starts: the cursor and marks reset


class Kind(str, Enum):
    """Which screen the game needs now."""

    HANDOFF = "handoff"
    DRAFT = "draft"  # Double Nil question, draft, exchange
    BIDDING = "bidding"
    PLAY = "play"
    SUMMARY = "summary"
    GAME_OVER = "game_over"


def screen_kind(snap: Snapshot) -> Kind:
    state = snap.state
    if snap.forfeit or state.phase is Phase.GAME_OVER:
        return Kind.GAME_OVER
    if state.phase is Phase.SHUFFLE:
        return Kind.SUMMARY if state.history else Kind.DRAFT
    if snap.viewer is None:
        return Kind.HANDOFF
    if state.phase is Phase.BIDDING:
        return Kind.BIDDING
    if state.phase is Phase.PLAY:
        return Kind.PLAY
    return Kind.DRAFT


def bid_text(bid: Optional[BidValue]) -> str:
    if bid is None:
        return "—"
    if bid == "double_nil":
        return "Double Nil"
    if bid == 0:
        return "Nil"
    return str(bid)


def suggested_bid(hand: frozenset[Card], min_bid: int) -> int:
    """A plain starting point for the bid picker: aces, kings and long spades."""
    high = sum(1 for c in hand if c.rank == 14) + sum(1 for c in hand if c.rank == 13 and c.suit is Suit.SPADES)
    spades = sum(1 for c in hand if c.suit is Suit.SPADES)
    guess = high + max(0, spades - 3)
    return max(min_bid, min(13, guess if guess else 1))


# ---------------------------------------------------------------- shared parts


def _public(snap: Snapshot) -> Observation:
    """Public facts come from an observation too; private fields are read only when there is a viewer."""
    return observe(snap.state, snap.viewer if snap.viewer is not None else 0)


def _mine(snap: Snapshot) -> Optional[Observation]:
    return observe(snap.state, snap.viewer) if snap.viewer is not None else None


def status_text(snap: Snapshot) -> str:
    """Public facts only: scores, bags, bids, tricks, spades broken, whose turn (the ▶)."""
    state, names, obs = snap.state, snap.names, _public(snap)
    width = max(len(n) for n in names) + 6
    lines = []
    in_hand = state.hand is not None and state.phase not in (Phase.SHUFFLE, Phase.GAME_OVER)
    for p in (0, 1):
        name = names[p] + (" (you)" if snap.viewer == p and not snap.vs_bot else "")
        mark = "▶ " if state.to_act == p else "  "
        line = f"{mark}{name:<{width}} {state.scores[p]:>5} pts  {state.bags[p]:>2} bags"
        if in_hand:
            line += f"   bid {bid_text(obs.bids[p]):<11} won {obs.tricks_won[p]:>2}"
            if obs.exchanged[p]:
                line += f"  exchanged {obs.exchanged[p]}"
        lines.append(line)
    head = f"Spades to {state.rules.target}"
    if in_hand:
        head = f"Hand {state.hand_number} · to {state.rules.target} · first to draft: {names[obs.first_drafter]}"
        head += " · spades broken" if obs.spades_broken else " · spades not broken"
    elif state.history:
        head += f" · {len(state.history)} hand{'s' if len(state.history) != 1 else ''} played"
    if snap.save_error:
        head = "AUTOSAVE OFF · " + head  # first, so a narrow terminal cannot cut it off
    return "\n".join([head, *lines])


def _decision(snap: Snapshot, pane: str) -> tuple[object, ...]:
    return (pane, snap.actions, snap.viewer)


def _view(snap: Snapshot, pane: str, prompt: str, **fields: object) -> GameView:
    return GameView(pane, status_text(snap), prompt, decision=_decision(snap, pane), **fields)  # type: ignore[arg-type]


def _hand(obs: Observation, names: tuple[str, str]) -> dict[str, object]:
    return {"hand_label": f"Your hand ({names[obs.seat]}), {len(obs.hand)} cards", "hand": tuple(sort_hand(obs.hand))}


def _tricks(obs: Observation, names: tuple[str, str]) -> tuple[CardGroup, ...]:
    """The current trick and the last completed one, cards in order of play."""
    current: list[tuple[Optional[Card], str]] = [(pc.card, "") for pc in obs.trick]
    while len(current) < 2:
        current.append((None, ""))
    title = f"Trick {len(obs.tricks) + 1}"
    if obs.trick:
        title += f": {names[obs.trick[0].player]} led"
    groups: list[CardGroup] = [(title, tuple(current))]
    if obs.tricks:
        last = obs.tricks[-1]
        groups.append((f"Last trick: {names[last[0].player]} led, {names[trick_winner(last)]} won",
                       tuple((pc.card, "") for pc in last)))
    return tuple(groups)


def _waiting_prompt(snap: Snapshot) -> str:
    actor = snap.state.to_act
    if actor is None:
        return ""
    name = snap.names[actor]
    return f"{name} is thinking…" if snap.bot_thinking else f"Waiting for {name}."


def _my_turn(snap: Snapshot) -> Optional[Observation]:
    """The viewer's observation when it is the viewer's decision, else None."""
    mine = _mine(snap)
    return mine if mine is not None and snap.state.to_act == mine.seat else None


# ---------------------------------------------------------------- one function per screen


def handoff_view(snap: Snapshot) -> GameView:
    """Hot-seat: no card at all until the next player says they are at the keyboard."""
    to_act = snap.state.to_act
    who = snap.names[to_act] if to_act is not None else ""
    return _view(snap, "handoff", f"Pass to {who}, then press Enter.",
                 info=f"No cards are shown until {who} is at the keyboard.",
                 items=(Item("ready", f"I am {who}: show my cards", command=Command.REVEAL),))


def draft_view(snap: Snapshot, marked: frozenset[Card] = frozenset()) -> GameView:
    """The Double Nil question, a draft turn, the exchange, or waiting for the other player."""
    mine = _mine(snap)
    if mine is None or snap.state.phase is Phase.SHUFFLE:
        return _view(snap, "waiting", "Dealing…")
    names, seat = snap.names, mine.seat
    other = 1 - seat
    me = _my_turn(snap)
    phase = snap.state.phase
    if me is not None and phase is Phase.DOUBLE_NIL:
        return _view(
            snap, "double_nil",
            f"{names[seat]}: your first draft turn of hand {me.hand_number}. "
            "Declare Double Nil before seeing any card?",
            info="Double Nil: +200 if you win no trick, −200 otherwise; you may then exchange up to 3 cards.",
            items=(Item("no", "No, draft normally", action=DeclareDoubleNil(seat, False)),
                   Item("yes", "Declare Double Nil", action=DeclareDoubleNil(seat, True))),
            **_hand(me, names))
    if me is not None and phase is Phase.DRAFT and me.drawn is not None:
        drawn = me.drawn
        turn = sum(1 for d in me.draft_log if d.player == seat) + 1
        took = [d.take for d in me.draft_log if d.player == other]
        info = f"Stock: {me.stock_left} cards left.  {names[other]} holds {me.opponent_cards} cards"
        if took:
            info += (f"; took the first card {took.count('first')}×, the second {took.count('second')}×"
                     f" (last turn: {took[-1]}).")
        prompt = f"{names[seat]}: draft turn {turn} of 13. The top card of the stock is {drawn.label()}."
        return _view(snap, "draft", prompt,
                     info=info, table=(("Top card", ((drawn, ""),)),),
                     items=(Item("first", f"Take {drawn.label()}", action=Draft(seat, "first")),
                            Item("second", f"Pass {drawn.label()}, take the next card", action=Draft(seat, "second"))),
                     **_hand(me, names))
    if me is not None and phase is Phase.EXCHANGE:
        full = len(marked) >= 3
        items = [Item(c.code, card=c, raised=c in marked, enabled=(c in marked or not full), command=Command.MARK)
                 for c in sort_hand(me.hand)]
        n = len(marked)
        items.append(Item("confirm", f"Exchange {n} card{'s' if n != 1 else ''}",
                          action=Exchange(seat, tuple(sorted(marked)))))
        return _view(snap, "exchange",
                     f"{names[seat]}: Double Nil exchange. Mark up to three cards to swap for random cards from the "
                     "discard pile, then confirm.",
                     info="Space or Enter marks a card; marked cards are raised.", items=tuple(items),
                     default=len(items) - 1, marking=True)
    info = ""
    if phase in (Phase.DRAFT, Phase.DOUBLE_NIL):
        info = f"Stock: {mine.stock_left} cards left.  {names[other]} holds {mine.opponent_cards} cards."
    return _view(snap, "waiting", _waiting_prompt(snap), info=info, **_hand(mine, names))


def bidding_view(snap: Snapshot, typed: str = "") -> GameView:
    mine = _mine(snap)
    assert mine is not None, "the bidding screen needs a viewer"
    names, seat = snap.names, mine.seat
    other = 1 - seat
    if _my_turn(snap) is None:
        return _view(snap, "waiting", _waiting_prompt(snap), info=f"Your bid: {bid_text(mine.bids[seat])}.",
                     **_hand(mine, names))
    rules = snap.state.rules
    prompt = f"{names[seat]}: your bid (0 is Nil)." if rules.nil else f"{names[seat]}: your bid."
    ob = mine.bids[other]
    info = f"{names[other]} bid {bid_text(ob)}." if ob is not None else f"{names[other]} bids after you."
    if typed:
        info += f"  Typed: {typed}"
    items = tuple(Item(str(n), "Nil" if n == 0 else str(n), action=Bid(seat, n)) for n in range(rules.min_bid, 14))
    return _view(snap, "bidding", prompt, info=info, items=items,
                 default=suggested_bid(mine.hand, rules.min_bid) - rules.min_bid, typing_bid=True,
                 **_hand(mine, names))


def play_view(snap: Snapshot) -> GameView:
    mine = _mine(snap)
    assert mine is not None, "the play screen needs a viewer"
    names, seat = snap.names, mine.seat
    table = _tricks(mine, names)
    if _my_turn(snap) is None:
        return _view(snap, "waiting", _waiting_prompt(snap), table=table, **_hand(mine, names))
    # Only the viewer's own legal plays: they are cards of the viewer's hand, nothing hidden.
    legal = {a.card for a in legal_actions(snap.state) if isinstance(a, Play) and a.player == seat}
    prompt = f"{names[seat]}: your turn to " + ("follow." if mine.trick else "lead.")
    if not mine.trick and not mine.spades_broken:
        prompt += " Spades are not broken yet."
    items = tuple(Item(c.code, card=c, raised=c in legal, enabled=c in legal, action=Play(seat, c))
                  for c in sort_hand(mine.hand))
    default = next((i for i, it in enumerate(items) if it.enabled), 0)
    return _view(snap, "play", prompt, info="Raised cards are the ones you may play.", table=table, items=items,
                 default=default)


def summary_view(snap: Snapshot) -> GameView:
    """The hand just scored, rule by rule."""
    state, names = snap.state, snap.names
    h = state.history[-1]
    rows = (
        ("Bid", bid_text(h.bids[0]), bid_text(h.bids[1])),
        ("Tricks won", str(h.tricks[0]), str(h.tricks[1])),
        ("Contract", f"{h.lines[0].contract:+}", f"{h.lines[1].contract:+}"),
        ("Overtricks", f"{h.lines[0].overtricks:+}", f"{h.lines[1].overtricks:+}"),
        ("Nil / Double Nil", f"{h.lines[0].nil:+}", f"{h.lines[1].nil:+}"),
        ("Bag penalty", f"{h.lines[0].bag_penalty:+}", f"{h.lines[1].bag_penalty:+}"),
        ("Hand points", f"{h.points[0]:+}", f"{h.points[1]:+}"),
        ("Total score", str(h.scores_after[0]), str(h.scores_after[1])),
        ("Bags", str(h.bags_after[0]), str(h.bags_after[1])),
    )
    sheet = Sheet(f"Hand {len(state.history)}", ("", names[0], names[1]), rows)
    return _view(snap, "summary", f"Hand {len(state.history)} is over.", sheet=sheet,
                 items=(Item("next", "Next hand", command=Command.NEXT_HAND),))


def game_over_view(snap: Snapshot) -> GameView:
    """The end: by the rules (the winner and every hand) or by a forfeit."""
    state, names = snap.state, snap.names
    items = (Item("new", "New game", command=Command.NEW_GAME), Item("quit", "Quit", command=Command.QUIT))
    if snap.forfeit:
        return _view(snap, "forfeit", snap.forfeit,
                     info=f"{names[0]} wins by forfeit. The game record is kept in the autosave.", items=items)
    columns = ("Hand", "First", f"{names[0]} bid", "won", "pts", f"{names[1]} bid", "won", "pts", "Scores")
    rows = tuple(
        (str(i), names[h.first_drafter], bid_text(h.bids[0]), str(h.tricks[0]), f"{h.points[0]:+}",
         bid_text(h.bids[1]), str(h.tricks[1]), f"{h.points[1]:+}", f"{h.scores_after[0]}–{h.scores_after[1]}")
        for i, h in enumerate(state.history, 1)
    )
    winner = state.winner
    prompt = (f"Game over: {names[winner]} wins, {state.scores[winner]} to {state.scores[1 - winner]}."
              if winner is not None else "Game over.")
    return _view(snap, "gameover", prompt, sheet=Sheet("Every hand", columns, rows, first_column_left=False),
                 items=items)


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


def resume_choices(games: Sequence[SavedGame], now: float) -> tuple[ResumeChoice, ...]:
    """The unfinished games, in the order given (``SlotDirectory.scan``: free ones first, latest first).

    A finished game is not offered (its file stays); one open in another window says so.
    """
    choices = []
    for game in games:
        if game.finished:
            continue
        names, scores = game.names, game.scores
        label = (f"Resume hand {game.hand_number}: {names[0]} {scores[0]} – {names[1]} {scores[1]} "
                 f"(played {played_when(game.last_played, now)})")
        if game.held_elsewhere:
            label += "\n  open in another window: continue it there"
        choices.append(ResumeChoice(game.path, label, game.held_elsewhere))
    return tuple(choices)
