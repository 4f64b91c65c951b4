"""A game screen's menu (Esc): resume, the table's invite and watch code (a seat that has them), settings, help,
back to the start screen, quit; a watcher's leaves the table instead.

``GameMenu`` is a mixin of ``game.GameScreen``: it reads the screen's view and holds nothing else.  Its Esc binding
stays in ``GameScreen.BINDINGS`` (Textual merges only a widget class's bindings, and help lists them from there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Optional

from textual.screen import Screen

from ..messages import OpenHelp, OpenSettings, ShowInvite, ShowStart
from .choice import ChoiceScreen

if TYPE_CHECKING:
    from ...session.view import SeatView

    _Screen = Screen[None]  # what the mixin is mixed into, for the type checker
else:
    _Screen = object


class GameMenu(_Screen):
    MENU: ClassVar[tuple[tuple[str, str], ...]] = (
        ("resume", "Resume the game"), ("settings", "Settings"), ("help", "Help"),
        ("start", "Back to the start screen (the game stays saved)"), ("quit", "Quit (the game stays saved)"),
    )
    # A seat that has its table's codes: its invite and watch command, at any time.
    INVITE_ITEM: ClassVar[tuple[str, str]] = ("invite", "Invite and watch code")
    # A watcher's game is not its own to save: leaving leaves the table, the game goes on.
    WATCHER_MENU: ClassVar[tuple[tuple[str, str], ...]] = (
        ("resume", "Resume watching"), ("settings", "Settings"), ("help", "Help"),
        ("start", "Leave the table (the game goes on)"), ("quit", "Quit"),
    )

    seat_view: Optional[SeatView]

    def menu_choices(self) -> tuple[tuple[str, str], ...]:
        seat_view = self.seat_view
        if seat_view is not None and seat_view.watcher:
            return self.WATCHER_MENU
        if seat_view is not None and (seat_view.invite or seat_view.watch_invite):
            from ..invite import title  # the item's words: "Watch code (the invite was used)" once its seat is taken

            return (self.MENU[0], (self.INVITE_ITEM[0], title(seat_view)), *self.MENU[1:])
        return self.MENU

    def action_menu(self) -> None:
        # At a network table the menu says how it stands (the friend's invite while their seat is empty).
        table = self.seat_view.table if self.seat_view is not None else ""
        self.app.push_screen(ChoiceScreen("Game menu", table, self.menu_choices(), name="menu"), self._menu_answer)

    def _menu_answer(self, answer: Optional[str]) -> None:
        if answer == "invite":
            self.post_message(ShowInvite("join"))  # a used invite's window offers the watch command first
        elif answer == "settings":
            self.post_message(OpenSettings())
        elif answer == "help":
            self.post_message(OpenHelp())
        elif answer == "start":
            self.post_message(ShowStart())
        elif answer == "quit":
            self.app.exit(0)
