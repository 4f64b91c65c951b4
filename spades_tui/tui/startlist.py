"""The start screen's list of saved games: a pure function from the saved games' slots to what it offers.

No Textual here.  Each unfinished game with its hand, score, kind and when it was last played; one open in
another window says so, and is not resumed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..session.text import last_played, num
from ..session.view import PlayerInfo

if TYPE_CHECKING:
    from ..keep.gamelist import SavedGame
    from ..table.seat.seat_file import SeatFile


@dataclass(frozen=True)
class ResumeChoice:
    """One saved game the start screen offers to resume."""

    path: Path
    label: str
    elsewhere: bool  # another copy of the game plays it: resuming is refused


def seat_label(seat: SeatFile, now: float) -> str:
    """A seat at a network table as the start screen lists it, as a saved game is: who with, the score (this
    seat's first), the hand, when last played: ``vs Gus, 64 – −80, hand 3, last played today 21:11``."""
    other = seat.names[1 - seat.seat] or "your friend"
    mine, theirs = seat.scores[seat.seat], seat.scores[1 - seat.seat]
    hand = f", hand {seat.hand}" if seat.hand else ""
    return f"vs {other}, {num(mine)} – {num(theirs)}{hand}, {last_played(seat.played, now)}"


def game_kind_words(players: tuple[PlayerInfo, PlayerInfo], practice: bool = False) -> str:
    """What kind of game a saved one is: ``against the bot (normal)``, ``hot-seat``, ``a table with Hana``,
    each with ``, practice`` after a take-back."""
    remote = [p for p in players if p.is_remote]
    bots = [p.bot_spec for p in players if p.bot_spec is not None]
    if len(remote) == 1:
        text = f"a table with {remote[0].name}"
    elif remote:
        text = "a network table"
    elif len(bots) == 1:
        text = f"against the bot ({bots[0]})"
    elif bots:
        text = "bot against bot"
    else:
        text = "hot-seat"
    return text + (", practice" if practice else "")


def resume_choices(games: Sequence[SavedGame], now: float) -> tuple[ResumeChoice, ...]:
    """The unfinished games, in the order given (``SlotDirectory.scan``: free ones first, latest first).

    A finished game is not offered (its file stays); one open in another window says so.
    """
    choices = []
    for game in games:
        if game.finished:
            continue
        names, scores = game.names, game.scores
        label = (f"Resume hand {game.hand_number}: {names[0]} {num(scores[0])} – {names[1]} {num(scores[1])}, "
                 f"{game_kind_words(game.players, game.practice)}, {last_played(game.last_played, now)}")
        if game.held_elsewhere:
            label += "\n  open in another window: continue it there"
        choices.append(ResumeChoice(game.path, label, game.held_elsewhere))
    return tuple(choices)
