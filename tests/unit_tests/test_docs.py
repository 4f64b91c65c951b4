"""The project documents itself: every document a docstring or comment cites is in the repository, every
relative link in the README and docs/ leads to a file, and the README's Layout names every package.

A citation is a path ending in ``.md`` in a docstring or a comment, read from the repository's root
(``docs/bot-protocol.md``, ``assets/rules.md``): a file name without its folder names no file and fails.
Code strings are not citations (the help screen loads its guide by the asset's bare name).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "spades_tui"
CITATION = re.compile(r"(?<![\w/.-])((?:\.{0,2}/)?[\w-]+(?:/[\w.-]+)*\.md)\b")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def comments_and_docstrings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and every module, class and function docstring of ``source``."""
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                found.append((node.body[0].lineno, doc))
    return found


def citations(source: str) -> list[tuple[int, str]]:
    return [(line, match) for line, text in comments_and_docstrings(source) for match in CITATION.findall(text)]


def _python_files(*tops: str) -> list[Path]:
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py") if "__snapshots__" not in p.parts)


def test_citations_are_found_in_comments_and_docstrings_only() -> None:
    source = '"""See docs/game-record.md and rules.md."""\nNAME = "guide.md"  # and ../README.md\n'
    assert citations(source) == [(2, "../README.md"), (1, "docs/game-record.md"), (1, "rules.md")]


@pytest.mark.slow
def test_every_document_cited_in_the_code_and_the_tests_exists() -> None:
    missing = []
    for path in _python_files("spades_tui", "tests"):
        for line, cited in citations(path.read_text(encoding="utf-8")):
            if not (ROOT / cited).is_file():
                missing.append(f"{path.relative_to(ROOT)}:{line}: {cited}")
    assert not missing, "cited documents that are not in the repository (cite docs/NAME.md):\n" + "\n".join(missing)


def test_the_docs_cited_by_the_code_are_there() -> None:
    """The documents a client or bot author is sent to (the issue that asked for docs/ names them)."""
    for name in ("game-record", "bot-protocol", "table-protocol", "analysis", "rules"):
        assert (ROOT / "docs" / f"{name}.md").is_file(), name


def test_every_relative_link_in_the_readme_and_docs_leads_to_a_file() -> None:
    broken = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for link in LINK.findall(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", link) or link.startswith("#"):
                continue  # a web address or a place on the same page
            target = (doc.parent / unquote(link.split("#", 1)[0])).resolve()
            if not target.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {link}")
    assert not broken, "\n".join(broken)


def readme_layout() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## Layout\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def packages() -> list[str]:
    """Every package under spades_tui/ (spades_tui itself aside), as ``spades_tui/a/b/``."""
    return sorted(f"{init.parent.relative_to(ROOT).as_posix()}/" for init in PACKAGE.rglob("__init__.py")
                  if init.parent != PACKAGE)


def test_the_readme_layout_names_every_package() -> None:
    layout = readme_layout()
    found = packages()
    assert "spades_tui/engine/" in found and "spades_tui/tui/screens/" in found
    missing = [name for name in found if f"`{name}`" not in layout]
    assert not missing, f"the README's Layout section does not name these packages (as `spades_tui/x/`): {missing}"


def test_every_module_says_what_it_holds() -> None:
    """The README's Layout is a map: a module's own first lines say what it holds, so each has a docstring."""
    bare = [path.relative_to(ROOT).as_posix() for path in sorted(PACKAGE.rglob("*.py"))
            if ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) is None]
    assert not bare, f"these modules have no docstring: {bare}"


def test_the_readme_names_every_command_and_every_document() -> None:
    """A newcomer reads the README first: each command of the command line is named in it (in the row of the
    documents table that leads to docs/commands.md), and every document under docs/ is in that table."""
    from spades_tui.cli import COMMANDS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| [docs/commands.md]"))
    assert "watch" in COMMANDS and "lobby" in COMMANDS
    missing = [name for name in COMMANDS if f"`{name}`" not in row]
    assert not missing, f"the README's row for docs/commands.md does not name these commands: {missing}"
    table = [line for line in text.splitlines() if line.startswith("| [docs/")]
    unlisted = [doc.name for doc in sorted((ROOT / "docs").glob("*.md")) if not any(f"(docs/{doc.name})" in line
                                                                                for line in table)]
    assert not unlisted, f"the README's table of documents lacks: {unlisted}"
