"""The catalogs (docs/languages.md): every message of the source translated in each complete language, with the
same placeholders; each catalog compiles and the one shipped is its .po compiled; every message in the code is a
literal (else no catalog can hold it); the language chosen as the command line, the settings and the environment
say."""

from __future__ import annotations

import ast
import gettext
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Union

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from spades_tui.i18n import documents
from spades_tui.i18n import language as i18n

ROOT = Path(__file__).resolve().parents[2]
COMPLETE = ("sv", "et")  # the languages every message must be in
Key = tuple[str, Union[str, None]]  # (msgid, context)


def _key(message: Union[str, tuple[str, ...]], context: Union[str, None]) -> Key:
    return (message if isinstance(message, str) else message[0]), context


@pytest.fixture(scope="module")
def source() -> dict[Key, Union[str, tuple[str, ...]]]:
    """Every message of the source, as ``pybabel extract`` finds it with the project's mapping."""
    with (ROOT / "spades_tui" / "locale" / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    found: dict[Key, Union[str, tuple[str, ...]]] = {}
    for _file, _line, message, _comments, context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                     keywords=DEFAULT_KEYWORDS):
        found[_key(message, context)] = message
    return found


def catalog(language: str) -> Catalog:
    with (ROOT / "spades_tui" / "locale" / language / "LC_MESSAGES" / "spades_tui.po").open("rb") as f:
        return read_po(f, locale=language)


PLACEHOLDER = re.compile(r"\{(\w*)(?:[!:][^{}]*)?\}|%\((\w+)\)[sd]|%[sd]")


def placeholders(text: str) -> list[str]:
    """The named placeholders of a message ({name}, %(name)s) and its bare %s, sorted: a translation has the same."""
    return sorted(m.group(1) or m.group(2) or m.group(0) for m in PLACEHOLDER.finditer(text))


def test_the_source_has_messages(source: dict[Key, Any]) -> None:
    # The extraction works: a screen's words, a counted message and a document's paragraph are found.
    assert ("Settings", None) in source
    assert any(isinstance(m, tuple) for m in source.values())
    assert any(key[0].startswith("Welcome!") for key in source)


@pytest.mark.parametrize("language", COMPLETE)
def test_every_message_is_translated(source: dict[Key, Any], language: str) -> None:
    cat = catalog(language)
    missing = []
    for (msgid, context), _message in sorted(source.items(), key=lambda kv: kv[0][0]):
        entry = cat.get(msgid, context=context)
        strings = () if entry is None else entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry is None or entry.fuzzy or not strings or not all(strings):
            missing.append(msgid[:60])
    assert not missing, f"{len(missing)} messages without a {language} translation, the first: {missing[:10]}"


@pytest.mark.parametrize("language", COMPLETE)
def test_translations_keep_the_placeholders(language: str) -> None:
    wrong = []
    for entry in catalog(language):
        if not entry.id or not entry.string:
            continue
        ids: tuple[str, ...] = tuple(entry.id) if isinstance(entry.id, (tuple, list)) else (entry.id,)
        strings: tuple[str, ...] = (tuple(entry.string) if isinstance(entry.string, (tuple, list))
                                    else (entry.string,))
        wanted = placeholders(ids[-1])  # a plural's every form has the plural's placeholders
        for string in strings:
            if string and placeholders(string) != wanted:
                wrong.append(f"{ids[-1]!r} -> {string!r}")
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("language", COMPLETE)
def test_the_catalog_compiles_and_ships_compiled(language: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, catalog(language))
    fresh = gettext.GNUTranslations(io.BytesIO(buffer.getvalue()))
    with i18n.catalog_path(language).open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    assert fresh._catalog == shipped._catalog, (  # type: ignore[attr-defined]
        f"spades_tui/locale/{language}: the .mo is not the .po compiled (docs/languages.md: pybabel compile)")


@pytest.mark.parametrize("language", COMPLETE)
def test_the_catalog_holds_only_the_source_messages(source: dict[Key, Any], language: str) -> None:
    stale = [entry.id for entry in catalog(language)
             if entry.id and _key(tuple(entry.id) if isinstance(entry.id, list) else entry.id, entry.context)
             not in source]
    assert not stale, f"not in the source any more (pybabel update): {stale[:10]}"


def _calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DEFAULT_KEYWORDS:
            yield node


def test_every_message_in_the_code_is_a_literal() -> None:
    """``_(f"...")`` or ``_(name)`` cannot be in a catalog: the player would read English."""
    counts = {"_": 1, "N_": 1, "gettext": 1, "ngettext": 2, "pgettext": 2}
    bad = []
    for path in sorted((ROOT / "spades_tui").rglob("*.py")):
        for call in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            name = call.func.id  # type: ignore[attr-defined]
            wanted = counts.get(name, 0)
            args = call.args[:wanted]
            if len(args) < wanted or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                bad.append(f"{path.relative_to(ROOT)}:{call.lineno} {name}(...)")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("environ", "language"), [
    ({}, "en"),
    ({"LANG": "sv_SE.UTF-8"}, "sv"),
    ({"LANG": "et_EE.UTF-8"}, "et"),
    ({"LC_MESSAGES": "et_EE.UTF-8", "LANG": "sv_SE.UTF-8"}, "et"),
    ({"LC_ALL": "C", "LANG": "sv_SE.UTF-8"}, "en"),  # the first one set decides, C is English
    ({"LC_ALL": "", "LANG": "sv"}, "sv"),
    ({"LANG": "de_DE.UTF-8"}, "en"),  # a language the game does not speak
])
def test_the_environment_chooses(environ: dict[str, str], language: str) -> None:
    assert i18n.resolve("auto", environ) == language
    assert i18n.resolve(None, environ) == language


def test_a_choice_beats_the_environment() -> None:
    assert i18n.resolve("et", {"LANG": "sv_SE.UTF-8"}) == "et"
    assert i18n.resolve("en", {"LANG": "sv_SE.UTF-8"}) == "en"
    with pytest.raises(ValueError):
        i18n.resolve("xx", {})


@pytest.mark.parametrize("language", COMPLETE)
def test_the_game_speaks_the_language_chosen(language: str) -> None:
    assert i18n.use(language) == language == i18n.current()
    assert i18n._("Settings") != "Settings"
    assert i18n.use("en") == "en"
    assert i18n._("Settings") == "Settings"


def test_words_for_the_wire_stay_in_the_source() -> None:
    i18n.use("sv")
    with i18n.in_source():
        assert i18n._("Settings") == "Settings"
        assert i18n.ngettext("{count} trick", "{count} tricks", 2) == "{count} tricks"
    assert i18n._("Settings") != "Settings"


def test_a_document_is_cut_and_put_back_together() -> None:
    text = "---\nseed: 1\n---\n# Title\n\nA paragraph\non two lines.\n\n- an item\n  going on\n- another\n\n" \
           "| a | b |\n|---|---|\n| c | d |\n\n## an-id\n<!-- a note -->\n"
    assert [u.words for u in documents.units(text)] == [
        "Title", "A paragraph on two lines.", "an item going on", "another", "a", "b", "c", "d"]
    assert documents.translate(text, str.upper) == (
        "---\nseed: 1\n---\n# TITLE\n\nA PARAGRAPH ON TWO LINES.\n\n- AN ITEM GOING ON\n- ANOTHER\n\n"
        "| A | B |\n|---|---|\n| C | D |\n\n## an-id\n<!-- a note -->\n")
