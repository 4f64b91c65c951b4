"""The game screen: every phase of a hand, drawn from one player's observation.

The screen keeps no game fact: it re-renders from ``app.state`` and
``app.viewer`` whenever either changes.  What it shows of cards comes only from
``observe(state, viewer)``; while nobody is the viewer (a hot-seat hand-off,
the hand summary, game over) it shows public facts only.  The cursor, the
cards marked for an exchange and a half-typed bid are the only things it holds,
and they are choices in progress, not game facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Optional, cast

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..engine import (
    Bid,
    BidValue,
    Card,
    DeclareDoubleNil,
    Draft,
    Exchange,
    GameState,
    Observation,
    Phase,
    Play,
    PlayerAction,
    Suit,
    observe,
    trick_winner,
)
from .widgets import CardsView, GameFooter, Item, Picker, sort_hand

if TYPE_CHECKING:
    from ..app import SpadesApp

MIN_WIDTH, MIN_HEIGHT = 80, 24


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


class TooSmall(Static):
    """Shown instead of everything else while the terminal is under 80x24."""

    def __init__(self) -> None:
        super().__init__(
            f"This terminal is too small.\nPlease make it at least {MIN_WIDTH} columns by {MIN_HEIGHT} rows;\n"
            "the game carries on as soon as it is.",
            id="toosmall",
        )


def too_small(screen: Screen[Any]) -> bool:
    size = screen.app.size
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


class GameScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,up,k", "move(-1)", "Move", key_display="←→", id="game.move"),
        Binding("right,l,down,j", "move(1)", "Move", show=False, id="game.move_next"),
        Binding("enter", "confirm", "Confirm", id="game.confirm"),
        Binding("space", "mark", "Mark card", id="game.mark"),
        Binding("0", "digit(0)", "Type bid", key_display="0-9", id="game.digit"),
        *[Binding(str(d), f"digit({d})", "Type bid", show=False) for d in range(1, 10)],
    ]

    def __init__(self) -> None:
        super().__init__()
        self.pane = ""
        self._pane_key: object = None
        self.cursor = -1
        self.marked: set[Card] = set()
        self.typed = ""
        self._items: list[Item] = []

    @property
    def game(self) -> SpadesApp:
        return cast("SpadesApp", self.app)

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            yield Static(id="status", markup=False)
            with VerticalScroll(id="body"):
                yield Static(id="prompt", markup=False)
                yield CardsView(id="table")
                yield Static(id="info", markup=False)
                yield Picker(id="picker")
                yield Static(id="detail", markup=False)
                yield Static(id="handlabel", markup=False)
                yield CardsView(id="hand")
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        for name in ("state", "viewer", "bot_thinking", "forfeit"):
            self.watch(self.app, name, self._changed, init=False)
        self.render_view()

    def _changed(self) -> None:
        self.render_view()

    def on_resize(self) -> None:
        self.refresh_bindings()

    # ------------------------------------------------------------ what to show

    def _pane_kind(self, state: GameState) -> str:
        app = self.game
        if app.forfeit:
            return "forfeit"
        if state.phase is Phase.GAME_OVER:
            return "gameover"
        if state.phase is Phase.SHUFFLE:
            return "summary" if state.history else "waiting"
        if app.viewer is None:
            return "handoff"
        if state.to_act != app.viewer:
            return "waiting"
        return {
            Phase.DOUBLE_NIL: "double_nil",
            Phase.DRAFT: "draft",
            Phase.EXCHANGE: "exchange",
            Phase.BIDDING: "bidding",
            Phase.PLAY: "play",
        }.get(state.phase, "waiting")

    def render_view(self) -> None:
        app = self.game
        state = app.state
        store = app.store
        if state is None or store is None:
            return
        names = store.names()
        viewer = app.viewer
        pane = self._pane_kind(state)
        key = (pane, len(store.record.actions), viewer)
        fresh = key != self._pane_key
        if fresh:
            self._pane_key = key
            self.marked = set()
            self.typed = ""
        self.pane = pane
        # Public facts come from an observation too; private fields are read only from the viewer's.
        public = observe(state, viewer if viewer is not None else 0)
        mine: Optional[Observation] = public if viewer is not None else None

        self.query_one("#status", Static).update(self._status(state, public, names, viewer))
        prompt, info = "", ""
        table: list[tuple[str, list[tuple[Optional[Card], str]]]] = []
        detail: object = ""
        items: list[Item] = []
        default = 0
        hand_label = ""
        hand: list[Card] = []

        if pane == "handoff":
            who = names[state.to_act] if state.to_act is not None else ""
            prompt = f"Pass to {who}, then press Enter."
            info = f"No cards are shown until {who} is at the keyboard."
            items = [Item("ready", f"I am {who}: show my cards")]
        elif pane in ("summary", "gameover"):
            prompt, detail, items = self._summary(state, names, pane)
            if pane == "gameover":
                default = 0
        elif pane == "forfeit":
            prompt = app.forfeit or ""
            info = f"{names[0]} wins by forfeit. The game record is kept in the autosave."
            items = [Item("new", "New game"), Item("quit", "Quit")]
        elif mine is not None:
            seat = mine.seat
            other = 1 - seat
            hand_label = f"Your hand ({names[seat]}), {len(mine.hand)} cards"
            hand = sort_hand(mine.hand)
            if pane == "double_nil":
                prompt = (f"{names[seat]}: your first draft turn of hand {mine.hand_number}. "
                          "Declare Double Nil before seeing any card?")
                info = "Double Nil: +200 if you win no trick, −200 otherwise; you may then exchange up to 3 cards."
                items = [Item("no", "No, draft normally"), Item("yes", "Declare Double Nil")]
            elif pane == "draft":
                drawn = mine.drawn
                assert drawn is not None
                turn = sum(1 for d in mine.draft_log if d.player == seat) + 1
                prompt = f"{names[seat]}: draft turn {turn} of 13. The top card of the stock is {drawn.label()}."
                table = [("Top card", [(drawn, "")])]
                took = [d.take for d in mine.draft_log if d.player == other]
                info = f"Stock: {mine.stock_left} cards left.  {names[other]} holds {mine.opponent_cards} cards"
                if took:
                    info += (f"; took the first card {took.count('first')}×, the second {took.count('second')}×"
                             f" (last turn: {took[-1]}).")
                items = [Item("first", f"Take {drawn.label()}"),
                         Item("second", f"Pass {drawn.label()}, take the next card")]
            elif pane == "exchange":
                prompt = (f"{names[seat]}: Double Nil exchange. Mark up to three cards to swap for random "
                          "cards from the discard pile, then confirm.")
                full = len(self.marked) >= 3
                items = [Item(c.code, card=c, raised=c in self.marked, enabled=(c in self.marked or not full))
                         for c in hand]
                items.append(Item("confirm", f"Exchange {len(self.marked)} card{'s' if len(self.marked) != 1 else ''}"))
                default = len(items) - 1
                info = "Space or Enter marks a card; marked cards are raised."
                hand_label, hand = "", []
            elif pane == "bidding":
                rules = state.rules
                prompt = f"{names[seat]}: your bid (0 is Nil)." if rules.nil else f"{names[seat]}: your bid."
                ob = mine.bids[other]
                info = (f"{names[other]} bid {bid_text(ob)}." if ob is not None else f"{names[other]} bids after you.")
                items = [Item(str(n), "Nil" if n == 0 else str(n)) for n in range(rules.min_bid, 14)]
                guess = suggested_bid(mine.hand, rules.min_bid)
                default = guess - rules.min_bid
                if self.typed:
                    info += f"  Typed: {self.typed}"
            elif pane == "play":
                legal = {a.card for a in store.legal() if isinstance(a, Play) and a.player == seat}
                prompt = f"{names[seat]}: your turn to " + ("follow." if mine.trick else "lead.")
                if not mine.trick and not mine.spades_broken:
                    prompt += " Spades are not broken yet."
                table = self._tricks(mine, names)
                items = [Item(c.code, card=c, raised=c in legal, enabled=c in legal) for c in hand]
                default = next((i for i, it in enumerate(items) if it.enabled), 0)
                info = "Raised cards are the ones you may play."
                hand_label, hand = "", []
            elif pane == "waiting":
                actor = state.to_act
                if actor is not None:
                    prompt = f"{names[actor]} is thinking…" if app.bot_thinking else f"Waiting for {names[actor]}."
                if state.phase is Phase.PLAY:
                    table = self._tricks(mine, names)
                elif state.phase in (Phase.DRAFT, Phase.DOUBLE_NIL):
                    info = f"Stock: {mine.stock_left} cards left.  {names[other]} holds {mine.opponent_cards} cards."
                elif state.phase is Phase.BIDDING:
                    info = f"Your bid: {bid_text(mine.bids[seat])}."
        else:
            prompt = "Dealing…"

        if fresh:
            self.cursor = default
        if items and not (0 <= self.cursor < len(items) and items[self.cursor].enabled):
            self.cursor = next((i for i, it in enumerate(items) if it.enabled), -1)
        self._items = items
        self.query_one("#prompt", Static).update(prompt)
        self.query_one("#table", CardsView).show(table)
        self.query_one("#table", CardsView).display = bool(table)
        info_w = self.query_one("#info", Static)
        info_w.update(info)
        info_w.display = bool(info)
        det = self.query_one("#detail", Static)
        det.update(detail)  # type: ignore[arg-type]
        det.display = bool(detail)
        self.query_one("#picker", Picker).show(items, self.cursor)
        label_w = self.query_one("#handlabel", Static)
        label_w.update(hand_label)
        label_w.display = bool(hand_label)
        self.query_one("#hand", CardsView).show([("", [(c, "") for c in hand])] if hand else [])
        self.refresh_bindings()

    def _status(self, state: GameState, obs: Observation, names: tuple[str, str], viewer: Optional[int]) -> str:
        """Public facts only: scores, bags, bids, tricks, spades broken, whose turn (the ▶)."""
        width = max(len(n) for n in names) + 6
        lines = []
        in_hand = state.hand is not None and state.phase not in (Phase.SHUFFLE, Phase.GAME_OVER)
        for p in (0, 1):
            name = names[p] + (" (you)" if viewer == p and not self.game.vs_bot else "")
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
        store = self.game.store
        if store is not None and store.save_error:
            head = "AUTOSAVE OFF · " + head  # first, so a narrow terminal cannot cut it off
        return "\n".join([head, *lines])

    def _tricks(self, obs: Observation, names: tuple[str, str]) -> list[tuple[str, list[tuple[Optional[Card], str]]]]:
        """The current trick and the last completed one, cards in order of play."""
        current: list[tuple[Optional[Card], str]] = [(pc.card, "") for pc in obs.trick]
        while len(current) < 2:
            current.append((None, ""))
        title = f"Trick {len(obs.tricks) + 1}"
        if obs.trick:
            title += f": {names[obs.trick[0].player]} led"
        groups = [(title, current)]
        if obs.tricks:
            last = obs.tricks[-1]
            groups.append((f"Last trick: {names[last[0].player]} led, {names[trick_winner(last)]} won",
                           [(pc.card, "") for pc in last]))
        return groups

    def _summary(self, state: GameState, names: tuple[str, str], pane: str) -> tuple[str, Table, list[Item]]:
        if pane == "summary":
            h = state.history[-1]
            table = Table(title=f"Hand {len(state.history)}", expand=False)
            table.add_column("")
            table.add_column(names[0], justify="right")
            table.add_column(names[1], justify="right")
            rows = [
                ("Bid", bid_text(h.bids[0]), bid_text(h.bids[1])),
                ("Tricks won", str(h.tricks[0]), str(h.tricks[1])),
                ("Contract", f"{h.lines[0].contract:+}", f"{h.lines[1].contract:+}"),
                ("Overtricks", f"{h.lines[0].overtricks:+}", f"{h.lines[1].overtricks:+}"),
                ("Nil / Double Nil", f"{h.lines[0].nil:+}", f"{h.lines[1].nil:+}"),
                ("Bag penalty", f"{h.lines[0].bag_penalty:+}", f"{h.lines[1].bag_penalty:+}"),
                ("Hand points", f"{h.points[0]:+}", f"{h.points[1]:+}"),
                ("Total score", str(h.scores_after[0]), str(h.scores_after[1])),
                ("Bags", str(h.bags_after[0]), str(h.bags_after[1])),
            ]
            for row in rows:
                table.add_row(*row)
            return f"Hand {len(state.history)} is over.", table, [Item("next", "Next hand")]
        table = Table(title="Every hand", expand=False)
        for col in ("Hand", "First", f"{names[0]} bid", "won", "pts", f"{names[1]} bid", "won", "pts", "Scores"):
            table.add_column(col, justify="right")
        for i, h in enumerate(state.history, 1):
            table.add_row(str(i), names[h.first_drafter], bid_text(h.bids[0]), str(h.tricks[0]), f"{h.points[0]:+}",
                          bid_text(h.bids[1]), str(h.tricks[1]), f"{h.points[1]:+}",
                          f"{h.scores_after[0]}–{h.scores_after[1]}")
        winner = state.winner
        prompt = (f"Game over: {names[winner]} wins, {state.scores[winner]} to {state.scores[1 - winner]}."
                  if winner is not None else "Game over.")
        return prompt, table, [Item("new", "New game"), Item("quit", "Quit")]

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("move", "confirm", "mark", "digit") and too_small(self):
            return False
        items = self._items
        if action == "move":
            return sum(1 for i in items if i.enabled) > 1
        if action == "confirm":
            return 0 <= self.cursor < len(items)
        if action == "mark":
            return self.pane == "exchange"
        if action == "digit":
            return self.pane == "bidding"
        return True

    def action_move(self, delta: int) -> None:
        items = self._items
        self.typed = ""
        i = self.cursor
        while 0 <= i + delta < len(items):
            i += delta
            if items[i].enabled:
                self.cursor = i
                break
        self.query_one("#picker", Picker).show(items, self.cursor)

    def action_digit(self, digit: int) -> None:
        candidate = self.typed + str(digit)
        if int(candidate) > 13 or (candidate.startswith("0") and len(candidate) > 1):
            candidate = str(digit)
        self.typed = candidate
        for i, item in enumerate(self._items):
            if item.key == str(int(candidate)):
                self.cursor = i
        self.render_view()

    def action_mark(self) -> None:
        if self.pane == "exchange" and 0 <= self.cursor < len(self._items):
            item = self._items[self.cursor]
            if item.card is not None:
                self._choose(item)

    def on_picker_clicked(self, message: Picker.Clicked) -> None:
        self.cursor = message.index
        self.action_confirm()

    def action_confirm(self) -> None:
        if not (0 <= self.cursor < len(self._items)):
            return
        item = self._items[self.cursor]
        if item.enabled:
            self._choose(item)

    def _choose(self, item: Item) -> None:
        app = self.game
        state = app.state
        viewer = app.viewer
        pane = self.pane
        if pane == "handoff":
            app.reveal()
            return
        if pane == "summary":
            app.next_hand()
            return
        if pane in ("gameover", "forfeit"):
            if item.key == "quit":
                app.exit(0)
            else:
                app.show_start()
            return
        if state is None or viewer is None:
            return
        action: Optional[PlayerAction] = None
        if pane == "double_nil":
            action = DeclareDoubleNil(viewer, item.key == "yes")
        elif pane == "draft":
            action = Draft(viewer, "first") if item.key == "first" else Draft(viewer, "second")
        elif pane == "exchange":
            if item.card is not None:
                if item.card in self.marked:
                    self.marked.discard(item.card)
                elif len(self.marked) < 3:
                    self.marked.add(item.card)
                self.render_view()
                return
            action = Exchange(viewer, tuple(sorted(self.marked)))
        elif pane == "bidding":
            action = Bid(viewer, int(item.key))
        elif pane == "play" and item.card is not None:
            action = Play(viewer, item.card)
        if action is not None:
            app.act(action)
