"""What the forms share: closing with Escape, and the rule options' rows (the new-game form and the settings)."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select

from ...session.view import Rules

R = TypeVar("R")

# The yes/no rule options with their labels (docs/rules.md section 9; the guide uses these labels).
RULE_SWITCHES = (("nil", "Nil bids"), ("double_nil", "Double Nil"), ("nil_tricks_are_bags", "Nil tricks are bags"),
                 ("see_second_card", "See the second card"))


class FormScreen(Screen[R], Generic[R]):
    """A form that returns its result with ``dismiss``; Escape or its Back button closes it with None."""

    def action_back(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.dismiss(None)


def yes_no(value: bool, widget_id: str) -> Select[str]:
    # Yes/no as words, not a coloured tick, so they read the same with NO_COLOR.
    return Select([("yes", "yes"), ("no", "no")], value="yes" if value else "no", allow_blank=False, id=widget_id,
                  compact=True)


def rule_rows(rules: Rules) -> ComposeResult:
    """The rule options as form rows, for ``yield from`` in a compose."""
    with Horizontal(classes="row"):
        yield Label("Target score", classes="label")
        yield Input(str(rules.target), id="target", type="integer", compact=True)
    with Horizontal(classes="row"):
        yield Label("Bag limit / penalty", classes="label")
        yield Input(str(rules.bag_limit), id="bag_limit", type="integer", classes="half", compact=True)
        yield Input(str(rules.bag_penalty), id="bag_penalty", type="integer", classes="half", compact=True)
    for key, label in RULE_SWITCHES:
        with Horizontal(classes="row"):
            yield Label(label, classes="label")
            yield yes_no(getattr(rules, key), key)


def is_yes(form: DOMNode, widget_id: str) -> bool:
    return form.query_one(f"#{widget_id}", Select).value == "yes"


def whole_number(form: DOMNode, widget_id: str) -> int:
    text = form.query_one(f"#{widget_id}", Input).value.strip()
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{widget_id.replace('_', ' ')} must be a whole number, not {text!r}") from None


def read_rules(form: DOMNode) -> Rules:
    """The rules the rows of ``rule_rows`` say; raise ValueError or RulesError with a message for the form."""
    return Rules(target=whole_number(form, "target"), bag_limit=whole_number(form, "bag_limit"),
                 bag_penalty=whole_number(form, "bag_penalty"),
                 **{key: is_yes(form, key) for key, _ in RULE_SWITCHES})
