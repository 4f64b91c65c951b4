"""Hostile text for the tests: the names the issue asked for, and what a terminal would act on."""

from __future__ import annotations

import unicodedata
from typing import Any, Iterable

import pytest

# The table of hostile names the issue asks for; the interface and command tests use it too.
HOSTILE_NAMES = {
    "escapes": "\x1b]0;pwned\x07\x1b[2J\x1b[31mEVIL",
    "newline": "Ada\nScores: Ada 999",
    "close-tag": "[/]",
    "link": "[link=https://evil.example]x[/link]",
    "click": "[@click=app.quit]win[/]",
    "brackets": "Bob [the builder]",
    "surrogate": "A\ud800B",
    "long": "N" * 5000,
    "bidi": "Eve\u202egnp.exe",
    "c1": "x\x9b31my",
}


def unsafe(ch: str) -> bool:
    """What a terminal acts on instead of printing (clean_name's own rule, restated for the checks)."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Cn") and ch not in "\u200c\u200d"


def one_quick(kinds: Iterable[str], quick: str = "escapes") -> list[Any]:
    """Parameters for a test run once per hostile kind: ``quick`` in the quick check, every other kind marked
    slow (``.ci/run`` runs them all).  Each kind is an app of its own; one shows the path works."""
    return [pytest.param(kind, marks=() if kind == quick else pytest.mark.slow) for kind in kinds]
