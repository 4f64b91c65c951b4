"""Files: atomic writes, reading records with clear errors."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from ..engine.errors import IllegalActionError, RecordError
from ..i18n.language import N_, _, translated

if TYPE_CHECKING:  # the records load with the first record read: the start screen writes preferences only
    from ..engine.record import GameRecord
    from ..engine.state import GameState

PathLike = Union[str, "os.PathLike[str]"]


class StorageError(Exception):
    """A file could not be read or written; the message says which and why.  ``reason``, where there is one: the
    same without the file's name, for a line that names it already (a whole message: never glued to the name)."""

    def __init__(self, message: str, reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.reason = reason


# Everything in the data and config folders is the user's alone (a saved game shows both hands, a seat file
# holds the token that takes the seat): files 0600 and folders 0700, given when each is made (never a chmod
# after, which would leave a moment when another user could open it). The umask can only take bits away.
FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: PathLike) -> Path:
    """Make the folder ``path`` and any missing folder above it, each 0700 as it is made (``Path.mkdir``
    with ``parents`` makes the ones above with the default mode); an existing one is left as it is."""
    target = Path(path)
    missing: list[Path] = []
    here = target
    while not here.is_dir():
        missing.append(here)
        if here.parent == here:
            break
        here = here.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:
            if not folder.is_dir():
                raise
    return target


def tighten(path: PathLike) -> None:
    """A file or folder an older version made readable by others (0644, 0755) kept to this user: the group's
    and others' bits taken away, the owner's left as they are (a folder made read-only stays so); only if it
    is this user's, and a failure is no error (the game goes on as before)."""
    try:
        found = os.stat(path, follow_symlinks=False)
        if found.st_uid == os.getuid() and found.st_mode & 0o077 and not stat.S_ISLNK(found.st_mode):
            os.chmod(path, stat.S_IMODE(found.st_mode) & 0o700)
    except (OSError, AttributeError):  # gone, not ours to change, or no uid here (not POSIX)
        pass


def private_file(path: PathLike) -> None:
    """Create the empty file ``path`` 0600 unless it exists (for files another library opens and would
    create with its own mode, such as SQLite's 0644); never through a symbolic link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def atomic_write_text(path: PathLike, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new, never half.

    The file is 0600 whatever the umask: ``mkstemp`` makes the temporary file so, and the rename keeps it."""
    target = Path(path)
    directory = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise StorageError(_("cannot write {path}: {why}").format(path=target, why=exc.strerror or exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        # Whatever went wrong (disk full, text that is not encodable, Ctrl-C), the
        # old file stays as it was and no temporary file is left behind.
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise StorageError(_("cannot write {path}: {why}").format(path=target, why=exc.strerror or exc)) from None
        if isinstance(exc, UnicodeError):
            raise StorageError(_("cannot write {path}: the text is not valid Unicode ({why})").format(
                path=target, why=exc)) from None
        raise


MAX_RECORD_BYTES = 64 * 1024 * 1024  # a long game is a few hundred KiB


def read_text(path: PathLike, limit: int = MAX_RECORD_BYTES, what: str = N_("a game record")) -> str:
    """A UTF-8 text file of at most ``limit`` bytes; ``StorageError`` saying plainly what is wrong.  ``what``: the
    kind of file, a message marked with ``N_`` (in the player's language when said)."""
    p = Path(path)
    what = translated(what)
    try:
        if p.exists() and not p.is_file() and not p.is_dir():
            # A FIFO would block forever, /dev/zero would fill the memory.
            raise StorageError(_("{path} is not a regular file").format(path=p), _("it is not a regular file"))
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:
            size = (_("{mib} MiB").format(mib=limit // 2**20) if limit >= 2**20
                    else _("{kib} KiB").format(kib=limit // 1024))
            raise StorageError(_("{path} is too large for {what} (over {size})").format(path=p, what=what, size=size),
                               _("it is too large for {what} (over {size})").format(what=what, size=size))
        return data.decode("utf-8")
    except FileNotFoundError:
        raise StorageError(_("{path}: no such file").format(path=p)) from None
    except IsADirectoryError:
        raise StorageError(_("{path} is a directory, not {what}").format(path=p, what=what),
                           _("it is a directory, not {what}").format(what=what)) from None
    except UnicodeDecodeError:
        raise StorageError(_("{path} is not a text file (not UTF-8)").format(path=p),
                           _("it is not a text file (not UTF-8)")) from None
    except OSError as exc:
        raise StorageError(_("cannot read {path}: {why}").format(path=p, why=exc.strerror or exc)) from None


def load_record(path: PathLike) -> GameRecord:
    """Read and validate a record; raise ``StorageError`` or ``RecordError``."""
    from ..engine.record import loads_record  # in here: the records load after the start screen (test_start_imports.py)

    text = read_text(path)
    try:
        return loads_record(text)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


# Everything that can be wrong with a game file: unreadable, malformed, or an illegal action.
LOAD_ERRORS = (StorageError, RecordError, IllegalActionError)


def load_game(path: PathLike) -> tuple[GameRecord, GameState]:
    """Read a record and replay it; raise one of ``LOAD_ERRORS`` with a clear message."""
    from ..engine.record import replay  # in here: as above

    record = load_record(path)
    return record, replay(record)


def save_record(path: PathLike, record: GameRecord) -> None:
    atomic_write_text(path, record.dumps())
