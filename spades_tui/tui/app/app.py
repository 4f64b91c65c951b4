"""The Textual application: owns the session, shows the screen the game needs, runs the bots.

The app's reactive ``seat_view`` is the seat's ``SeatView`` after every change: what the
player at the keyboard may know (or, on a hot-seat hand-off, the public view); screens watch
it and re-render.  The app never holds the game state: it plays a ``session.seat.Seat`` (a game
here or a seat at a network table), asks it for views, hands it decisions and runs its jobs.
Screens never call the app: they post messages (``messages.py``), handled here with ``@on``.
The table's life is ``network.NetworkTable``; the saved games and the statistics are ``saved.SavedGames``;
the lesson is ``lessonrun.LessonRun``.
"""

from __future__ import annotations

import gc
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Optional

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Provider
from textual.reactive import reactive
from textual.screen import Screen

from ...i18n.language import N_, _, translated
from ...keep.storage import StorageError
from ...settings.options import LaunchOptions
from .. import messages
from ..pacing import Pace
from ..screens.start import StartScreen
from ..screens.table import TableWaitScreen
from . import quickstart
from .challengerun import ChallengeRun, is_challenge
from .gamescreens import hand_down, show_game_screen, show_only
from .help import HelpScreens, topic_of
from .jobs import JobRunner
from .lasttrick import LastTrick
from .lessonrun import LessonRun
from .network import NetworkTable
from .palette import game_commands, palette_context, system_commands
from .preferences import PreferenceStore
from .resources import asset_path
from .saved import SavedGames, finished, not_here
from .startup import AS_ASKED, AsAsked, Challenge, HostTable, JoinTable, Learn, Resume, StartUp
from .textualwords import command_palette, help_quit, theme_palette

if TYPE_CHECKING:  # loaded when first used, not before the first screen (a faster start)
    from ...keep.slots import Slot
    from ...session.seat import Seat
    from ...session.view import GameRecord, SeatView
    from ...settings.preferences import Preferences
    from ...table.host.table import TableHost
    from ...table.run import Listener
    from ..lesson import Lesson
    from .commands import PaletteContext

__all__ = ["SpadesApp"]


class SpadesApp(App[int]):
    CSS_PATH = str(asset_path("spades.tcss"))
    TITLE = "Spades"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {game_commands}  # lists the system ones
    # One class a band of width and of height, on the screen: the stylesheet sizes the game's panel by
    # them (docs/playing.md, "Screen sizes"), and shows "too small" under 80x24.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide"), (100, "-w100"), (120, "-w120"),  # noqa: RUF012
                              (140, "-w140")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall"), (32, "-h32"), (40, "-h40"), (50, "-h50")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: F1 opens help over every screen, a modal one too (the game menu, settings, statistics).
        Binding("f1", "help", N_("Help"), id="app.help", priority=True,
                tooltip=N_("This help: how to play this screen, the keys, then the whole guide.")),
        Binding("question_mark", "help", N_("Help"), show=False),
        # Not in the footer (the start screen lists it; help shows every key): the footer keeps room at 80 columns.
        Binding("f2", "settings", N_("Settings"), show=False, id="app.settings",
                tooltip=N_("Settings: theme, four-colour deck, hints, review, bot pause, new games' defaults.")),
        # Not in the footer (it keeps room for the screen's keys at 80 columns): help lists it, and the
        # game menu (Esc) and the start screen offer Quit.
        Binding("ctrl+q", "quit", N_("Quit"), id="app.quit", priority=True, show=False,
                tooltip=N_("Quit. The game is saved after every move; start spades-tui again to resume it.")),
        # Shown at the footer's right (Textual docks it there); ctrl+p clashes with no game key.
        Binding("ctrl+p", "command_palette", N_("Palette"), id="app.palette", priority=True, show=False,
                tooltip=N_("The command palette: type part of a command (new game, statistics, hints...), Enter.")),
    ]

    seat_view: reactive[Optional[SeatView]] = reactive(None, always_update=True)

    def __init__(self, options: Optional[LaunchOptions] = None, *, data_dir: Optional[Path] = None,
                 config_dir: Optional[Path] = None, start: StartUp = AS_ASKED) -> None:
        """``data_dir`` holds the saved games (``games/``, see ``keep.slots``); None saves nothing.

        ``config_dir`` holds the preferences file; None: the defaults, never saved.  ``start``: what the app
        opens with (startup.py): the start screen or the options' game, a record, a table hosted or joined.
        """
        super().__init__()
        self.options = options or LaunchOptions()
        self.preferences = PreferenceStore(self, config_dir, self.say)
        self.data_dir = data_dir
        self.start = start
        self.session: Optional[Seat] = None  # a game at this keyboard, or a seat at a network table
        self.saved_games = SavedGames(data_dir)
        self.network_table = NetworkTable(self, data_dir)
        self._told_save_error: Optional[str] = None
        self.jobs = JobRunner(self)
        self.last_trick = LastTrick(self, lambda: self.bot_pause, self._trick_seen)
        self.help = HelpScreens(self, self._sync_screen)
        self.lesson_run = LessonRun(self, self._sync_screen, self._new_from_form)
        self.challenge_run = ChallengeRun(self)

    # ------------------------------------------------------------ read-only facts of the session

    @property
    def prefs(self) -> Preferences:
        """The player's preferences (the settings screen's)."""
        return self.preferences.prefs

    @property
    def lesson(self) -> Optional[Lesson]:
        """The lesson's words, while the game in play is the lesson (lessonrun.py)."""
        return self.lesson_run.lesson

    # ------------------------------------------------------------ start-up

    @property
    def slot(self) -> Optional[Slot]:
        """The autosave slot this process holds for the game in play."""
        return self.saved_games.slot

    @property
    def autosave_path(self) -> Optional[Path]:
        """Where the game in play is saved: its slot."""
        return self.slot.path if self.slot is not None else None

    @property
    def table(self) -> Optional[TableHost]:
        """The table this app hosts."""
        return self.network_table.host

    @property
    def listener(self) -> Optional[Listener]:
        return self.network_table.listener

    ascii_screen = False  # the screen is drawn in ASCII (terminal.py): key glyphs are spelt out

    # The footer's key glyphs in words when the screen is ASCII: "<" would not read as Enter.
    ASCII_KEYS: ClassVar[dict[str, str]] = {"⏎": "Enter", "←→": N_("Left/Right"), "↑↓": N_("Up/Down"), "0-9": "0-9"}

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return translated(self.ASCII_KEYS[shown]) if self.ascii_screen and shown in self.ASCII_KEYS else shown

    def on_mount(self) -> None:
        self.call_after_refresh(self._first_paint_done)
        opts = self.options
        self.preferences.apply_looks()
        if self.preferences.problem is not None:  # the defaults are used; saving the settings writes a good file
            self.notify(self.preferences.problem, severity="warning", timeout=15, markup=False)
        invite = self.network_table.served_invite(opts.served)
        if isinstance(self.start, AsAsked) and invite is None and not opts.direct:
            # The menu first, the saved games a moment later: reading them loads the records and the engine,
            # which the first paint need not wait for (issue 21). Keys wait for the list meanwhile.
            self.show(StartScreen(None, (), self.options, self.prefs, (), pending=True))
            self.call_after_refresh(self._list_saved_games)
            self._help_soon("start")
            return
        message = " ".join(self.saved_games.open()) or None
        if isinstance(self.start, Learn):
            self.lesson_run.start()
        elif isinstance(self.start, Challenge):
            self.challenge_run.start(self.start.code)
        elif isinstance(self.start, HostTable):
            self.network_table.open(**self.start.options)
        elif isinstance(self.start, JoinTable):
            self.network_table.join(self.start.client)
        elif invite is not None:
            self.network_table.join_invited(invite)
        else:
            if message:
                self.say(message, "warning", 12)
            self._launch()

    def _first_paint_done(self) -> None:
        """The first screen is drawn: what waited for it may start (the bots' processes, the collector)."""
        if not gc.isenabled():  # turned off by the command line for the start (cli/common.py start_app)
            gc.freeze()  # what the start built lives as long as the app: no collection need walk it again
            gc.enable()
        quickstart.end()  # dataclasses made from now on are made as usual
        self.help.painted()
        if self.session is not None:
            self.session.warm()
        self.jobs.painted()

    def _launch(self) -> None:
        """The game the command line asked for: a record loaded, a hot-seat game, a game against a bot."""
        opts = self.options
        rules = opts.rules or self.prefs.rules
        if isinstance(self.start, Resume):
            self._start(self.start.record, seed=opts.seed)
        elif opts.hotseat:
            self._new(messages.NewGameRequest(rules, None, (_("Player 1"), _("Player 2")), None, opts.seed))
        elif opts.bot is not None:
            self._new(messages.NewGameRequest(rules, None, (self.prefs.player_name, _("Bot ({level})").format(
                level=opts.bot)), opts.bot, opts.seed))

    def say(self, text: str, severity: str = "information", timeout: Optional[float] = None) -> None:
        """Tell the player ``text``: outside text (names, a host's words) is never read as markup."""
        self.notify(text, severity=severity, timeout=timeout, markup=False)  # type: ignore[arg-type]

    def show(self, screen: Screen[None]) -> None:
        """``screen`` the only one above the default screen (the network table's parts show theirs so too)."""
        show_only(self, screen)

    def _list_saved_games(self) -> None:
        """The start screen's saved games and seats, once its menu is on the screen.

        In place, wherever that screen now is (a key typed ahead may have opened a form over it, or started a
        game): the form stays open and a game goes on."""
        pending = next((s for s in self.screen_stack if isinstance(s, StartScreen) and s.pending), None)
        if pending is not None:
            pending.show_games(*self.saved_games.listing(None))  # with what opening the saved games said
            return
        notes = self.saved_games.open()  # opened by the game already started, if any; else said here
        if notes:
            self.say(" ".join(notes), "warning", 12)

    def show_start(self, message: Optional[str] = None) -> None:
        self.close_session()  # the game left is released: listed like any other
        message, resume, seats = self.saved_games.listing(message)
        self.network_table.wait_text = ""
        self.show(StartScreen(message, resume, self.options, self.prefs, seats))

    def _new(self, request: messages.NewGameRequest) -> None:
        from ...session.session import new_record  # in here: the session loads with the first game

        self._start(new_record(request.rules, request.first, request.names, bot=request.bot, seed=request.seed),
                    seed=request.seed)

    def _start(self, record: GameRecord, *, seed: Optional[int], slot: Optional[Slot] = None,
               keep: bool = True) -> None:
        """Play ``record``, saved in ``slot`` (a saved game resumed) or in a newly claimed one (none unless
        ``keep``)."""
        from ...session.session import Session  # in here: the session loads with the first game

        self.close_session()
        notes = self.saved_games.open()  # a game chosen before the start screen listed the saved ones
        if notes:
            self.say(" ".join(notes), "warning", 12)
        problem = self.saved_games.claim(slot, new=keep)
        opts = self.options
        options = dict(seed=seed, autosave=self.autosave_path, allowed_cmd=None if opts.served else opts.bot,
                       **self.seat_options())
        try:
            self.session = (self.challenge_run.session_for(record, options) if is_challenge(record)
                            else Session(record, **options))
        except BaseException:
            self.close_session()
            raise
        if problem is not None:
            self.session.note_save_problem(problem)
        self.publish()

    def seat_options(self) -> dict[str, Any]:
        """A seat's hints and review: the command line's, else the preferences'."""
        opts, prefs = self.options, self.prefs
        return dict(auto_review=prefs.review if opts.review is None else opts.review, hints=opts.hints,
                    show_hints=prefs.hints if opts.show_hints is None else opts.show_hints,
                    hint_samples=opts.hint_samples)

    def take_seat(self, seat: Seat, slot: Optional[Slot] = None) -> None:
        """Play ``seat`` (a table's, handed over by ``tables`` once there is one), its game saved in ``slot``."""
        self.session = seat
        if slot is not None:
            self.saved_games.hold(slot)

    def close_session(self) -> None:
        """The game in play closed (its bots, its table) and its slot released."""
        session, self.session = self.session, None
        self.lesson_run.close()
        if session is not None:
            session.close_all()
        self.network_table.close(session)
        self.saved_games.release()

    # ------------------------------------------------------------ the game loop

    def publish(self) -> None:
        """Show the session as it is now: the view, the screen it needs; ask a bot if it is its turn."""
        session = self.session
        if session is None:
            return
        seat_view = self.lesson_run.view(self.last_trick.view(self.seat_view, session.view()))
        self.seat_view = seat_view
        self._sync_screen()
        error = seat_view.save_error
        if error and error != self._told_save_error:
            # Once per new failure, not on every move; the status line keeps saying it meanwhile.
            self.say(_("{problem}. The game goes on without autosave.").format(problem=error), "error", 12)
        self._told_save_error = error
        problem = session.record_stats(self.saved_games.recorder)  # writes only when a hand or game ended
        if problem is not None:  # once per new problem; the game goes on
            self.say(problem, "warning", 12)
        for job in session.jobs():
            self.jobs.run(session, job, seat_view)

    @property
    def seat_in_play(self) -> Optional[Seat]:
        """The seat whose jobs may still report (the job runner's question)."""
        return self.session

    def bot_started(self, seat: Seat) -> None:
        self.seat_view = self.lesson_run.view(self.last_trick.view(self.seat_view, seat.view()))

    def job_done(self) -> None:
        self.publish()

    def _trick_seen(self) -> None:
        """The hand's last trick seen: its summary now (the view as it is, no longer held)."""
        if self.session is not None:
            self.seat_view = self.lesson_run.view(self.last_trick.view(self.seat_view, self.session.view()))
            self._sync_screen()

    @property
    def bot_pause(self) -> float:
        """Seconds a finished trick stays before the bot leads: --bot-pause, else the preference."""
        return self.prefs.bot_pause if self.options.bot_pause is None else self.options.bot_pause

    @property
    def pace(self) -> Pace:
        """What the game screens play by of the settings (handed down with each view)."""
        return Pace(forced_play=self.prefs.forced_play, bot_pause=self.bot_pause)

    def watch_seat_view(self, seat_view: Optional[SeatView]) -> None:
        hand_down(self, seat_view, self.pace)  # attributes down: the game screens are given each view

    @on(messages.Seen)
    def _seen(self) -> None:
        self.jobs.seen()  # a key pressed while a finished trick is shown: the bot may lead now
        self.last_trick.seen()  # or, the hand's last, its summary may come

    def _sync_screen(self) -> None:
        """The game screen the snapshot needs; under a help screen it waits until help closes."""
        seat_view = self.seat_view
        if self.session is not None and seat_view is not None:
            shown = show_game_screen(self, seat_view, self.pace)
            if shown is not None:
                self._help_soon(topic_of(shown))

    @on(messages.ActionChosen)
    def _action_chosen(self, message: messages.ActionChosen) -> None:
        if self.session is None:
            return
        seat_view = self.seat_view
        if (message.position is not None and seat_view is not None
                and message.position != (seat_view.actions, seat_view.seat)):
            return  # chosen on a screen that showed an earlier position: stale, not this decision's answer
        self.lesson_run.chose(seat_view, message.action)
        error = self.session.act(message.action)
        if error is not None and not self.lesson_run.refused(seat_view, error):  # a lesson explains it beside the table
            self.notify(_("Not allowed: {reason}").format(reason=error), severity="error", markup=False)
        self.publish()

    @on(messages.LessonRefused)
    def _lesson_refused(self, message: messages.LessonRefused) -> None:
        self.lesson_run.refused_input(message)

    @on(messages.StartLesson)
    def _start_lesson(self) -> None:
        self.lesson_run.start()

    @on(messages.StartChallenge)
    def _start_challenge(self, message: messages.StartChallenge) -> None:
        self.challenge_run.start(message.code, message.server)

    @on(messages.LessonOver)
    def _lesson_over(self, message: messages.LessonOver) -> None:
        self.lesson_run.over(message.choice)

    @on(messages.Reveal)
    def _reveal(self) -> None:
        if self.session is not None:
            self.session.reveal()
            self.publish()

    @on(messages.NextHand)
    def _next_hand(self) -> None:
        if self.session is not None:
            self.session.next_hand()  # a hosted table's seat deals once the friend's nonce is in
            self.publish()

    @on(messages.ShowStart)
    def _show_start(self) -> None:
        self.show_start()

    @on(messages.OpenChat)
    def _open_chat(self, _chat: messages.OpenChat) -> None:  # the lines said, and one to say (a watcher reads only)
        from ..screens.chat import ChatScreen

        found = self.network_table.chat()
        if found is not None:
            self.push_screen(ChatScreen(found[0], can_say=found[1]), self.network_table.say_line)

    @on(messages.RejoinTable)
    def _rejoin(self, message: messages.RejoinTable) -> None:
        self.network_table.rejoin(message.path)

    @on(messages.HostTable)
    def _host(self) -> None:
        self.network_table.play_a_friend(self.options.served)

    @on(TableWaitScreen.Way)
    def _way(self, message: TableWaitScreen.Way) -> None:
        self.network_table.ways.chosen(message.key)

    @on(messages.QuickPlay)
    def _quick(self) -> None:
        self.network_table.quick()

    @on(messages.GiveUp)
    def _give_up(self, message: messages.GiveUp) -> None:
        self.network_table.give_up(message.claim)

    @on(messages.FindTable)
    def _find(self) -> None:
        self.network_table.find(self.options.served)

    @on(messages.WatchTable)
    def _watch(self) -> None:
        self.network_table.watch_code()

    @on(messages.NewGame)
    def _new_game(self, message: messages.NewGame) -> None:
        self._new(message.request)

    @on(messages.ResumeGame)
    def _resume(self, message: messages.ResumeGame) -> None:
        from ...session.view import is_table_game

        self.saved_games.open()
        if self.saved_games.slots is None:
            return
        try:
            slot, record = self.saved_games.open_game(message.path)
        except StorageError as exc:  # open in another window (SlotBusy), gone or damaged: said on the start screen
            self.show_start(str(exc))
            return
        refused = not_here(record, self.options.served)
        if refused is not None:
            slot.release()  # left as it is, not forfeited
            self.show_start(refused)
        elif record.players is not None and is_table_game(record.players):
            # The friend comes back to it.
            self.network_table.open(name=record.players[0].name, record=record, slot=slot)
        else:
            self._start(record, seed=None, slot=slot)

    @on(messages.TakeBack)
    def _take_back(self) -> None:
        if self.session is not None and self.session.take_back():
            self.say(_("Taken back: a practice game now."), timeout=3)
            self.publish()

    @on(messages.ReplayHand)
    def _replay_hand(self) -> None:
        if self.session is not None and self.session.replay_hand():
            self.publish()

    @on(messages.ToggleHints)
    def _toggle_hints(self) -> None:
        if self.session is not None:
            self.session.set_switches(show_hints=not self.session.show_hints)
            self.publish()

    # ------------------------------------------------------------ app keys

    def _help_soon(self, topic: str) -> None:
        self.help.soon(topic)

    def on_resize(self) -> None:
        self.help.resized()

    @on(messages.OpenHelp)  # the start screen's (and the game menu's) entry: the same as the key
    def action_help(self) -> None:
        self.help.show()

    # ------------------------------------------------------------ preferences

    @on(messages.OpenSettings)  # the start screen's (and the game menu's) entry: the same as the key
    def action_settings(self) -> None:
        """The settings screen (F2, the start screen's "Settings", the command palette)."""
        from ..screens.settings import SettingsScreen  # in here: it loads the session's view (test_start_imports.py)

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.prefs, list(self.available_themes)), self._settings_closed)

    def _settings_closed(self, prefs: Optional[Preferences]) -> None:
        if prefs is not None:
            # What was just chosen wins over the command line's --bot-pause, --review and --hints from now on.
            self.options = replace(self.options, bot_pause=None, review=None, show_hints=None)
            old = self.preferences.chosen(prefs)  # saved, the looks applied
            if isinstance(self.screen, StartScreen):
                self.screen.prefs = prefs  # its new-game form's defaults
                if prefs.table_server != old.table_server or prefs.language != old.language:
                    self.show_start()  # "Find a table" comes, goes or names the new server; or in the new language
            session = self.session
            if session is not None:  # a changed setting applies to the game in play; h's toggle stays otherwise
                if prefs.hints != old.hints:
                    session.set_switches(show_hints=prefs.hints)
                if prefs.review != old.review:
                    session.set_switches(auto_review=prefs.review)
                self.publish()
        self._sync_screen()

    def watch_theme(self, theme: str) -> None:
        self.preferences.theme_chosen(theme)  # the palette's "Change theme" too

    # ------------------------------------------------------------ the command palette's commands (commands.py)

    @on(CommandPalette.Closed)
    def _palette_closed(self) -> None:
        # The game may have moved on under the palette (the bot played): show the screen it needs now.
        self.call_after_refresh(self._sync_screen)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        return system_commands(super().get_system_commands(screen))

    # Textual's palette, its theme picker ("Change theme") and its ctrl+c, their words in the player's language.
    action_command_palette, search_themes, action_help_quit = command_palette, theme_palette, help_quit

    def palette_context(self) -> PaletteContext:
        from ..invite import has_invite, invite_used  # in here: it loads the session's view (test_start_imports.py)

        return palette_context(self.session, self.saved_games, self.options.served, self.say,
                               invite=self.session is not None and has_invite(self.seat_view),
                               invite_used=self.session is not None and invite_used(self.seat_view))

    def action_invite(self, first: str = "join") -> None:
        """The table's invite and watch command, on the screen to be read, each to copy (the Esc menu, the palette's
        "Invite" and "Watch code": ``first`` is the one Enter copies)."""
        self.network_table.show_invite(self.seat_view, first)

    @on(messages.ShowInvite)
    def _show_invite(self, message: messages.ShowInvite) -> None:
        self.action_invite(message.first)

    @on(messages.OpenStatistics)  # the start screen's (and the game menu's) entry: the same as the key
    def action_statistics(self) -> None:
        from ..screens.stats import StatsScreen  # in here: the statistics load when first shown
        from ..statsview import stats_view, with_challenges

        if not isinstance(self.screen, StatsScreen):
            results, problem = self.saved_games.challenges()
            view = with_challenges(stats_view(self.saved_games.statistics()), results, problem, time.time())
            self.push_screen(StatsScreen(view), lambda _: self._sync_screen())

    def action_new_game(self, kind: str) -> None:
        """The new-game form over the start screen: the game in play is saved and listed there."""
        from ..screens.setup import SetupScreen  # in here: the form loads when first opened (test_start_imports.py)

        self.show_start()
        self.push_screen(SetupScreen(kind, self.options), self._new_from_form)

    def _new_from_form(self, request: Optional[messages.NewGameRequest]) -> None:
        if request is not None:
            self._new(request)

    @on(messages.LoadRecord)  # the start screen's (and the game menu's) entry: the same as the key
    def action_load_record(self) -> None:
        from ..screens.load import LoadScreen  # in here: the records load when first listed

        if self.options.served:  # a browser page may not open a file by path on the server's machine
            return
        if not isinstance(self.screen, StartScreen):  # a new start screen would drop the form's callback
            self.show_start()
        self.push_screen(LoadScreen(self.saved_games.records(), read=self.saved_games.load), self._load_from_form)

    def _load_from_form(self, record: Optional[GameRecord]) -> None:
        if record is not None:
            # A finished game is looked at, not saved again: a slot for it became a second copy among the finished
            # games at the next start (issue 52).
            self._start(record, seed=None, keep=not finished(record))

    def action_resume_saved(self, path: str) -> None:
        self._resume(messages.ResumeGame(Path(path)))

    def action_toggle_review(self) -> None:
        session = self.session
        if session is not None:
            session.set_switches(auto_review=not session.auto_review)
            self.options = replace(self.options, review=session.auto_review)  # and for the next game
            self.say(_("The review opens after every hand.") if session.auto_review
                     else _("The review opens only when asked (r on the hand summary)."))
            self.publish()

    async def on_unmount(self) -> None:
        await self.network_table.stop()  # the friend's connection closes: they see the table gone, the game saved
        self.close_session()
        self.saved_games.close()
