"""How the game was launched: the command line's choices, read by the interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.rules import Rules
from ..i18n.language import _

MAX_SEED_DIGITS = 40  # a 128-bit number has 39; a longer one is a paste gone wrong


def parse_seed(text: str) -> int:
    """A seed typed or given on the command line; ``ValueError`` saying what a seed "must be" (never
    echoing a long value) if it is not a whole number of at most ``MAX_SEED_DIGITS`` digits."""
    text = text.strip()
    digits = text.removeprefix("-")
    if len(digits) > MAX_SEED_DIGITS:
        raise ValueError(_("must be a whole number of at most {limit} digits (this one has {count})").format(
            limit=MAX_SEED_DIGITS, count=len(digits)))
    if not digits.isascii() or not digits.isdigit():
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise ValueError(_("must be a whole number, not {value}").format(value=repr(shown)))
    return int(text)


@dataclass(frozen=True)
class LaunchOptions:
    hotseat: bool = False
    bot: Optional[str] = None  # a level or "cmd:PROGRAM ARGS"
    seed: Optional[int] = None
    load: Optional[str] = None
    rules: Optional[Rules] = None
    # None: not given, the preference applies (settings/preferences.py).
    bot_pause: Optional[float] = None  # seconds a finished trick stays on the table before the bot leads again
    review: Optional[bool] = None  # open the review of every hand as it ends
    hints: bool = True  # compute a hint for each of your decisions (Enter's default is its recommendation)
    show_hints: Optional[bool] = None  # the hint panel is on from the start (h toggles it)
    hint_samples: Optional[int] = None  # a fixed sample count makes hints repeatable (tests)
    # A browser tab's game under 'spades-tui serve': the page may not start a program (cmd: bots) nor
    # open a file by path, since whoever reaches the page is not necessarily who runs the server.
    served: bool = False

    @property
    def direct(self) -> bool:
        """True when the command line asks to skip the start screen."""
        return self.hotseat or self.bot is not None or self.load is not None

    def served_refusal(self) -> Optional[str]:
        """Why a game served to a browser may not start with these options, or None."""
        if self.load is not None:
            return _("a game served to a browser cannot load a file by path (--load); "
                     "saved games are listed on the start screen")
        if self.bot is not None and self.bot.startswith("cmd:"):
            return _("a game served to a browser cannot start an external program (--bot cmd:...); "
                     "use easy, normal, hard or expert")
        return None
