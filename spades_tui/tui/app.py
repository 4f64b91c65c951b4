"""The Textual application: owns the session, shows the screen the game needs, runs the bots.

The app's reactive ``seat_view`` is the session's ``SeatView`` after every change: what the
player at the keyboard may know (or, on a hot-seat hand-off, the public view); screens watch
it and re-render.  The app never holds the game state: it asks the session for views and
hands it decisions.  Screens never call the app: they post messages (``messages.py``),
handled here with ``@on``.  Nothing else changes the game.
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Optional, Sequence

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Provider
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer

from ..session.autosave import default_data_dir
from ..session.options import LaunchOptions
from ..session.preferences import PREFERENCES_NAME, Preferences, default_config_dir
from ..session.preferences import load as load_preferences
from ..session.preferences import save as save_preferences
from ..session.storage import StorageError
from ..session.text import printable
from ..table.protocol import table_name
from ..table.seats import SeatFile, saved_seats, seat_path
from . import messages
from .resources import asset_path
from .terminal import screen_output, terminal_problem, web_driver

# The guide's topic that help shows first, by the screen it opens from (screens/help.py TOPICS); others: "start".
TRICK_SEEN = 2.5  # a finished trick the bot won stays this many bot pauses before its next lead

HELP_TOPICS: dict[str, str] = {
    "DraftScreen": "draft", "BiddingScreen": "bidding", "PlayScreen": "play", "SummaryScreen": "scoring",
    "ReviewScreen": "scoring", "GameOverScreen": "scoring", "SettingsScreen": "settings",
}


def game_screen(view: SeatView) -> type[GameScreen]:
    """The screen a view of the game needs, its module loaded when first needed (not before the start screen)."""
    from . import screens
    from .viewmodels import Kind, screen_kind

    name = {Kind.HANDOFF: "HandoffScreen", Kind.DRAFT: "DraftScreen", Kind.BIDDING: "BiddingScreen",
            Kind.PLAY: "PlayScreen", Kind.SUMMARY: "SummaryScreen", Kind.GAME_OVER: "GameOverScreen"}[screen_kind(view)]
    found: type[GameScreen] = getattr(screens, name)
    return found


if TYPE_CHECKING:  # loaded when first used, not before the first screen (a faster start)
    from ..session import Session, Slot, SlotDirectory
    from ..session.stats import StatsRecorder
    from ..session.view import GameRecord, HandReview, Hint, Observation, PlayerAction, SeatView
    from ..table.client import TableClient
    from ..table.host import TableHost
    from ..table.remote import RemoteSeat
    from ..table.run import Listener
    from .commands import PaletteContext
    from .screens import GameScreen, TableWaitScreen
    from .viewmodels import ResumeChoice

    Play = Session | RemoteSeat  # a game at this keyboard, or a seat at a network table

__all__ = ["SpadesApp", "run_app", "run_table_app"]


def _game_commands() -> type[Provider]:
    """The palette's commands, loaded when the palette first opens."""
    from .commands import GameCommands

    return GameCommands


class SpadesApp(App[int]):
    CSS_PATH = str(asset_path("spades.tcss"))
    TITLE = "Spades"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {_game_commands}  # lists the system ones
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # noqa: RUF012 (Textual declares it so)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", id="app.help",
                tooltip="This help: how to play this screen, the keys, then the whole guide."),
        Binding("question_mark", "help", "Help", show=False),
        # Not in the footer (the start screen lists it; help shows every key): the footer keeps room at 80 columns.
        Binding("f2", "settings", "Settings", show=False, id="app.settings",
                tooltip="Settings: theme, four-colour deck, hints, review, bot pause, new games' defaults."),
        # Not in the footer (it keeps room for the screen's keys at 80 columns): help lists it, and the
        # game menu (Esc) and the start screen offer Quit.
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True, show=False,
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
        host_options: Optional[dict[str, Any]] = None,
        client: Optional[TableClient] = None,
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
        self.session: Optional[Play] = None
        self.host_options = host_options  # spades-tui host: open a table at start
        self.client = client  # spades-tui join: sit at a table at start
        self.table: Optional[TableHost] = None  # the table this app hosts
        self.listener: Optional[Listener] = None
        self.remote: Optional[RemoteSeat] = None  # the seat this app has at another's table
        self._table_wait = ""  # what the wait screen says once seated at a served table
        self.slots: Optional[SlotDirectory] = None
        self.slot: Optional[Slot] = None  # the autosave slot this process holds for the game in play
        self._told_save_error: Optional[str] = None
        self._stats: Optional[StatsRecorder] = None  # opened when a game first reports (stats_recorder)
        self._bot_asked: Optional[tuple[Session, int]] = None  # a bot is asked once per decision
        self._pausing: Optional[Timer] = None  # a finished trick is being shown before the bot leads
        self._help_timer: Optional[Timer] = None  # help's guide is laid out again after a resize
        self._help_ready: set[tuple[str, int]] = set()  # (topic, width) laid out or being laid out

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

    ascii_screen = False  # the screen is drawn in ASCII (terminal.py): key glyphs are spelt out

    # The footer's key glyphs in words when the screen is ASCII: "<" would not read as Enter.
    ASCII_KEYS: ClassVar[dict[str, str]] = {"⏎": "Enter", "←→": "Left/Right", "↑↓": "Up/Down", "0-9": "0-9"}

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return self.ASCII_KEYS.get(shown, shown) if self.ascii_screen else shown

    def on_mount(self) -> None:
        opts = self.options
        self._apply_looks()
        if self._prefs_problem is not None:  # the defaults are used; saving the settings writes a good file
            self.notify(self._prefs_problem, severity="warning", timeout=15, markup=False)
        invite = self._served_invite()
        if self.host_options is None and self.client is None and invite is None and not opts.direct and \
                self.loaded is None:
            # The menu first, the saved games a moment later: reading them loads the records and the engine,
            # which the first paint need not wait for (issue 21). Keys wait for the list meanwhile.
            from .screens.start import StartScreen

            self._show(StartScreen(None, (), self.options, self.prefs, (), pending=True))
            self.call_after_refresh(self._list_saved_games)
            self._help_soon("start")
            return
        message = " ".join(self._open_slots()) or None
        if self.host_options is not None:
            self.open_table(**self.host_options)
            return
        if self.client is not None:
            self.join_table(self.client)
            return
        if invite is not None:
            from ..table.client import TableClient  # aiohttp loads only at a table

            # The friend's link of a table in 'spades-tui serve': this tab sits down at it.
            url, code, seat_file = invite
            self.join_table(TableClient(url, code=code, name=table_name(self.prefs.player_name, "Guest"),
                                        seat_file=seat_file))
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

    def _served_invite(self) -> Optional[tuple[str, str, Path]]:
        """(the table's address, its code, this seat's file) when 'spades-tui serve' sent this tab to a table."""
        code = os.environ.get("SPADES_TUI_TABLE_CODE") if self.options.served else None
        tables = os.environ.get("SPADES_TUI_TABLES")
        if not code or not tables or self.data_dir is None:
            return None
        url = tables.replace("http", "ws", 1) + "/table"
        return url, code, seat_path(self.data_dir, f"{url}#{code}")

    def _show(self, screen: Screen[None]) -> None:
        """Make ``screen`` the only screen above the default one."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def _open_slots(self) -> list[str]:
        """The saved games' folder, opened once: what it said (a file set aside, an old autosave moved)."""
        if self.slots is not None or self.data_dir is None:
            return []
        from ..session.slots import open_games

        # The old single autosave moves into a slot; stray temporary files go; damaged files are set aside.
        self.slots, notes = open_games(self.data_dir)
        return notes

    def _list_saved_games(self) -> None:
        """The start screen's saved games and seats, once its menu is on the screen.

        In place, wherever that screen now is (a key typed ahead may have opened a form over it, or started a
        game): the form stays open and a game goes on."""
        from .screens.start import StartScreen

        pending = next((s for s in self.screen_stack if isinstance(s, StartScreen) and s.pending), None)
        if pending is not None:
            pending.show_games(*self._start_listing(None))  # with what opening the saved games said
            return
        notes = self._open_slots()  # opened by the game already started, if any; else said here
        if notes:
            self.notify(" ".join(notes), severity="warning", timeout=12, markup=False)

    def _start_listing(
        self, message: Optional[str],
    ) -> tuple[Optional[str], tuple[ResumeChoice, ...], tuple[tuple[Path, str], ...]]:
        """What the start screen says and lists: ``message`` with any problem found, the saved games, the seats."""
        from .viewmodels import resume_choices

        notes = self._open_slots()
        message = " ".join(m for m in (message, *notes) if m) or None
        resume: tuple[ResumeChoice, ...] = ()
        if self.slots is not None:
            listing = self.slots.scan()  # damaged files are set aside, with a message
            message = " ".join(m for m in (message, *listing.messages) if m) or None
            resume = resume_choices(listing.games, time.time())
        seats = tuple((path, seat.url) for path, seat in saved_seats(self.data_dir)) \
            if self.data_dir is not None else ()
        return message, resume, seats

    def show_start(self, message: Optional[str] = None) -> None:
        from .screens.start import StartScreen

        self._close_session()  # the game left is released: listed like any other
        message, resume, seats = self._start_listing(message)
        self._table_wait = ""
        self._show(StartScreen(message, resume, self.options, self.prefs, seats))

    def _new(self, request: messages.NewGameRequest) -> None:
        from ..session import new_record

        self._start(new_record(request.rules, request.first, request.names, bot=request.bot, seed=request.seed),
                    seed=request.seed)

    def _start(self, record: GameRecord, *, seed: Optional[int], slot: Optional[Slot] = None) -> None:
        """Play ``record``, saved in ``slot`` (a saved game resumed) or in a newly claimed one."""
        from ..session import Session

        self._close_session()
        notes = self._open_slots()  # a game chosen before the start screen listed the saved ones
        if notes:
            self.notify(" ".join(notes), severity="warning", timeout=12, markup=False)
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
        table, self.table = self.table, None
        listener, self.listener = self.listener, None
        if table is not None:
            if self.slot is None:
                self.slot = table.slot
            table.slot = None  # released below, once
            table.close()
        if listener is not None:
            self.run_worker(listener.stop(), exit_on_error=False)
        remote, self.remote = self.remote, None
        if remote is not None and remote is not session:
            remote.close_all()
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()

    # ------------------------------------------------------------ network tables (docs/table-protocol.md)

    def open_table(self, *, address: str = "127.0.0.1", port: int = 0, tls: Any = None, name: str = "Host",
                   rules: Any = None, first: Optional[int] = None, resume: bool = False,
                   record: Optional[GameRecord] = None, slot: Optional[Slot] = None) -> None:
        """Host a table here: the invite until the friend sits down, then the game on this screen."""
        from .screens import TableWaitScreen

        self._close_session()
        if resume and record is None and self.slots is not None:
            for game in self.slots.scan().games:
                kinds = [p.kind for p in game.players]  # a table's game: a remote seat, and one played here
                if not game.finished and not game.held_elsewhere and "remote" in kinds and kinds != ["remote"] * 2:
                    try:
                        slot, record = self.slots.open_game(game.path)
                    except StorageError:
                        continue
                    break
            if record is None:
                self.show_start("There is no unfinished table game to resume here.")
                return
        from ..table.host import TableHost  # aiohttp loads only at a table
        from ..table.run import Listener

        opts = self.options
        session_options = dict(auto_review=self.prefs.review if opts.review is None else opts.review,
                               hints=opts.hints, hint_samples=opts.hint_samples,
                               show_hints=self.prefs.hints if opts.show_hints is None else opts.show_hints)
        try:
            self.table = TableHost(rules=rules or self.prefs.rules, first=first, names=(name, "Guest"),
                                   record=record, slot=slot, slots=self.slots, on_change=self._table_changed,
                                   session_options=session_options)
        except (StorageError, ValueError) as exc:
            if slot is not None:
                slot.release()
            self.show_start(f"That table game cannot be resumed: {exc}")
            return
        self.listener = Listener(self.table, address, port, tls)
        wait = TableWaitScreen("♠ A table for two ♠", "Opening the table…")
        self._show(wait)
        self.run_worker(self._listen(self.listener, wait), exit_on_error=False)

    async def _listen(self, listener: Listener, wait: TableWaitScreen) -> None:
        try:
            await listener.start()
        except OSError as exc:
            if self.listener is listener:
                why = os.strerror(exc.errno) if exc.errno else str(exc)
                self.listener = None
                self.show_start(f"The table cannot listen on {listener.address} port {listener.port}: {why}.")
            return
        table = listener.host
        guest = table.players()[table.remote].name
        wait.set_text(f"Give your friend this invite (it is shown until they sit down):\n\n    {listener.invite}\n\n"
                      "The shuffle is one neither of you can choose: each hand is committed to before it is "
                      "dealt, and revealed after it.\n\nEsc leaves the table." if not table.started else
                      f"Waiting for {guest} to come back to the table:\n\n    {listener.invite}")
        self.invite = listener.invite
        self._table_changed()

    def _table_changed(self) -> None:
        """The table moved on without this screen (the friend sat down, acted, dropped)."""
        from .screens import TableWaitScreen

        table = self.table
        if table is None:
            return
        if self.session is None and table.session is not None:
            self.session = table.session
            self.slot = table.slot
            if table.joined_name:
                self.notify(f"{table.joined_name} joined the table.", markup=False)
        if self.session is not None:
            self.publish()
        elif table.joined_name and isinstance(self.screen, TableWaitScreen):
            self.screen.set_text(f"{table.joined_name} joined. Fixing the first hand's shuffle…")

    def join_table(self, client: TableClient) -> None:
        """Sit at another's table: its seat's view on this screen."""
        from .screens import TableWaitScreen

        self._close_session()
        from ..table.remote import RemoteSeat

        opts = self.options
        remote = RemoteSeat(client, hints=opts.hints, hint_samples=opts.hint_samples,
                            auto_review=self.prefs.review if opts.review is None else opts.review,
                            show_hints=self.prefs.hints if opts.show_hints is None else opts.show_hints)
        self.remote = remote
        client.on_change = lambda: self._remote_changed(remote)
        wait = TableWaitScreen("♠ A table for two ♠", f"Taking your seat at {client.url}…")
        self._show(wait)
        self.run_worker(self._sit(remote), exit_on_error=False)

    async def _sit(self, remote: RemoteSeat) -> None:
        from ..table.client import TableError

        try:
            await remote.client.connect()
        except TableError as exc:
            if self.remote is remote:
                self.remote = None
                self.show_start(f"Cannot sit at the table: {exc}")
            return
        await remote.client.listen()

    def _remote_changed(self, remote: RemoteSeat) -> None:
        from .screens import TableWaitScreen

        if remote is not self.remote:
            return
        remote.changed()
        for notice in remote.notices():
            self.notify(notice, severity="warning", timeout=15, markup=False)
        errors = remote.client.errors
        if errors and errors[-1] != getattr(self, "_told_error", None):
            self._told_error = errors[-1]
            self.notify(f"The host says: {errors[-1]}", severity="warning", markup=False)
        if self.session is None and remote.ready:
            self.session = remote
        elif self.session is None and remote.client.welcomed.is_set() and self._table_wait and \
                isinstance(self.screen, TableWaitScreen):
            self.screen.set_text(self._table_wait)  # seated: the friend's link until they sit down
        if self.session is remote:
            if not remote.client.link_up and remote.client.outcome is None and not remote.told_down:
                remote.told_down = True
                self.notify("The table is gone (the host stopped or the network dropped). Your seat is kept: run "
                            "'spades-tui join' again, or choose it on the start screen.", severity="error",
                            timeout=30, markup=False)
            self.publish()
        elif not remote.client.link_up and isinstance(self.screen, TableWaitScreen):
            self.screen.set_text(f"The table is not there any more ({remote.client.closed_reason or 'closed'}).\n\n"
                                 "Your seat is kept: run 'spades-tui join' again (or choose it on the start screen) "
                                 "to take it back.")

    # ------------------------------------------------------------ the game loop

    def publish(self) -> None:
        """Show the session as it is now: the view, the screen it needs; ask a bot if it is its turn."""
        from ..session import Session

        session = self.session
        if session is None:
            return
        if self.table is not None:
            self.table.sync()  # the friend's screen follows this one's change
        snap = session.view()
        self.seat_view = snap
        self._sync_screen()
        if snap.save_error and snap.save_error != self._told_save_error:
            # Once per new failure, not on every move; the status line keeps saying it meanwhile.
            self.notify(f"{snap.save_error}. The game goes on without autosave.", severity="error",
                        timeout=12, markup=False)
        self._told_save_error = snap.save_error
        problem = session.record_stats(self.stats_recorder)  # writes only when a hand or game ended
        if problem is not None:  # once per new problem; the game goes on
            self.notify(problem, severity="warning", timeout=12, markup=False)
        job = session.review_request()
        if job is not None:
            self._review_worker(session, job)  # in the background while the summary is read
        asked = session.hint_request()
        if asked is not None:  # after this repaint: the hint service's process must not delay the screen
            self.call_after_refresh(self._hint_worker, session, *asked)
        if isinstance(session, Session) and session.bot_due() is not None and \
                self._bot_asked != (session, snap.actions):
            local = session  # no bot plays a seat at another's table
            self._bot_asked = (local, snap.actions)
            # A finished trick the bot won goes when the bot leads again: it stays TRICK_SEEN times the bot
            # pause (the setting), or until the player presses a key (they have seen it); keys work meanwhile.
            pause = TRICK_SEEN * self.bot_pause if snap.trick_just_finished else 0.0
            if pause > 0:
                self._pausing = self.set_timer(pause, lambda: self._ask_bot(local, snap.actions))
            else:
                self._ask_bot(local, snap.actions)

    def stats_recorder(self) -> Optional[StatsRecorder]:
        """The statistics file's writer, made when a game first reports (its module loads then), or None."""
        if self._stats is None and self.data_dir is not None:
            from ..session.stats import STATS_NAME, StatsRecorder

            self._stats = StatsRecorder(self.data_dir / STATS_NAME)  # it opens the file at its first write
        return self._stats

    @property
    def bot_pause(self) -> float:
        """Seconds a finished trick stays before the bot leads: --bot-pause, else the preference."""
        return self.prefs.bot_pause if self.options.bot_pause is None else self.options.bot_pause

    @on(messages.Seen)
    def _seen(self) -> None:
        """A key pressed while a finished trick is shown: the player has seen it, the bot may lead now."""
        from ..session import Session

        timer, self._pausing = self._pausing, None
        if timer is not None and isinstance(self.session, Session):
            timer.stop()
            self._ask_bot(self.session, self.session.actions)

    def _ask_bot(self, session: Session, token: int) -> None:
        self._pausing = None
        if session is self.session and session.bot_due() is not None and session.actions == token:
            self._bot_worker(session, *session.bot_request())
            self.seat_view = session.view()  # now says the bot is thinking

    def _sync_screen(self) -> None:
        """The game screen the snapshot needs; under a help screen it waits until help closes."""
        snap = self.seat_view
        if self.session is None or snap is None:
            return
        from .screens import GameScreen

        wanted = game_screen(snap)
        top = self.screen
        if type(top) is wanted:
            return
        if isinstance(top, GameScreen) or len(self.screen_stack) <= 2 or not top.is_modal:
            self._show(wanted())
            self._help_soon(HELP_TOPICS.get(wanted.__name__, "start"))

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
        if self.table is not None:
            self.table.next_hand()  # dealt once the friend's nonce is in
            self.publish()
        elif self.session is not None:
            self.session.next_hand()
            self.publish()

    @on(messages.ShowStart)
    def _show_start(self) -> None:
        self.show_start()

    @on(messages.RejoinTable)
    def _rejoin(self, message: messages.RejoinTable) -> None:
        from ..table.client import TableClient
        from ..table.seats import load_seat

        seat = load_seat(message.path)
        if seat is None:
            self.show_start("That seat's file cannot be read.")
            return
        self.join_table(TableClient(seat.url, seat_file=message.path))

    @on(messages.HostTable)
    def _host(self) -> None:
        if self.options.served:  # the table lives in the serve process: this tab sits at it like the friend's
            self.run_worker(self._open_served_table(), exit_on_error=False)
        else:
            self.open_table(name=table_name(self.prefs.player_name, "Host"))

    async def _open_served_table(self) -> None:
        from ..session.storage import atomic_write_text
        from ..table.client import TableClient, TableError, open_served_table
        base, key = os.environ.get("SPADES_TUI_TABLES"), os.environ.get("SPADES_TUI_TABLES_KEY")
        if not base or not key or self.data_dir is None:
            self.show_start("This server does not hold tables.")
            return
        try:
            url, code, token = await open_served_table(base, key, table_name(self.prefs.player_name, "Host"),
                                                       self.options.rules or self.prefs.rules)
        except TableError as exc:
            self.show_start(f"No table: {exc}")
            return
        path = seat_path(self.data_dir, f"{url}#owner-{code}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, json.dumps(SeatFile(url, token, 0, ("", "")).to_json()))
        except (OSError, StorageError) as exc:
            self.show_start(f"No table: your seat cannot be kept ({exc})")
            return
        page = os.environ.get("SPADES_TUI_PAGE", base)
        where = page.split("://", 1)[-1]
        self._table_wait = (f"Give your friend this link (it is shown until they sit down):\n\n    {page}/?table={code}"
                            f"\n\nor, from a terminal:  spades-tui join {where} {code}\n\nThe shuffle is one "
                            "neither of you can choose: each hand is committed to before it is dealt, and revealed "
                            "after it.\n\nEsc leaves the table.")
        self.join_table(TableClient(url, seat_file=path))

    @on(messages.NewGame)
    def _new_game(self, message: messages.NewGame) -> None:
        self._new(message.request)

    @on(messages.ResumeGame)
    def _resume(self, message: messages.ResumeGame) -> None:
        self._open_slots()
        if self.slots is None:
            return
        try:
            slot, record = self.slots.open_game(message.path)
        except StorageError as exc:  # open in another window (SlotBusy), gone or damaged: said on the start screen
            self.show_start(str(exc))
            return
        if record.players is not None and all(p.kind == "remote" for p in record.players):
            slot.release()  # both seats were browser tabs: nobody plays at this screen
            self.show_start("That game was a table of 'spades-tui serve' (both seats played from browsers); it "
                            "cannot be resumed here. Its record stays in its slot (spades-tui replay reads it).")
            return
        if record.players is not None and any(p.kind == "remote" for p in record.players):
            if self.options.served:
                slot.release()
                self.show_start("A network table's game is resumed in a terminal: spades-tui host --resume.")
                return
            self.open_table(name=record.players[0].name, record=record, slot=slot)  # the friend comes back to it
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
    def _hint_worker(self, session: Play, token: tuple[int, int], observation: Observation,
                     legal: tuple[PlayerAction, ...]) -> None:
        # The viewer's own observation and legal actions only, in the hint service's process.
        hint = session.compute_hint(observation, legal)
        self.call_from_thread(self._hint_ready, session, token, hint)

    def _hint_ready(self, session: Play, token: tuple[int, int], hint: Optional[Hint]) -> None:
        if session is self.session:
            session.set_hint(token, hint)
            self.publish()

    @on(messages.TakeBack)
    def _take_back(self) -> None:
        if self.session is not None and self.session.take_back():
            self._bot_asked = None  # the record is shorter: the bot's next turn may have the length of an old one
            self.notify("Taken back: a practice game now.", markup=False, timeout=3)
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
    def _review_worker(self, session: Play, job: Callable[[], Optional[HandReview]]) -> None:
        try:
            review = job()
        except Exception:  # a review is a bonus: without it the game goes on
            review = None
        self.call_from_thread(self._review_ready, session, review)

    def _review_ready(self, session: Play, review: Optional[HandReview]) -> None:
        if session is self.session:
            session.set_review(review)
            self.publish()

    # ------------------------------------------------------------ app keys

    @work(thread=True, group="prepare", exit_on_error=False)
    def _prepare_help(self, topic: str, width: int) -> None:
        from .screens.help import prepare_guide

        prepare_guide([topic], self.console, width)

    def _help_soon(self, topic: str) -> None:
        """Help's guide for ``topic`` parsed and laid out off the interface's thread, half a second after the
        screen it is for comes up (the likeliest first F1 there), once per topic and width: one topic at a time,
        so the work is spread over the game rather than all at its start."""
        key = (topic, self.size.width)
        if key not in self._help_ready:
            self._help_ready.add(key)
            self.set_timer(0.5, lambda: self._prepare_help(*key) if self._help_wanted() else None)

    def _help_wanted(self) -> bool:
        """Not while the app closes: a timer may fire after its last screen went."""
        return self.is_running and bool(self.screen_stack) and not self._closing

    def on_resize(self) -> None:
        # The guide laid out again for the new width, once the resizing stops (the other topics when next shown).
        if self._help_timer is not None:
            self._help_timer.stop()
        self._help_timer = self.set_timer(0.5, self._help_after_resize)

    def _help_after_resize(self) -> None:
        if self._help_wanted():
            self._help_soon(HELP_TOPICS.get(type(self.screen).__name__, "start"))

    def action_help(self) -> None:
        from .screens.help import HelpScreen  # Markdown loads only when help is first opened: faster start

        if not isinstance(self.screen, HelpScreen):
            topic = HELP_TOPICS.get(type(self.screen).__name__, "start")
            # One help screen per topic, kept once built: the guide is parsed and laid out once, not on every F1.
            name = f"help-{topic}"
            if not self.is_screen_installed(name):
                self.install_screen(HelpScreen(topic), name)
            self.push_screen(name, lambda _: self._sync_screen())

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
            from .screens import StartScreen

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
        from .commands import system_commands

        return system_commands(super().get_system_commands(screen))

    def palette_context(self) -> PaletteContext:
        from .commands import PaletteContext
        from .viewmodels import resume_choices

        session = self.session
        resumable: tuple[ResumeChoice, ...] = ()
        self._open_slots()
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
        from ..session.stats import STATS_NAME, load_summary
        from .screens import StatsScreen
        from .statsview import stats_view

        if not isinstance(self.screen, StatsScreen):
            path = self.data_dir / STATS_NAME if self.data_dir is not None else None
            self.push_screen(StatsScreen(stats_view(load_summary(path))), lambda _: self._sync_screen())

    def action_new_game(self, kind: str) -> None:
        """The new-game form over the start screen: the game in play is saved and listed there."""
        from .screens import SetupScreen

        self.show_start()
        self.push_screen(SetupScreen(kind, self.options), self._new_from_form)

    def _new_from_form(self, request: Optional[messages.NewGameRequest]) -> None:
        if request is not None:
            self._new(request)

    def action_load_record(self) -> None:
        from ..session.records import found_records
        from ..session.slots import GAMES_DIR
        from .screens import LoadScreen, StartScreen

        if self.options.served:  # a browser page may not open a file by path on the server's machine
            return
        if not isinstance(self.screen, StartScreen):  # a new start screen would drop the form's callback
            self.show_start()
        folders = [Path.cwd()]  # record files here, then the saved games (and the finished ones put away)
        if self.data_dir is not None:
            games = self.data_dir / GAMES_DIR
            folders += [games, games / "finished"]
        self.push_screen(LoadScreen(found_records(folders)), self._load_from_form)

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

    async def on_unmount(self) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            await listener.stop()  # the friend's connection closes: they see the table gone, the game saved
        self._close_session()
        if self._stats is not None:
            self._stats.close()


def _bot_failure(exc: Exception) -> str:
    from ..bots import BotError

    if isinstance(exc, BotError):
        return str(exc) or "the bot gave up"
    return f"the bot crashed: {type(exc).__name__}: {exc}"


def run_table_app(*, host_options: Optional[dict[str, Any]] = None, client: Optional[TableClient] = None) -> int:
    """``spades-tui host`` and ``spades-tui join`` in this terminal."""
    problem = terminal_problem(sys.stdin, sys.__stderr__, os.environ)
    if problem is not None:
        print(f"spades-tui: {problem}", file=sys.stderr)
        return 2
    app = SpadesApp(LaunchOptions(), data_dir=default_data_dir(), config_dir=default_config_dir(),
                    host_options=host_options, client=client)
    with screen_output():
        result = app.run()
    return result if isinstance(result, int) else 0


def without_path(exc: Exception, path: str) -> str:
    """A file's error without its path, for a line that names the file already (``cannot load X: X: ...``)."""
    message = str(exc)
    if message.startswith(f"{path}: "):
        return message[len(path) + 2:]
    if message.startswith(f"{path} "):
        return "it " + message[len(path) + 1:]
    return message.replace(f" {path}", "")


def run_app(options: LaunchOptions) -> int:
    if options.served:
        # Checked again here, not only by 'spades-tui serve': the page must never choose a program or a file.
        refused = options.served_refusal()
        if refused is not None:
            print(f"spades-tui: {refused}", file=sys.stderr)
            return 2
    loaded: Optional[GameRecord] = None
    if options.load is not None:
        from ..session.storage import LOAD_ERRORS, load_game

        try:
            loaded, _ = load_game(options.load)
        except LOAD_ERRORS as exc:
            print(f"spades-tui: cannot load {printable(options.load)}: {printable(without_path(exc, options.load))}",
                  file=sys.stderr)
            return 2
    web = web_driver(os.environ)  # a browser tab (spades-tui serve): no terminal to check, and it shows ♠♥♦♣
    problem = None if web else terminal_problem(sys.stdin, sys.__stderr__, os.environ)
    if problem is not None:
        print(f"spades-tui: {problem}", file=sys.stderr)
        return 2
    app = SpadesApp(options, data_dir=default_data_dir(), loaded=loaded, config_dir=default_config_dir())
    with nullcontext(False) if web else screen_output() as ascii_screen:  # ASCII where the terminal needs it
        app.ascii_screen = ascii_screen
        result = app.run()
    return result if isinstance(result, int) else 0

