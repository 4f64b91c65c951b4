"""Outside text (names above all) as Rich ``Text``: shown as written, never read as markup.

A ``str`` given to a Rich ``Table``, a palette hit or ``Content.from_markup`` is parsed as markup:
a name ``[/]`` crashed the hand summary and the palette, ``Bob [the builder]`` lost its brackets and
``[@click=...]`` became live.  Everything a screen builds from a view model's strings goes through
``plain``; it also makes any character a terminal would obey visible (``engine.text.printable``),
though names are cleaned where they enter already.
"""

from __future__ import annotations

from typing import Iterable, Union

from rich.style import Style
from rich.text import Text
from textual.content import Content

from ...session.text import printable


def plain(text: str, style: Union[str, Style] = "") -> Text:
    """``text`` as literal Rich text: no markup read, control characters shown as escapes."""
    return Text(printable(text, newlines=True), style=style)


def plain_content(text: str) -> Content:
    """The same as Textual ``Content`` (option lists, palette hits)."""
    return Content(printable(text, newlines=True))


def plain_cells(cells: Iterable[str]) -> list[Text]:
    return [plain(cell) for cell in cells]


__all__ = ["plain", "plain_cells", "plain_content"]
