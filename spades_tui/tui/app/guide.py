"""The players' guide (assets/guide.md) as help shows it: read, cut into sections, the topic's first, put in the
player's language, parsed and laid out in the background before help first opens.

The app's side of help, not a screen's: the help screen is handed the guide laid out (``guide_markdown``) and
reads no file itself.  Markdown loads with this module, which the app imports when help is first needed.
"""

from __future__ import annotations

import functools
from typing import Iterable, Optional

from rich.console import Console
from rich.markdown import Markdown

from ...i18n.language import current
from ..widgets.laidout import LaidOut
from .resources import in_language, read_asset

GUIDE = "guide.md"

# Which sections of the guide (by their English `## ` heading: it is cut before it is translated) come first, for the
# screen help was opened from.
TOPICS: dict[str, tuple[str, ...]] = {
    "start": ("How a hand goes", "Learn to play", "Rule options"),
    "challenge": ("The daily challenge", "Scoring"),
    "draft": ("The draft", "Double Nil"),
    "bidding": ("Bidding",),
    "play": ("Play",),
    "scoring": ("Scoring", "End of the game"),
    "settings": ("Settings", "Rule options"),
    "new_game": ("A new game", "Rule options"),
    "table": ("Playing a friend",),  # the table's screens; a game screen at a table adds it after its own
}


def guide_sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The guide's text before its first `## ` heading, then (heading, section text with its heading line)."""
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append((line[3:].strip(), [line]))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    return "\n".join(preamble).strip(), [(h, "\n".join(body).strip()) for h, body in sections]


def guide_for(topic: Optional[str], text: str) -> tuple[str, str]:
    """(the sections for ``topic``, then the rest of the guide), both Markdown; an unknown topic puts none first.
    Topics joined by "+" put each one's sections first, in that order."""
    preamble, sections = guide_sections(text)
    wanted = tuple(h for part in (topic or "").split("+") for h in TOPICS.get(part, ()))  # "play+table": both
    first = [body for heading in wanted for h, body in sections if h == heading]
    rest = [body for h, body in sections if h not in wanted]
    return "\n\n".join(first), "\n\n".join(filter(None, [preamble, *rest]))


def help_text_width(screen_width: int) -> int:
    """The columns the guide is drawn in on a screen this wide (assets/spades.tcss: #helpbody is 90% wide,
    with a round border and a vertical scrollbar)."""
    return screen_width * 9 // 10 - 2 - 2


def guide_markdown(topic: Optional[str]) -> tuple[Optional[LaidOut], LaidOut]:
    """The guide parsed for ``topic`` (see ``guide_for``) in the player's language, once a language: the app parses
    and lays it out in the background (``LaidOut.prepare``) before help is first opened, so that the first F1 does
    not wait for it."""
    return guide_in(topic, current())


def guide_text(topic: Optional[str]) -> tuple[str, str]:
    """``guide_for``'s two parts in the player's language: cut by the English headings (``TOPICS``), then
    translated."""
    first, rest = guide_for(topic, read_asset(GUIDE))
    return in_language(first), in_language(rest)


@functools.cache
def guide_in(topic: Optional[str], language: str) -> tuple[Optional[LaidOut], LaidOut]:
    # ``language`` keys the cache: a change of language in the settings must not find the other's words here.
    first, rest = guide_text(topic)
    return (LaidOut(Markdown(first)) if first else None), LaidOut(Markdown(rest))


def prepare_guide(topics: Iterable[Optional[str]], console: Console, screen_width: int) -> None:
    """Parse and lay out the guide for each topic at this screen width (help's first opening is then quick)."""
    width = help_text_width(screen_width)
    for topic in topics:
        for part in guide_markdown(topic):
            if part is not None:
                part.prepare(console, width)
