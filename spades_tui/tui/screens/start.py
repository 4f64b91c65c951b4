"""The start screen: resume a saved game (one entry each), new game, load, settings, statistics, help, quit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n.language import N_, _
from ...settings.options import LaunchOptions
from ...settings.preferences import Preferences
from ..messages import (
    FindTable,
    HostTable,
    LoadRecord,
    NewGame,
    NewGameRequest,
    OpenHelp,
    OpenSettings,
    OpenStatistics,
    QuickPlay,
    RejoinTable,
    ResumeGame,
    StartChallenge,
    StartLesson,
    WatchTable,
)
from ..widgets.footer import GameFooter
from ..widgets.plain import plain_content
from ..widgets.toosmall import TooSmall

if TYPE_CHECKING:  # the first screen is drawn before the view models and the game's screens load
    from ..startlist import ResumeChoice

RESUME_SHOWN = 8  # saved games listed at first; the others behind "More saved games", so hundreds cost nothing
BOX_WIDTH = 104  # the start list's widest (assets/spades.tcss #startbox): a wide screen lists a game on one line
# Rows around the menu's entries: the box's top margin, the title and the line under it, the menu's border, the
# footer (assets/spades.tcss).
AROUND_MENU = 6


def label_rows(label: str, width: int) -> int:
    """Rows an entry takes in a menu ``width`` columns wide inside (its words wrapped)."""
    rows = 0
    for line in label.split("\n"):
        taken, count = 0, 1
        for word in line.split(" "):
            if taken and taken + 1 + len(word) > width:
                count, taken = count + 1, len(word)
            else:
                taken += len(word) + (1 if taken else 0)
        rows += count
    return rows


class StartScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "down", N_("Down"), show=False),
        Binding("k", "up", N_("Up"), show=False),
    ]

    def __init__(self, message: Optional[str] = None, resume: Sequence[ResumeChoice] = (),
                 options: Optional[LaunchOptions] = None, prefs: Optional[Preferences] = None,
                 seats: Sequence[tuple[Path, str]] = (), *, pending: bool = False) -> None:
        """``pending``: the saved games are not read yet; ``show_games`` brings them (the menu is drawn first)."""
        super().__init__()
        self.pending = pending
        self.message = message
        self.resume = tuple(resume)
        self.seats = tuple(seats)  # seats at network tables this user may take back (their file, its line)
        self.options = options or LaunchOptions()
        self.prefs = prefs or Preferences()  # the new-game form's defaults; the app sets it when settings change

    def _resume_options(self, shown: int) -> list[Option]:
        # Plain Content, not markup: player names may hold "[".
        options = [Option(plain_content(choice.label), id=f"resume-{i}")
                   for i, choice in enumerate(self.resume[:shown])]
        if len(self.resume) > shown:
            options.append(Option(_("More saved games ({count})…").format(count=len(self.resume) - shown), id="more"))
        return options

    def _menu_options(self) -> list[Option]:
        options = [Option(plain_content(_("Back to your table game {game}").format(game=label)), id=f"seat-{i}")
                   for i, (_path, label) in enumerate(self.seats)]
        # Learn to play: first for a player with no game yet, second (after a new game) for one with a game.
        learn = Option(_("Learn to play"), id="learn")
        has_game = bool(self.resume or self.seats)
        options += [*([] if has_game else [learn]), Option(_("New game against the bot"), id="bot"),
                    *([learn] if has_game else []),
                    Option(_("New hot-seat game (two people)"), id="hotseat"),
                    Option(_("Load a game record…"), id="load"), Option(_("Settings"), id="settings"),
                    Option(_("Statistics"), id="stats"),
                    # After the entries whose places keys (and tests) know: a new kind of game, last before help.
                    Option(_("Play a friend on another machine (open a table)"), id="table"),
                    *self._table_options(),
                    Option(_("Today's challenge: four deals, against a par"),
                           id="challenge"), *self._field_option(),
                    Option(_("Help"), id="help"), Option(_("Quit"), id="quit")]
        if self.options.served:  # a browser page may not open a file by path on the server's machine
            options = [option for option in options if option.id != "load"]
        return options

    def _table_options(self) -> list[Option]:
        """Find a table (at the settings' table server, or in a browser at the page's), and a browser's watch."""
        found: list[Option] = []
        if self.options.served:
            found += [Option(_("Play a stranger on this server (rated)"), id="quick"),
                      Option(_("Find a table on this server"), id="find"),
                      Option(_("Watch a table (its watch code)…"), id="watch")]
        elif self.prefs.table_server:
            server = self.prefs.table_server
            found += [Option(plain_content(_("Play a stranger at {server} (rated)").format(server=server)), id="quick"),
                      Option(plain_content(_("Find a table at {server}").format(server=server)), id="find")]
        return found

    def _field_option(self) -> list[Option]:
        """The day's challenge at the table server, against the field (in a browser, the page's own)."""
        if self.options.served:
            return [Option(_("The day's challenge on this server, against the field"), id="field")]
        if self.prefs.table_server:
            return [Option(plain_content(_("The day's challenge at {server}, against the field").format(
                server=self.prefs.table_server)),
                           id="field")]
        return []

    def _options(self) -> list[Option]:
        # The most recent first (the app's order); one entry more is no better than the game it hides.
        self.shown = self._fitting()
        return self._resume_options(self.shown) + self._menu_options()

    shown = 0  # saved games listed before "More saved games"

    def _fitting(self) -> int:
        """The saved games listed at first: the most that fit with every other entry on the screen (none of the
        menu below the fold: issue 52), at most RESUME_SHOWN; the others behind "More saved games (N)…"."""
        count = len(self.resume)
        width, height = self.app.size
        inner = min(width - 4, BOX_WIDTH) - 6  # the menu's border, padding and scrollbar
        message = label_rows(self.message, inner + 4) + 1 if self.message else 0
        room = height - AROUND_MENU - message - len(self._menu_options())
        rows = [label_rows(choice.label, inner) for choice in self.resume[:RESUME_SHOWN + 1]]
        if count <= RESUME_SHOWN + 1 and sum(rows) <= room:
            return count
        shown, used = 0, 1  # "More saved games" takes a row
        while shown < min(count, RESUME_SHOWN) and used + rows[shown] <= room:
            used += rows[shown]
            shown += 1
        return max(shown, 1)  # the latest game is always offered

    def on_resize(self) -> None:
        """A resize may list more or fewer saved games at first (never once "More saved games" was chosen)."""
        if not self.is_mounted or not self.resume or self.shown >= len(self.resume):
            return
        if self._fitting() != self.shown:
            menu = self.query_one(OptionList)
            menu.clear_options()
            menu.add_options(self._options())
            menu.highlighted = 0

    def show_games(self, message: Optional[str], resume: Sequence[ResumeChoice],
                   seats: Sequence[tuple[Path, str]]) -> None:
        """The saved games and seats, read once the menu was on the screen: listed first, as ever."""
        self.pending = False
        self.message, self.resume, self.seats = message, tuple(resume), tuple(seats)
        if not self.is_mounted:
            return  # compose lists them
        if self.resume or self.seats:
            menu = self.query_one(OptionList)
            menu.clear_options()
            menu.add_options(self._options())
            menu.highlighted = 0
        note = self.query_one("#message", Static)
        note.update(plain_content(message or ""))
        note.display = bool(message)

    def compose(self) -> ComposeResult:
        options = self._options()
        with Vertical(id="content"):
            with Vertical(id="startbox"):
                with Vertical(id="starthead"):
                    yield Static(_("♠ Spades for two ♠"), id="title")
                    yield Static(self.message or "", id="message", classes="message", markup=False)
                yield OptionList(*options, id="menu")
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#message").display = bool(self.message)
        self.query_one(OptionList).focus()

    def action_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id
        if choice is not None and choice.startswith("resume-"):
            # One held in another window is refused by the app, with a message here.
            self.post_message(ResumeGame(self.resume[int(choice.removeprefix("resume-"))].path))
        elif choice is not None and choice.startswith("seat-"):
            self.post_message(RejoinTable(self.seats[int(choice.removeprefix("seat-"))][0]))
        elif choice == "learn":
            self.post_message(StartLesson())
        elif choice in ("challenge", "field"):
            self.post_message(StartChallenge(server=choice == "field"))
        elif choice == "table":
            self.post_message(HostTable())
        elif choice == "find":
            self.post_message(FindTable())
        elif choice == "quick":
            self.post_message(QuickPlay())
        elif choice == "watch":
            self.post_message(WatchTable())
        elif choice == "more":
            menu = self.query_one(OptionList)
            at = menu.get_option_index("more")
            menu.clear_options()
            self.shown = len(self.resume)
            menu.add_options(self._resume_options(len(self.resume)) + self._menu_options())
            menu.highlighted = at  # the first of the games that were behind it
        elif choice in ("bot", "hotseat"):
            from .setup import SetupScreen  # in here: the setup form loads when asked for (test_start_imports.py)

            self.app.push_screen(SetupScreen(choice, self.options, self.prefs), self._new_game)
        elif choice == "load" and not self.options.served:
            self.post_message(LoadRecord())  # the app knows where saved games are
        elif choice == "settings":
            self.post_message(OpenSettings())
        elif choice == "stats":
            self.post_message(OpenStatistics())
        elif choice == "help":
            self.post_message(OpenHelp())
        elif choice == "quit":
            self.app.exit(0)

    def _new_game(self, request: Optional[NewGameRequest]) -> None:
        if request is not None:
            self.post_message(NewGame(request))
