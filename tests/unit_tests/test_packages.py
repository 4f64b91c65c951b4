"""What the README's Layout says of the packages, checked: each package's ``__init__.py`` holds its
docstring only (names are imported from their modules), the top one also ``__version__``, but
``spades_tui/cli/__init__.py``, which is the command line itself (``main``, the parser, the list of
commands)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "spades_tui"
COMMAND_LINE = PACKAGE / "cli" / "__init__.py"


def test_every_package_init_but_the_command_lines_holds_its_docstring_only() -> None:
    inits = sorted(PACKAGE.rglob("__init__.py"))
    assert COMMAND_LINE in inits and len(inits) > 5
    for init in inits:
        body = ast.parse(init.read_text(encoding="utf-8")).body
        if init == COMMAND_LINE:
            assert any(isinstance(node, ast.FunctionDef) and node.name == "main" for node in body)
            continue
        assert body, f"{init.relative_to(PACKAGE)} has no docstring"
        first = body[0]
        assert isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant), init
        rest = body[1:]
        if init == PACKAGE / "__init__.py":  # the version, read by --version
            assert [t.id for node in rest if isinstance(node, ast.Assign)
                    for t in node.targets if isinstance(t, ast.Name)] == ["__version__"] and len(rest) == 1
            continue
        assert not rest, f"{init.relative_to(PACKAGE)} holds more than its docstring"
