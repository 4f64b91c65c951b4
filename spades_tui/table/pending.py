"""A server's tables opened but not yet begun (docs/table-protocol.md, "Meeting on a server"), kept so that
a restarted server has them again with the same codes and tokens.

A table's game lives in its autosave slot from its first action on; before that (the friend has not
sat down) there is no record, so the code, the watch code, the first seat's token hash, the names and
the rules are kept here, one small JSON file per table, written atomically and gone once the game
began.  A file that cannot be read is said and left where it is; no other table is harmed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from ..engine.rules import Rules
from ..keep.storage import atomic_write_text
from . import protocol as p

if TYPE_CHECKING:
    from .host import TableHost

PENDING_DIR = "tables-open"  # beside games/ in the server's data folder


@dataclass(frozen=True)
class PendingTable:
    code: str
    watch: Optional[str]
    owner_hash: str
    names: tuple[str, str]
    rules: Rules
    first: Optional[int]
    broken: Optional[str] = None  # why the file could not be read (then nothing else is meant)


def keep_pending(data_dir: Path, host: TableHost) -> Path:
    """Write ``host``'s file; its path."""
    folder = data_dir / PENDING_DIR
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # the file holds a seat's token hash and the codes
    path = folder / f"table-{host.code}.json"
    data = {"code": host.code, "watch": host.watch_code, "owner_hash": host.owner_hash,
            "names": list(host.names), "rules": host.rules.to_json(), "first": host.first}
    atomic_write_text(path, json.dumps(data))
    return path


def _read(path: Path) -> PendingTable:
    broken = PendingTable("", None, "", ("", ""), Rules(), None,
                          f"A table file could not be read and was left as it is: {path.name}")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8")[:100_000])
    except (OSError, ValueError):
        return broken
    if not isinstance(data, dict):
        return broken
    code, watch, owner, names, first = (data.get(k) for k in ("code", "watch", "owner_hash", "names", "first"))
    if not (isinstance(code, str) and isinstance(owner, str) and isinstance(names, list) and len(names) == 2
            and (watch is None or isinstance(watch, str)) and (first is None or (type(first) is int
                                                                                 and first in (0, 1)))):
        return broken
    try:
        rules = Rules.from_json(data.get("rules") or {})
    except (ValueError, TypeError, KeyError, AttributeError):
        return broken
    return PendingTable(code[:40], watch[:40] if watch else None, owner[:64],
                        (p.clean_name(names[0], "Host"), p.clean_name(names[1], "Guest")), rules, first)


def pending_tables(data_dir: Path) -> list[tuple[Path, PendingTable]]:
    folder = data_dir / PENDING_DIR
    try:
        paths = sorted(folder.glob("table-*.json"))
    except OSError:
        return []
    return [(path, _read(path)) for path in paths]
