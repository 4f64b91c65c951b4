"""Where the asset files (styles, help text, rules) are.

Installed, ``assets/`` sits inside the package (hatch force-include); in a
source checkout it is the repository's top-level ``assets/``.
"""

from __future__ import annotations

from pathlib import Path

import spades_tui


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
        return f"(The file {name} is missing from this installation.)"
