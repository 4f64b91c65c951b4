"""What a seat knows of the day's challenge at a server, against the field (docs/table-protocol.md, "The day's
challenge"): the standings the server sends, as the client read them (``table.wire.frames``: every field checked
and bounded, names cleaned).  No Textual: the challenge's end screen draws it (``tui.fieldmodel``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class FieldLine:
    """One entry of a day's field, scored duplicate against the rest."""

    name: str  # cleaned
    percent: float  # its matchpoints as a percentage of the most, the mean of its four hands'
    rank: int
    par: bool  # the par: the expert in both seats
    you: bool
    hands: Optional[tuple[int, ...]]  # the margins; None where the server keeps them back (today's, not played)
    hand_percents: Optional[tuple[float, ...]]


@dataclass(frozen=True)
class FieldView:
    """A day's standings: the best first (at most the server's bound), how many in all, and your line."""

    date: str
    preset: str
    count: int
    par: bool  # the par is among the entries
    entries: tuple[FieldLine, ...]
    you: Optional[FieldLine]
    practice: bool  # your line is a practice play's, not kept
