"""The package's import structure: no cycle anywhere, and the layers hold (lint-imports says so too)."""

from __future__ import annotations

import ast
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
    for path in [*paths, root / "app" / "commands.py", root / "statsview.py"]:
        text = path.read_text(encoding="utf-8")
        assert "SpadesApp" not in text and not OUR_APP.search(text), path


WHOLE_GAME = {"GameState", "GameStore", "HandState", "reduce", "observe", "legal_actions", "replay", "Dealer",
              "BOT_SEAT"}


def whole_game_imports(root: Path) -> list[str]:
    """Every ``from X import NAME`` under ``root`` whose NAME gives the whole game (or the rules that read it)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(root)}: {a.name}" for a in node.names if a.name in WHOLE_GAME]
            elif isinstance(node, ast.Import):
                found += [f"{path.relative_to(root)}: {a.name}" for a in node.names
                          if a.name.startswith("spades_tui.engine") or a.name.startswith("spades_tui.session.store")]
    return found


def test_the_interface_takes_a_seats_view_only() -> None:
    """No tui module imports the state, the store, the reducer, observe or legal_actions, by any route."""
    assert whole_game_imports(Path(__file__).resolve().parents[2] / "spades_tui" / "tui") == []


def test_the_view_check_finds_a_whole_game_import(tmp_path: Path) -> None:
    (tmp_path / "screen.py").write_text("from ..session.store import GameStore\nfrom ...engine import observe\n")
    assert whole_game_imports(tmp_path) == ["screen.py: GameStore", "screen.py: observe"]


TEXTUAL_PRIVATE_ATTRIBUTES = {"_bindings_ready", "__watchers", "_disabled", "_closing"}  # those textualprivate.py wraps


def textual_private_uses(root: Path) -> list[str]:
    """Every use under ``root`` of a private name of Textual: a private module imported (``textual._time``,
    ``textual.widgets._footer``), or one of the private attributes ``textualprivate.py`` wraps, read or set."""
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                       else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{where}: {m}" for m in modules
                      if m.split(".")[0] == "textual" and any(part.startswith("_") for part in m.split("."))]
            if isinstance(node, ast.Attribute) and node.attr in TEXTUAL_PRIVATE_ATTRIBUTES:
                found.append(f"{where}: .{node.attr}")
            elif isinstance(node, ast.Constant) and node.value in TEXTUAL_PRIVATE_ATTRIBUTES:
                found.append(f"{where}: {node.value!r}")
    return found


def test_textuals_private_names_are_in_one_module() -> None:
    """tui/textualprivate.py says why each is needed and which Textual it was checked against; nothing else uses one
    (only spades_tui.tui imports Textual: a contract in pyproject.toml)."""
    root = Path(__file__).resolve().parents[2] / "spades_tui" / "tui"
    uses = textual_private_uses(root)
    assert uses and all(use.startswith("textualprivate.py: ") for use in uses), uses


def test_the_private_name_check_finds_one(tmp_path: Path) -> None:
    (tmp_path / "footer.py").write_text("from textual._time import get_time\nimport textual.widgets._footer\n"
                                        "ready = footer._bindings_ready\nw = getattr(node, '__watchers', {})\n")
    assert textual_private_uses(tmp_path) == [
        "footer.py: textual._time", "footer.py: textual.widgets._footer", "footer.py: ._bindings_ready",
        "footer.py: '__watchers'"]


def app_reads(root: Path) -> list[str]:
    """Every ``getattr`` on the app and every app action run by its name (``run_action("app.settings")``) under
    ``root``: neither can the type checker follow."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first, name = node.args[0], ast.unparse(node.func)
            if name == "getattr" and ast.unparse(first) in ("self.app", "app"):
                found.append(f"{path.relative_to(root)}: {ast.unparse(node)}")
            elif (name.endswith("run_action") and isinstance(first, ast.Constant) and isinstance(first.value, str)
                  and first.value.startswith("app.")):
                found.append(f"{path.relative_to(root)}: {ast.unparse(node)}")
    return found


def test_screens_and_widgets_are_given_what_they_read() -> None:
    """Constructor arguments, ``show_view`` (the app's view and pace) and messages up (tui/messages.py): never a
    ``getattr`` on the app nor an app action by name, which mypy cannot check."""
    root = Path(__file__).resolve().parents[2] / "spades_tui" / "tui"
    assert app_reads(root / "screens") + app_reads(root / "widgets") == []


def test_the_app_read_check_finds_one(tmp_path: Path) -> None:
    (tmp_path / "screen.py").write_text("p = getattr(self.app, 'prefs', None)\n"
                                        "async def f():\n    await self.run_action('app.settings')\n")
    assert app_reads(tmp_path) == ["screen.py: getattr(self.app, 'prefs', None)",
                                   "screen.py: self.run_action('app.settings')"]
