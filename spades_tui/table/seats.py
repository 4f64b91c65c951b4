"""A client's seats at network tables, kept in the user data directory: one small JSON file each.

No network here (the start screen lists the seats without loading aiohttp).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from . import protocol as p

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
    over: bool = False
    late: set[int] = field(default_factory=set)  # hands the host said it shuffled without our late nonce

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "token": self.token, "seat": self.seat, "names": list(self.names),
                "commitments": {str(k): v for k, v in self.commitments.items()},
                "nonces": {str(k): v for k, v in self.nonces.items()},
                "verified": {str(k): v for k, v in self.verified.items()}, "over": self.over,
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
                       bool(data.get("over", False)),
                       {h for h in data.get("late", []) if type(h) is int} if isinstance(data.get("late"), list)
                       else set())
        except (KeyError, TypeError, ValueError, IndexError):
            return None


def seats_dir(data_dir: Path) -> Path:
    return data_dir / SEATS_DIR


def seat_path(data_dir: Path, url: str) -> Path:
    """One file per table address: joining the same address again finds its seat."""
    safe = "".join(ch if ch.isalnum() else "_" for ch in url.split("://", 1)[-1])[:120]
    return seats_dir(data_dir) / f"seat-{safe}.json"


def load_seat(path: Path) -> Optional[SeatFile]:
    try:
        return SeatFile.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def saved_seats(data_dir: Path) -> list[tuple[Path, SeatFile]]:
    """The seats this user may go back to (unfinished games), for the start screen."""
    found = []
    try:
        paths = sorted(seats_dir(data_dir).glob("seat-*.json"))
    except OSError:
        return []
    for path in paths:
        seat = load_seat(path)
        if seat is not None and not seat.over:
            found.append((path, seat))
    return found
