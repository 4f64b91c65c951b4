"""What the forms share: closing with Escape, Enter in a typed field moving on, the fields' scroll, and the rule
options' rows (the new-game form and the settings)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select

from ...i18n.language import N_, _, translated
from ...session.view import PRESETS, Rules, RulesError
from ..houserules import OPTION_WORDS

R = TypeVar("R")

# The rule options as the forms show them (docs/rules.md section 9; labels and words: tui/houserules.py).
RULE_NUMBERS = ("nil_points", "double_nil_points", "double_nil_behind", "losing_score")
RULE_SWITCHES = tuple((key, OPTION_WORDS[key][0]) for key in (
    "nil", "double_nil", "nil_tricks_are_bags", "see_second_card", "spades_any_time", "ten_for_200", "thirteen_wins"))
OWN = "own"  # the preset choice "my own house rules": the options as they stand below it
# The bots' levels (bots/levels.py LEVELS) in the player's words; the preferences file keeps the level's name.
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"), "expert": N_("expert")}


def level_choices(levels: tuple[str, ...]) -> list[tuple[str, str]]:
    """A Select's choices of the bots' levels: each in the player's words, its value the level's name."""
    return [(translated(LEVEL_WORDS.get(level, level)), level) for level in levels]


class FormScreen(Screen[R], Generic[R]):
    """A form that returns its result with ``dismiss``; Escape or its Back button closes it with None."""

    def action_back(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.dismiss(None)


def form_fields() -> VerticalScroll:
    """The scroll that holds a form's rows (``with form_fields():``). It scrolls to the focused field, but takes
    no focus itself: Tab would stop on it between the buttons and the first field, with nothing seen focused."""
    return VerticalScroll(id="form", can_focus=False)


def next_field(screen: Screen[Any], event: Input.Submitted) -> None:
    """Enter in a typed field moves to the next field, as Tab does: a name typed and Enter never starts the game
    (or saves the settings) before the rest of the form is seen; its button or Ctrl+S does."""
    event.stop()
    screen.focus_next()


def mark_focused_row(screen: DOMNode, focused: DOMNode) -> None:
    """Mark the form row that holds the focused field (class ``-focused``; assets/spades.tcss draws its label
    in bold reverse video, which reads in every theme, with NO_COLOR and in ASCII); no row for a button."""
    for marked in screen.query(".row.-focused"):
        marked.remove_class("-focused")
    row = focused.parent
    if row is not None and row.has_class("row"):
        row.add_class("-focused")


def yes_no(value: bool, widget_id: str) -> Select[str]:
    # Yes/no as words, not a coloured tick, so they read the same with NO_COLOR.
    return Select([(_("yes"), "yes"), (_("no"), "no")], value="yes" if value else "no", allow_blank=False, id=widget_id,
                  compact=True)


class RuleRows(Vertical):
    """The rule options' rows: the house rules (a preset) first, then each option, changed one by one.

    Choosing a preset sets every option below it; changing an option shows the preset those options
    now are, or "own" (``Rules.preset``)."""

    DEFAULT_CSS = "RuleRows { height: auto; }"

    def __init__(self, rules: Rules) -> None:
        super().__init__(id="rule_rows")
        self.rules = rules

    def compose(self) -> ComposeResult:
        rules = self.rules
        choices = [(p.title, p.name) for p in PRESETS.values()] + [(_("own house rules"), OWN)]
        with Horizontal(classes="row"):
            yield Label(_("House rules"), classes="label")
            yield Select(choices, value=rules.preset or OWN, allow_blank=False, id="preset", compact=True)
        with Horizontal(classes="row"):
            yield Label(translated(OPTION_WORDS["target"][0]), classes="label")
            yield Input(str(rules.target), id="target", type="integer", compact=True)
        with Horizontal(classes="row"):
            yield Label(_("Bag limit / penalty"), classes="label")
            yield Input(str(rules.bag_limit), id="bag_limit", type="integer", classes="half", compact=True)
            yield Input(str(rules.bag_penalty), id="bag_penalty", type="integer", classes="half", compact=True)
        for key in RULE_NUMBERS:
            with Horizontal(classes="row"):
                yield Label(translated(OPTION_WORDS[key][0]), classes="label")
                yield Input(str(getattr(rules, key)), id=key, type="integer", compact=True)
        for key, label in RULE_SWITCHES:
            with Horizontal(classes="row"):
                yield Label(translated(label), classes="label")
                yield yes_no(getattr(rules, key), key)

    @on(Select.Changed, "#preset")
    def _preset_chosen(self, event: Select.Changed) -> None:
        event.stop()
        name = str(event.value)
        if name not in PRESETS:
            return  # "own": the options stay as they are
        self.show(PRESETS[name].rules)

    def show(self, rules: Rules) -> None:
        """Set every option's row to ``rules``."""
        for key in ("target", "bag_limit", "bag_penalty", *RULE_NUMBERS):
            self.query_one(f"#{key}", Input).value = str(getattr(rules, key))
        for key, _label in RULE_SWITCHES:
            self.query_one(f"#{key}", Select).value = "yes" if getattr(rules, key) else "no"

    @on(Input.Changed)
    @on(Select.Changed)
    def _option_changed(self, event: Input.Changed | Select.Changed) -> None:
        if event.control.id == "preset":
            return
        try:
            name = read_rules(self).preset or OWN
        except (ValueError, RulesError):
            name = OWN  # a half-typed number: the form says what is wrong when it is submitted
        preset = self.query_one("#preset", Select)
        if preset.value != name:
            preset.value = name


def rule_rows(rules: Rules) -> ComposeResult:
    """The rule options as form rows, for ``yield from`` in a compose."""
    yield RuleRows(rules)


def is_yes(form: DOMNode, widget_id: str) -> bool:
    return form.query_one(f"#{widget_id}", Select).value == "yes"


def whole_number(form: DOMNode, widget_id: str) -> int:
    text = form.query_one(f"#{widget_id}", Input).value.strip()
    try:
        return int(text)
    except ValueError:
        # The field by its label, as the form shows it (the message stays under the form: a label the player sees).
        raise ValueError(_("{field} must be a whole number, not {typed}").format(
            field=translated(OPTION_WORDS[widget_id][0]), typed=repr(text))) from None


def read_rules(form: DOMNode) -> Rules:
    """The rules the rows of ``rule_rows`` say; raise ValueError or RulesError with a message for the form."""
    values: dict[str, Any] = {key: whole_number(form, key) for key in ("target", "bag_limit", "bag_penalty",
                                                                       *RULE_NUMBERS)}
    values.update((key, is_yes(form, key)) for key, _label in RULE_SWITCHES)
    return Rules(**values)
