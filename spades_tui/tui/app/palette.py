"""The command palette's side of the app: its commands (commands.py) loaded when the palette first opens, and the
facts that decide which of them make sense now (``PaletteContext``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Optional

from textual.app import SystemCommand
from textual.command import Provider

if TYPE_CHECKING:  # commands.py loads with the palette, not before the start screen (test_start_imports.py)
    from ...session.seat import Seat
    from .commands import PaletteContext
    from .saved import SavedGames


def game_commands() -> type[Provider]:
    """The palette's commands, loaded when the palette first opens."""
    from .commands import GameCommands  # in here: see TYPE_CHECKING above

    return GameCommands


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
