"""How the game was launched: the command line's choices, read by the interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine import Rules


@dataclass(frozen=True)
class LaunchOptions:
    hotseat: bool = False
    bot: Optional[str] = None  # a level or "cmd:PROGRAM ARGS"
    seed: Optional[int] = None
    load: Optional[str] = None
    rules: Optional[Rules] = None
    bot_pause: float = 0.6  # seconds a finished trick stays on the table before the bot leads again
    review: bool = False  # open the review of every hand as it ends

    @property
    def direct(self) -> bool:
        """True when the command line asks to skip the start screen."""
        return self.hotseat or self.bot is not None or self.load is not None
