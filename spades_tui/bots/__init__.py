"""Bots: they decide from an observation only (bot-protocol.md)."""

from __future__ import annotations

from typing import Optional, Sequence

from ..engine import Observation, PlayerAction
from .base import Bot, BotError

LEVELS = ("easy", "normal", "hard")


class _FirstLegal(Bot):
    """Placeholder until the bots issue lands: always the first legal action."""

    name = "first-legal"

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        return legal[0]


def make_bot(spec: str, seed: Optional[int] = None) -> Bot:
    """A bot from a spec: ``easy``, ``normal``, ``hard`` or ``cmd:PROGRAM ARGS``."""
    if spec in LEVELS:
        return _FirstLegal()
    raise ValueError(f"unknown bot {spec!r}: expected easy, normal, hard or cmd:PROGRAM")


__all__ = ["LEVELS", "Bot", "BotError", "make_bot"]
