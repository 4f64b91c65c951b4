"""A client's seats at network tables, kept in the user data directory: one small JSON file each.

No network here (the start screen lists the seats without loading aiohttp).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ..wire import protocol as p

SEATS_DIR = "tables"


@dataclass
class SeatFile:
    """What a client keeps of its seat: where, its token, and each hand's commitment and nonce."""

    url: str
    token: str
    seat: int
    names: tuple[str, str]
    commitments: dict[int, str] = field(default_factory=dict)
    nonces: dict[int, str] = field(default_factory=dict)
    verified: dict[int, Optional[str]] = field(default_factory=dict)  # hand: None verified, else the warning
    over: bool = False  # the game ended, or the table no longer knows the seat: not listed any more
    code: Optional[str] = None  # the table's join code: one seat per table game, wherever the table listens
    scores: tuple[int, int] = (0, 0)  # as last seen, for the start screen's line
    hand: int = 0
    played: float = 0.0  # when last played (seconds since the epoch)
    late: set[int] = field(default_factory=set)  # hands the host said it shuffled without our late nonce

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "token": self.token, "seat": self.seat, "names": list(self.names),
                "commitments": {str(k): v for k, v in self.commitments.items()},
                "nonces": {str(k): v for k, v in self.nonces.items()},
                "verified": {str(k): v for k, v in self.verified.items()}, "over": self.over,
                "code": self.code, "scores": list(self.scores), "hand": self.hand, "played": self.played,
                "late": sorted(self.late)}

    @classmethod
    def from_json(cls, data: Any) -> Optional[SeatFile]:
        if not isinstance(data, dict):
            return None
        try:
            names = data.get("names", ["", ""])

            def ints(key: str) -> dict[int, Any]:
                found = data.get(key, {})
                return {int(k): v for k, v in found.items()} if isinstance(found, dict) else {}

            seat = data["seat"]
            if seat not in (0, 1) or not isinstance(data["url"], str) or not isinstance(data["token"], str):
                return None
            return cls(data["url"], data["token"], seat,
                       (p.clean_name(names[0], "Host"), p.clean_name(names[1], "Guest")),
                       {k: str(v) for k, v in ints("commitments").items()},
                       {k: str(v) for k, v in ints("nonces").items()},
                       {k: None if v is None else str(v) for k, v in ints("verified").items()},
                       bool(data.get("over", False)), _text(data.get("code")), _pair(data.get("scores")),
                       _count(data.get("hand")), _when(data.get("played")),
                       {h for h in data.get("late", []) if type(h) is int} if isinstance(data.get("late"), list)
                       else set())
        except (KeyError, TypeError, ValueError, IndexError):
            return None


def _text(value: object) -> Optional[str]:
    return value[:40] if isinstance(value, str) else None


def _count(value: object) -> int:
    return value if type(value) is int and 0 <= value < 10_000 else 0


def _pair(value: object) -> tuple[int, int]:
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int and abs(v) < 1_000_000 for v in value):
        return (value[0], value[1])
    return (0, 0)


def _when(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e11 \
        else 0.0


def seats_dir(data_dir: Path) -> Path:
    return data_dir / SEATS_DIR


def seat_path(data_dir: Path, url: str, code: Optional[str] = None) -> Path:
    """One file per table address (and per table, with ``code``: a server holds many at one address)."""
    where = url.split("://", 1)[-1] + (f"-{code}" if code else "")
    safe = "".join(ch if ch.isalnum() else "_" for ch in where)[:160]
    return seats_dir(data_dir) / f"seat-{safe}.json"


def seat_at(data_dir: Path, url: str) -> Optional[Path]:
    """The latest unfinished seat kept for a table at ``url`` (any of a server's tables there), if any."""
    found = [path for path, seat in saved_seats(data_dir) if seat.url == url]
    return found[0] if found else None


def load_seat(path: Path) -> Optional[SeatFile]:
    try:
        return SeatFile.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def saved_seats(data_dir: Path) -> list[tuple[Path, SeatFile]]:
    """The seats this user may go back to, for the start screen: one per table game (by its code; the
    latest played where a table was met at two addresses), unfinished ones only, the latest first."""
    try:
        paths = sorted(seats_dir(data_dir).glob("seat-*.json"))
    except OSError:
        return []
    by_game: dict[str, tuple[Path, SeatFile]] = {}
    for path in paths:
        seat = load_seat(path)
        if seat is None:
            continue
        key = seat.code or seat.token  # a seat file from before codes were kept: its own game
        known = by_game.get(key)
        if known is None or (seat.over, seat.played) > (known[1].over, known[1].played):
            by_game[key] = (path, seat)
    found = [entry for entry in by_game.values() if not entry[1].over]
    return sorted(found, key=lambda entry: -entry[1].played)


def others_of(data_dir: Path, keep: Path, code: str) -> list[Path]:
    """The other seat files of the table game ``code`` (the same game met at another address): gone once
    ``keep`` holds it."""
    found = []
    for path in (seats_dir(data_dir).glob("seat-*.json") if seats_dir(data_dir).is_dir() else ()):
        seat = load_seat(path)
        if path != keep and seat is not None and seat.code == code:
            found.append(path)
    return found
