"""Autosave slots: one file per game, each held by the one process that plays it.

Two copies of the game started in two terminals used to share one autosave file, and the
last writer won.  Now every game has its own slot under the data directory's ``games/``::

    game-1.json                  the record of game 1, rewritten atomically after every action
    game-1.lock                  locked (flock, exclusive) by the process playing game 1; its pid inside
    game-1.corrupt-DATE.json     a damaged record, set aside and never overwritten
    games.index                  what each record holds for the start screen (players, score, hand,
                                 finished), by file size and modification time: a cache, rebuilt at will
    finished/game-1.json         a finished game, moved out of the way (still a record to load or replay)

A slot's record is written only by the process holding its lock.  A new game takes a
number above every one in use, so nothing is ever overwritten; a second copy of the game
takes the next free number.  The lock lives as long as the game in that process and is
released on exit, or by the OS when the process is killed.  Lock files are never deleted:
deleting one while another process opens it would let two processes hold "the" lock.

Listing reads the index, and replays only a record that changed since it was indexed, so the start
screen and the palette cost one ``stat`` per game, not a replay; a finished game that no process holds
moves to ``finished/`` at the next listing, so finished games do not pile up in the list for ever.

No Textual here; the interface lists ``SlotDirectory.scan()`` and resumes with ``open_game``.  What the list
shows of each record, and the index that keeps it, are ``keep.gamelist``'s.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import time
from pathlib import Path
from typing import Iterable, Iterator, Optional

from ..engine.record import GameRecord
from ..i18n.language import _
from .autosave import AUTOSAVE_NAME, check_autosave
from .gamelist import INDEX_NAME, Listing, SavedGame, SlotSummary, read_index, write_index
from .storage import FILE_MODE, LOAD_ERRORS, StorageError, load_game, private_dir, tighten

GAMES_DIR = "games"
FINISHED_DIR = "finished"  # under games/: finished games, out of the start screen's way
_SLOT_NAME = re.compile(r"^game-(\d+)\.json$")
_ANY_SLOT_FILE = re.compile(r"^game-(\d+)\.")  # records, locks, set-aside copies: numbers in use
_TEMP_NAME = re.compile(r"^\.(game-\d+\.json)\..+\.tmp$")  # storage.atomic_write_text's temporary files
_INDEX_TEMP = re.compile(r"^\.games\.index\..+\.tmp$")  # the index's, left by a kill while it was written
_LEGACY_TEMP = re.compile(r"^\.autosave[^/]*\.json\..+\.tmp$")
_CLAIM_TRIES = 3  # a claim retries briefly past another process's look at the lock (see _probe)
# A lock file is opened without following a symbolic link: a link planted as game-N.lock would
# otherwise have the game create its target, or write its process id into whatever it points at.
# Nor blocking on a FIFO put there.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)

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


def _regular(fd: int) -> bool:
    return stat.S_ISREG(os.fstat(fd).st_mode)


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


class SlotDirectory:
    """The slots under ``root`` (normally ``DATA_DIR/games``)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.finished_dir = self.root / FINISHED_DIR
        self.index_path = self.root / INDEX_NAME
        # What this process last read or wrote of the index, and each record's summary by its file's
        # (mtime, size, inode): a second listing (the palette after the start screen) reads neither again.
        self._index: Optional[dict[str, object]] = None
        self._memo: dict[str, tuple[tuple[int, int, int], SlotSummary, dict[str, object]]] = {}

    # ------------------------------------------------------------ names

    def slot_path(self, number: int) -> Path:
        return self.root / f"game-{number}.json"

    def _lock_path(self, path: Path) -> Path:
        text = str(path)  # (string work: pathlib's with_suffix costs, once per game at each listing)
        return Path(text[:-5] + ".lock" if text.endswith(".json") else text + ".lock")

    def _number(self, path: Path) -> int:
        m = _SLOT_NAME.match(path.name)
        if m is None or Path(os.path.realpath(path.parent)) != Path(os.path.realpath(self.root)):
            raise StorageError(_("{path} is not a game slot in {folder}").format(path=path, folder=self.root))
        return int(m.group(1))

    def _numbers_in_use(self) -> int:
        top = 0
        names: list[str] = []
        for folder in (self.root, self.finished_dir):  # a finished game's number is never used again
            try:
                names += os.listdir(folder)
            except OSError:
                pass
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
            # Not inherited by child processes; never through a link, never blocking (_NOFOLLOW).
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, FILE_MODE)
        except OSError as exc:
            if exc.errno == errno.ELOOP or os.path.islink(lock_path):
                raise StorageError(_("cannot lock {path}: it is a symbolic link, not a lock file (the game never "
                                     "makes one; remove it)").format(path=lock_path)) from None
            raise StorageError(_("cannot lock {path}: {why}").format(path=lock_path, why=exc.strerror or exc)) from None
        if not _regular(fd):
            os.close(fd)
            raise StorageError(_("cannot lock {path}: it is not a regular file").format(path=lock_path))
        try:
            if not _try_lock(fd, shared=False):
                os.close(fd)
                return None
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))  # who holds it, for the message
        except OSError as exc:
            os.close(fd)
            raise StorageError(_("cannot lock {path}: {why}").format(path=lock_path, why=exc.strerror or exc)) from None
        return Slot(path, lock_path, fd)

    def _probe(self, path: Path) -> bool:
        """Whether any process (this one included) holds the slot's lock now.

        A shared lock taken and dropped at once: two lookers never disturb each other, and a
        claim that meets one retries (``_CLAIM_TRIES``).
        """
        if _HELD and _key(path) in _HELD:  # (realpath costs: only when this process holds a slot)
            return True
        try:
            fd = os.open(self._lock_path(path), os.O_RDONLY | _NOFOLLOW)
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
            fd = os.open(self._lock_path(Path(path)), os.O_RDONLY | _NOFOLLOW)
        except OSError:
            return None
        try:
            text = os.read(fd, 32).decode("ascii").strip() if _regular(fd) else ""
        except (OSError, UnicodeError):
            return None
        finally:
            os.close(fd)
        return int(text) if text.isdigit() else None

    # ------------------------------------------------------------ claiming

    def claim_new(self) -> Slot:
        """An empty slot for a new game, locked; its number is above every one in use."""
        try:
            private_dir(self.root)
        except OSError as exc:
            raise StorageError(_("cannot create {folder}: {why}").format(folder=self.root,
                                                                          why=exc.strerror or exc)) from None
        number = self._numbers_in_use() + 1
        for _tried in range(10000):
            path = self.slot_path(number)
            slot = self._lock(path)
            if slot is not None:
                if not path.exists() and not path.is_symlink():
                    return slot
                slot.release()  # a game is there (its player quit): never overwrite it
            number += 1
        raise StorageError(_("no free game slot in {folder}").format(folder=self.root))

    def claim(self, path: Path) -> Slot:
        """The slot of a saved game, locked; ``SlotBusy`` if another copy of the game plays it."""
        path = Path(path)
        self._number(path)
        if _key(path) in _HELD:
            raise SlotBusy(_("That game is already open in this window."))
        for attempt in range(_CLAIM_TRIES):
            slot = self._lock(path)
            if slot is not None:
                break
            if attempt + 1 < _CLAIM_TRIES:
                time.sleep(0.02)  # another copy may only be looking at the lock (_probe)
        else:
            pid = self.holder(path)
            raise SlotBusy(_("That game is open in another window: continue it there, or quit it there first.")
                           if pid is None else
                           _("That game is open in another window (process {pid}): continue it there, or quit it "
                             "there first.").format(pid=pid))
        if not path.exists():
            slot.release()
            raise StorageError(_("{path}: no such file (the game is gone)").format(path=path))
        return slot

    def open_game(self, path: Path) -> tuple[Slot, GameRecord]:
        """Claim a saved game's slot and read its record: what resuming does.

        ``SlotBusy`` if another copy plays it; a damaged file is set aside (never overwritten)
        and raises ``StorageError`` with the message.
        """
        slot = self.claim(path)
        status = check_autosave(slot.path, slot.path.name)
        if status.record is None:
            slot.release()
            raise StorageError(status.message or _("{path}: no such file").format(path=slot.path))
        return slot, status.record

    def open_unfinished(self, games: Iterable[SavedGame], what: str) -> Iterator[tuple[Slot, GameRecord] | str]:
        """Each of ``games`` that is neither finished nor held by another copy, its slot claimed and its record read
        (a server's tables set up again at its start), or the line that says why one could not be."""
        for game in games:
            if game.finished or game.held_elsewhere:
                continue
            try:
                yield self.open_game(game.path)
            except StorageError as exc:
                yield f"{what} could not be resumed: {exc}"

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

        A record is replayed only if it changed since the index last saw it (its size and modification
        time); a finished game that no process holds is moved to ``finished/`` (and not listed).
        A damaged file that no process holds is set aside as ``game-N.corrupt-DATE.json``, with a
        message; one that another process holds is that process's business and is left alone.
        """
        games: list[SavedGame] = []
        messages: list[str] = []
        index = self._index
        fresh: dict[str, object] = {}
        for path in self._slot_files():
            held = self._probe(path)
            if path.is_symlink():  # never read through (a table file is not either): set aside, said
                message = None if held else self._set_aside_damaged(path)
                if message:
                    messages.append(message)
                continue
            try:
                st = path.stat()
            except OSError:
                continue  # gone meanwhile (another copy moved it)
            # Every save is a new file (an atomic rename): a new inode number even within one clock tick.
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
            summary = None
            memo = self._memo.get(path.name)
            if memo is not None and memo[0] == stamp:
                summary, entry = memo[1], memo[2]
            else:
                if index is None:
                    index = read_index(self.index_path)
                key = {"mtime_ns": stamp[0], "size": stamp[1], "inode": stamp[2]}
                found = index.get(path.name)
                if isinstance(found, dict) and all(found.get(k) == v for k, v in key.items()):
                    summary = SlotSummary.from_json(found.get("summary"))
                if summary is not None:
                    entry = found  # type: ignore[assignment]
            if summary is None:
                try:
                    record, state = load_game(path)
                except LOAD_ERRORS + (OSError,):
                    if held:
                        continue
                    message = self._set_aside_damaged(path)
                    if message:
                        messages.append(message)
                    continue
                summary = SlotSummary.of(record, state)
                entry = {"mtime_ns": stamp[0], "size": stamp[1], "inode": stamp[2], "summary": summary.to_json()}
            if summary.finished and not held and self._move_finished(path):
                self._memo.pop(path.name, None)
                continue
            self._memo[path.name] = (stamp, summary, entry)
            fresh[path.name] = entry
            games.append(SavedGame(path, summary, st.st_mtime, held and not (_HELD and _key(path) in _HELD)))
        for name in set(self._memo) - set(fresh):
            del self._memo[name]
        if index is None:
            index = self._index if self._index is not None else read_index(self.index_path)
        if fresh != index:
            write_index(self.index_path, fresh)
        self._index = fresh
        games.sort(key=lambda g: (g.finished, g.held_elsewhere, -g.last_played, g.path.name))
        return Listing(games, messages)

    def finished_games(self) -> list[Path]:
        """The records moved to ``finished/``, in the order they were numbered (each a game record)."""
        try:
            names = os.listdir(self.finished_dir)
        except OSError:
            return []
        found = [(int(m.group(1)), name) for name in names if (m := _SLOT_NAME.match(name))]
        return [self.finished_dir / name for _, name in sorted(found)]

    def keep_finished(self, path: Path) -> bool:
        """A game that will not go on (a server's abandoned table) moved to ``finished/`` like a finished one."""
        return self._move_finished(path)

    def _move_finished(self, path: Path) -> bool:
        """Move a finished game's record into ``finished/`` under its lock; whether it moved."""
        try:
            slot = self._lock(path)
        except StorageError:
            return False
        if slot is None:
            return False  # a process took it meanwhile: its business
        with slot:
            target = self.finished_dir / path.name
            try:
                private_dir(self.finished_dir)
                if os.path.lexists(target):
                    return False  # never over another file: it stays listed as finished
                os.rename(path, target)
            except OSError:
                return False
        return True

    def list_games(self) -> list[SavedGame]:
        return self.scan().games

    def _set_aside_damaged(self, path: Path) -> Optional[str]:
        try:
            slot = self._lock(path)
        except StorageError as exc:
            return _("The saved game {name} could not be read, nor locked to set it aside: {problem}.").format(
                name=path.name, problem=exc)
        if slot is None:
            return None  # a process took it meanwhile: its business
        with slot:
            return check_autosave(path, path.name).message

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
            if m is None and _INDEX_TEMP.match(name) is None:
                continue
            if m is not None and self._probe(self.root / m.group(1)):
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
                messages.append(_("The autosaved game {path} could not be moved to {folder}: {problem}.").format(
                    path=path, folder=self.root, problem=exc))
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
    tighten(data_dir)  # a data folder an older version made 0755: everything in it is kept from other users
    slots = SlotDirectory(Path(data_dir) / GAMES_DIR)
    messages = slots.migrate(Path(data_dir))
    slots.clean_strays()
    return slots, messages
