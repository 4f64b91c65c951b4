"""The engine's text (``engine/text.py``) for the interface, which reaches the engine only through the session:
the one place where outside text becomes display text, and where a number and a moment are written for a
person (the true minus, ``today 21:11``), stays one place."""

from ..engine.text import (
    MAX_NAME,
    MAX_RECORD_NAME,
    MINUS,
    clean_name,
    decimal,
    last_played,
    minus_signs,
    num,
    num_text,
    over_par_words,
    plural,
    printable,
    signed,
    speaker,
    when_words,
    winner_words,
    without_controls,
)

__all__ = ["MAX_NAME", "MAX_RECORD_NAME", "MINUS", "clean_name", "decimal", "last_played", "minus_signs", "num",
           "num_text", "over_par_words", "plural", "printable", "signed", "speaker", "when_words", "winner_words",
           "without_controls"]
