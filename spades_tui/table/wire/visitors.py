"""What ``spades-tui serve`` tells each tab's game process of the browser it plays for (no network here).

- **The visitor**: each browser gets an identity of its own (a cookie the server sets: 192 random bits,
  HttpOnly, SameSite=Strict), and its tabs' games use a data folder of that visitor only
  (``visitors/ID/`` under the server's data folder, ``ID`` derived from the cookie): its saved games, its
  seats at tables, its statistics and its settings. A seat belongs to whoever holds its token, so one
  browser's start screen never lists, and never takes, another's game or seat.
- **The tab**: a random token per tab, which the tab's game sends with its table handshake; the server
  knows which browser address it stands for, so that wrong codes count against the browser's address,
  not against the loopback address every tab's game comes from.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

VISITOR_ENV = "SPADES_TUI_VISITOR"  # the visitor's ID (not the cookie itself)
TAB_ENV = "SPADES_TUI_TAB"  # the tab's token
TAB_HEADER = "X-Spades-Tab"  # the handshake header a tab's game sends it in
VISITORS_DIR = "visitors"
VISITOR_COOKIE = "spades_visitor"
_ID = re.compile(r"^[0-9a-f]{32}$")


def visitor_id(cookie: str) -> str:
    """The folder name of the visitor whose cookie is ``cookie``: a hash, so that the folder's name does not
    give away the cookie that opens it."""
    import hashlib  # in here: every game reads this module's names; only the server hashes (issue 33)

    return hashlib.sha256(b"spades-tui/visitor\0" + cookie.encode("ascii", "replace")).hexdigest()[:32]


def visitor_data_dir(data_dir: Path, visitor: str) -> Optional[Path]:
    """That visitor's data folder under the server's ``data_dir``; None if ``visitor`` is not an ID."""
    if not _ID.match(visitor):
        return None
    return data_dir / VISITORS_DIR / visitor
