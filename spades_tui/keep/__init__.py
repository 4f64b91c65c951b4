"""What is kept between games: records on disk, the autosave slots, the statistics.

``storage`` writes files atomically and reads records with clear errors; ``meta`` and ``outcome`` read what
a record says beyond its moves (the seed, the game id, take-backs, a forfeit); ``slots`` and ``autosave``
keep each game being played in a file of its own; ``records`` lists what a player may load; ``stats`` is
the SQLite statistics of finished hands and games.  No Textual, and nothing of a game being played.
"""
