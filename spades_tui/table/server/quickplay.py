"""Quick play's pairing (docs/table-protocol.md, "Rated play"): who plays whom among those seeking a game.

Pure: no socket, no clock of its own (the server says the time).  Two seekers are paired when their ratings are
within the wider of their two windows: 150 points, widened by 50 for every 10 s waited, and anyone at all once
one of them has waited 60 s; never a player with themself.  The longest waiting are paired first, each with the
nearest rating it may have.  Seekers are bounded: ``MAX_SEEKERS`` in all and ``SEEKERS_PER_ADDRESS`` from one
address, and one seek a player at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Optional, TypeVar

from ..wire import reasons as r

WINDOW = 150.0  # rating points apart, at first
WIDEN = 50.0  # more points ...
WIDEN_EVERY = 10.0  # ... for every so many seconds waited
ANYONE_AFTER = 60.0  # seconds: then anyone
SEEKING_EVERY = 5.0  # seconds between two ``seeking`` frames to one seeker, at least
MAX_SEEKERS = 256  # seeking at once on one server
SEEKERS_PER_ADDRESS = 4  # seeking at once from one address

T = TypeVar("T")


def window(waited: float) -> float:
    """How far apart in rating a seeker who has waited ``waited`` seconds may be paired (infinite: anyone)."""
    if waited >= ANYONE_AFTER:
        return float("inf")
    return WINDOW + WIDEN * int(max(0.0, waited) // WIDEN_EVERY)


@dataclass(eq=False)
class Seeker(Generic[T]):
    """One seek: the player, their rating now, where from, since when, and what the server pairs (``handle``)."""

    player: int
    rating: float
    address: str
    since: float
    handle: T
    told: float = field(default=float("-inf"))  # when it was last sent ``seeking``


class Seeking(Generic[T]):
    """Everyone seeking a game now."""

    def __init__(self, max_seekers: int = MAX_SEEKERS, per_address: int = SEEKERS_PER_ADDRESS) -> None:
        self.seekers: list[Seeker[T]] = []
        self.max_seekers = max_seekers
        self.per_address = per_address

    def refusal(self, player: int, address: str) -> Optional[str]:
        """Why this seek is refused now (None: it is taken)."""
        if any(s.player == player for s in self.seekers):
            return r.SEEKING_ALREADY
        if sum(1 for s in self.seekers if s.address == address) >= self.per_address:
            return r.SEEKERS_PER_ADDRESS.format(count=self.per_address)
        if len(self.seekers) >= self.max_seekers:
            return r.SEEKERS_FULL
        return None

    def add(self, seeker: Seeker[T]) -> Optional[str]:
        refused = self.refusal(seeker.player, seeker.address)
        if refused is None:
            self.seekers.append(seeker)
        return refused

    def remove(self, seeker: Seeker[T]) -> None:
        if seeker in self.seekers:
            self.seekers.remove(seeker)

    def pairs(self, now: float) -> list[tuple[Seeker[T], Seeker[T]]]:
        """The pairs to seat now (each taken out of the seekers): the longest waiting first, each with the nearest
        rating within the wider window of the two."""
        made: list[tuple[Seeker[T], Seeker[T]]] = []
        waiting = sorted(self.seekers, key=lambda s: s.since)
        taken: set[int] = set()
        for i, first in enumerate(waiting):
            if id(first) in taken:
                continue
            best: Optional[Seeker[T]] = None
            for other in waiting[i + 1:]:
                if id(other) in taken or other.player == first.player:
                    continue
                apart = abs(first.rating - other.rating)
                if apart > max(window(now - first.since), window(now - other.since)):
                    continue
                if best is None or apart < abs(first.rating - best.rating):
                    best = other
            if best is not None:
                taken.update((id(first), id(best)))
                made.append((first, best))
        self.seekers = [s for s in self.seekers if id(s) not in taken]
        return made

    def due(self, now: float) -> list[Seeker[T]]:
        """The seekers to tell how the search goes now (at most every ``SEEKING_EVERY`` seconds each), marked told."""
        found = [s for s in self.seekers if now - s.told >= SEEKING_EVERY]
        for seeker in found:
            seeker.told = now
        return found
