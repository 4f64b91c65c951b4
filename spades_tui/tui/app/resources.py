"""Where the asset files (styles, help text, rules) are, and the documents among them in the player's language.

Installed, ``assets/`` sits inside the package (hatch force-include); in a
source checkout it is the repository's top-level ``assets/``.
"""

from __future__ import annotations

from pathlib import Path

import spades_tui

from ...i18n import documents
from ...i18n.language import SOURCE, _, current


def assets_dir() -> Path:
    installed = Path(spades_tui.__file__).parent / "assets"
    if installed.is_dir():
        return installed
    return Path(spades_tui.__file__).resolve().parent.parent / "assets"


def asset_path(name: str) -> Path:
    return assets_dir() / name


def read_asset(name: str) -> str:
    """The text of an asset, or a short note if it is missing (never a traceback)."""
    try:
        return asset_path(name).read_text(encoding="utf-8")
    except OSError:
        return _("(The file {name} is missing from this installation.)").format(name=name)


def in_language(text: str) -> str:
    """A Markdown document's text (or a part of one) in the player's language, each paragraph, heading, list item
    and table cell a catalog message (docs/languages.md); in English, the text as it is, line for line."""
    return text if current() == SOURCE else documents.translate(text, _)


def read_document(name: str) -> str:
    """A document the game shows (assets/lesson.md, assets/rules.md) in the player's language: read, then translated."""
    return in_language(read_asset(name))
