"""The settings form: every preference (settings/preferences.py), returned with ``dismiss``.

Modal, so a game's screen under it stays while the bot plays on; the app saves and applies the result.
"""

from __future__ import annotations

import math
from typing import ClassVar, Optional, Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ...bots.levels import LEVELS as BOT_LEVELS
from ...i18n.language import AUTO, LANGUAGES, N_, _, translated
from ...session.text import MAX_NAME, clean_name, without_controls
from ...session.view import RulesError
from ...settings.preferences import (
    DEFAULT_NAME,
    INTERFACES,
    MAX_PAUSE,
    MAX_SERVER,
    Preferences,
    game_names,
    server_problem,
)
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter
from ..widgets.toosmall import TooSmall
from .forms import form_fields, is_yes, level_choices, mark_focused_row, next_field, read_rules, rule_rows, yes_no

# The interface setting's choices in words (the file keeps the values): line mode is what a screen reader reads.
INTERFACE_LABELS: tuple[tuple[str, str], ...] = (("tui", N_("Full screen")), ("lines", N_("Lines (screen readers)")))
assert tuple(value for value, _label in INTERFACE_LABELS) == INTERFACES


def kept_name(name: str) -> str:
    """The name as the file keeps it: the default's word in the player's language ("Du") is the default, "You", so
    that it says "you" in whatever language the game speaks next."""
    return DEFAULT_NAME if name == game_names(DEFAULT_NAME, "")[0] else name


def language_choices() -> list[tuple[str, str]]:
    """The language setting's choices: each language in its own name (a player who cannot read the one on the
    screen still finds theirs), after the system's."""
    return [(_("Automatic (the system's)"), AUTO), *((name, code) for code, name in LANGUAGES.items())]


def language_label() -> str:
    """The language row's label: in English "Language"; in another language its word with "Language" after it,
    so a player who cannot read the language on the screen still finds the row that changes it."""
    word = _("Language")
    return word if word == "Language" else f"{word} (Language)"


class SettingsScreen(ModalScreen[Optional[Preferences]]):
    """Theme, four-colour deck, hints, review, bot pause, the new-game form's defaults, line mode, the table server."""

    HELP_TOPIC: ClassVar[str] = "settings"  # help opens at this topic of the guide (tui/app/guide.py TOPICS)
    PALETTE_COMMAND: ClassVar[str] = "settings"  # the palette's command that opens it: not offered over it
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Cancel"), id="settings.back", tooltip=N_("Close the settings without saving.")),
        Binding("ctrl+s", "save", N_("Save"), id="settings.save",
                tooltip=N_("Save the settings and use them at once.")),
        Binding("f1", "app.help", N_("Help"), id="settings.help"),  # a modal screen hides the app's own F1
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, prefs: Preferences, themes: Sequence[str]) -> None:
        super().__init__()
        self.prefs = prefs
        self.themes = sorted(themes)

    def compose(self) -> ComposeResult:
        prefs = self.prefs
        with Vertical(id="content"):
            yield Static(_("Settings"), id="title")
            with form_fields():
                with Horizontal(classes="row"):
                    yield Label(_("Theme"), classes="label")
                    theme = prefs.theme if prefs.theme in self.themes else self.themes[0]
                    yield Select([(t, t) for t in self.themes], value=theme, allow_blank=False, id="theme",
                                 compact=True)
                with Horizontal(classes="row"):
                    yield Label(language_label(), classes="label")
                    yield Select(language_choices(), value=prefs.language if prefs.language in LANGUAGES else AUTO,
                                 allow_blank=False, id="language", compact=True)
                for key, label in (("four_colour", _("Four-colour deck")), ("hints", _("Hint panel at start")),
                                   ("review", _("Review every hand")),
                                   ("forced_play", _("Forced card plays"))):
                    with Horizontal(classes="row"):
                        yield Label(label, classes="label")
                        yield yes_no(getattr(prefs, key), key)
                with Horizontal(classes="row"):
                    yield Label(_("Bot pause (seconds)"), classes="label")
                    yield Input(f"{prefs.bot_pause:g}", id="bot_pause", type="number", compact=True)
                yield Static(_("New games"), classes="subtitle")
                with Horizontal(classes="row"):
                    yield Label(_("Your name"), classes="label")
                    yield Input(game_names(prefs.player_name, "")[0], id="player_name", max_length=MAX_NAME,
                                compact=True)  # the default "You" in the player's language, kept as "You"
                with Horizontal(classes="row"):
                    yield Label(_("Bot level"), classes="label")
                    yield Select(level_choices(BOT_LEVELS), value=prefs.bot_level, allow_blank=False,
                                 id="bot_level", compact=True)
                yield from rule_rows(prefs.rules)
                yield Static(_("Line mode (for screen readers; from the next start)"), classes="subtitle")
                with Horizontal(classes="row"):
                    yield Label(_("Interface"), classes="label")
                    yield Select([(translated(label), value) for value, label in INTERFACE_LABELS],
                                 value=prefs.interface,
                                 allow_blank=False, id="interface", compact=True)
                with Horizontal(classes="row"):
                    yield Label(_("Spell cards out"), classes="label")
                    yield yes_no(prefs.words, "words")
                yield Static(_("Network tables"), classes="subtitle")
                with Horizontal(classes="row"):
                    yield Label(_("Table server"), classes="label")
                    yield Input(prefs.table_server, id="table_server", max_length=MAX_SERVER, compact=True,
                                placeholder=_("ADDR:PORT, for Find a table"))
            yield Static("", id="message", classes="message", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Save"), id="save", variant="primary", compact=True)
                yield Button(_("Cancel"), id="back", compact=True)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#theme", Select).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        mark_focused_row(self, event.widget)  # the focused field's row stands out (forms.py)

    def action_back(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.dismiss(None)

    @on(Input.Changed, "#table_server")
    @on(Input.Changed, "#player_name")
    def _typed(self, event: Input.Changed) -> None:
        # A paste may hold an escape sequence: it leaves the field at once, never drawn (engine/text.py).
        kept = without_controls(event.value)
        if kept != event.value:
            event.input.value = kept

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        next_field(self, event)

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        message = self.query_one("#message", Static)
        try:
            prefs = self.read()
        except (ValueError, RulesError) as exc:
            message.update(str(exc))
            return
        self.dismiss(prefs)

    def read(self) -> Preferences:
        """The preferences the form says; raise ValueError or RulesError with a message for the form."""
        pause_text = self.query_one("#bot_pause", Input).value.strip()
        try:
            pause = float(pause_text)
        except ValueError:
            pause = math.nan
        if not 0 <= pause <= MAX_PAUSE:  # NaN fails too
            raise ValueError(_("bot pause must be a number of seconds from 0 to {most}, not {typed}").format(
                most=f"{MAX_PAUSE:g}", typed=repr(pause_text)))
        server = self.query_one("#table_server", Input).value.strip()
        if server_problem(server) is not None:
            raise ValueError(_("the table server must be ADDR:PORT (or wss://ADDR:PORT), such as "
                               "tables.example.org:7000, or empty"))
        return Preferences(
            theme=str(self.query_one("#theme", Select).value),
            four_colour=is_yes(self, "four_colour"),
            hints=is_yes(self, "hints"),
            review=is_yes(self, "review"),
            forced_play=is_yes(self, "forced_play"),
            bot_pause=pause,
            bot_level=str(self.query_one("#bot_level", Select).value),
            player_name=kept_name(clean_name(self.query_one("#player_name", Input).value, DEFAULT_NAME)),
            rules=read_rules(self),
            table_server=server,
            interface=str(self.query_one("#interface", Select).value),
            language=str(self.query_one("#language", Select).value),
            words=is_yes(self, "words"),
        )
