"""How the suite is written (docs/development.md): one way to mark a slow test."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def slow_marked_otherwise(root: Path) -> list[str]:
    """Every place under ``root`` that marks tests slow but the decorator (or a ``pytest.param``'s ``marks``): a
    module's ``pytestmark``, a conftest's ``add_marker``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "__snapshots__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(ast.unparse(t) == "pytestmark" for t in node.targets):
                if "mark.slow" in ast.unparse(node.value):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: pytestmark")
            elif (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("add_marker")
                  and any("slow" in ast.unparse(a) for a in node.args)):
                found.append(f"{path.relative_to(root)}:{node.lineno}: add_marker")
    return found


def test_a_slow_test_is_marked_by_its_decorator_alone() -> None:
    """``@pytest.mark.slow`` on the test itself: a reader sees at the test whether the quick check runs it."""
    assert slow_marked_otherwise(TESTS) == [], "mark each slow test with @pytest.mark.slow (docs/development.md)"


def test_the_slow_mark_check_finds_the_other_ways(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text("import pytest\npytestmark = [pytest.mark.slow]\n")
    (tmp_path / "conftest.py").write_text("def pytest_collection_modifyitems(items):\n"
                                          "    for item in items:\n        item.add_marker(pytest.mark.slow)\n")
    assert slow_marked_otherwise(tmp_path) == ["conftest.py:3: add_marker", "test_a.py:2: pytestmark"]

