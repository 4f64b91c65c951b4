"""The list of saved games: what it shows of each record, and the index that keeps that without a replay.

``games.index`` (beside the slots, see ``keep.slots``) holds each record's ``SlotSummary`` by its file's
size, modification time and inode: a cache, rebuilt at will, so that listing the saved games costs one
``stat`` per game.  No Textual here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..engine.record import HUMAN, GameRecord, PlayerInfo
from ..engine.state import GameState
from ..engine.text import MAX_RECORD_NAME, clean_name
from ..i18n.language import N_
from .meta import DEFAULT_NAMES, RecordMeta, game_outcome
from .storage import StorageError, atomic_write_text, read_text

INDEX_NAME = "games.index"  # JSON, named so that no "*.json" look for records finds it
_INDEX_VERSION = 1
_INDEX_MAX_BYTES = 16 * 1024 * 1024  # about 200 bytes a game


@dataclass(frozen=True)
class SlotSummary:
    """What the start screen shows of a record, as the index keeps it (no replay needed)."""

    players: tuple[PlayerInfo, PlayerInfo]
    scores: tuple[int, int]
    hand_number: int
    finished: bool  # over by the rules or ended by a forfeit
    practice: bool = False  # a take-back made it a practice game

    @classmethod
    def of(cls, record: GameRecord, state: GameState) -> SlotSummary:
        players = record.players if record.players is not None else DEFAULT_NAMES
        return cls(players, state.scores, state.hand_number, game_outcome(record, state) is not None,
                   RecordMeta.of(record).practice)

    def to_json(self) -> dict[str, object]:
        return {"players": [[p.name, p.kind] for p in self.players], "scores": list(self.scores),
                "hand": self.hand_number, "finished": self.finished, "practice": self.practice}

    @classmethod
    def from_json(cls, data: object) -> Optional[SlotSummary]:
        """An index entry read back, or None if it is not one (the record is then read instead)."""

        if not isinstance(data, dict):
            return None
        players, scores, hand, finished = (data.get(k) for k in ("players", "scores", "hand", "finished"))
        if not (isinstance(players, list) and len(players) == 2 and isinstance(scores, list) and len(scores) == 2
                and all(type(s) is int for s in scores) and type(hand) is int and isinstance(finished, bool)):
            return None
        infos = []
        for p in players:
            if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)):
                return None
            # The index is a file like any other: its names are cleaned as a record's are.
            infos.append(PlayerInfo(clean_name(p[0], "Player", MAX_RECORD_NAME), clean_name(p[1], HUMAN)))
        practice = data.get("practice", False)  # an index written before it was kept: not practice
        return cls((infos[0], infos[1]), (scores[0], scores[1]), hand, finished, practice is True)


@dataclass(frozen=True)
class SavedGame:
    """A game found in a slot, as the start screen lists it."""

    path: Path
    summary: SlotSummary
    last_played: float  # the record's modification time (seconds since the epoch)
    held_elsewhere: bool  # another process is playing it now

    @classmethod
    def of_record(cls, path: Path, record: GameRecord, state: GameState, last_played: float,
                  held_elsewhere: bool) -> SavedGame:
        return cls(path, SlotSummary.of(record, state), last_played, held_elsewhere)

    @property
    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        return self.summary.players

    @property
    def names(self) -> tuple[str, str]:
        p = self.players
        return (p[0].name, p[1].name)

    @property
    def scores(self) -> tuple[int, int]:
        return self.summary.scores

    @property
    def hand_number(self) -> int:
        return self.summary.hand_number

    @property
    def finished(self) -> bool:
        """Over by the rules or ended by a forfeit: nothing to resume."""
        return self.summary.finished

    @property
    def practice(self) -> bool:
        return self.summary.practice


@dataclass(frozen=True)
class Listing:
    """What ``scan`` found: the games, and a message for each damaged file it set aside."""

    games: list[SavedGame]
    messages: list[str]


def read_index(path: Path) -> dict[str, object]:
    """The index as written, or empty when missing or not an index (it is only a cache)."""
    try:
        data = json.loads(read_text(path, _INDEX_MAX_BYTES, N_("the games' index")))
    except (StorageError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("version") != _INDEX_VERSION or not isinstance(data.get("games"), dict):
        return {}
    games: dict[str, object] = data["games"]
    return games


def write_index(path: Path, games: dict[str, object]) -> None:
    try:
        atomic_write_text(path, json.dumps({"version": _INDEX_VERSION, "games": games},
                                           ensure_ascii=True, separators=(",", ":")))
    except StorageError:
        pass  # a cache: the next listing reads the records again
