"""The game store: the one place that holds the game (record + state) and changes it.

No Textual here, so it is unit-tested on its own.  Every change goes through
``dispatch(action)``, which reduces, appends the action to the record and
autosaves it atomically.  Chance actions come from the seeded ``Dealer``; the
seed travels in the record's metadata so a resumed game deals the same cards.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, Optional

from .dealer import Dealer
from .engine import (
    Action,
    GameRecord,
    GameState,
    Observation,
    Phase,
    PlayerAction,
    PlayerInfo,
    Rules,
    legal_actions,
    observe,
    reduce,
    replay,
)
from .storage import LOAD_ERRORS, StorageError, load_game, save_record

APP_NAME = "spades-tui"
AUTOSAVE_NAME = "autosave.json"

Listener = Callable[[GameState], None]


def data_dir() -> Path:
    """The user data directory (platformdirs: honours XDG_DATA_HOME)."""
    import platformdirs  # imported here so plain commands need not load it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


class GameStore:
    """Holds the current ``GameState`` and the ``GameRecord`` that produced it."""

    def __init__(self, record: GameRecord, *, seed: Optional[int] = None, autosave: Optional[Path] = None) -> None:
        meta = dict(record.metadata)
        if seed is None and isinstance(meta.get("seed"), int) and not isinstance(meta.get("seed"), bool):
            seed = meta["seed"]
        self.dealer = Dealer(seed)
        meta["seed"] = self.dealer.seed
        self.record = GameRecord(record.rules, record.first_drafter, record.players, record.actions,
                                 tuple(meta.items()))
        self.state: GameState = replay(self.record)  # ReplayError if an action is illegal
        self.autosave_path = autosave
        self.save_error: Optional[str] = None
        self._listeners: list[Listener] = []

    # ------------------------------------------------------------ building

    @classmethod
    def new(
        cls,
        rules: Rules,
        first_drafter: int,
        players: tuple[PlayerInfo, PlayerInfo],
        *,
        seed: Optional[int] = None,
        autosave: Optional[Path] = None,
    ) -> GameStore:
        return cls(GameRecord(rules, first_drafter, players), seed=seed, autosave=autosave)

    # ------------------------------------------------------------ reading

    @property
    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        if self.record.players is not None:
            return self.record.players
        return (PlayerInfo("Player 1"), PlayerInfo("Player 2"))

    def names(self) -> tuple[str, str]:
        p = self.players
        return (p[0].name, p[1].name)

    def legal(self) -> tuple[PlayerAction, ...]:
        return legal_actions(self.state)

    def observation(self, seat: int) -> Observation:
        return observe(self.state, seat)

    def chance_due(self) -> Optional[Action]:
        return self.dealer.chance_action(self.state)

    # ------------------------------------------------------------ changing

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def dispatch(self, action: Action) -> GameState:
        """Apply ``action`` (raises ``IllegalActionError`` and changes nothing if illegal)."""
        new_state = reduce(self.state, action)
        self.record = self.record.with_action(action)
        self.state = new_state
        self.save()
        for listener in list(self._listeners):
            listener(new_state)
        return new_state

    def deal(self) -> Optional[Action]:
        """Dispatch the chance action due now, if any, and return it."""
        action = self.chance_due()
        if action is not None:
            self.dispatch(action)
        return action

    def save(self) -> None:
        """Write the record to the autosave file; a failure is remembered, never raised."""
        if self.autosave_path is None:
            return
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            save_record(self.autosave_path, self.record)
            self.save_error = None
        except (OSError, StorageError) as exc:
            self.save_error = f"Autosave failed: {exc}"


# ---------------------------------------------------------------- autosave files


class AutosaveStatus:
    """What was found in the autosave file at launch."""

    def __init__(self, record: Optional[GameRecord] = None, message: Optional[str] = None,
                 state: Optional[GameState] = None) -> None:
        self.record = record
        self.message = message  # shown to the user: a corrupt file was set aside
        self.state = state

    @property
    def resumable(self) -> bool:
        return self.record is not None and self.state is not None and self.state.phase is not Phase.GAME_OVER


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


def check_autosave(path: Path) -> AutosaveStatus:
    """Read the autosave; a corrupt one is set aside with a clear message."""
    if not path.exists():
        return AutosaveStatus()
    try:
        record, state = load_game(path)
    except LOAD_ERRORS as exc:
        why = str(exc)
        try:
            aside = set_aside(path)
        except (OSError, StorageError) as exc2:
            return AutosaveStatus(message=f"The autosaved game is damaged ({why}) and could not be moved: {exc2}.")
        return AutosaveStatus(
            message=f"The autosaved game could not be read ({why}). It was kept as {aside}; starting fresh."
        )
    return AutosaveStatus(record, None, state)


def keep_previous(path: Path) -> None:
    """Before a new game overwrites an unfinished autosave, keep a copy of it."""
    if path.exists():
        try:
            set_aside(path, "previous")  # an older copy is never overwritten
        except (OSError, StorageError):
            pass
