"""A game screen's keys in the lesson (issue 39): a key that does nothing there, or a card that may not be played,
is explained by the lesson beside the table (never just ignored), and Esc leaves the lesson at once.

``LessonKeys`` is a mixin of ``game.GameScreen``: it holds no state of its own, only reads the screen's view.
Its Esc binding stays in ``GameScreen.BINDINGS`` (Textual merges only a widget class's bindings, and help lists
``GameScreen.BINDINGS``), as does the check that enables it (``check_action``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Optional

from textual import events
from textual.screen import Screen

from ..messages import LessonRefused, ShowStart
from ..widgets.cards import Picker
from ..widgets.toosmall import too_small

if TYPE_CHECKING:
    from ...session.view import SeatView
    from ..gameview import Item

    _Screen = Screen[None]  # what the mixin is mixed into, for the type checker
else:
    _Screen = object


class LessonKeys(_Screen):
    # Keys a lesson leaves to Textual (focus, the palette): never "a key that does nothing".
    LESSON_QUIET_KEYS: ClassVar[frozenset[str]] = frozenset({"tab", "shift+tab", "ctrl+p", "ctrl+q", "ctrl+c"})

    seat_view: Optional[SeatView]

    if TYPE_CHECKING:
        @property
        def items(self) -> tuple[Item, ...]: ...

    @property
    def in_lesson(self) -> bool:
        return self.seat_view is not None and bool(self.seat_view.lesson)

    def _lesson_key(self, event: events.Key) -> None:
        """In a lesson, a key that does nothing on this screen is explained, never just ignored."""
        if not self.in_lesson or event.key in self.LESSON_QUIET_KEYS or too_small(self):
            return
        if self.seat_view is not None and self.seat_view.trick_held:
            return  # the hand's last trick on the table: any key goes on to the score, none "does nothing"
        if not (event.is_printable or event.key in ("backspace", "delete", "home", "end", "pageup", "pagedown")):
            return
        found = self.active_bindings.get(event.key)
        if found is None or not found.enabled:
            self.post_message(LessonRefused(key=event.character if event.is_printable and event.character
                                            else event.key))

    def on_picker_refused(self, message: Picker.Refused) -> None:
        """A card that may not be played, clicked: in a lesson the lesson says why."""
        items = self.items
        if self.in_lesson and 0 <= message.index < len(items) and items[message.index].card is not None:
            self.post_message(LessonRefused(card=items[message.index].card))

    def action_leave_lesson(self) -> None:
        self.post_message(ShowStart())
