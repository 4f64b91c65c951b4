"""The start screen's list of saved games: a pure function from the saved games' slots to what it offers.

No Textual here.  Each unfinished game with its hand, score, kind and when it was last played; one open in
another window says so, and is not resumed here.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..session.view import PlayerInfo
from .notation import num

if TYPE_CHECKING:
    from ..keep.gamelist import SavedGame


@dataclass(frozen=True)
class ResumeChoice:
    """One saved game the start screen offers to resume."""

    path: Path
    label: str
    elsewhere: bool  # another copy of the game plays it: resuming is refused


def played_when(mtime: float, now: float) -> str:
    """When a game was last played, in local time: ``today 14:05``, ``yesterday 09:30``, ``3 May 14:05``."""
    then, today = datetime.datetime.fromtimestamp(mtime), datetime.datetime.fromtimestamp(now).date()
    hm = f"{then:%H:%M}"
    if then.date() == today:
        return f"today {hm}"
    if then.date() == today - datetime.timedelta(days=1):
        return f"yesterday {hm}"
    if then.year == today.year:
        return f"{then.day} {then:%b} {hm}"
    return f"{then.day} {then:%b %Y} {hm}"


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
                 f"{game_kind_words(game.players, game.practice)} (played {played_when(game.last_played, now)})")
        if game.held_elsewhere:
            label += "\n  open in another window: continue it there"
        choices.append(ResumeChoice(game.path, label, game.held_elsewhere))
    return tuple(choices)
