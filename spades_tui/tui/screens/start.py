"""The start screen: resume a saved game (one entry each), new game, load, settings, statistics, help, quit."""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...session import LaunchOptions
from ...session.preferences import Preferences
from ...session.view import GameRecord
from ..messages import LoadRecord, NewGame, NewGameRequest, ResumeGame
from ..viewmodels import ResumeChoice
from ..widgets import GameFooter, TooSmall
from .load import LoadScreen
from .setup import SetupScreen


class StartScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "down", "Down", show=False),
        Binding("k", "up", "Up", show=False),
    ]

    def __init__(self, message: Optional[str] = None, resume: Sequence[ResumeChoice] = (),
                 options: Optional[LaunchOptions] = None, prefs: Optional[Preferences] = None) -> None:
        super().__init__()
        self.message = message
        self.resume = tuple(resume)
        self.options = options or LaunchOptions()
        self.prefs = prefs or Preferences()  # the new-game form's defaults; the app sets it when settings change

    def compose(self) -> ComposeResult:
        # Plain Content, not markup: player names may hold "[".
        options = [Option(Content(choice.label), id=f"resume-{i}") for i, choice in enumerate(self.resume)]
        options += [Option("New game against the bot", id="bot"),
                    Option("New hot-seat game (two people)", id="hotseat"),
                    Option("Load a game record…", id="load"), Option("Settings", id="settings"),
                    Option("Statistics", id="stats"),
                    Option("Help", id="help"), Option("Quit", id="quit")]
        if self.options.served:  # a browser page may not open a file by path on the server's machine
            options = [option for option in options if option.id != "load"]
        with Vertical(id="content"):
            with Vertical(id="startbox"):
                with Vertical(id="starthead"):
                    yield Static("♠ Spades for two ♠", id="title")
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
    async def _selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id
        if choice is not None and choice.startswith("resume-"):
            # One held in another window is refused by the app, with a message here.
            self.post_message(ResumeGame(self.resume[int(choice.removeprefix("resume-"))].path))
        elif choice in ("bot", "hotseat"):
            self.app.push_screen(SetupScreen(choice, self.options, self.prefs), self._new_game)
        elif choice == "load" and not self.options.served:
            self.app.push_screen(LoadScreen(), self._loaded)
        elif choice == "settings":
            await self.run_action("app.settings")
        elif choice == "stats":
            await self.run_action("app.statistics")
        elif choice == "help":
            await self.run_action("app.help")
        elif choice == "quit":
            self.app.exit(0)

    def _new_game(self, request: Optional[NewGameRequest]) -> None:
        if request is not None:
            self.post_message(NewGame(request))

    def _loaded(self, record: Optional[GameRecord]) -> None:
        if record is not None:
            self.post_message(LoadRecord(record))
