"""A small modal question: a title, a few lines, and choices; Enter picks, Esc cancels (None)."""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n.language import N_
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter
from ..widgets.plain import plain_content


class ChoiceScreen(ModalScreen[Optional[str]]):
    """``choices`` are (id, label); dismisses with the chosen id, or None on Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Back"), id="choice.cancel",
                tooltip=N_("Close this and go back to the game.")),
        Binding("enter", "pick", N_("Choose"), show=False),
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, title: str, text: str, choices: Sequence[tuple[str, str]], *, name: str = "") -> None:
        super().__init__(name=name or None)
        self.title_text = title
        self.text = text
        self.choices = tuple(choices)

    def compose(self) -> ComposeResult:
        with Vertical(id="choicebox"):
            yield Static(self.title_text, id="choicetitle", markup=False)
            if self.text:
                yield Static(self.text, id="choicetext", markup=False)
            yield OptionList(*(Option(plain_content(label), id=key) for key, label in self.choices), id="choicelist")
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_pick(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            self.dismiss(options.get_option_at_index(options.highlighted).id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TableChoiceScreen(ChoiceScreen):
    """A ``ChoiceScreen`` of a network table's (how a tunnel or a table server is set up): F1 opens the help about
    tables, and the footer says so (a modal screen's footer shows its own keys only)."""

    HELP_TOPIC: ClassVar[str] = "table"  # tui/app/guide.py TOPICS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f1", "app.help", N_("Help"), id="tablechoice.help")]
