"""Reading ``analyse``'s report for a person back into its parts: which hand and whose cards each line is under."""

from __future__ import annotations

import re
from typing import NamedTuple, Optional, Sequence

MINUS = "\u2212"


def sg(n: int) -> str:
    """A margin as text for a person writes it: ``+68``, ``−41`` (the true minus), ``0``."""
    return f"{n:+d}".replace("-", MINUS) if n else "0"


class Entry(NamedTuple):
    hand: int  # the hand whose header the line is under (0 before any)
    player: Optional[int]  # the player whose header ("Ada:") the line is under, None for the hand's own lines
    text: str  # the line without its indentation


def entries(report: str, names: Sequence[str]) -> list[Entry]:
    """Each line of the report with the hand and the player it is written under."""
    out: list[Entry] = []
    hand, player = 0, None
    titles = [f"{'You' if n.lower() == 'you' else n}:" for n in names]
    for line in report.splitlines():
        text = line.strip()
        header = re.match(r"Hand (\d+): ", line)
        if header:
            hand, player = int(header[1]), None
        elif line.startswith("  ") and not line.startswith("   "):
            player = next((i for i, t in enumerate(titles) if text == t), None)
        out.append(Entry(hand, player, text))
    return out
