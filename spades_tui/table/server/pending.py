"""A server's tables opened but not yet begun (docs/table-protocol.md, "Meeting on a server"), kept so that
a restarted server has them again with the same codes and tokens.

A table's game lives in its autosave slot from its first action on; before that (the friend has not
sat down) there is no record, so the code, the watch code, the first seat's token hash, the names, the
rules and the address that opened it (which it counts against) are kept here, one small JSON file per
table, written atomically and gone once the game began.  A file that cannot be read is said and set
aside (``table-CODE.corrupt-DATE.json``); no other table is harmed.  A file is read only if it is a
regular file, not a link, a device or a pipe (opened with ``O_NOFOLLOW | O_NONBLOCK`` and looked at
again once open), and only ``MAX_PENDING_BYTES`` of it: a link to ``/dev/zero`` or a FIFO put there can
neither flood the server nor hang its start.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from ...engine.rules import Rules
from ...i18n.language import _
from ...keep.autosave import set_aside
from ...keep.storage import StorageError, atomic_write_text, private_dir, tighten
from ..wire import protocol as p

if TYPE_CHECKING:
    from ..host.table import TableHost

PENDING_DIR = "tables-open"  # beside games/ in the server's data folder
MAX_PENDING_BYTES = 100 * 1024  # a table's file is a few hundred bytes
_NAME = re.compile(r"^table-[a-z0-9-]{1,40}\.json$")  # not a set-aside copy (table-X.corrupt-DATE.json)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class PendingTable:
    code: str
    watch: Optional[str]
    owner_hash: str
    names: tuple[str, str]
    rules: Rules
    first: Optional[int]
    broken: Optional[str] = None  # why the file could not be read (then nothing else is meant)
    opened: Optional[float] = None  # when the table was opened (seconds since the epoch): it expires
    public: bool = False  # listed in the server's lobby
    creator: Optional[str] = None  # the address that opened it (table/server/tables.py counts it against that address)
    token_hash: Optional[str] = None  # the friend's seat, once taken (the game begins once both nonces are in)
    one_address: bool = False  # the friend sat down from the opener's address
    rated_by: Optional[int] = None  # a rated table waiting for its player: its opener's player id (rated play)
    rated: Optional[tuple[int, int]] = None  # a rated table whose both players are known: each seat's player id


def keep_pending(data_dir: Path, host: TableHost) -> Path:
    """Write ``host``'s file; its path."""
    folder = private_dir(data_dir / PENDING_DIR)  # 0700 from the data folder down: it holds token hashes
    path = folder / f"table-{host.code}.json"
    atomic_write_text(path, json.dumps(_fields(host)))
    return path


def keep_joined(host: TableHost) -> None:
    """The friend sat down before the game began: its seat (its token's hash, its name) kept in the table's file
    too, so that after a restart the seat is still the friend's, and the table still the one it was."""
    if host.pending_file is None:
        return
    try:
        atomic_write_text(host.pending_file, json.dumps(_fields(host)))
    except (OSError, StorageError):
        pass  # the file as it was: after a restart the table waits for its friend again


def _fields(host: TableHost) -> dict[str, Any]:
    return {"code": host.code, "watch": host.watch_code, "owner_hash": host.owner_hash,
            "names": [host.names[0], host.joined_name or host.names[1]], "rules": host.rules.to_json(),
            "first": host.first, "opened": host.opened_at, "public": host.public, "creator": host.creator,
            "token_hash": host.token_hash, "one_address": host.one_address, "rated_by": host.rated.opener,
            "rated": list(host.rated.players) if host.rated.players is not None else None}


def read_small(path: Path, limit: int = MAX_PENDING_BYTES) -> bytes:
    """A regular file's bytes, at most ``limit``; OSError (with what it is) for anything else or a bigger one."""
    found = os.lstat(path)
    if not stat.S_ISREG(found.st_mode):
        raise OSError(f"not a regular file ({_kind(found.st_mode)})")
    fd = os.open(path, _OPEN_FLAGS)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # swapped for something else between the look and the open
            raise OSError(f"not a regular file ({_kind(opened.st_mode)})")
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise OSError(f"larger than {limit // 1024} KiB")
    return data


def _kind(mode: int) -> str:
    return ("a link" if stat.S_ISLNK(mode) else "a pipe" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a folder" if stat.S_ISDIR(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "not a file")


def _read(path: Path) -> PendingTable:
    def broken(why: str) -> PendingTable:
        return PendingTable("", None, "", ("", ""), Rules(), None, _set_aside(path, why))

    try:
        data: Any = json.loads(read_small(path).decode("utf-8"))
    except OSError as exc:
        return broken(exc.strerror or str(exc))
    except (ValueError, RecursionError):
        return broken(_("not a table's JSON"))
    if not isinstance(data, dict):
        return broken(_("not a table's JSON"))
    code, watch, owner, names, first = (data.get(k) for k in ("code", "watch", "owner_hash", "names", "first"))
    if not (isinstance(code, str) and isinstance(owner, str) and isinstance(names, list) and len(names) == 2
            and (watch is None or isinstance(watch, str)) and (first is None or (type(first) is int
                                                                                 and first in (0, 1)))):
        return broken(_("not a table's fields"))
    try:
        rules = Rules.from_json(data.get("rules") or {})
    except (ValueError, TypeError, KeyError, AttributeError):
        return broken(_("rules that cannot be played"))
    opened = data.get("opened")
    when = float(opened) if isinstance(opened, (int, float)) and not isinstance(opened, bool) and 0 < opened < 1e11 \
        else None
    return PendingTable(code[:40], watch[:40] if watch else None, owner[:64],
                        (p.clean_name(names[0], "Host"), p.clean_name(names[1], "Guest")), rules, first,
                        opened=when, public=data.get("public") is True, creator=_address(data.get("creator")),
                        token_hash=token[:64] if isinstance(token := data.get("token_hash"), str) else None,
                        one_address=data.get("one_address") is True,
                        rated_by=rated if type(rated := data.get("rated_by")) is int else None,
                        rated=_players(data.get("rated")))


def _players(value: object) -> Optional[tuple[int, int]]:
    """A rated table's two players (their ids, two different ones), or None for anything else."""
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int and v > 0 for v in value) \
            and value[0] != value[1]:
        return (value[0], value[1])
    return None


def _address(value: object) -> Optional[str]:
    """An address as the lobby counts it (guard.address_key's text), or None for anything else."""
    return value if isinstance(value, str) and 0 < len(value) <= 64 and value.isprintable() else None


def _set_aside(path: Path, why: str) -> str:
    """A table file that cannot be read, moved out of the way (kept, 0600, never read again); what to say."""
    try:
        aside = set_aside(path)
    except (OSError, StorageError) as exc:
        return _("A table file could not be read ({problem}) nor set aside ({why}): {file}").format(
            problem=why, why=exc, file=path.name)
    tighten(aside)
    return _("A table file could not be read ({problem}): {file}, set aside as {aside}").format(
        problem=why, file=path.name, aside=aside.name)


def pending_tables(data_dir: Path) -> list[tuple[Path, PendingTable]]:
    folder = data_dir / PENDING_DIR
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [(folder / name, _read(folder / name)) for name in names if _NAME.match(name)]
