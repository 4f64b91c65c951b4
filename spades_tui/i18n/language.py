"""The player's language (docs/languages.md): every word the game says goes through here.

GNU gettext catalogs, made with Babel and shipped compiled under ``spades_tui/locale``; read with the standard
library's ``gettext`` (Babel is needed only to make them).  English is the source: a message is a whole sentence
in English with named placeholders, ``_("You took {tricks} tricks").format(tricks=n)``, never glued from parts,
since word order and cases differ (Estonian has fourteen).  Counted words go through ``ngettext``.

The language is one process-wide choice, set once the command line and the settings are read (``use``), and changed
by the settings screen: a screen built after the change speaks the new language.  Words fixed when a module loads
(a binding's description, a table of names) are marked with ``N_`` where they are written and translated with
``_`` where they are shown, so they follow a change too.

The bottom layer: the engine's refusals are words too.  Looking a message up reads no file; ``use`` reads the
catalog once.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Optional

DOMAIN = "spades_tui"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE = "en"
# Each language by its own name, as the settings screen and --lang's help list it.
LANGUAGES: dict[str, str] = {"en": "English", "sv": "Svenska", "et": "Eesti"}
AUTO = "auto"
ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")  # in the order POSIX consults them

_catalog: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE
_SOURCE_CATALOG = _gettext.NullTranslations()
# Inside ``in_source()``: the source's words in this thread or task alone (a host's reply on the wire), the rest of
# the process speaking on.
_source: ContextVar[bool] = ContextVar("spades_tui_source_words", default=False)


def _words() -> _gettext.NullTranslations:
    return _SOURCE_CATALOG if _source.get() else _catalog


@contextmanager
def in_source() -> Iterator[None]:
    """The source's (English) words for what runs inside, in this thread or asyncio task only: words that leave
    the process as data (a table's refusal on the wire: the protocol never changes with the language)."""
    token = _source.set(True)
    try:
        yield
    finally:
        _source.reset(token)


def _(message: str) -> str:
    """``message`` in the player's language (itself where the catalog has no translation)."""
    return _words().gettext(message)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is written, to be translated with ``_`` where it is shown."""
    return message


def translated(message: str) -> str:
    """A message marked with ``N_`` where it was written (a binding's description, a label in a table), in the
    player's language where it is shown.  Not ``_``: the catalog's extraction, and the test that every ``_()`` is
    given a literal, would take the variable for a message."""
    return _words().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counted message for ``count`` in the player's language."""
    return _words().ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the player's language, told apart from the same English words in another ``context``."""
    return _words().pgettext(context, message)


def current() -> str:
    """The language the game speaks now: a code of ``LANGUAGES``."""
    return _language


def from_locale(value: Optional[str]) -> Optional[str]:
    """The language of a locale name ("sv_SE.UTF-8" is "sv"), or None for one the game does not speak."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return code if code in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the environment asks for: the first of LC_ALL, LC_MESSAGES and LANG that is set, if the game
    speaks it; English otherwise (C and POSIX among them)."""
    for name in ENVIRONMENT:
        value = environ.get(name)
        if value:
            return from_locale(value) or SOURCE
    return SOURCE


def resolve(choice: Optional[str], environ: Mapping[str, str]) -> str:
    """The language for a choice (``--lang`` or the setting): a code of ``LANGUAGES`` as it is, "auto" (or none)
    from the environment.  Raises ``ValueError`` for a language the game does not speak."""
    if choice is None or choice == AUTO:
        return from_environment(environ)
    code = from_locale(choice)
    if code is None:
        raise ValueError(choice)
    return code


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def use(language: str) -> str:
    """Speak ``language`` (a code of ``LANGUAGES``) from now on; returns it.  English, or a language whose
    catalog is missing, speaks the source's words."""
    global _catalog, _language
    if language not in LANGUAGES:
        raise ValueError(language)
    catalog: _gettext.NullTranslations = _gettext.NullTranslations()
    if language != SOURCE:
        try:
            with catalog_path(language).open("rb") as f:
                catalog = _gettext.GNUTranslations(f)
        except OSError:
            language = SOURCE
    _catalog, _language = catalog, language
    return language
