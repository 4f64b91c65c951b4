"""The engine's text cleaning (``engine/text.py``) for the interface, which reaches the engine only through
the session: the one place where outside text becomes display text stays one place."""

from ..engine.text import (
    MAX_NAME,
    MAX_RECORD_NAME,
    clean_name,
    plural,
    printable,
    speaker,
    winner_words,
    without_controls,
)

__all__ = ["MAX_NAME", "MAX_RECORD_NAME", "clean_name", "plural", "printable", "speaker", "winner_words",
           "without_controls"]
