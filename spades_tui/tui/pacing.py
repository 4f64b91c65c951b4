"""How long the table waits for a player's eyes: shared by the app's jobs, its last-trick hold and the game
screens, so the bot, the hand's last trick and a forced card all keep one pace (the bot pause, a setting)."""

TRICK_SEEN = 2.5  # a finished trick the bot won stays this many bot pauses before its next lead
