"""argparse's own words ("usage: ", "options", its errors) from the game's catalog (docs/languages.md).

argparse looks each of its messages up with the module globals ``_`` and ``ngettext`` when it says it; ``install``
points them at the player's language.  The messages below are those a player can meet (help pages, errors in
what was typed), listed so that the catalog's extraction finds them; argparse's complaints about the program
itself (a parser built wrong) are for its developers and stay English.  Their %-placeholders are argparse's and
stay exactly as they are.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..i18n import language
from ..i18n.language import N_, ngettext

MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)

COUNTED = ("expected %s argument",)  # the singular of each counted message (below)

# argparse's messages no player meets: a parser built wrong, and argparse.FileType (no command uses it).  English.
UNSAID = (
    "%r is not callable",
    "'required' is an invalid argument for positionals",
    ".__call__() not defined",
    'argument "-" with mode %r',
    "can't open '%(filename)s': %(error)s",
    "cannot have multiple subparser arguments",
    "cannot merge actions - two groups are named %r",
    "conflicting option string: %s",
    "conflicting subparser alias: %s",
    "conflicting subparser: %s",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "mutually exclusive arguments must be optional",
)


def _counted_messages() -> None:
    """Never called: lists argparse's counted message for the extraction (argparse looks it up itself)."""
    ngettext("expected %s argument", "expected %s arguments", 2)


def _gettext(message: Any) -> Any:
    # argparse also passes None (a subparsers group's missing description) and its own words never translated.
    return language.translated(message) if isinstance(message, str) else message


def _ngettext(singular: str, plural: str, count: int) -> str:
    return language.ngettext(singular, plural, count)


def install() -> None:
    """argparse speaks the player's language from now on (the language as it is when argparse says something)."""
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext  # type: ignore[attr-defined]
