"""The hint panel's text: the summary, the first choices each on a line with its phrases, then every other choice
listed compactly by the figure the hint ranks by ("also 7♣ 49% · K♠ 48% · ..."), so that each choice of a
decision can be read on the screen, at 80x24 too, where the arrow keys move the cards and nothing scrolls."""

from __future__ import annotations

from typing import Sequence

from ..i18n.language import _
from .gameview import HintLine

HINT_OPTIONS = 4  # choices listed in the hint panel


def fit_hint(lines: Sequence[HintLine], width: int, options: int = HINT_OPTIONS) -> str:
    """The hint panel's text for a panel ``width`` columns wide showing at most ``options`` choices: each
    choice on one line, its last phrases left out rather than cut; the summary wraps at words if it must."""
    out = []
    for i, line in enumerate(lines[: 1 + options]):
        if i == 0 or width <= 0:
            out.append(line.text())
            continue
        keep = len(line.phrases)
        while keep > 1 and len(line.text(keep)) > width:
            keep -= 1  # the first phrase (the measure the hint ranks by) always stays
        out.append(line.text(keep))
    return "\n".join(out)


BETWEEN = " · "


def also() -> str:
    """How the compact list's first line starts (its next lines start under its first choice)."""
    return "  " + _("also") + " "


def compact(line: HintLine) -> str:
    """A choice in a few characters: its label and its figure (or its first phrase, where it has no figure)."""
    figure = line.figure.removeprefix("≈ ") or (line.phrases[0] if line.phrases else "")  # the summary says ≈
    return f"{line.head} {figure}".strip()


def hint_panel(lines: Sequence[HintLine], width: int, options: int) -> str:
    """``fit_hint``'s summary and first ``options`` choices, then the rest compactly, wrapped at ``width`` columns
    between choices (never inside one); ``width`` 0 or less: one line."""
    text = fit_hint(lines, width, options)
    rest = [compact(line) for line in lines[1 + options:]]
    if not rest:
        return text
    out: list[str] = []
    first = also()
    current = first + rest[0]
    for item in rest[1:]:
        if 0 < width < len(current) + len(BETWEEN) + len(item):
            out.append(current)
            current = " " * len(first) + item
        else:
            current += BETWEEN + item
    out.append(current)
    return "\n".join([text, *out])
