"""Start screen, new-game form and load form."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Optional, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..engine import Rules, RulesError
from .game import TooSmall
from .widgets import GameFooter

if TYPE_CHECKING:
    from ..app import SpadesApp

BOT_LEVELS = ("easy", "normal", "hard")


class StartScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "down", "Down", show=False),
        Binding("k", "up", "Up", show=False),
    ]

    def __init__(self, message: Optional[str] = None, resume: Optional[str] = None) -> None:
        super().__init__()
        self.message = message
        self.resume = resume

    def compose(self) -> ComposeResult:
        options = [Option("New game against the bot", id="bot"), Option("New hot-seat game (two people)", id="hotseat")]
        if self.resume:
            # Plain Content, not markup: player names may hold "[".
            options.insert(0, Option(Content(f"Resume the autosaved game ({self.resume})"), id="resume"))
        options += [Option("Load a game record…", id="load"), Option("Help", id="help"), Option("Quit", id="quit")]
        with Vertical(id="content"):
            with Vertical(id="startbox"):
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
    def _selected(self, event: OptionList.OptionSelected) -> None:
        app = cast("SpadesApp", self.app)
        choice = event.option.id
        if choice == "resume":
            app.resume_autosave()
        elif choice in ("bot", "hotseat"):
            app.push_screen(SetupScreen(choice))
        elif choice == "load":
            app.push_screen(LoadScreen())
        elif choice == "help":
            app.action_help()
        elif choice == "quit":
            app.exit(0)


class _FormScreen(Screen[None]):
    """A form that Escape or its Back button closes without doing anything."""

    def action_back(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.dismiss(None)


class SetupScreen(_FormScreen):
    """Names, bot level, who drafts first, rule options and seed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back", id="setup.back")]

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode

    def compose(self) -> ComposeResult:
        app = cast("SpadesApp", self.app)
        rules = app.options.rules or Rules()
        seed = app.options.seed
        vs_bot = self.mode == "bot"
        with Vertical(id="content"):
            yield Static("New game against the bot" if vs_bot else "New hot-seat game", id="title")
            with VerticalScroll(id="form"):
                with Horizontal(classes="row"):
                    yield Label("Your name" if vs_bot else "Player 1", classes="label")
                    yield Input("You" if vs_bot else "Player 1", id="name0", max_length=16, compact=True)
                with Horizontal(classes="row"):
                    if vs_bot:
                        yield Label("Bot level", classes="label")
                        level = app.options.bot if app.options.bot in BOT_LEVELS else "normal"
                        yield Select([(lv, lv) for lv in BOT_LEVELS], value=level, allow_blank=False, id="level",
                                     compact=True)
                    else:
                        yield Label("Player 2", classes="label")
                        yield Input("Player 2", id="name1", max_length=16, compact=True)
                with Horizontal(classes="row"):
                    yield Label("Drafts first", classes="label")
                    yield Select([("random cut", "cut"), ("player 1", "0"), ("player 2", "1")], value="cut",
                                 allow_blank=False, id="first", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Target score", classes="label")
                    yield Input(str(rules.target), id="target", type="integer", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Bag limit / penalty", classes="label")
                    yield Input(str(rules.bag_limit), id="bag_limit", type="integer", classes="half", compact=True)
                    yield Input(str(rules.bag_penalty), id="bag_penalty", type="integer", classes="half", compact=True)
                # Yes/no as words, not a coloured tick, so they read the same with NO_COLOR.
                for key, label in (("nil", "Nil bids"), ("double_nil", "Double Nil"),
                                   ("nil_tricks_are_bags", "Nil tricks are bags"),
                                   ("see_second_card", "See the second card")):
                    with Horizontal(classes="row"):
                        yield Label(label, classes="label")
                        yield Select([("yes", "yes"), ("no", "no")], value="yes" if getattr(rules, key) else "no",
                                     allow_blank=False, id=key, compact=True)
                with Horizontal(classes="row"):
                    yield Label("Seed (optional)", classes="label")
                    yield Input("" if seed is None else str(seed), id="seed", type="integer", compact=True)
            yield Static("", id="message", classes="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        app = cast("SpadesApp", self.app)
        message = self.query_one("#message", Static)
        try:
            rules = Rules(
                target=self._int("target"),
                bag_limit=self._int("bag_limit"),
                bag_penalty=self._int("bag_penalty"),
                nil=self._yes("nil"),
                double_nil=self._yes("double_nil"),
                nil_tricks_are_bags=self._yes("nil_tricks_are_bags"),
                see_second_card=self._yes("see_second_card"),
            )
        except (ValueError, RulesError) as exc:
            message.update(str(exc))
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text.lstrip("-").isdigit() else None
        first_value = str(self.query_one("#first", Select).value)
        first = None if first_value == "cut" else int(first_value)
        name0 = self.query_one("#name0", Input).value.strip() or "Player 1"
        if self.mode == "bot":
            level = str(self.query_one("#level", Select).value)
            app.start_new(rules, first, (name0, f"Bot ({level})"), bot=level, seed=seed)
        else:
            name1 = self.query_one("#name1", Input).value.strip() or "Player 2"
            if name1 == name0:
                name1 += " (2)"
            app.start_new(rules, first, (name0, name1), bot=None, seed=seed)

    def _yes(self, widget_id: str) -> bool:
        return self.query_one(f"#{widget_id}", Select).value == "yes"

    def _int(self, widget_id: str) -> int:
        text = self.query_one(f"#{widget_id}", Input).value.strip()
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{widget_id.replace('_', ' ')} must be a whole number, not {text!r}") from None


class LoadScreen(_FormScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back", id="load.back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="content"):
            yield Static("Load a game record", id="title")
            yield Label("Path of the record (JSON):", classes="label wide")
            yield Input(id="path", placeholder="game.json", compact=True)
            yield Static("", id="message", classes="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Load", id="load", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#load")
    def _load(self) -> None:
        app = cast("SpadesApp", self.app)
        error = app.load_file(self.query_one("#path", Input).value.strip())
        if error:
            self.query_one("#message", Static).update(error)
