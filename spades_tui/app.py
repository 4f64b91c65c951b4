"""The Textual application: holds the store, runs the bot in a worker, switches screens.

The app's reactive ``state`` mirrors ``store.state`` after every dispatch, and
``viewer`` says whose cards the screen may show (None: nobody's, during a
hot-seat hand-off).  Screens watch both and re-render; nothing else changes
the game.
"""

from __future__ import annotations

import functools
import os
import random
import sys
from pathlib import Path
from typing import ClassVar, Optional, Sequence

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen

from .bots import LEVELS as BOT_LEVELS
from .bots import Bot, BotError, make_bot
from .cli import LaunchOptions
from .engine import (
    GameRecord,
    GameState,
    IllegalActionError,
    Observation,
    Phase,
    PlayerAction,
    PlayerInfo,
    Rules,
)
from .resources import asset_path
from .storage import LOAD_ERRORS, load_game
from .store import AutosaveStatus, GameStore, check_autosave, default_autosave_path, keep_previous
from .terminal import screen_output, terminal_problem
from .ui.game import GameScreen
from .ui.start import StartScreen

BOT_SEAT = 1  # against a bot the human is player 0


def create_bot(spec: str, seed: Optional[int]) -> Bot:
    """Built-in bots run in a child process so their thinking cannot slow the interface;
    an external ``cmd:`` bot is already a process and is driven from a worker thread."""
    if spec.startswith("cmd:"):
        return make_bot(spec, seed)
    from .ui.bothost import ProcessBot

    if spec not in BOT_LEVELS:
        raise ValueError(f"unknown bot {spec!r}: expected easy, normal, hard or cmd:PROGRAM")
    return ProcessBot(functools.partial(make_bot, spec, seed))


class SpadesApp(App[int]):
    CSS_PATH = str(asset_path("spades.tcss"))
    TITLE = "Spades"
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # noqa: RUF012 (Textual declares it so)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", id="app.help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    state: reactive[Optional[GameState]] = reactive(None, always_update=True)
    viewer: reactive[Optional[int]] = reactive(None)
    bot_thinking: reactive[bool] = reactive(False)
    forfeit: reactive[Optional[str]] = reactive(None)

    def __init__(
        self,
        options: Optional[LaunchOptions] = None,
        *,
        autosave_path: Optional[Path] = None,
        loaded: Optional[GameRecord] = None,
    ) -> None:
        super().__init__()
        self.options = options or LaunchOptions()
        self.autosave_path = autosave_path
        self.loaded = loaded
        self.store: Optional[GameStore] = None
        self.bot: Optional[Bot] = None
        self.bot_spec: Optional[str] = None
        self.autosave = AutosaveStatus()
        self._told_save_error: Optional[str] = None

    # ------------------------------------------------------------ start-up

    def on_mount(self) -> None:
        opts = self.options
        if not opts.direct and self.loaded is None:
            self.show_start()  # it checks the autosave and shows any problem itself
            return
        if self.autosave_path is not None:
            self.autosave = check_autosave(self.autosave_path)  # a corrupt file is set aside, never overwritten
        if self.autosave.message:
            self.notify(self.autosave.message, severity="warning", timeout=12, markup=False)
        rules = opts.rules or Rules()
        if self.loaded is not None:
            self._start_store(self.loaded, seed=opts.seed)
        elif opts.hotseat:
            self.start_new(rules, None, ("Player 1", "Player 2"), bot=None, seed=opts.seed)
        elif opts.bot is not None:
            self.start_new(rules, None, ("You", f"Bot ({opts.bot})"), bot=opts.bot, seed=opts.seed)

    def _show(self, screen: Screen[None]) -> None:
        """Make ``screen`` the only screen above the default one."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_start(self, message: Optional[str] = None) -> None:
        self._stop_bot()
        resume = None
        if self.autosave_path is not None:
            self.autosave = check_autosave(self.autosave_path)
            message = message or self.autosave.message
            if self.autosave.resumable and self.autosave.record is not None and self.autosave.state is not None:
                st = self.autosave.state
                names = self.autosave.record.players or (PlayerInfo("Player 1"), PlayerInfo("Player 2"))
                resume = f"hand {st.hand_number}, {names[0].name} {st.scores[0]} – {names[1].name} {st.scores[1]}"
        self._show(StartScreen(message, resume))

    def start_new(
        self,
        rules: Rules,
        first: Optional[int],
        names: tuple[str, str],
        *,
        bot: Optional[str],
        seed: Optional[int],
    ) -> None:
        """A new game; ``first`` None means a random cut."""
        if first is None:
            rng = random.Random(f"{seed}:cut") if seed is not None else random.SystemRandom()
            first = rng.randrange(2)
        kinds = ("human", f"bot:{bot}" if bot else "human")
        players = (PlayerInfo(names[0], kinds[0]), PlayerInfo(names[1], kinds[1]))
        if self.autosave_path is not None:
            keep_previous(self.autosave_path)
        self._start_store(GameRecord(rules, first, players), seed=seed)

    def resume_autosave(self) -> None:
        if self.autosave.record is not None:
            self._start_store(self.autosave.record, seed=None)

    def load_file(self, path: str) -> Optional[str]:
        """Load a record from the start screen; an error message, or None if the game started."""
        if not path:
            return "Type the path of a game record."
        try:
            record, _ = load_game(path)
        except LOAD_ERRORS as exc:
            return f"Cannot load that record: {exc}"
        self._start_store(record, seed=None)
        return None

    def _start_store(self, record: GameRecord, *, seed: Optional[int]) -> None:
        self._stop_bot()
        store = GameStore(record, seed=seed, autosave=self.autosave_path)
        self.store = store
        self.forfeit = None
        self.bot_spec = None
        players = store.players
        kind = players[BOT_SEAT].kind
        if kind.startswith("bot:"):
            self.bot_spec = kind[4:]
        if self.bot_spec is not None and self.bot_spec.startswith("cmd:") and self.bot_spec != self.options.bot:
            # A record only names its bot: running the program it names would let any file run any command.
            self.forfeit = (f"{players[BOT_SEAT].name} cannot play: a game record may not start the program "
                            f"it names ({self.bot_spec[4:]})")
        elif self.bot_spec is not None:
            try:
                self.bot = create_bot(self.bot_spec, store.dealer.seed)
                self.bot.start(BOT_SEAT, record.rules)
            except (BotError, ValueError, OSError) as exc:
                self.forfeit = f"{players[BOT_SEAT].name} cannot play: {exc}"
        self.viewer = 0 if self.vs_bot else None
        store.save()
        self._show(GameScreen())
        self.advance()

    @property
    def vs_bot(self) -> bool:
        return self.bot_spec is not None

    # ------------------------------------------------------------ the game loop

    def advance(self) -> None:
        """Deal due chance actions, pick the viewer, publish the state, start the bot if it is its turn."""
        store = self.store
        if store is None:
            return
        while store.state.phase is Phase.EXCHANGE_DRAW or (
            store.state.phase is Phase.SHUFFLE and not store.state.history
        ):
            store.deal()
        st = store.state
        if self.vs_bot:
            self.viewer = 0
        elif st.to_act is not None and self.viewer != st.to_act:
            self.viewer = None  # hot-seat: hand the keyboard over before showing any card
        self.state = st
        if store.save_error and store.save_error != self._told_save_error:
            # Once per new failure, not on every move; the status line keeps saying it meanwhile.
            self.notify(f"{store.save_error}. The game goes on without autosave.", severity="error",
                        timeout=12, markup=False)
        self._told_save_error = store.save_error
        if st.phase is Phase.GAME_OVER and self.bot is not None:
            self._finish_bot(st)
        if self.vs_bot and st.to_act == BOT_SEAT and not self.forfeit and self.bot is not None:
            self._ask_bot()

    def act(self, action: PlayerAction) -> None:
        """A human decision from the screen."""
        if self.store is None:
            return
        try:
            self.store.dispatch(action)
        except IllegalActionError as exc:
            self.notify(f"Not allowed: {exc}", severity="error", markup=False)
        self.advance()

    def reveal(self) -> None:
        """Hot-seat: the player to act is at the keyboard now."""
        if self.store is not None:
            self.viewer = self.store.state.to_act

    def next_hand(self) -> None:
        store = self.store
        if store is None or store.state.phase is not Phase.SHUFFLE:
            return
        if not self.vs_bot:
            self.viewer = None
        store.deal()
        self.advance()

    # ------------------------------------------------------------ the bot

    def _ask_bot(self) -> None:
        store = self.store
        assert store is not None
        self.bot_thinking = True
        # The bot gets its own observation and the legal actions, never the state.
        self._bot_worker(len(store.record.actions), store.observation(BOT_SEAT), store.legal())

    @work(thread=True, exclusive=True, group="bot", exit_on_error=False)
    def _bot_worker(self, token: int, observation: Observation, legal: Sequence[PlayerAction]) -> None:
        bot = self.bot
        if bot is None:
            return
        action: Optional[PlayerAction] = None
        error: Optional[str] = None
        try:
            action = bot.decide(observation, legal)
        except BotError as exc:
            error = str(exc) or "the bot gave up"
        except Exception as exc:  # a crashing bot forfeits; the app goes on
            error = f"the bot crashed: {type(exc).__name__}: {exc}"
        self.call_from_thread(self._bot_answer, token, action, error, tuple(legal))

    def _bot_answer(self, token: int, action: Optional[PlayerAction], error: Optional[str],
                    legal: tuple[PlayerAction, ...]) -> None:
        self.bot_thinking = False
        store = self.store
        if store is None or token != len(store.record.actions) or self.forfeit:
            return  # a stale answer (new game started meanwhile)
        if error is None and action not in legal:
            error = f"the bot chose an illegal action: {action!r}"
        if error is not None or action is None:
            name = store.players[BOT_SEAT].name
            self.forfeit = f"{name} forfeits: {error}"
            self._stop_bot()
            return
        self.act(action)

    def _finish_bot(self, st: GameState) -> None:
        bot = self.bot
        if bot is None:
            return
        try:
            bot.finish(st.scores, st.winner)
        except Exception:  # the game is over either way
            pass
        self._stop_bot()

    def _stop_bot(self) -> None:
        bot, self.bot = self.bot, None
        if bot is not None:
            try:
                bot.close()
            except Exception:  # closing a broken bot must not crash the app
                pass

    # ------------------------------------------------------------ app keys

    def action_help(self) -> None:
        from .ui.help import HelpScreen  # Markdown loads only when help is first opened: faster start

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def on_unmount(self) -> None:
        self._stop_bot()


def run_app(options: LaunchOptions) -> int:
    loaded: Optional[GameRecord] = None
    if options.load is not None:
        try:
            loaded, _ = load_game(options.load)
        except LOAD_ERRORS as exc:
            print(f"spades-tui: cannot load {options.load}: {exc}", file=sys.stderr)
            return 2
    problem = terminal_problem(sys.stdin, sys.__stderr__, os.environ)
    if problem is not None:
        print(f"spades-tui: {problem}", file=sys.stderr)
        return 2
    app = SpadesApp(options, autosave_path=default_autosave_path(), loaded=loaded)
    with screen_output():  # ASCII suit letters and lines where the terminal cannot show ♠♥♦♣
        result = app.run()
    return result if isinstance(result, int) else 0
