"""The autosave policy: where games are saved, what a damaged file becomes.

Each game is saved in a slot of its own (``slots.py``) under the user data directory;
``AUTOSAVE_NAME`` is where versions before the slots kept their one autosave (moved into
slots at start).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from ..i18n.language import _
from .storage import LOAD_ERRORS, StorageError, load_game, tighten

if TYPE_CHECKING:  # where saves go is asked before any game is read (the start screen's first paint)
    from ..engine.record import GameRecord
    from ..engine.state import GameState

APP_NAME = "spades-tui"
AUTOSAVE_NAME = "autosave.json"  # the old single autosave, migrated into slots


def default_data_dir() -> Path:
    """The user data directory (platformdirs: honours XDG_DATA_HOME)."""
    import platformdirs  # imported here so plain commands need not load it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


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
        from .meta import game_outcome  # in here: the records load after the start screen (test_start_imports.py)

        return self.record is not None and self.state is not None and game_outcome(self.record, self.state) is None


def set_aside(path: Path, label: Optional[str] = None) -> Path:
    """Rename a file out of the way, never over another file, and return its new name.

    Bad files become ``NAME.corrupt-DATE[-n].json``; with ``label`` the name is
    ``NAME.LABEL[-n].json``.
    """
    tag = label if label is not None else f"corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1000):
        suffix = f"-{n}" if n else ""
        target = path.with_name(f"{path.stem}.{tag}{suffix}{path.suffix}")
        if not os.path.lexists(target):  # a link there (even dangling) is something not to replace
            os.replace(path, target)
            tighten(target)  # kept, and the user's alone like every saved game (it was 0644 if made so)
            return target
    raise StorageError(_("cannot set aside {path}: too many copies named {tag}").format(path=path, tag=tag))


def check_autosave(path: Path, name: Optional[str] = None) -> AutosaveStatus:
    """Read a saved game; a corrupt one is set aside with a clear message (``name``: the saved game's file name, the
    old single autosave's when None)."""
    if not path.exists() and not path.is_symlink():
        return AutosaveStatus()
    try:
        if path.is_symlink():  # the game never makes one: a link would read (and overwrite) another file
            raise StorageError(_("{path} is a link, not a regular file").format(path=path))
        record, state = load_game(path)
    except LOAD_ERRORS as exc:
        why = str(exc)
        try:
            aside = set_aside(path)
        except (OSError, StorageError) as exc2:
            return AutosaveStatus(message=(
                _("The autosaved game is damaged ({why}) and could not be moved: {problem}.") if name is None else
                _("The saved game {name} is damaged ({why}) and could not be moved: {problem}.")).format(
                    name=name, why=why, problem=exc2))
        return AutosaveStatus(message=(
            _("The autosaved game could not be read ({why}). It was kept as {aside}.") if name is None else
            _("The saved game {name} could not be read ({why}). It was kept as {aside}.")).format(
                name=name, why=why, aside=aside))
    return AutosaveStatus(record, None, state)
