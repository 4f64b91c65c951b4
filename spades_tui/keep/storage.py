"""Files: atomic writes, reading records with clear errors."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Union

from ..engine.errors import IllegalActionError, RecordError

if TYPE_CHECKING:  # the records load with the first record read: the start screen writes preferences only
    from ..engine.record import GameRecord
    from ..engine.state import GameState

PathLike = Union[str, "os.PathLike[str]"]


class StorageError(Exception):
    """A file could not be read or written; the message says which and why."""


def atomic_write_text(path: PathLike, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new, never half."""
    target = Path(path)
    directory = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise StorageError(f"cannot write {target}: {exc.strerror or exc}") from None
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
            raise StorageError(f"cannot write {target}: {exc.strerror or exc}") from None
        if isinstance(exc, UnicodeError):
            raise StorageError(f"cannot write {target}: the text is not valid Unicode ({exc})") from None
        raise


MAX_RECORD_BYTES = 64 * 1024 * 1024  # a long game is a few hundred KiB


def read_text(path: PathLike, limit: int = MAX_RECORD_BYTES, what: str = "a game record") -> str:
    """A UTF-8 text file of at most ``limit`` bytes; ``StorageError`` saying plainly what is wrong."""
    p = Path(path)
    try:
        if p.exists() and not p.is_file() and not p.is_dir():
            # A FIFO would block forever, /dev/zero would fill the memory.
            raise StorageError(f"{p} is not a regular file")
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:
            size = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
            raise StorageError(f"{p} is too large for {what} (over {size})")
        return data.decode("utf-8")
    except FileNotFoundError:
        raise StorageError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise StorageError(f"{p} is a directory, not {what}") from None
    except UnicodeDecodeError:
        raise StorageError(f"{p} is not a text file (not UTF-8)") from None
    except OSError as exc:
        raise StorageError(f"cannot read {p}: {exc.strerror or exc}") from None


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
