"""A game screen's menu (Esc): resume, the table's invite and watch code (a seat that has them), at a rated table
resign (asked again) and claim the game (once the other seat has been gone long enough), settings, help, back to
the start screen, quit; a watcher's leaves the table instead.

``GameMenu`` is a mixin of ``game.GameScreen``: it reads the screen's view and holds nothing else.  Its Esc binding
stays in ``GameScreen.BINDINGS`` (Textual merges only a widget class's bindings, and help lists them from there).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar, Optional

from textual.screen import Screen

from ...i18n.language import N_, _, ngettext, translated
from ..messages import GiveUp, OpenHelp, OpenSettings, ShowInvite, ShowStart
from .choice import ChoiceScreen

RATED_LINE = N_("Rated game")  # a rated table's first panel line (table/seat/remote_seat.py): the menu says it longer

if TYPE_CHECKING:
    from ...session.view import SeatView

    _Screen = Screen[None]  # what the mixin is mixed into, for the type checker
else:
    _Screen = object


class GameMenu(_Screen):
    MENU: ClassVar[tuple[tuple[str, str], ...]] = (
        ("resume", N_("Resume the game")), ("settings", N_("Settings")), ("help", N_("Help")),
        ("start", N_("Back to the start screen (the game stays saved)")), ("quit", N_("Quit (the game stays saved)")),
    )
    # A seat that has its table's codes: its invite and watch command, at any time.
    INVITE_ITEM: ClassVar[tuple[str, str]] = ("invite", N_("Invite and watch code"))
    # A watcher's game is not its own to save: leaving leaves the table, the game goes on.
    WATCHER_MENU: ClassVar[tuple[tuple[str, str], ...]] = (
        ("resume", N_("Resume watching")), ("settings", N_("Settings")), ("help", N_("Help")),
        ("start", N_("Leave the table (the game goes on)")), ("quit", N_("Quit")),
    )

    RESIGN_ITEM: ClassVar[tuple[str, str]] = ("resign", N_("Resign (rated as your loss)"))

    seat_view: Optional[SeatView]

    def menu_choices(self) -> tuple[tuple[str, str], ...]:
        """The menu's entries, each (id, words in the player's language: an entry made with words already in it
        is looked up too, and finds none)."""
        return tuple((key, translated(label)) for key, label in self._menu_entries())

    def _menu_entries(self) -> tuple[tuple[str, str], ...]:
        seat_view = self.seat_view
        if seat_view is not None and seat_view.watcher:
            return self.WATCHER_MENU
        rated = self.rated_choices()
        if seat_view is not None and (seat_view.invite or seat_view.watch_invite):
            from ..invite import title  # the item's words: "Watch code (the invite was used)" once its seat is taken

            return (self.MENU[0], (self.INVITE_ITEM[0], title(seat_view)), *rated, *self.MENU[1:])
        return (self.MENU[0], *rated, *self.MENU[1:])

    def claim_wait(self) -> Optional[float]:
        """At a rated table in play whose other seat is gone: the seconds left before the game may be claimed (0:
        now); None where there is no claim to make (not rated, over, a watcher, the other player there)."""
        view = self.seat_view
        facts = view.table_facts if view is not None else None
        if view is None or facts is None or not facts.rated or view.seat is None or view.outcome is not None:
            return None
        if facts.gone_since is None or facts.claim_after is None:
            return None
        return max(0.0, facts.claim_after - (time.monotonic() - facts.gone_since))

    def rated_choices(self) -> tuple[tuple[str, str], ...]:
        """A rated table's entries: resign while the game goes on; claim once the rules allow it."""
        view = self.seat_view
        facts = view.table_facts if view is not None else None
        if view is None or facts is None or not facts.rated or view.seat is None or view.outcome is not None:
            return ()
        other = view.names[1 - view.seat]
        claim = ((("claim", _("Claim the game ({player} left the table)").format(player=other)),)
                 if self.claim_wait() == 0 else ())
        return (*claim, self.RESIGN_ITEM)

    def menu_text(self) -> str:
        """The menu's lines: how the table stands (the friend's invite while their seat is empty); at a rated table,
        that it is rated, and when a player who left may be claimed from."""
        view = self.seat_view
        lines = view.table.splitlines() if view is not None else []
        facts = view.table_facts if view is not None else None
        if view is not None and facts is not None and facts.rated and view.seat is not None:
            said = _("Rated game: the result counts in both players' ratings at this server.")
            rated = lines and lines[0] in (RATED_LINE, translated(RATED_LINE))
            lines = [said, *lines[1:]] if rated else [said, *lines]
            wait = self.claim_wait()
            if wait:
                other = view.names[1 - view.seat]
                seconds = max(1, round(wait))
                lines.append(ngettext("{player} left the table: you may claim the game if they are not back within "
                                      "{seconds} second.",
                                      "{player} left the table: you may claim the game if they are not back within "
                                      "{seconds} seconds.", seconds).format(player=other, seconds=seconds))
        return "\n".join(lines)

    def action_menu(self) -> None:
        self.app.push_screen(ChoiceScreen(_("Game menu"), self.menu_text(), self.menu_choices(), name="menu"),
                             self._menu_answer)

    def _resign_answer(self, answer: Optional[str]) -> None:
        if answer == "resign":
            self.post_message(GiveUp(claim=False))

    def _menu_answer(self, answer: Optional[str]) -> None:
        if answer == "invite":
            self.post_message(ShowInvite("join"))  # a used invite's window offers the watch command first
        elif answer == "resign":  # asked again: it cannot be taken back
            self.app.push_screen(ChoiceScreen(
                _("Resign this rated game?"), _("The game ends now, and it is rated as your loss."),
                (("keep", _("Keep playing")), ("resign", translated(self.RESIGN_ITEM[1]))), name="resign"),
                self._resign_answer)
        elif answer == "claim":
            self.post_message(GiveUp(claim=True))
        elif answer == "settings":
            self.post_message(OpenSettings())
        elif answer == "help":
            self.post_message(OpenHelp())
        elif answer == "start":
            self.post_message(ShowStart())
        elif answer == "quit":
            self.app.exit(0)
