"""The package's import structure: no cycle anywhere, and the layers hold (lint-imports says so too)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import grimp
import pytest

OUR_APP = re.compile(r"from \.+app import|from \.+ import app\b|spades_tui\.tui\.app|spades_tui\.tui import app")


def import_cycles(package: str) -> list[tuple[str, ...]]:
    """Every module-level import cycle in ``package`` (TYPE_CHECKING imports included), as chains."""
    graph = grimp.build_graph(package, cache_dir=None)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                cycles.append((importer, *back))
    return cycles


def test_no_import_cycle_in_the_package() -> None:
    assert import_cycles("spades_tui") == []


def test_the_cycle_check_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "cyclic_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert ("cyclic_pkg.a", "cyclic_pkg.b", "cyclic_pkg.a") in import_cycles("cyclic_pkg")
    finally:
        for name in [m for m in sys.modules if m.startswith("cyclic_pkg")]:
            del sys.modules[name]


def test_screens_and_widgets_never_name_the_app() -> None:
    """Not even under TYPE_CHECKING: they post messages instead (tui/messages.py)."""
    root = Path(__file__).resolve().parents[2] / "spades_tui" / "tui"
    paths = [p for folder in ("screens", "widgets") for p in (root / folder).glob("*.py")]
    for path in [*paths, root / "commands.py", root / "statsview.py"]:
        text = path.read_text(encoding="utf-8")
        assert "SpadesApp" not in text and not OUR_APP.search(text), path
