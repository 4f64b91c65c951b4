"""The player's settings: ``preferences`` (a small TOML file in the user config directory) and ``options``
(how the game was launched, from the command line)."""
