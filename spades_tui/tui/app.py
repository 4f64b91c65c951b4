"""The Textual application: owns the session, shows the screen the game needs, runs the bots.

The app's reactive ``seat_view`` is the session's ``SeatView`` after every change: what the
player at the keyboard may know (or, on a hot-seat hand-off, the public view); screens watch
it and re-render.  The app never holds the game state: it asks the session for views and
hands it decisions.  Screens never call the app: they post messages (``messages.py``),
handled here with ``@on``.  Nothing else changes the game.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Callable, ClassVar, Iterable, Optional, Sequence

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Provider
from textual.reactive import reactive
from textual.screen import Screen

from ..session import (
    LOAD_ERRORS,
    LaunchOptions,
    Session,
    Slot,
    SlotDirectory,
    StorageError,
    default_data_dir,
    load_game,
    new_record,
    open_games,
)
from ..session.preferences import PREFERENCES_NAME, Preferences, default_config_dir
from ..session.preferences import load as load_preferences
from ..session.preferences import save as save_preferences
from ..session.stats import STATS_NAME, StatsRecorder, load_summary
from ..session.view import GameRecord, HandReview, Hint, Observation, PlayerAction, SeatView
from . import messages
from .commands import GameCommands, PaletteContext, system_commands
from .resources import asset_path
from .screens import (
    BiddingScreen,
    DraftScreen,
    GameOverScreen,
    GameScreen,
    HandoffScreen,
    LoadScreen,
    PlayScreen,
    SetupScreen,
    StartScreen,
    StatsScreen,
    SummaryScreen,
)
from .statsview import stats_view
from .terminal import screen_output, terminal_problem, web_driver
from .viewmodels import Kind, ResumeChoice, resume_choices, screen_kind

# The guide's topic that help shows first, by the screen it opens from (screens/help.py TOPICS); others: "start".
HELP_TOPICS: dict[str, str] = {
    "DraftScreen": "draft", "BiddingScreen": "bidding", "PlayScreen": "play", "SummaryScreen": "scoring",
    "ReviewScreen": "scoring", "GameOverScreen": "scoring", "SettingsScreen": "settings",
}

SCREENS: dict[Kind, type[GameScreen]] = {
    Kind.HANDOFF: HandoffScreen, Kind.DRAFT: DraftScreen, Kind.BIDDING: BiddingScreen, Kind.PLAY: PlayScreen,
    Kind.SUMMARY: SummaryScreen, Kind.GAME_OVER: GameOverScreen,
}

__all__ = ["SpadesApp", "run_app"]


class SpadesApp(App[int]):
    CSS_PATH = str(asset_path("spades.tcss"))
    TITLE = "Spades"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {GameCommands}  # it lists the system ones
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # noqa: RUF012 (Textual declares it so)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", id="app.help",
                tooltip="This help: how to play this screen, the keys, then the whole guide."),
        Binding("question_mark", "help", "Help", show=False),
        # Not in the footer (the start screen lists it; help shows every key): the footer keeps room at 80 columns.
        Binding("f2", "settings", "Settings", show=False, id="app.settings",
                tooltip="Settings: theme, four-colour deck, hints, review, bot pause, new games' defaults."),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True,
                tooltip="Quit. The game is saved after every move; start spades-tui again to resume it."),
        # Shown at the footer's right (Textual docks it there); ctrl+p clashes with no game key.
        Binding("ctrl+p", "command_palette", "Palette", id="app.palette", priority=True, show=False,
                tooltip="The command palette: type part of a command (new game, statistics, hints...), Enter."),
    ]

    seat_view: reactive[Optional[SeatView]] = reactive(None, always_update=True)

    def __init__(
        self,
        options: Optional[LaunchOptions] = None,
        *,
        data_dir: Optional[Path] = None,
        loaded: Optional[GameRecord] = None,
        config_dir: Optional[Path] = None,
    ) -> None:
        """``data_dir`` holds the saved games (``games/``, see ``session.slots``); None saves nothing.

        ``config_dir`` holds the preferences file; None: the defaults, never saved.
        """
        super().__init__()
        self.options = options or LaunchOptions()
        self.prefs_path = config_dir / PREFERENCES_NAME if config_dir is not None else None
        self.prefs = Preferences()
        self._prefs_problem: Optional[str] = None  # said once the app runs
        self._looks_applied = False
        if self.prefs_path is not None:
            self.prefs, self._prefs_problem = load_preferences(self.prefs_path, self.available_themes)
        self.data_dir = data_dir
        self.loaded = loaded
        self.session: Optional[Session] = None
        self.slots: Optional[SlotDirectory] = None
        self.slot: Optional[Slot] = None  # the autosave slot this process holds for the game in play
        self._told_save_error: Optional[str] = None
        self.stats = StatsRecorder(data_dir / STATS_NAME) if data_dir is not None else None  # opened at first write
        self._bot_asked: Optional[tuple[Session, int]] = None  # a bot is asked once per decision

    # ------------------------------------------------------------ read-only facts of the session

    @property
    def viewer(self) -> Optional[int]:
        """Whose view the screen shows (None: the public view)."""
        return self.seat_view.seat if self.seat_view is not None else None

    @property
    def vs_bot(self) -> bool:
        return self.session is not None and self.session.vs_bot

    @property
    def bot_thinking(self) -> bool:
        return self.session is not None and self.session.bot_thinking

    @property
    def forfeit(self) -> Optional[str]:
        return self.session.forfeit if self.session is not None else None

    # ------------------------------------------------------------ start-up

    @property
    def autosave_path(self) -> Optional[Path]:
        """Where the game in play is saved: its slot."""
        return self.slot.path if self.slot is not None else None

    def on_mount(self) -> None:
        opts = self.options
        self._apply_looks()
        if self._prefs_problem is not None:  # the defaults are used; saving the settings writes a good file
            self.notify(self._prefs_problem, severity="warning", timeout=15, markup=False)
        notes: list[str] = []
        if self.data_dir is not None:
            # The old single autosave moves into a slot; stray temporary files go; damaged files are set aside.
            self.slots, notes = open_games(self.data_dir)
        message = " ".join(notes) or None
        if not opts.direct and self.loaded is None:
            self.show_start(message)  # it lists the saved games and shows any problem itself
            return
        if message:
            self.notify(message, severity="warning", timeout=12, markup=False)
        rules = opts.rules or self.prefs.rules
        if self.loaded is not None:
            self._start(self.loaded, seed=opts.seed)
        elif opts.hotseat:
            self._new(messages.NewGameRequest(rules, None, ("Player 1", "Player 2"), None, opts.seed))
        elif opts.bot is not None:
            self._new(messages.NewGameRequest(rules, None, (self.prefs.player_name, f"Bot ({opts.bot})"), opts.bot,
                                              opts.seed))

    def _show(self, screen: Screen[None]) -> None:
        """Make ``screen`` the only screen above the default one."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_start(self, message: Optional[str] = None) -> None:
        self._close_session()  # the game left is released: listed like any other
        resume: tuple[ResumeChoice, ...] = ()
        if self.slots is not None:
            listing = self.slots.scan()  # damaged files are set aside, with a message
            message = " ".join(m for m in (message, *listing.messages) if m) or None
            resume = resume_choices(listing.games, time.time())
        self._show(StartScreen(message, resume, self.options, self.prefs))

    def _new(self, request: messages.NewGameRequest) -> None:
        self._start(new_record(request.rules, request.first, request.names, bot=request.bot, seed=request.seed),
                    seed=request.seed)

    def _start(self, record: GameRecord, *, seed: Optional[int], slot: Optional[Slot] = None) -> None:
        """Play ``record``, saved in ``slot`` (a saved game resumed) or in a newly claimed one."""
        self._close_session()
        problem = None
        if slot is None and self.slots is not None:
            try:
                slot = self.slots.claim_new()  # a new slot: no other game's file is ever written
            except StorageError as exc:
                problem = f"Autosave failed: {exc}"
        self.slot = slot
        opts = self.options
        try:
            self.session = Session(record, seed=seed, autosave=self.autosave_path,
                                   allowed_cmd=None if opts.served else opts.bot,
                                   auto_review=self.prefs.review if opts.review is None else opts.review,
                                   hints=opts.hints,
                                   show_hints=self.prefs.hints if opts.show_hints is None else opts.show_hints,
                                   hint_samples=opts.hint_samples)
        except BaseException:
            self._close_session()
            raise
        if problem is not None:
            self.session.note_save_problem(problem)
        self.publish()

    def _close_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            session.close_all()
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()

    # ------------------------------------------------------------ the game loop

    def publish(self) -> None:
        """Show the session as it is now: the view, the screen it needs; ask a bot if it is its turn."""
        session = self.session
        if session is None:
            return
        snap = session.view()
        self.seat_view = snap
        self._sync_screen()
        if snap.save_error and snap.save_error != self._told_save_error:
            # Once per new failure, not on every move; the status line keeps saying it meanwhile.
            self.notify(f"{snap.save_error}. The game goes on without autosave.", severity="error",
                        timeout=12, markup=False)
        self._told_save_error = snap.save_error
        if self.stats is not None:  # writes only when a hand or game ended
            problem = session.record_stats(self.stats)
            if problem is not None:  # once per new problem; the game goes on
                self.notify(problem, severity="warning", timeout=12, markup=False)
        job = session.review_request()
        if job is not None:
            self._review_worker(session, job)  # in the background while the summary is read
        asked = session.hint_request()
        if asked is not None:
            self._hint_worker(session, *asked)
        if session.bot_due() is not None and self._bot_asked != (session, snap.actions):
            self._bot_asked = (session, snap.actions)
            pause = self.bot_pause if snap.trick_just_finished else 0.0
            if pause > 0:  # let the finished trick be seen before the bot leads; keys work meanwhile
                self.set_timer(pause, lambda: self._ask_bot(session, snap.actions))
            else:
                self._ask_bot(session, snap.actions)

    @property
    def bot_pause(self) -> float:
        """Seconds a finished trick stays before the bot leads: --bot-pause, else the preference."""
        return self.prefs.bot_pause if self.options.bot_pause is None else self.options.bot_pause

    def _ask_bot(self, session: Session, token: int) -> None:
        if session is self.session and session.bot_due() is not None and session.actions == token:
            self._bot_worker(session, *session.bot_request())
            self.seat_view = session.view()  # now says the bot is thinking

    def _sync_screen(self) -> None:
        """The game screen the snapshot needs; under a help screen it waits until help closes."""
        snap = self.seat_view
        if self.session is None or snap is None:
            return
        wanted = SCREENS[screen_kind(snap)]
        top = self.screen
        if type(top) is wanted:
            return
        if isinstance(top, GameScreen) or len(self.screen_stack) <= 2 or not top.is_modal:
            self._show(wanted())

    @on(messages.ActionChosen)
    def _action_chosen(self, message: messages.ActionChosen) -> None:
        if self.session is None:
            return
        snap = self.seat_view
        if message.position is not None and snap is not None and message.position != (snap.actions, snap.seat):
            return  # chosen on a screen that showed an earlier position: stale, not this decision's answer
        error = self.session.act(message.action)
        if error is not None:
            self.notify(f"Not allowed: {error}", severity="error", markup=False)
        self.publish()

    @on(messages.Reveal)
    def _reveal(self) -> None:
        if self.session is not None:
            self.session.reveal()
            self.publish()

    @on(messages.NextHand)
    def _next_hand(self) -> None:
        if self.session is not None:
            self.session.next_hand()
            self.publish()

    @on(messages.ShowStart)
    def _show_start(self) -> None:
        self.show_start()

    @on(messages.NewGame)
    def _new_game(self, message: messages.NewGame) -> None:
        self._new(message.request)

    @on(messages.LoadRecord)
    def _load_record(self, message: messages.LoadRecord) -> None:
        self._start(message.record, seed=None)

    @on(messages.ResumeGame)
    def _resume(self, message: messages.ResumeGame) -> None:
        if self.slots is None:
            return
        try:
            slot, record = self.slots.open_game(message.path)
        except StorageError as exc:  # open in another window (SlotBusy), gone or damaged: said on the start screen
            self.show_start(str(exc))
            return
        if self.options.served and record.players is not None and any(p.kind.startswith("bot:cmd:")
                                                                       for p in record.players):
            # Left as it is, not forfeited: the program it names may be started from a terminal only.
            slot.release()
            self.show_start("That game's bot is an external program, which a game in a browser may not start; "
                            "resume it in a terminal (spades-tui --bot \"cmd:...\").")
            return
        self._start(record, seed=None, slot=slot)

    # ------------------------------------------------------------ the bot

    @work(thread=True, exclusive=True, group="bot", exit_on_error=False)
    def _bot_worker(self, session: Session, token: int, seat: int, observation: Observation,
                    legal: Sequence[PlayerAction]) -> None:
        bot = session.bots.get(seat)
        if bot is None:
            return
        action: Optional[PlayerAction] = None
        error: Optional[str] = None
        try:
            action = bot.decide(observation, legal)  # its own observation and the legal actions, never the state
        except Exception as exc:  # a failing bot forfeits; the app goes on
            error = _bot_failure(exc)
        self.call_from_thread(self._bot_answer, session, token, seat, action, error)

    def _bot_answer(self, session: Session, token: int, seat: int, action: Optional[PlayerAction],
                    error: Optional[str]) -> None:
        if session is self.session:  # else a new game started meanwhile
            session.bot_answer(token, seat, action, error)
            self.publish()

    @work(thread=True, group="hint", exit_on_error=False)
    def _hint_worker(self, session: Session, token: tuple[int, int], observation: Observation,
                     legal: tuple[PlayerAction, ...]) -> None:
        # The viewer's own observation and legal actions only, in the hint service's process.
        hint = session.compute_hint(observation, legal)
        self.call_from_thread(self._hint_ready, session, token, hint)

    def _hint_ready(self, session: Session, token: tuple[int, int], hint: Optional[Hint]) -> None:
        if session is self.session:
            session.set_hint(token, hint)
            self.publish()

    @on(messages.TakeBack)
    def _take_back(self) -> None:
        if self.session is not None and self.session.take_back():
            self._bot_asked = None  # the record is shorter: the bot's next turn may have the length of an old one
            self.notify("Taken back. This is a practice game now: you may know what comes next.", markup=False)
            self.publish()

    @on(messages.ReplayHand)
    def _replay_hand(self) -> None:
        if self.session is not None and self.session.replay_hand():
            self._bot_asked = None
            self.publish()

    @on(messages.ToggleHints)
    def _toggle_hints(self) -> None:
        if self.session is not None:
            self.session.show_hints = not self.session.show_hints
            self.publish()

    @work(thread=True, group="review", exit_on_error=False)
    def _review_worker(self, session: Session, job: Callable[[], Optional[HandReview]]) -> None:
        try:
            review = job()
        except Exception:  # a review is a bonus: without it the game goes on
            review = None
        self.call_from_thread(self._review_ready, session, review)

    def _review_ready(self, session: Session, review: Optional[HandReview]) -> None:
        if session is self.session:
            session.set_review(review)
            self.publish()

    # ------------------------------------------------------------ app keys

    def action_help(self) -> None:
        from .screens.help import HelpScreen  # Markdown loads only when help is first opened: faster start

        if not isinstance(self.screen, HelpScreen):
            topic = HELP_TOPICS.get(type(self.screen).__name__, "start")
            self.push_screen(HelpScreen(topic), lambda _: self._sync_screen())

    # ------------------------------------------------------------ preferences

    def action_settings(self) -> None:
        """The settings screen (F2, the start screen's "Settings", the command palette)."""
        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.prefs, list(self.available_themes)), self._settings_closed)

    def _settings_closed(self, prefs: Optional[Preferences]) -> None:
        if prefs is not None:
            old = self.prefs
            # What was just chosen wins over the command line's --bot-pause, --review and --hints from now on.
            self.options = replace(self.options, bot_pause=None, review=None, show_hints=None)
            self.prefs = prefs
            self._save_preferences()
            self._apply_looks()
            if isinstance(self.screen, StartScreen):
                self.screen.prefs = prefs  # its new-game form's defaults
            session = self.session
            if session is not None:  # a changed setting applies to the game in play; h's toggle stays otherwise
                if prefs.hints != old.hints:
                    session.show_hints = prefs.hints
                if prefs.review != old.review:
                    session.auto_review = prefs.review
                self.publish()
        self._sync_screen()

    def _apply_looks(self) -> None:
        if self.prefs.theme in self.available_themes:
            self.theme = self.prefs.theme
        self.set_class(self.prefs.four_colour, "-four-colour")  # assets/spades.tcss colours each suit
        self._looks_applied = True

    def watch_theme(self, theme: str) -> None:
        """A theme chosen anywhere (the command palette's "Change theme" too) is kept for next time."""
        if theme != self.prefs.theme and self._looks_applied:  # not Textual's first default, before ours
            self.prefs = replace(self.prefs, theme=theme)
            self._save_preferences()

    def _save_preferences(self) -> None:
        if self.prefs_path is None:
            return
        try:
            save_preferences(self.prefs_path, self.prefs)
        except StorageError as exc:  # they apply for this run all the same
            self.notify(f"Settings not saved: {exc}", severity="error", timeout=12, markup=False)

    # ------------------------------------------------------------ the command palette's commands (commands.py)

    @on(CommandPalette.Closed)
    def _palette_closed(self) -> None:
        # The game may have moved on under the palette (the bot played): show the screen it needs now.
        self.call_after_refresh(self._sync_screen)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        return system_commands(super().get_system_commands(screen))

    def palette_context(self) -> PaletteContext:
        session = self.session
        resumable: tuple[ResumeChoice, ...] = ()
        if self.slots is not None:
            listing = self.slots.scan()  # a damaged file is set aside: say so, as the start screen would
            if listing.messages:
                self.notify(" ".join(listing.messages), severity="warning", timeout=12, markup=False)
            playing = self.slot.path if self.slot is not None else None
            resumable = tuple(c for c in resume_choices(listing.games, time.time())
                              if not c.elsewhere and c.path != playing)
        return PaletteContext(in_game=session is not None, hints_on=session is not None and session.show_hints,
                              review_on=session is not None and session.auto_review, resumable=resumable,
                              served=self.options.served)

    def action_statistics(self) -> None:
        if not isinstance(self.screen, StatsScreen):
            path = self.data_dir / STATS_NAME if self.data_dir is not None else None
            self.push_screen(StatsScreen(stats_view(load_summary(path))), lambda _: self._sync_screen())

    def action_new_game(self, kind: str) -> None:
        """The new-game form over the start screen: the game in play is saved and listed there."""
        self.show_start()
        self.push_screen(SetupScreen(kind, self.options), self._new_from_form)

    def _new_from_form(self, request: Optional[messages.NewGameRequest]) -> None:
        if request is not None:
            self._new(request)

    def action_load_record(self) -> None:
        if self.options.served:  # a browser page may not open a file by path on the server's machine
            return
        self.show_start()
        self.push_screen(LoadScreen(), self._load_from_form)

    def _load_from_form(self, record: Optional[GameRecord]) -> None:
        if record is not None:
            self._start(record, seed=None)

    def action_resume_saved(self, path: str) -> None:
        self._resume(messages.ResumeGame(Path(path)))

    def action_toggle_review(self) -> None:
        session = self.session
        if session is not None:
            session.auto_review = not session.auto_review
            self.options = replace(self.options, review=session.auto_review)  # and for the next game
            self.notify("The review opens after every hand." if session.auto_review
                        else "The review opens only when asked (r on the hand summary).", markup=False)
            self.publish()

    def on_unmount(self) -> None:
        self._close_session()
        if self.stats is not None:
            self.stats.close()


def _bot_failure(exc: Exception) -> str:
    from ..bots import BotError

    if isinstance(exc, BotError):
        return str(exc) or "the bot gave up"
    return f"the bot crashed: {type(exc).__name__}: {exc}"


def run_app(options: LaunchOptions) -> int:
    if options.served:
        # Checked again here, not only by 'spades-tui serve': the page must never choose a program or a file.
        refused = options.served_refusal()
        if refused is not None:
            print(f"spades-tui: {refused}", file=sys.stderr)
            return 2
    loaded: Optional[GameRecord] = None
    if options.load is not None:
        try:
            loaded, _ = load_game(options.load)
        except LOAD_ERRORS as exc:
            print(f"spades-tui: cannot load {options.load}: {exc}", file=sys.stderr)
            return 2
    web = web_driver(os.environ)  # a browser tab (spades-tui serve): no terminal to check, and it shows ♠♥♦♣
    problem = None if web else terminal_problem(sys.stdin, sys.__stderr__, os.environ)
    if problem is not None:
        print(f"spades-tui: {problem}", file=sys.stderr)
        return 2
    app = SpadesApp(options, data_dir=default_data_dir(), loaded=loaded, config_dir=default_config_dir())
    with nullcontext() if web else screen_output():  # ASCII suit letters and lines where the terminal needs them
        result = app.run()
    return result if isinstance(result, int) else 0

