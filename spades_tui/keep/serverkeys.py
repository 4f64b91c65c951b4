"""A player's key for each server: ``server-keys/ADDRESS.json`` in the user data directory.

The key is the account (docs/serving.md, "Rated play"): 32 random bytes, base64url, that the server issued
with ``registered`` and knows only by its hash.  One small file per server address, 0600, written atomically;
copying it to another machine's data folder moves the account there.  A damaged file is said and left as it is
(never overwritten by a new registration, which would lose the name and the rating it holds).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..engine.text import player_name
from ..i18n.language import N_, _
from .storage import StorageError, atomic_write_text, private_dir, read_text

KEYS_DIR = "server-keys"
VERSION = 1
KEY_BYTES = 32
KEY_LENGTH = 43  # base64url of 32 bytes, without padding
_KEY = re.compile(r"[A-Za-z0-9_-]{43}")
_UNSAFE = re.compile(r"[^a-z0-9.-]+")
MAX_FILE = 4096


class KeyFileError(Exception):
    """A key file cannot be read or written; the message says which and why."""


def new_key() -> str:
    """A new key: 32 random bytes, base64url without padding (43 characters)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).rstrip(b"=").decode("ascii")


def is_key(text: object) -> bool:
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


def server_id(address: str) -> str:
    """A server address as the key file names it: ``ws://`` and a trailing ``/`` dropped, lower case."""
    found = address.strip().lower()
    if found.startswith("ws://"):
        found = found[len("ws://"):]
    return found.rstrip("/")


def key_path(data_dir: Path, address: str) -> Path:
    """The key file of ``address``: its name readable (``box.example.org_7000``) and, so that two addresses
    never share a file, a short hash of the whole."""
    ident = server_id(address)
    readable = _UNSAFE.sub("_", ident).strip("_.")[:60] or "server"
    return data_dir / KEYS_DIR / f"{readable}-{hashlib.sha256(ident.encode()).hexdigest()[:8]}.json"


@dataclass(frozen=True)
class ServerKey:
    """Who this player is at one server: the id and name it issued, and the key."""

    server: str
    player: int
    name: str
    key: str

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "server": self.server, "player": self.player, "name": self.name, "key": self.key}

    @classmethod
    def from_json(cls, data: Any) -> ServerKey:
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError(_("not a version {version} key file").format(version=VERSION))
        server, player, key = data.get("server"), data.get("player"), data.get("key")
        if not isinstance(server, str) or type(player) is not int or not isinstance(key, str) or not is_key(key):
            raise ValueError(_("it holds no server, player id and key"))
        return cls(server_id(server)[:200], player, player_name(data.get("name")) or "?", key)


def load_key(data_dir: Path, address: str) -> Optional[ServerKey]:
    """This player's key for ``address``; None if there is none; ``KeyFileError`` if its file is damaged."""
    path = key_path(data_dir, address)
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_symlink():
        raise KeyFileError(_("{path} is a link, not a key file: it is left as it is").format(path=path))
    try:
        return ServerKey.from_json(json.loads(read_text(path, MAX_FILE, N_("a key file"))))
    except StorageError as exc:
        raise KeyFileError(_("the key for {server} cannot be read: {problem}").format(server=address, problem=exc)) \
            from None
    except ValueError as exc:
        raise KeyFileError(_("{path} is damaged ({why}); it is left as it is, so the account it may hold is not "
                             "lost. Move it away to register again.").format(path=path, why=str(exc)[:200])) from None


def save_key(data_dir: Path, found: ServerKey) -> Path:
    """Keep ``found`` in its file (0600, atomically); a damaged file there already is not overwritten."""
    path = key_path(data_dir, found.server)
    if path.exists() or path.is_symlink():
        load_key(data_dir, found.server)  # raises for a damaged one: never overwritten
    try:
        private_dir(path.parent)
        atomic_write_text(path, json.dumps(found.to_json()) + "\n")
    except StorageError as exc:
        raise KeyFileError(_("the key for {server} could not be kept: {problem}").format(server=found.server,
                                                                                         problem=exc)) from None
    return path
