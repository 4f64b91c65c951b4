"""The new-game form: names, bot level, who drafts first, rule options, seed."""

from __future__ import annotations

from typing import ClassVar, Optional

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from ...bots.levels import LEVELS as BOT_LEVELS
from ...i18n.language import N_, _
from ...session.text import MAX_NAME, clean_name, without_controls
from ...session.view import RulesError
from ...settings.options import MAX_SEED_DIGITS, LaunchOptions, parse_seed
from ...settings.preferences import Preferences
from ..messages import NewGameRequest
from ..widgets.footer import GameFooter
from ..widgets.toosmall import TooSmall
from .forms import FormScreen, form_fields, level_choices, mark_focused_row, next_field, read_rules, rule_rows


def seed_problem(text: str) -> str:
    """What is wrong with a seed that ``parse_seed`` refused, in a whole sentence (a long paste is never echoed)."""
    digits = text.removeprefix("-")
    if len(digits) > MAX_SEED_DIGITS:
        return _("The seed must be a whole number of at most {most} digits (this one has {digits}).").format(
            most=MAX_SEED_DIGITS, digits=len(digits))
    shown = text if len(text) <= 20 else text[:20] + "…"
    return _("The seed must be a whole number, not {typed}.").format(typed=repr(shown))


class SetupScreen(FormScreen[NewGameRequest]):
    """Names, bot level, who drafts first, rule options and seed. Start (or Ctrl+S) starts the game; Enter in a
    typed field moves to the next one."""

    HELP_TOPIC: ClassVar[str] = "new_game"  # help opens at this topic of the guide (tui/app/guide.py TOPICS)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back"), id="setup.back",
                tooltip=N_("Back to the start screen: no game is started.")),
        Binding("ctrl+s", "start", N_("Start"), id="setup.start", tooltip=N_("Start the game as the form says.")),
    ]

    def __init__(self, mode: str, options: LaunchOptions, prefs: Optional[Preferences] = None) -> None:
        """The command line's options first, then the preferences (rules, bot level, name)."""
        super().__init__()
        self.mode = mode
        self.options = options
        self.prefs = prefs or Preferences()

    def compose(self) -> ComposeResult:
        rules = self.options.rules or self.prefs.rules
        seed = self.options.seed
        vs_bot = self.mode == "bot"
        with Vertical(id="content"):
            yield Static(_("New game against the bot") if vs_bot else _("New hot-seat game"), id="title")
            with form_fields():
                with Horizontal(classes="row"):
                    yield Label(_("Your name") if vs_bot else _("Player 1"), classes="label")
                    yield Input(self.prefs.player_name if vs_bot else _("Player 1"), id="name0", max_length=MAX_NAME,
                                compact=True)
                with Horizontal(classes="row"):
                    if vs_bot:
                        yield Label(_("Bot level"), classes="label")
                        level = self.options.bot if self.options.bot in BOT_LEVELS else self.prefs.bot_level
                        yield Select(level_choices(BOT_LEVELS), value=level, allow_blank=False, id="level",
                                     compact=True)
                    else:
                        yield Label(_("Player 2"), classes="label")
                        yield Input(_("Player 2"), id="name1", max_length=MAX_NAME, compact=True)
                with Horizontal(classes="row"):
                    yield Label(_("Drafts first"), classes="label")
                    yield Select([(_("random cut"), "cut"), (_("player 1"), "0"), (_("player 2"), "1")], value="cut",
                                 allow_blank=False, id="first", compact=True)
                yield from rule_rows(rules)
                with Horizontal(classes="row"):
                    yield Label(_("Seed (optional)"), classes="label")
                    yield Input("" if seed is None else str(seed), id="seed", type="integer", compact=True)
            yield Static("", id="message", classes="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Start"), id="start", variant="primary", compact=True)
                yield Button(_("Back"), id="back", compact=True)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        mark_focused_row(self, event.widget)  # the focused field's row stands out (forms.py)

    @on(Input.Changed, "#name0, #name1")
    def _typed(self, event: Input.Changed) -> None:
        # A paste may hold an escape sequence: it leaves the field at once, never drawn (engine/text.py).
        kept = without_controls(event.value)
        if kept != event.value:
            event.input.value = kept

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        next_field(self, event)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        message = self.query_one("#message", Static)
        try:
            rules = read_rules(self)
        except (ValueError, RulesError) as exc:
            message.update(str(exc))
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = parse_seed(seed_text) if seed_text else None
        except ValueError:  # a 5,000-digit paste: said plainly, not a traceback
            message.update(seed_problem(seed_text))
            return
        first_value = str(self.query_one("#first", Select).value)
        first = None if first_value == "cut" else int(first_value)
        # Cleaned as they enter (engine/text.py): an Input takes a pasted escape sequence too.
        name0 = clean_name(self.query_one("#name0", Input).value, _("Player 1"))
        if self.mode == "bot":
            level = str(self.query_one("#level", Select).value)
            self.dismiss(NewGameRequest(rules, first, (name0, f"Bot ({level})"), level, seed))
        else:
            name1 = clean_name(self.query_one("#name1", Input).value, _("Player 2"))
            if name1 == name0:
                name1 += " (2)"
            self.dismiss(NewGameRequest(rules, first, (name0, name1), None, seed))
