"""The lesson at this screen (``spades-tui learn``, the start screen's "Learn to play", issue 39): one hand against
the easy bot on the lesson's stock, its words beside the table.  No slot is claimed (nothing is saved), no statistics.

``LessonRun`` asks the app only what ``LessonOwner`` says, and is told by it what happens: the app's ``@on`` handlers
for the lesson's messages are one line each, calling it.  The lesson's modules (its deal, its words) load only when a
lesson starts (test_start_imports.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from ...i18n.language import _
from .resources import read_document

if TYPE_CHECKING:
    from ...keep.slots import Slot
    from ...session.seat import Seat
    from ...session.view import PlayerAction, SeatView
    from ...settings.options import LaunchOptions
    from ...settings.preferences import Preferences
    from ..lesson import Lesson
    from ..messages import LessonRefused, NewGameRequest


class LessonOwner(Protocol):
    """What the lesson asks of the app."""

    options: LaunchOptions
    seat_view: Optional[SeatView]

    @property
    def session(self) -> Optional[Seat]: ...

    @property
    def prefs(self) -> Preferences: ...

    def take_seat(self, seat: Seat, slot: Optional[Slot] = None) -> None: ...

    def close_session(self) -> None: ...

    def show_start(self, message: Optional[str] = None) -> None: ...

    def publish(self) -> None: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...


class LessonRun:
    """``shown()`` shows the screen the app's view needs; ``new_game(request)`` starts the new-game form's game."""

    def __init__(self, app: LessonOwner, shown: Callable[[], None],
                 new_game: Callable[[Optional[NewGameRequest]], None]) -> None:
        self.app = app
        self._shown = shown
        self._new_game = new_game
        self.lesson: Optional[Lesson] = None  # the lesson's words, while the game in play is the lesson

    def start(self) -> None:
        """The lesson, from its first decision (again, from the lesson's end)."""
        from ...session.lesson import LessonDeal, LessonError, LessonSession
        from ..lesson import Lesson, LessonText

        app = self.app
        text = LessonText.parse(read_document("lesson.md"))  # in the player's language
        fields = text.fields
        try:
            deal = LessonDeal.parse(fields.get("stock", ""), fields.get("first", ""), fields.get("seed", ""))
        except LessonError as exc:  # a damaged installation: said on the start screen, never a traceback
            app.show_start(_("The lesson cannot start: {problem}.").format(problem=exc))
            return
        app.close_session()
        app.seat_view = None  # nothing of the game left before it is shown
        try:
            app.take_seat(LessonSession(deal))
        except BaseException:
            app.close_session()
            raise
        self.lesson = Lesson(text)
        app.publish()

    def close(self) -> None:
        """The game in play closed: a lesson, if it was one, is over."""
        self.lesson = None

    def view(self, seat_view: SeatView) -> SeatView:
        """The view with the lesson's words for it, in a lesson."""
        return replace(seat_view, lesson=self.lesson.words(seat_view)) if self.lesson is not None else seat_view

    def chose(self, seat_view: Optional[SeatView], action: PlayerAction) -> None:
        """A decision about to be played: another choice than the suggestion, the lesson says so."""
        if self.lesson is not None and seat_view is not None:
            self.lesson.chose(seat_view, action)

    def refused(self, seat_view: Optional[SeatView], error: str) -> bool:
        """A decision the seat refused: in a lesson explained beside the table (True), never just refused."""
        if self.lesson is None or seat_view is None:
            return False
        self.lesson.refused(seat_view, error)
        return True

    def refused_input(self, message: LessonRefused) -> None:
        """A key that does nothing, or a card that may not be played, in a lesson: the lesson says why."""
        app, lesson = self.app, self.lesson
        seat_view = app.seat_view
        if lesson is None or seat_view is None or app.session is None:
            return
        if message.card is not None:
            lesson.refused_card(seat_view, message.card)
        else:
            lesson.refused_key(seat_view, message.key)
        app.seat_view = self.view(seat_view)
        self._shown()

    def over(self, choice: str) -> None:
        """The lesson's end screen: a real game (the new-game form), the lesson again, or back."""
        if choice == "again":
            self.start()
        elif choice == "real":
            from ..screens.setup import SetupScreen  # in here: the form loads when first opened

            self.app.show_start()  # the lesson closed; the form over the start screen, as from its menu
            self.app.push_screen(SetupScreen("bot", self.app.options, self.app.prefs), self._new_game)
        else:
            self.app.show_start()
