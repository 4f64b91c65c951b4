"""Errors raised by the engine; all are ``ValueError``s with plain-words messages."""


class SpadesError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalActionError(SpadesError):
    """An action that the rules do not allow in this state; the state is untouched."""


class RulesError(SpadesError):
    """An unknown rule option or a bad value for one."""


class RecordError(SpadesError):
    """A game record that cannot be read (bad JSON shape, format, version, action)."""
