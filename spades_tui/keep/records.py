"""Game records a player may load: the saved games and the record files in a folder, described.

No Textual.  The load form lists what ``found_records`` returns (newest first), so a player
need not know where saves live; it still takes a typed path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

from ..engine.text import num
from ..i18n.language import _
from .meta import game_outcome
from .storage import LOAD_ERRORS, load_game

LISTED = 20  # the newest this many: each is read and replayed to be described


@dataclass(frozen=True)
class FoundRecord:
    path: Path
    label: str  # players, score, hand, whether it is over
    mtime: float


def found_records(folders: Iterable[Path], limit: int = LISTED) -> list[FoundRecord]:
    """The readable game records among the ``*.json`` files of ``folders`` (not below them), newest
    first, at most ``limit``; a file that is not a record is left out (it is not listed, not touched)."""
    files: list[tuple[float, Path]] = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
                    files.append((entry.stat(follow_symlinks=False).st_mtime, Path(entry.path)))
            except OSError:
                continue
    found = []
    for mtime, path in sorted(files, key=lambda f: -f[0]):
        described = _describe(path)
        if described is not None:
            found.append(FoundRecord(path, described, mtime))
            if len(found) >= limit:
                break
    return found


def _describe(path: Path) -> Optional[str]:
    try:
        record, state = load_game(path)
    except LOAD_ERRORS:
        return None
    players = record.players
    names = (players[0].name, players[1].name) if players is not None else (_("Player 1"), _("Player 2"))
    scores = {"file": path.name, "first": names[0], "first_score": num(state.scores[0]), "second": names[1],
              "second_score": num(state.scores[1])}
    if game_outcome(record, state) is not None:
        return _("{file}: {first} {first_score} – {second} {second_score}, over").format(**scores)
    return _("{file}: {first} {first_score} – {second} {second_score}, hand {hand}").format(
        hand=state.hand_number, **scores)
