"""The command palette's side of the app: its commands (commands.py) loaded when the palette first opens, and the
facts that decide which of them make sense now (``PaletteContext``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from textual.app import App, SystemCommand
from textual.command import CommandPalette, Provider

from ...i18n.language import _

if TYPE_CHECKING:  # commands.py loads with the palette, not before the start screen (test_start_imports.py)
    from ...session.seat import Seat
    from .commands import PaletteContext
    from .saved import SavedGames


def game_commands() -> type[Provider]:
    """The palette's commands, loaded when the palette first opens."""
    from .commands import GameCommands  # in here: see TYPE_CHECKING above

    return GameCommands


def command_palette(app: App[Any]) -> None:
    """Textual's command palette (ctrl+p), its words in the player's language: Textual's ``action_command_palette``
    with our placeholder and "No matches found"."""
    from ..textualprivate import WordedPalette

    if app.use_command_palette and not CommandPalette.is_open(app):
        app.push_screen(WordedPalette(_("No matches found"), id="--command-palette",
                                      placeholder=_("Search for commands…")))


def theme_palette(app: App[Any]) -> None:
    """Textual's theme picker (the palette's "Change theme"), its words in the player's language: Textual's
    ``search_themes``, with our placeholder and "No matches found"."""
    from textual.theme import ThemeProvider

    from ..textualprivate import WordedPalette

    app.push_screen(WordedPalette(_("No matches found"), providers=[ThemeProvider],
                                  placeholder=_("Search for themes…")))


def system_commands(textual_ones: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
    from .commands import system_commands as ours  # in here: see TYPE_CHECKING above

    return ours(textual_ones)


def palette_context(seat: Optional[Seat], saved_games: SavedGames, served: bool,
                    say: Callable[[str, str, Optional[float]], None], invite: bool = False,
                    invite_used: bool = False) -> PaletteContext:
    """What the palette offers now; a saved game that cannot be listed is said (``say(text, severity, timeout)``).
    ``invite``: the seat in play has its table's invite and watch code to show; ``invite_used``: someone sat down
    with that invite, whose code seats no one else."""
    from .commands import PaletteContext  # in here: see TYPE_CHECKING above

    said, resumable = saved_games.resumable()
    if said:
        say(said, "warning", 12)
    return PaletteContext(in_game=seat is not None, hints_on=seat is not None and seat.show_hints,
                          review_on=seat is not None and seat.auto_review, resumable=resumable, served=served,
                          invite=seat is not None and invite, invite_used=seat is not None and invite and invite_used)
