"""How long the table waits for a player's eyes: shared by the app's jobs, its last-trick hold and the game
screens, so the bot, the hand's last trick and a forced card all keep one pace (the bot pause, a setting)."""

from dataclasses import dataclass

TRICK_SEEN = 2.5  # a finished trick the bot won stays this many bot pauses before its next lead


@dataclass(frozen=True)
class Pace:
    """What a game screen plays by of the settings, handed down by the app with each view (``GameScreen.show_view``):
    whether a forced card plays itself (Settings: "Forced card plays"), and the bot pause in seconds (--bot-pause,
    else the setting; 0: no pause)."""

    forced_play: bool = True
    bot_pause: float = 0.0


DEFAULT_PACE = Pace()  # a game screen shown by no app of ours (a test's): cards play themselves, no bot pause
