"""The base of every game screen: it renders its view model and turns keys into messages.

A game screen keeps no game fact.  The app hands it each ``seat_view`` (what the player at the keyboard
may know, or the public view) and the pace it plays at (``show_view``), and it renders
``self.view(seat_view)``, a pure view model (``tui/viewmodels.py``); each phase screen only says which
view model it shows.  The cursor, the cards marked for an exchange and a half-typed bid are the only things
it holds: choices in progress, not game facts.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from rich.align import Align
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ...i18n.language import N_, _
from ...session.view import Card, Exchange, SeatView
from ..forcednote import ForcedNote, forced_news, forced_note
from ..gameview import Command, GameView, Item, Kind, screen_kind
from ..houserules import house_rules_lines, rules_title
from ..messages import (
    ActionChosen,
    LessonOver,
    NextHand,
    OpenChat,
    ReplayHand,
    Reveal,
    Seen,
    ShowStart,
    StartChallenge,
    TakeBack,
    ToggleHints,
)
from ..pacing import DEFAULT_PACE, TRICK_SEEN, Pace
from ..textualprivate import event_clock
from ..viewmodels import ADVISED
from ..widgets.cards import CardWidget, OpponentView, Picker, TableView, opponent_line, stock_caption
from ..widgets.fit import Content, Plan, plan, text_rows
from ..widgets.footer import GameFooter
from ..widgets.panel import ScorePanel
from ..widgets.plain import plain
from ..widgets.sheet import sheet_table
from ..widgets.toosmall import TooSmall, too_small
from .choice import ChoiceScreen
from .gamemenu import GameMenu
from .hintfit import SHORT_BELOW, HintFit
from .lessonkeys import LessonKeys

COMPACT_BELOW = 100  # columns: the footer drops its spacing below this
# The panel's width by the terminal's, as the stylesheet sets it (assets/spades.tcss): only the first
# guess at the main area's width, before it is laid out; the laid-out width decides from then on.
PANEL_GUESS = ((140, 38), (120, 32), (0, 26))
FORCED_PAUSE = 0.8  # seconds a forced card (the only legal one) shows before it plays itself


class TableArea(Vertical):
    """The main area: the opponent's row, the table and the hand.  Its laid-out size picks the card size."""

    def on_resize(self) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.refit()


class GameScreen(LessonKeys, GameMenu, HintFit, Screen[None]):
    """Subclasses set ``KIND`` and implement ``view``.  The lesson's keys are ``LessonKeys``'s, the Esc menu
    ``GameMenu``'s, the hint's fitting ``HintFit``'s; every binding is here (help lists ``GameScreen.BINDINGS``)."""

    KIND: ClassVar[Kind]
    HELP_TOPIC: ClassVar[str] = "start"  # help opens at this topic of the guide (tui/app/guide.py TOPICS)
    BINDINGS: ClassVar[list[BindingType]] = [
        # h is the hint panel's key, so of the vi keys only k and j move.
        Binding("left,up,k", "move(-1)", N_("Move"), key_display="←→", id="game.move",
                tooltip=N_("Move the highlight to the previous or next choice.")),
        Binding("right,down,j", "move(1)", N_("Move"), show=False, id="game.move_next"),
        # At the Double Nil exchange Enter's words say what it does on the highlighted choice.
        Binding("enter", "confirm_unmark", N_("Unmark card"), id="game.confirm_unmark",
                tooltip=N_("At the Double Nil exchange: unmark the highlighted card.")),
        Binding("enter", "confirm_exchange", N_("Exchange marked"), id="game.confirm_exchange",
                tooltip=N_("At the Double Nil exchange: exchange the marked cards (the hint's come marked).")),
        Binding("enter", "confirm_keep", N_("Keep all"), id="game.confirm_keep",
                tooltip=N_("At the Double Nil exchange: keep every card, exchanging none.")),
        Binding("enter", "confirm", N_("Confirm"), id="game.confirm",
                tooltip=N_("Confirm the highlighted choice: it is always a legal one.")),
        # Not in the footer: Enter's words there say the same for the highlighted card, and the screen's
        # line says "Space or Enter marks a card"; so the footer keeps room for f1 Help at 80 columns.
        Binding("space", "mark", N_("Mark or unmark"), id="game.mark", show=False,
                tooltip=N_("Mark or unmark a card in the Double Nil exchange.")),
        Binding("enter", "confirm_mark", N_("Mark card"), id="game.confirm_mark",
                tooltip=N_("At the Double Nil exchange: mark the highlighted card to exchange.")),
        Binding("0", "digit(0)", N_("Type bid"), key_display="0-9", id="game.digit",
                tooltip=N_("Type a bid (1 then 2 is 12; 0 is Nil); Enter confirms it.")),
        *[Binding(str(d), f"digit({d})", N_("Type bid"), show=False) for d in range(1, 10)],
        Binding("t", "last_trick", N_("Last trick"), id="game.last_trick",
                tooltip=N_("Show or hide the last complete trick.")),
        Binding("o", "house_rules", N_("Rules"), id="game.house_rules",
                tooltip=N_("List the house rules of this game: every option in force.")),
        Binding("h", "hints", N_("Hints"), id="game.hints",
                tooltip=N_("Show or hide the hint panel: each choice's odds, and the recommended one "
                           "(Enter's default).")),
        Binding("u", "take_back", N_("Take back"), id="game.take_back",
                tooltip=N_("Against a bot: take back your last decision and the bot's answers after it "
                           "(the game becomes practice).")),
        Binding("r", "review", N_("Review"), id="game.review",
                tooltip=N_("After a hand: review it, every card judged with all cards face up.")),
        Binding("c", "chat", N_("Chat"), id="game.chat",
                tooltip=N_("At a network table: the lines said at the table, and a line to say (watchers read "
                           "only).")),
        # Watching (no seat of one's own): Enter chooses nothing there, so an idle Enter never leaves; this does.
        Binding("l", "leave", N_("Leave"), id="game.leave",
                tooltip=N_("Watching a game you do not play: back to the start screen. A table's game goes on "
                           "without you (watch it again with its watch code); a game here stays saved.")),
        Binding("escape", "menu", N_("Menu"), id="game.menu",
                tooltip=N_("The game menu: resume, settings, help, back to the start screen (the game stays "
                           "saved), quit.")),
        # In the lesson Esc leaves at once: there is nothing to save.
        Binding("escape", "leave_lesson", N_("Leave lesson"), id="game.leave_lesson",
                tooltip=N_("In the lesson: leave it, back to the start screen (a lesson is never saved).")),
    ]

    def __init__(self, seat_view: Optional[SeatView] = None, pace: Pace = DEFAULT_PACE) -> None:
        """The view this screen comes up for and the pace it plays at; then each next one (``show_view``)."""
        super().__init__()
        self.seat_view: Optional[SeatView] = None  # the last view of this screen's kind
        self.given: Optional[SeatView] = seat_view  # the last view handed to it, of any kind
        self.pace = pace
        self.shown: Optional[GameView] = None
        self.cursor = -1
        self.marked: frozenset[Card] = frozenset()
        self.typed = ""
        self.show_last_trick = False
        self.cursor_moved = False  # the person chose with the arrows or digits: a late hint leaves it
        self.marks_touched = False  # the person marked or unmarked a card: the hint's marks no longer apply
        self.forced: Optional[Timer] = None  # the pause before a forced card plays itself
        self.forced_for: tuple[object, ...] = ()  # the decision that pause is for
        self.plan = Plan()  # the card size and the extras that fit (widgets/fit.py)
        self.forced_said: Optional[ForcedNote] = None  # the card that last played itself, said while on the table

    @property
    def pane(self) -> str:
        return self.shown.pane if self.shown is not None else ""

    def view(self, seat_view: SeatView) -> GameView:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        seat_view = self.given  # the view this screen comes up for (as _changed takes it)
        if seat_view is not None and screen_kind(seat_view) is self.KIND:
            # Its keys known before the footer composes: the footer's first keys are the view's, not a second set
            # that restyled and laid out the screen again before its first paint (issue 33).
            self.seat_view = seat_view
            self._model()
        # The card table (docs/playing.md, "Screen sizes"): the opponent's side at the top, the table in
        # the middle with the news, the prompt and the choices under it, your hand at the bottom, the score
        # panel at the side.
        with Vertical(id="content"):
            with Horizontal(id="layout"):
                with TableArea(id="main"):
                    yield OpponentView(id="opponent")
                    with VerticalScroll(id="body"):
                        yield TableView(id="table")
                        yield Static(id="info", markup=False)
                        yield Static(id="prompt", markup=False)
                        yield Static(id="detail", markup=False)
                        yield Picker(cards=False, id="choices")
                        with Center(id="hintbox"):  # the hint's block in the middle, its lines left-aligned
                            yield Static(id="hint", markup=False)
                    yield Static(id="handlabel", markup=False)
                    yield Picker(cards=True, id="hand")
                yield ScorePanel(id="panel")
            footer = GameFooter()
            # As on_resize sets it, before the keys compose: else they compose again once it is set.
            footer.set_reactive(GameFooter.compact, self.app.size.width < COMPACT_BELOW)
            yield footer
        yield TooSmall()

    def on_mount(self) -> None:
        self._following = True
        self._changed(self.given)

    def show_view(self, seat_view: Optional[SeatView], pace: Pace) -> None:
        """The app's view now and its pace: drawn once mounted, if of this screen's kind (else the app switches)."""
        self.given, self.pace = seat_view, pace
        if self._following:
            self._changed(seat_view)

    shown_at = 0.0  # when this screen last came to the top
    _following = False  # mounted: a view handed to it is drawn at once (before, on_mount draws the last one)
    _guess = True  # the main area not laid out at the terminal's size yet
    forced_waits_for_trick = False  # the forced card's pause is the finished trick's (a key shortens it)
    _drawn_for: Optional[Size] = None  # the screen's size when it was last drawn (the terminal's before its layout)

    def on_screen_resume(self) -> None:
        self.shown_at = event_clock()  # the clock of the keys' Message.time

    def on_key(self, event: events.Key) -> None:
        # A key typed before this screen came up was meant for the one before: a quick second
        # Enter after a hot-seat player's last decision must not uncover the next player's hand.
        if event.time < self.shown_at:
            event.prevent_default()
            event.stop()
            return
        self.post_message(Seen())  # the finished trick on the table has been seen: the bot may lead
        self._lesson_key(event)
        if self.forced is not None and self.forced_waits_for_trick:  # and a forced lead may go after its pause
            self.forced.stop()
            self.forced, self.forced_waits_for_trick = self.set_timer(FORCED_PAUSE, self._play_forced), False

    def _changed(self, seat_view: Optional[SeatView]) -> None:
        if not self.query("#opponent"):  # the screen is being taken down (the app closing as it came up)
            return
        if seat_view is not None and screen_kind(seat_view) is self.KIND:  # else the app is about to switch screens
            self.seat_view = seat_view
            self.render_view()

    def on_resize(self) -> None:
        # Below 100 columns the footer drops its extra spacing, so every key that works fits (f1 Help too).
        self.query_one(GameFooter).compact = self.size.width < COMPACT_BELOW
        if self.size == self._drawn_for:
            # A new screen is drawn for the terminal's size as it mounts, then told that size (twice) before its
            # first paint: each drawing again restyled and laid out the whole table (issue 33's first paint).
            return
        self.refresh_bindings()
        self._guess = True  # the main area is laid out at its new size after this: guess it until then
        self.hint_shrink = 0  # the hint's lines fitted again to the new size
        self.render_view()  # cards grow and shrink with the terminal

    # ------------------------------------------------------------ drawing

    def _model(self) -> Optional[GameView]:
        """The view to draw, with the cursor, marks and typed digits it keeps (no widget touched: ``compose`` asks
        it too, so that the footer's first keys are the view's)."""
        if self.seat_view is None:
            return None
        vm = self.view(self.seat_view)
        if self.shown is None or vm.decision != self.shown.decision:
            self.marked, self.typed = frozenset(), ""  # a new decision: nothing marked or typed yet
            self.hint_shrink = 0
            self.cursor_moved = self.marks_touched = False
            vm = self._premarked(self.view(self.seat_view))
            self.cursor = vm.default
        else:
            before = vm.default
            vm = self._premarked(vm)
            if not self.cursor_moved and (vm.default != self.shown.default or vm.default != before):
                self.cursor = vm.default  # the hint came: Enter now confirms its recommendation
        items = vm.items
        if items and not (0 <= self.cursor < len(items) and items[self.cursor].enabled):
            self.cursor = next((i for i, it in enumerate(items) if it.enabled), -1)
        self.shown = vm
        return vm

    def render_view(self) -> None:
        vm = self._model()
        if vm is None:
            return
        self._drawn_for = self.size if self.size.width and self.size.height else self.app.size
        self._show_panel(vm)
        self.plan = self._fit(vm, self._main_size())
        self._size_cards()
        extras = self.plan.extras
        empty = "empty" in extras
        self.query_one("#opponent", OpponentView).show(vm.opponent, empty)
        self._text("#prompt", vm.prompt)
        self.query_one("#table", TableView).show(
            vm.table or (vm.places if "places" in extras else ()),
            piles=vm.piles if "piles" in extras else (), stock=vm.stock,
            discards=vm.discards if "discards" in extras else None,
            seen=vm.seen if "seen" in extras else (), seen_caption=vm.seen_caption)
        self._text("#info", self._info(vm))
        detail = self.query_one("#detail", Static)
        detail.update(Align.center(sheet_table(vm.sheet)) if vm.sheet is not None else "")
        detail.display = vm.sheet is not None
        self._show_choices()
        self._text("#hint", self._hint_text(vm))
        if vm.hint_lines:
            self.call_after_refresh(self._refit_hint)  # the width as laid out (0 before the first layout)
        self._text("#handlabel", vm.hand_label)
        self.refresh_bindings()
        self._forced_play(vm)

    def forced_card(self, vm: GameView) -> Optional[Item]:
        """The card that plays itself, if any: on the play screen (never the draft or bidding) when it is the
        only legal card, the setting on (Settings: "Forced card plays"), and the play shows nothing
        new: not in hot-seat, where it would hand the screen to the other person unasked."""
        seat_view = self.seat_view
        if vm.pane != "play" or seat_view is None or all(seat_view.persons) or seat_view.lesson:
            return None  # (in a lesson every card is the learner's to play, with the lesson's words read)
        if not self.pace.forced_play:  # Settings: "Forced card plays"
            return None
        playable = [item for item in vm.items if item.enabled and item.action is not None]
        return playable[0] if len(playable) == 1 and playable[0].card is not None else None

    def _forced_play(self, vm: GameView) -> None:
        if self.forced is not None and self.forced_for != vm.decision:
            self.forced.stop()
            self.forced = None
        if self.forced is None and self.forced_card(vm) is not None:
            self.forced_for = vm.decision
            # A forced lead just after a trick: that trick stays as long as before a bot's lead (until seen).
            pause = self.pace.bot_pause
            now = self.seat_view
            self.forced_waits_for_trick = now is not None and now.trick_just_finished and pause > 0
            delay = max(FORCED_PAUSE, TRICK_SEEN * pause) if self.forced_waits_for_trick else FORCED_PAUSE
            self.forced = self.set_timer(delay, self._play_forced)

    def _play_forced(self) -> None:
        self.forced = None
        vm = self.shown
        if vm is None or vm.decision != self.forced_for:
            return  # the card was played (Enter), or the game moved on
        if self.app.screen is not self:  # a menu, the help or the settings on top: wait until it closes
            self.forced = self.set_timer(FORCED_PAUSE, self._play_forced)
            return
        item = self.forced_card(vm)
        if item is not None and item.card is not None and self.seat_view is not None:
            # Said on the next screens while the card is on the table.
            self.forced_said = forced_note(self.seat_view, item.card)
            self._choose(item)

    def _info(self, vm: GameView) -> str:
        last = vm.last_trick if self.show_last_trick else ""
        if last and self.app.size.height < SHORT_BELOW:
            # A short terminal has no spare row: the last trick, on one line, stands in the news's place (which
            # says the same trick), so that the table's middle never scrolls and the hint stays in sight (issue 52).
            return vm.last_trick_short or last
        info = "\n".join(filter(None, (forced_news(self.seat_view, self.forced_said), vm.info)))
        return info + (f"\n{last}" if last else "")

    def _show_panel(self, vm: GameView) -> None:
        """The score panel writes itself for its laid-out width and height (widgets/panel.py)."""
        said = self.seat_view.said if self.seat_view is not None else ()  # a network table's last lines
        self.query_one("#panel", ScorePanel).show(self.seat_view, vm.status, vm.picks, said)

    # ------------------------------------------------------------ the card size

    def _main_size(self) -> tuple[int, int]:
        """The main area's content size: as laid out, or before the first layout the stylesheet's guess."""
        main = self.query_one("#main")
        if main.size.width and main.size.height and not self._guess:
            return main.size.width, main.size.height
        width, height = self.app.size
        panel = next(w for w0, w in PANEL_GUESS if width >= w0)
        return max(1, width - panel - 1), max(1, height - 1)

    def _fit(self, vm: GameView, main: tuple[int, int]) -> Plan:
        """The largest card size with which this screen fits, and the extras that fit beside it."""
        width, height = main
        texts = [self._info(vm), vm.prompt]
        rows = text_rows([t for t in texts if t], width)
        buttons = [it.text for it in vm.items if it.card is None]
        if buttons:
            rows += 1 + text_rows(["  ".join(f" {b} " for b in buttons)], width)
        if vm.hint or vm.hint_lines:
            rows += 1 + max(vm.hint.count("\n") + 1, len(vm.hint_lines))
        if vm.sheet is not None:
            rows += 1 + len(vm.sheet.rows) + 5  # its title, borders and header
        table_rows = len(vm.table) or (1 if vm.stock is not None else 0)
        if table_rows:
            rows += 1  # the gap under the table
        captions = [r.caption for r in vm.table] + ([stock_caption(vm.stock)] if vm.stock else [])
        hand = bool(vm.hand_label)
        hand_cards = sum(1 for it in vm.items if it.card is not None) or len(vm.hand) or vm.hand_backs
        extras = tuple(name for name, wanted in (
            ("piles", bool(vm.piles and vm.table)), ("places", bool(vm.places and not vm.table)),
            ("discards", vm.discards is not None), ("seen", bool(vm.seen)),
            ("empty", hand and (not hand_cards or (vm.opponent is not None and not vm.opponent.cards))),
        ) if wanted)
        opp = vm.opponent
        head = 0
        if opp is not None:  # a long opponent's line wraps: count its rows beyond the first
            head = text_rows([opponent_line(opp)], width) - 1
        content = Content(opponent=opp is not None, opponent_cards=opp.cards if opp is not None else 0,
                          table_rows=table_rows, caption=max((len(c) for c in captions), default=0),
                          text_rows=rows + head, hand=hand, hand_cards=hand_cards, extras=extras)
        return plan(content, width, height, (self.app.size.width, self.app.size.height))

    def _size_cards(self) -> None:
        for widget in self.query(CardWidget):
            widget.size_cards(self.plan.card, self.plan.back)

    def refit(self) -> None:
        """The main area was laid out at a new size: the card size it fits, if that changed."""
        self._guess = False
        vm = self.shown
        if vm is not None and self._fit(vm, self._main_size()) != self.plan:
            self.render_view()

    def _premarked(self, vm: GameView) -> GameView:
        """At the exchange, the recommended cards are marked until the person marks or unmarks one."""
        if self.seat_view is None or self.marks_touched or vm.premark is None or vm.premark == self.marked:
            return vm
        self.marked = vm.premark
        return self.view(self.seat_view)

    def _show_choices(self) -> None:
        vm = self.shown
        if vm is not None:
            choices = self.query_one("#choices", Picker)
            choices.gap = 0 if vm.typing_bid else 1  # the bids' padded labels read apart without a gap
            choices.show(vm.items, self.cursor)
            self.query_one("#hand", Picker).show(vm.items, self.cursor, vm.hand, "empty" in self.plan.extras,
                                                 vm.hand_backs)

    def _text(self, selector: str, text: str) -> None:
        widget = self.query_one(selector, Static)
        widget.update(plain(text))
        widget.display = bool(text)

    # ------------------------------------------------------------ keys

    @property
    def items(self) -> tuple[Item, ...]:
        return self.shown.items if self.shown is not None else ()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("confirm") or action in ("move", "mark", "digit"):
            if too_small(self):
                return False
        vm = self.shown
        if action.startswith("confirm"):
            return self._enter_does() == action
        if action == "move":
            return sum(1 for i in self.items if i.enabled) > 1
        if action == "mark":  # only on a card: the confirm choice has nothing to mark
            return self._enter_does() in ("confirm_mark", "confirm_unmark")
        if action == "digit":
            return vm is not None and vm.typing_bid
        if action == "last_trick":
            return vm is not None and bool(vm.last_trick)
        if action == "house_rules":  # the standard game has none to list (the help has the rules)
            return self.seat_view is not None and bool(self.seat_view.rules.changed())
        if action == "take_back":
            return self.seat_view is not None and self.seat_view.can_take_back
        if action == "chat":  # only at a network table: its panel has the table's lines
            return self.seat_view is not None and bool(self.seat_view.table)
        if action == "leave":  # only where nobody at this keyboard plays (a watcher, bots among themselves)
            return self.seat_view is not None and self.seat_view.seat is None and not any(self.seat_view.persons)
        if action == "hints":  # a lesson has no hint service: the lesson's words say why its suggestion is good
            # and a challenge has none: its par was made without one.
            challenge = self.seat_view is not None and self.seat_view.challenge is not None
            return vm is not None and vm.pane in ADVISED and not self.in_lesson and not challenge
        if action == "menu":
            return not self.in_lesson
        if action == "leave_lesson":
            return self.in_lesson
        if action == "review":
            return any(i.command is Command.REVIEW and i.enabled for i in self.items)
        return True

    def action_move(self, delta: int) -> None:
        items = self.items
        self.typed = ""
        self.cursor_moved = True
        i = self.cursor
        while 0 <= i + delta < len(items):
            i += delta
            if items[i].enabled:
                self.cursor = i
                break
        self._show_choices()

    def action_last_trick(self) -> None:
        self.show_last_trick = not self.show_last_trick
        self.render_view()

    def action_digit(self, digit: int) -> None:
        candidate = self.typed + str(digit)
        if int(candidate) > 13 or (candidate.startswith("0") and len(candidate) > 1):
            candidate = str(digit)
        self.typed = candidate
        self.cursor_moved = True
        for i, item in enumerate(self.items):
            if item.key == str(int(candidate)):
                self.cursor = i
        self.render_view()

    def action_mark(self) -> None:
        if 0 <= self.cursor < len(self.items) and self.items[self.cursor].command is Command.MARK:
            self._choose(self.items[self.cursor])

    def action_hints(self) -> None:
        self.post_message(ToggleHints())

    def on_picker_clicked(self, message: Picker.Clicked) -> None:
        self.cursor = message.index
        self.action_confirm()

    def _enter_does(self) -> str:
        """Which of Enter's bindings applies: on the exchange its words follow the highlighted choice."""
        items = self.items
        if not 0 <= self.cursor < len(items):
            return ""
        item = items[self.cursor]
        if self.shown is None or not self.shown.marking:
            return "confirm"
        if item.command is Command.MARK:
            return "confirm_unmark" if item.card in self.marked else "confirm_mark"
        if isinstance(item.action, Exchange):
            return "confirm_exchange" if item.action.discard else "confirm_keep"
        return "confirm"

    def action_confirm_mark(self) -> None:
        self.action_confirm()

    def action_confirm_unmark(self) -> None:
        self.action_confirm()

    def action_confirm_exchange(self) -> None:
        self.action_confirm()

    def action_confirm_keep(self) -> None:
        self.action_confirm()

    def action_confirm(self) -> None:
        if 0 <= self.cursor < len(self.items) and self.items[self.cursor].enabled:
            self._choose(self.items[self.cursor])

    def _choose(self, item: Item) -> None:
        if item.action is not None:
            seat_view = self.seat_view
            position = None if seat_view is None else (seat_view.actions, seat_view.seat)
            self.post_message(ActionChosen(item.action, position))
        elif item.command is Command.MARK and item.card is not None:
            self.marks_touched = True
            card = item.card
            if card in self.marked:
                self.marked -= {card}
            elif len(self.marked) < 3:
                self.marked |= {card}
            self.render_view()
        elif item.command is Command.REVEAL:
            self.post_message(Reveal())
        elif item.command is Command.NEXT_HAND:
            self.post_message(NextHand())
        elif item.command is Command.NEW_GAME:
            self.post_message(ShowStart())
        elif item.command is Command.QUIT:
            self.app.exit(0)
        elif item.command is Command.REVIEW:
            self.action_review()
        elif item.command is Command.REPLAY_HAND:
            self.post_message(ReplayHand())
        elif item.command in (Command.LESSON_REAL, Command.LESSON_AGAIN, Command.LESSON_BACK):
            self.post_message(LessonOver(item.key))
        elif item.command is Command.CHALLENGE_AGAIN and self.seat_view is not None and self.seat_view.challenge:
            self.post_message(StartChallenge(self.seat_view.challenge.code))

    def action_take_back(self) -> None:
        seat_view = self.seat_view
        if seat_view is not None and seat_view.practice == 0:  # the first one changes what the game counts for: ask
            self.app.push_screen(ChoiceScreen(
                _("Take back your last decision?"),
                _("A take-back makes this a practice game: you may know what comes. From this hand on it no "
                  "longer counts in your statistics; the hands already scored still count."),
                [("take", _("Take back (practice from now on)")), ("cancel", _("Keep playing"))]),
                self._take_back_answer)
        else:
            self.post_message(TakeBack())

    def _take_back_answer(self, answer: Optional[str]) -> None:
        if answer == "take":
            self.post_message(TakeBack())

    def action_leave(self) -> None:
        self.post_message(ShowStart())

    def action_chat(self) -> None:
        self.post_message(OpenChat())

    def action_house_rules(self) -> None:
        if self.seat_view is None:
            return
        rules = self.seat_view.rules
        text = "\n".join(house_rules_lines(rules))
        self.app.push_screen(ChoiceScreen(_("House rules: {rules}").format(rules=rules_title(rules)), text,
                                          (("close", _("Back to the game")),), name="house_rules"))

    def action_review(self) -> None:
        from ..reviewmodel import review_view  # in here: the review's screen and words load with the first review
        from .review import ReviewScreen

        review = review_view(self.seat_view) if self.seat_view is not None else None
        if review is not None:
            self.app.push_screen(ReviewScreen(review))
