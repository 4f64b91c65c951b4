"""The game's Markdown documents in the player's language: the players' guide, the rulebook as F1 shows it and the
lesson (assets/*.md) are catalog messages too, one a paragraph, heading, list item or table cell.

``units`` cuts a document the way ``translate`` puts it back together, so the catalog's messages (``extract``, the
Babel extractor of ``spades_tui/locale/babel.cfg``) are exactly what the game looks up.  A paragraph's lines are
one message, joined by spaces (Markdown reads them so).  Not words, so not cut: front matter between ``---`` lines
at the top, HTML comments, blank lines, a table's rule row, and headings that are ids (``## draft-first``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Union

_HEADING = re.compile(r"^(#{1,6}\s+)(.*?)(\s*)$")
_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$")
_RULE_ROW = re.compile(r"^\s*\|[\s:|-]+\|?\s*$")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # a heading that names a part for the code, not for a reader


@dataclass(frozen=True)
class Unit:
    """One message of a document: the text before it (a list marker, "## "), the words, the text after."""

    line: int  # 1-based, where it starts
    prefix: str
    words: str
    suffix: str = ""


Piece = Union[str, Unit]  # a line kept as it is, or a message


def _starts_block(line: str) -> bool:
    return (not line.strip() or bool(_HEADING.match(line)) or bool(_ITEM.match(line))
            or line.lstrip().startswith(("|", "<!--")))


def _cells(number: int, line: str) -> Iterator[Piece]:
    """A table row: each cell a message, the bars and padding kept."""
    parts = re.split(r"(?<!\\)\|", line)
    out: list[Piece] = []
    for i, part in enumerate(parts):
        if i:
            out.append("|")
        stripped = part.strip()
        if stripped:
            lead = part[: len(part) - len(part.lstrip())]
            trail = part[len(part.rstrip()):]
            out.append(Unit(number, lead, stripped, trail))
        else:
            out.append(part)
    out.append("\n")
    yield from out


def pieces(text: str) -> list[Piece]:
    """``text`` cut into kept text and messages; joined back (messages as ``prefix + words + suffix``) they make
    the document again, each paragraph on one line."""
    lines = text.splitlines()
    out: list[Piece] = []
    i = 0
    if lines and lines[0].strip() == "---":  # front matter: data for the code
        end = next((j for j in range(1, len(lines)) if lines[j].strip() == "---"), len(lines) - 1)
        out.extend(line + "\n" for line in lines[: end + 1])
        i = end + 1
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("<!--"):
            while i < len(lines):
                out.append(lines[i] + "\n")
                i += 1
                if "-->" in lines[i - 1]:
                    break
            continue
        if not line.strip() or _RULE_ROW.match(line):
            out.append(line + "\n")
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            prefix, words, suffix = heading.groups()
            out.append(line + "\n" if _ID.match(words) else Unit(i + 1, prefix, words, suffix + "\n"))
            i += 1
            continue
        if line.lstrip().startswith("|"):
            out.extend(_cells(i + 1, line))
            i += 1
            continue
        item = _ITEM.match(line)
        prefix, first = item.groups() if item else ("", line)
        start, words = i, [first.strip()]
        i += 1
        while i < len(lines) and not _starts_block(lines[i]):
            words.append(lines[i].strip())
            i += 1
        out.append(Unit(start + 1, prefix, " ".join(words), "\n"))
    return out


def units(text: str) -> list[Unit]:
    """The messages of a document, in order."""
    return [p for p in pieces(text) if isinstance(p, Unit)]


def translate(text: str, look_up: Callable[[str], str]) -> str:
    """The document with each message in the player's language (``look_up``: ``spades_tui.i18n._``)."""
    return "".join(p if isinstance(p, str) else p.prefix + look_up(p.words) + p.suffix for p in pieces(text))


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for a Markdown document (``spades_tui/locale/babel.cfg``)."""
    text = fileobj.read().decode("utf-8")
    for unit in units(text):
        yield unit.line, "_", unit.words, []
