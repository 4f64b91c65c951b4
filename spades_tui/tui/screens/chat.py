"""The table's chat (docs/table-protocol.md, ``say``/``said``): the lines said lately, and a line to say.

A modal over the game, opened by its key and closed by Esc or Enter, so nothing said ever covers the
hand while it is played.  A watcher reads only (no field).  Lines are drawn with markup off; what is
typed or pasted loses its control characters at once and is cleaned again before it is sent.
"""

from __future__ import annotations

from typing import ClassVar, Optional, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...i18n.language import N_, _
from ...session.text import without_controls
from ...table.wire.protocol import MAX_SAY
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter

SHOWN = 12  # lines said, the newest last


class ChatScreen(ModalScreen[Optional[str]]):
    """``lines`` are (name, text); dismisses with the line typed (Enter), or None (Esc, or a watcher's Enter)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Back"), id="chat.cancel",
                tooltip=N_("Close the chat and go back to the game.")),
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, lines: Sequence[tuple[str, str]], *, can_say: bool) -> None:
        super().__init__(name="chat")
        self.lines = tuple(lines)[-SHOWN:]
        self.can_say = can_say

    def compose(self) -> ComposeResult:
        with Vertical(id="choicebox"):
            yield Static(_("Table chat") if self.can_say else _("Table chat (watchers read only)"), id="choicetitle",
                         markup=False)
            said = "\n".join(f"{name}: {text}" for name, text in self.lines) or _("Nothing said yet.")
            yield Static(said, id="choicetext", markup=False)
            if self.can_say:
                yield Input(placeholder=_("A line to the table; Enter sends it"),
                            max_length=MAX_SAY, id="chatinput")
        yield GameFooter()

    def on_mount(self) -> None:
        if self.can_say:
            self.query_one("#chatinput", Input).focus()

    @on(Input.Changed, "#chatinput")
    def _typed(self, event: Input.Changed) -> None:
        # A paste may hold an escape sequence: it leaves the field at once, never drawn (engine/text.py).
        kept = without_controls(event.value)
        if kept != event.value:
            event.input.value = kept

    @on(Input.Submitted, "#chatinput")
    def _send(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
