"""What the app keeps between games, behind one object: the saved games' slots, the slot of the game in play,
record files to load, the statistics.  No Textual here: the app says what it returns (the problems in words).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from ...i18n.language import _
from ...keep.storage import LOAD_ERRORS, StorageError, load_game
from ...table.seat.seat_file import saved_seats

if TYPE_CHECKING:  # loaded with the first saved game or statistics, not before the first screen
    from ...keep.challenges import Result
    from ...keep.records import FoundRecord
    from ...keep.slots import Slot, SlotDirectory
    from ...keep.stats import StatsRecorder, StatsReport
    from ...session.view import GameRecord
    from ..startlist import ResumeChoice

Listing = tuple[Optional[str], tuple["ResumeChoice", ...], tuple[tuple[Path, str], ...]]


def joined(*parts: Optional[str]) -> Optional[str]:
    """Messages said as one line, or None when there is none."""
    return " ".join(p for p in parts if p) or None


def not_here(record: GameRecord, served: bool) -> Optional[str]:
    """Why a saved game cannot be resumed at this screen (``served``: a browser tab), or None."""
    from ...session.view import is_served_table

    if is_served_table(record.players):  # both seats were browser tabs: nobody plays at this screen
        return _("That game was a table of 'spades-tui serve' (both seats played from browsers); it cannot be "
                 "resumed here. Its record stays in its slot (spades-tui replay reads it).")
    players = record.players or ()
    if served and any(p.is_remote for p in players):
        return _("A network table's game is resumed in a terminal: spades-tui host --resume.")
    if served and any(p.external_bot for p in players):
        # The program it names may be started from a terminal only.
        return _("That game's bot is an external program, which a game in a browser may not start; resume it in a "
                 "terminal (spades-tui --bot \"cmd:...\").")
    return None


class SavedGames:
    """``data_dir`` holds the saved games (``games/``, see ``keep.slots``) and the statistics; None keeps
    nothing."""

    def __init__(self, data_dir: Optional[Path]) -> None:
        self.data_dir = data_dir
        self.slots: Optional[SlotDirectory] = None
        self.slot: Optional[Slot] = None  # the autosave slot this process holds for the game in play
        self._stats: Optional[StatsRecorder] = None  # opened when a game first reports (recorder)

    def open(self) -> list[str]:
        """The saved games' folder, opened once: what it said (a file set aside, an old autosave moved)."""
        if self.slots is not None or self.data_dir is None:
            return []
        # In here: the slots (and the records they read) load after the start screen (test_start_imports.py).
        from ...keep.slots import open_games

        # The old single autosave moves into a slot; stray temporary files go; damaged files are set aside.
        self.slots, notes = open_games(self.data_dir)
        return notes

    def listing(self, message: Optional[str]) -> Listing:
        """What the start screen says and lists: ``message`` with any problem found, the saved games, the seats."""
        from ..startlist import (  # in here: the list (and the session's types) load after the start screen
            resume_choices,
            seat_label,
        )

        message = joined(message, *self.open())
        resume: tuple[ResumeChoice, ...] = ()
        now = time.time()
        if self.slots is not None:
            found = self.slots.scan()  # damaged files are set aside, with a message
            message = joined(message, *found.messages)
            resume = resume_choices(found.games, now)
        # Written as the saved games are (startlist.py), not by the seat file's own label: one date, one minus.
        seats = tuple((path, seat_label(seat, now)) for path, seat in saved_seats(self.data_dir)) \
            if self.data_dir is not None else ()
        return message, resume, seats

    def resumable(self) -> tuple[Optional[str], tuple[ResumeChoice, ...]]:
        """The saved games the palette offers (not the one in play, not one open elsewhere), with what scanning
        them said."""
        from ..startlist import resume_choices  # in here: as above

        self.open()
        if self.slots is None:
            return None, ()
        found = self.slots.scan()  # a damaged file is set aside: said, as the start screen would
        playing = self.slot.path if self.slot is not None else None
        choices = tuple(c for c in resume_choices(found.games, time.time()) if not c.elsewhere and c.path != playing)
        return joined(*found.messages), choices

    def claim(self, slot: Optional[Slot], new: bool = True) -> Optional[str]:
        """Hold ``slot`` for the game about to be played, or a new one (no other game's file is ever written; none
        when not ``new``: a finished game loaded to be looked at is kept where it was); the problem in words when
        none could be claimed (the game goes on without autosave)."""
        problem = None
        if slot is None and self.slots is not None and new:
            try:
                slot = self.slots.claim_new()
            except StorageError as exc:
                problem = _("Autosave failed: {problem}").format(problem=exc)
        self.slot = slot
        return problem

    def hold(self, slot: Slot) -> None:
        """The slot of a game begun elsewhere (a table hosted here): held, and released, as the game in play's."""
        self.slot = slot

    def release(self) -> None:
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()

    def open_game(self, path: Path) -> tuple[Slot, GameRecord]:
        """A saved game and its slot, held by this process; ``StorageError`` (``SlotBusy``: open in another
        window) when it cannot be."""
        self.open()
        if self.slots is None:
            raise StorageError(_("no saved games are kept here"))
        return self.slots.open_game(path)

    def table_game(self) -> Optional[tuple[Slot, GameRecord]]:
        """The unfinished game of a network table this app hosted (a remote seat, and one played here)."""
        if self.slots is None:
            return None
        from ...session.view import is_table_game

        for game in self.slots.scan().games:
            if not game.finished and not game.held_elsewhere and is_table_game(game.players):
                try:
                    return self.slots.open_game(game.path)
                except StorageError:
                    continue
        return None

    def challenge_game(self, code: str) -> Optional[tuple[Slot, GameRecord]]:
        """The unfinished game of the challenge ``code``, held by this process, if there is one."""
        self.open()
        if self.slots is None:
            return None
        from ...keep.meta import RecordMeta

        for game in self.slots.scan().games:
            if game.finished or game.held_elsewhere or game.players[1].kind != "bot:expert":
                continue
            try:
                slot, record = self.slots.open_game(game.path)
            except StorageError:
                continue
            if RecordMeta.of(record).challenge == code:
                return slot, record
            slot.release()
        return None

    def records(self) -> list[FoundRecord]:
        """The records a player may load: the files in this folder, then the saved games (and the finished ones
        put away)."""
        from ...keep.records import found_records  # in here: the records load after the start screen
        from ...keep.slots import GAMES_DIR

        folders = [Path.cwd()]
        if self.data_dir is not None:
            games = self.data_dir / GAMES_DIR
            folders += [games, games / "finished"]
        return found_records(folders)

    @staticmethod
    def load(path: str) -> tuple[Optional[GameRecord], Optional[str]]:
        """The record in the file at ``path``, or why it cannot be loaded."""
        try:
            record, _state = load_game(path)
        except LOAD_ERRORS as exc:
            return None, _("Cannot load that record: {problem}").format(problem=exc)
        return record, None

    def recorder(self) -> Optional[StatsRecorder]:
        """The statistics file's writer, made when a game first reports (its module loads then), or None."""
        if self._stats is None and self.data_dir is not None:
            from ...keep.stats import STATS_NAME, StatsRecorder  # in here: the statistics load with the first report

            self._stats = StatsRecorder(self.data_dir / STATS_NAME)  # it opens the file at its first write
        return self._stats

    def statistics(self) -> StatsReport:
        from ...keep.stats import STATS_NAME, load_summary  # in here: as above

        return load_summary(self.data_dir / STATS_NAME if self.data_dir is not None else None)

    def challenges(self) -> tuple[tuple[Result, ...], str]:
        """The daily challenges' results, or none and why they cannot be read."""
        from ...keep.challenges import CHALLENGES_NAME, ChallengeBook, ChallengeFileError

        if self.data_dir is None:
            return (), ""
        try:
            return ChallengeBook.load(self.data_dir / CHALLENGES_NAME).newest_first, ""
        except ChallengeFileError as exc:
            return (), str(exc)

    def close(self) -> None:
        self.release()
        if self._stats is not None:
            self._stats.close()



def finished(record: GameRecord) -> bool:
    """The game of ``record`` is over (won, forfeited, a challenge's four hands scored)."""
    from ...keep.meta import record_over

    return record_over(record)
