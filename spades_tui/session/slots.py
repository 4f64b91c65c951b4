"""Autosave slots: one file per game, each held by the one process that plays it.

Two copies of the game started in two terminals used to share one autosave file, and the
last writer won.  Now every game has its own slot under the data directory's ``games/``::

    game-1.json                  the record of game 1, rewritten atomically after every action
    game-1.lock                  locked (flock, exclusive) by the process playing game 1; its pid inside
    game-1.corrupt-DATE.json     a damaged record, set aside and never overwritten

A slot's record is written only by the process holding its lock.  A new game takes a
number above every one in use, so nothing is ever overwritten; a second copy of the game
takes the next free number.  The lock lives as long as the game in that process and is
released on exit, or by the OS when the process is killed.  Lock files are never deleted:
deleting one while another process opens it would let two processes hold "the" lock.

No Textual here; the interface lists ``SlotDirectory.scan()`` and resumes with ``open_game``.
"""

from __future__ import annotations

import errno
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..engine import GameRecord, GameState, PlayerInfo
from .autosave import AUTOSAVE_NAME, check_autosave
from .meta import game_outcome
from .storage import LOAD_ERRORS, StorageError, load_game
from .store import DEFAULT_NAMES

GAMES_DIR = "games"
_SLOT_NAME = re.compile(r"^game-(\d+)\.json$")
_ANY_SLOT_FILE = re.compile(r"^game-(\d+)\.")  # records, locks, set-aside copies: numbers in use
_TEMP_NAME = re.compile(r"^\.(game-\d+\.json)\..+\.tmp$")  # storage.atomic_write_text's temporary files
_LEGACY_TEMP = re.compile(r"^\.autosave[^/]*\.json\..+\.tmp$")
_CLAIM_TRIES = 3  # a claim retries briefly past another process's look at the lock (see _probe)

if sys.platform == "win32":  # pragma: no cover - untested: the game is played on POSIX terminals
    import msvcrt

    def _try_lock(fd: int, shared: bool) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int, shared: bool) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class SlotBusy(StorageError):
    """Another copy of the game (or this one) is playing that game."""


# The slots this process holds, by real path: flock does not stop a second open file
# description in the same process from locking again, so the process remembers its own.
_HELD: dict[str, Slot] = {}


def _key(path: Path) -> str:
    return os.path.realpath(path)


class Slot:
    """A claimed slot: the record at ``path`` is this process's to write until ``release()``."""

    def __init__(self, path: Path, lock_path: Path, fd: int) -> None:
        self.path = path
        self.lock_path = lock_path
        self._fd: Optional[int] = fd
        _HELD[_key(path)] = self

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Unlock the slot (the record stays); releasing twice does nothing."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if _HELD.get(_key(self.path)) is self:
            del _HELD[_key(self.path)]
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> Slot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"Slot({str(self.path)!r}, held={self.held})"


@dataclass(frozen=True)
class SavedGame:
    """A game found in a slot, as the start screen lists it."""

    path: Path
    record: GameRecord
    state: GameState
    last_played: float  # the record's modification time (seconds since the epoch)
    held_elsewhere: bool  # another process is playing it now

    @property
    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        return self.record.players if self.record.players is not None else DEFAULT_NAMES

    @property
    def names(self) -> tuple[str, str]:
        p = self.players
        return (p[0].name, p[1].name)

    @property
    def scores(self) -> tuple[int, int]:
        return self.state.scores

    @property
    def hand_number(self) -> int:
        return self.state.hand_number

    @property
    def finished(self) -> bool:
        """Over by the rules or ended by a forfeit: nothing to resume (the file stays)."""
        return game_outcome(self.record, self.state) is not None


@dataclass(frozen=True)
class Listing:
    """What ``scan`` found: the games, and a message for each damaged file it set aside."""

    games: list[SavedGame]
    messages: list[str]


class SlotDirectory:
    """The slots under ``root`` (normally ``DATA_DIR/games``)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    # ------------------------------------------------------------ names

    def slot_path(self, number: int) -> Path:
        return self.root / f"game-{number}.json"

    def _lock_path(self, path: Path) -> Path:
        return path.with_suffix(".lock")

    def _number(self, path: Path) -> int:
        m = _SLOT_NAME.match(path.name)
        if m is None or Path(os.path.realpath(path.parent)) != Path(os.path.realpath(self.root)):
            raise StorageError(f"{path} is not a game slot in {self.root}")
        return int(m.group(1))

    def _numbers_in_use(self) -> int:
        top = 0
        try:
            names = os.listdir(self.root)
        except OSError:
            return 0
        for name in names:
            m = _ANY_SLOT_FILE.match(name)
            if m is not None:
                top = max(top, int(m.group(1)))
        return top

    # ------------------------------------------------------------ locks

    def _lock(self, path: Path) -> Optional[Slot]:
        """Take the slot's lock now, or None if another process holds it."""
        lock_path = self._lock_path(path)
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)  # not inherited by child processes
        except OSError as exc:
            raise StorageError(f"cannot lock {lock_path}: {exc.strerror or exc}") from None
        try:
            if not _try_lock(fd, shared=False):
                os.close(fd)
                return None
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))  # who holds it, for the message
        except OSError as exc:
            os.close(fd)
            raise StorageError(f"cannot lock {lock_path}: {exc.strerror or exc}") from None
        return Slot(path, lock_path, fd)

    def _probe(self, path: Path) -> bool:
        """Whether any process (this one included) holds the slot's lock now.

        A shared lock taken and dropped at once: two lookers never disturb each other, and a
        claim that meets one retries (``_CLAIM_TRIES``).
        """
        if _key(path) in _HELD:
            return True
        try:
            fd = os.open(self._lock_path(path), os.O_RDONLY)
        except FileNotFoundError:
            return False  # never claimed
        except OSError:
            return True  # cannot tell: treat as held, so nothing of it is touched
        try:
            if not _try_lock(fd, shared=True):
                return True
            _unlock(fd)
            return False
        except OSError:
            return True
        finally:
            os.close(fd)

    def is_held(self, path: Path) -> bool:
        """Whether a process holds this slot (this process counts)."""
        return self._probe(Path(path))

    def held_elsewhere(self, path: Path) -> bool:
        """Whether another process holds this slot."""
        return _key(Path(path)) not in _HELD and self._probe(Path(path))

    def holder(self, path: Path) -> Optional[int]:
        """The process id written in the slot's lock file, if any (best effort)."""
        try:
            text = self._lock_path(Path(path)).read_text(encoding="ascii").strip()
        except (OSError, UnicodeError):
            return None
        return int(text) if text.isdigit() else None

    # ------------------------------------------------------------ claiming

    def claim_new(self) -> Slot:
        """An empty slot for a new game, locked; its number is above every one in use."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create {self.root}: {exc.strerror or exc}") from None
        number = self._numbers_in_use() + 1
        for _ in range(10000):
            path = self.slot_path(number)
            slot = self._lock(path)
            if slot is not None:
                if not path.exists() and not path.is_symlink():
                    return slot
                slot.release()  # a game is there (its player quit): never overwrite it
            number += 1
        raise StorageError(f"no free game slot in {self.root}")

    def claim(self, path: Path) -> Slot:
        """The slot of a saved game, locked; ``SlotBusy`` if another copy of the game plays it."""
        path = Path(path)
        self._number(path)
        if _key(path) in _HELD:
            raise SlotBusy("That game is already open in this window.")
        for attempt in range(_CLAIM_TRIES):
            slot = self._lock(path)
            if slot is not None:
                break
            if attempt + 1 < _CLAIM_TRIES:
                time.sleep(0.02)  # another copy may only be looking at the lock (_probe)
        else:
            pid = self.holder(path)
            who = f" (process {pid})" if pid is not None else ""
            raise SlotBusy(f"That game is open in another window{who}: continue it there, or quit it there "
                           "first.")
        if not path.exists():
            slot.release()
            raise StorageError(f"{path}: no such file (the game is gone)")
        return slot

    def open_game(self, path: Path) -> tuple[Slot, GameRecord]:
        """Claim a saved game's slot and read its record: what resuming does.

        ``SlotBusy`` if another copy plays it; a damaged file is set aside (never overwritten)
        and raises ``StorageError`` with the message.
        """
        slot = self.claim(path)
        status = check_autosave(slot.path, what=f"The saved game {slot.path.name}")
        if status.record is None:
            slot.release()
            raise StorageError(status.message or f"{slot.path}: no such file")
        return slot, status.record

    # ------------------------------------------------------------ listing

    def _slot_files(self) -> list[Path]:
        try:
            names = os.listdir(self.root)
        except OSError:
            return []
        found = [(int(m.group(1)), name) for name in names if (m := _SLOT_NAME.match(name))]
        return [self.root / name for _, name in sorted(found)]

    def scan(self) -> Listing:
        """Every saved game, unfinished and free first, then most recently played first.

        A damaged file that no process holds is set aside as ``game-N.corrupt-DATE.json``, with a
        message; one that another process holds is that process's business and is left alone.
        """
        games: list[SavedGame] = []
        messages: list[str] = []
        for path in self._slot_files():
            held = self._probe(path)
            try:
                record, state = load_game(path)
                mtime = path.stat().st_mtime
            except LOAD_ERRORS + (OSError,):
                if held:
                    continue
                message = self._set_aside_damaged(path)
                if message:
                    messages.append(message)
                continue
            games.append(SavedGame(path, record, state, mtime, held and _key(path) not in _HELD))
        games.sort(key=lambda g: (g.finished, g.held_elsewhere, -g.last_played, g.path.name))
        return Listing(games, messages)

    def list_games(self) -> list[SavedGame]:
        return self.scan().games

    def _set_aside_damaged(self, path: Path) -> Optional[str]:
        try:
            slot = self._lock(path)
        except StorageError as exc:
            return f"The saved game {path.name} could not be read, nor locked to set it aside: {exc}."
        if slot is None:
            return None  # a process took it meanwhile: its business
        with slot:
            return check_autosave(path, what=f"The saved game {path.name}").message

    # ------------------------------------------------------------ housekeeping

    def clean_strays(self) -> list[Path]:
        """Remove temporary files left by a kill during an atomic write, except live slots'.

        The names are read before the locks are looked at: a slot free now has no writer, so
        its temporary files listed earlier are strays.
        """
        try:
            names = os.listdir(self.root)
        except OSError:
            return []
        removed = []
        for name in names:
            m = _TEMP_NAME.match(name)
            if m is None or self._probe(self.root / m.group(1)):
                continue
            try:
                os.unlink(self.root / name)
            except OSError:
                continue
            removed.append(self.root / name)
        return removed

    def migrate(self, old_dir: Path) -> list[str]:
        """Move the single autosave of old versions (``autosave.json``, ``autosave.previous*.json``
        in ``old_dir``) into slots of their own: moved, never copied over anything, never lost.
        A damaged one is set aside where it is, as before, with a message."""
        messages: list[str] = []
        old = sorted(old_dir.glob("autosave.previous*.json")) + [old_dir / AUTOSAVE_NAME]
        for path in old:
            if not os.path.lexists(path):
                continue
            status = check_autosave(path)
            if status.message:
                messages.append(status.message)
            if status.record is None:
                continue
            try:
                with self.claim_new() as slot:
                    os.rename(path, slot.path)  # the slot is new and locked: nothing there to replace
            except FileNotFoundError:
                continue  # another copy starting at the same time moved it
            except (OSError, StorageError) as exc:
                messages.append(f"The autosaved game {path} could not be moved to {self.root}: {exc}.")
        try:
            names = os.listdir(old_dir)
        except OSError:
            names = []
        for name in names:
            if _LEGACY_TEMP.match(name):
                try:
                    os.unlink(old_dir / name)
                except OSError:
                    pass
        return messages


def open_games(data_dir: Path) -> tuple[SlotDirectory, list[str]]:
    """At start: the slots under ``data_dir/games``, the old autosave moved into them, strays removed.

    Returns the directory and the messages to show (damaged files set aside).
    """
    slots = SlotDirectory(Path(data_dir) / GAMES_DIR)
    messages = slots.migrate(Path(data_dir))
    slots.clean_strays()
    return slots, messages
