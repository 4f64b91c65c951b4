"""The autosave policy: where the game is saved, what a damaged file becomes, what a new game keeps."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional

from ..engine import GameRecord, GameState, Phase
from .storage import LOAD_ERRORS, StorageError, load_game
from .store import forfeit_of

APP_NAME = "spades-tui"
AUTOSAVE_NAME = "autosave.json"


def data_dir() -> Path:
    """The user data directory (platformdirs: honours XDG_DATA_HOME)."""
    import platformdirs  # imported here so plain commands need not load it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


class AutosaveStatus:
    """What was found in the autosave file."""

    def __init__(self, record: Optional[GameRecord] = None, message: Optional[str] = None,
                 state: Optional[GameState] = None) -> None:
        self.record = record
        self.message = message  # shown to the user: a corrupt file was set aside
        self.state = state

    @property
    def resumable(self) -> bool:
        """An unfinished game: neither over by the rules nor ended by a forfeit."""
        return (self.record is not None and self.state is not None and self.state.phase is not Phase.GAME_OVER
                and forfeit_of(self.record) is None)


def set_aside(path: Path, label: Optional[str] = None) -> Path:
    """Rename a file out of the way, never over another file, and return its new name.

    Bad files become ``NAME.corrupt-DATE[-n].json``; with ``label`` the name is
    ``NAME.LABEL[-n].json``.
    """
    tag = label if label is not None else f"corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1000):
        suffix = f"-{n}" if n else ""
        target = path.with_name(f"{path.stem}.{tag}{suffix}{path.suffix}")
        if not target.exists():
            os.replace(path, target)
            return target
    raise StorageError(f"cannot set aside {path}: too many copies named {tag}")


def check_autosave(path: Path, what: str = "The autosaved game") -> AutosaveStatus:
    """Read a saved game; a corrupt one is set aside with a clear message (``what`` names it)."""
    if not path.exists():
        return AutosaveStatus()
    try:
        record, state = load_game(path)
    except LOAD_ERRORS as exc:
        why = str(exc)
        try:
            aside = set_aside(path)
        except (OSError, StorageError) as exc2:
            return AutosaveStatus(message=f"{what} is damaged ({why}) and could not be moved: {exc2}.")
        return AutosaveStatus(message=f"{what} could not be read ({why}). It was kept as {aside}.")
    return AutosaveStatus(record, None, state)


def keep_previous(path: Path) -> None:
    """Before a new game overwrites an unfinished autosave, keep a copy of it."""
    if path.exists():
        try:
            set_aside(path, "previous")  # an older copy is never overwritten
        except (OSError, StorageError):
            pass
