"""The start screen's list of saved games: a pure function from the saved games' slots to what it offers.

No Textual here.  Each unfinished game with its hand, score, kind and when it was last played; one open in
another window says so, and is not resumed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..i18n.language import N_, _, translated
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


# The bot levels as a saved game's kind names them (bots/levels.py: LEVELS).
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"), "expert": N_("expert")}


def seat_label(seat: SeatFile, now: float) -> str:
    """A seat at a network table as the start screen lists it, as a saved game is: who with, the score (this
    seat's first), the hand, when last played: ``vs Gus, 64 – −80, hand 3, last played today 21:11``."""
    other = seat.names[1 - seat.seat] or _("your friend")
    values = {"player": other, "score": num(seat.scores[seat.seat]), "other": num(seat.scores[1 - seat.seat]),
              "hand": seat.hand, "played": last_played(seat.played, now)}
    if seat.hand:
        return _("vs {player}, {score} – {other}, hand {hand}, {played}").format(**values)
    return _("vs {player}, {score} – {other}, {played}").format(**values)


def game_kind_words(players: tuple[PlayerInfo, PlayerInfo], practice: bool = False) -> str:
    """What kind of game a saved one is: ``against the bot (normal)``, ``hot-seat``, ``a table with Hana``,
    each with ``, practice`` after a take-back."""
    remote = [p for p in players if p.is_remote]
    bots = [p.bot_spec for p in players if p.bot_spec is not None]
    if len(remote) == 1:
        text = _("a table with {player}").format(player=remote[0].name)
    elif remote:
        text = _("a network table")
    elif len(bots) == 1:
        level = translated(LEVEL_WORDS[bots[0]]) if bots[0] in LEVEL_WORDS else bots[0]
        text = _("against the bot ({level})").format(level=level)
    elif bots:
        text = _("bot against bot")
    else:
        text = _("hot-seat")
    return _("{kind}, practice").format(kind=text) if practice else text


def resume_choices(games: Sequence[SavedGame], now: float) -> tuple[ResumeChoice, ...]:
    """The unfinished games, in the order given (``SlotDirectory.scan``: free ones first, latest first).

    A finished game is not offered (its file stays); one open in another window says so.
    """
    choices = []
    for game in games:
        if game.finished:
            continue
        names, scores = game.names, game.scores
        label = _("Resume hand {hand}: {first} {first_score} – {second} {second_score}, {kind}, {played}").format(
            hand=game.hand_number, first=names[0], first_score=num(scores[0]), second=names[1],
            second_score=num(scores[1]), kind=game_kind_words(game.players, game.practice),
            played=last_played(game.last_played, now))
        if game.held_elsewhere:
            label += "\n  " + _("open in another window: continue it there")
        choices.append(ResumeChoice(game.path, label, game.held_elsewhere))
    return tuple(choices)
