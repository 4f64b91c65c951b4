"""The interface every bot implements, built in or external.

A bot sees only an ``Observation`` (docs/rules.md section 10) and the list of legal
actions; it never receives a ``GameState``.  Hosts (the TUI, the arena, the
``bot`` command) call ``start`` once, ``decide`` for every decision of the
bot's seat, ``finish`` at game end, and ``close`` when done.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..engine.actions import PlayerAction
from ..engine.observation import Observation
from ..engine.rules import Rules


class BotError(Exception):
    """The bot cannot go on (bad answer, time-out, crash): it forfeits; the message says why."""


class Bot:
    """Base class; subclasses override ``decide``."""

    name: str = "bot"

    def start(self, seat: int, rules: Rules) -> None:
        """Called once before the first decision."""

    def warm(self) -> None:
        """Get ready to think now, before the first decision (a bot in a child process starts it)."""

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        raise NotImplementedError

    def finish(self, scores: tuple[int, int], winner: Optional[int]) -> None:
        """Called when the game ends."""

    def close(self) -> None:
        """Release resources (an external bot's process)."""
