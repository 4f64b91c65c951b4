"""spades-tui: two-player draft Spades in the terminal."""

__version__ = "0.1.0"
