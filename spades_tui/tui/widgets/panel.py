"""The score panel at the side of the card table, laid out for its own width and height.

The stylesheet gives it its width (about 24 columns at 80, 30 at 120, 36 from 140: the app's
breakpoints); it writes the score table to fit that width and lists this hand's tricks, the last ones
that fit its height (every trick of the hand from 40 rows).  From 36 columns it also lists the draft's
picks and the last lines said at a network table (docs/playing.md, "Screen sizes").
"""

from __future__ import annotations

import textwrap
from typing import Optional

from rich.text import Text
from textual.widget import Widget

from ...i18n.language import _
from ...session.text import printable
from ...session.view import SeatView
from ..panelmodel import status_text, tricks_list
from .plain import plain

WIDE_PANEL = 35  # text columns from which the draft's picks and the chat are listed
CHAT_LINES = 3


class ScorePanel(Widget):
    """The panel's text: written in ``render``, when its size is the laid-out one."""

    def __init__(self, *, id: Optional[str] = None) -> None:
        super().__init__(id=id)
        self.seat_view: Optional[SeatView] = None
        self.status = ""  # the view model's panel text, where there is no seat view
        self.picks: tuple[str, ...] = ()
        self.chat: tuple[tuple[str, str], ...] = ()

    def show(self, seat_view: Optional[SeatView], status: str, picks: tuple[str, ...] = (),
             chat: tuple[tuple[str, str], ...] = ()) -> None:
        self.seat_view, self.status, self.picks, self.chat = seat_view, status, picks, chat
        self.refresh()

    def lines(self, width: int, height: int) -> list[str]:
        seat_view = self.seat_view
        if seat_view is not None and seat_view.lesson:
            return lesson_lines(seat_view, width, height)
        lines = (status_text(seat_view, width) if seat_view is not None else self.status).split("\n")
        tricks = list(tricks_list(seat_view, width)) if seat_view is not None else []
        extra: list[str] = []
        if width >= WIDE_PANEL:
            if self.picks:
                extra += ["", _("Draft picks"), *(f" {line}" for line in self.picks)]
            if self.chat:
                extra += ["", _("Chat"), *(f" {name}: {text}" for name, text in self.chat[-CHAT_LINES:])]
            extra = [part for line in extra for part in _fit(line, width).split("\n")]
        room = height - len(lines)
        if tricks and room - len(extra) < len(tricks):
            extra = []  # the tricks list first: it never gives way to the extras
        if tricks:
            room -= len(extra)
            if len(tricks) > room:  # the last tricks that fit, the header saying which
                keep = max(1, room - 2)
                done = len(tricks) - 2
                tricks = ["", _("Tricks {first}-{last} (led first)").format(first=done - keep + 1, last=done),
                          *tricks[-keep:]]
        return lines + tricks + extra

    def render(self) -> Text:
        return plain("\n".join(self.lines(self.size.width, self.size.height)))


def lesson_lines(seat_view: SeatView, width: int, height: int) -> list[str]:
    """In a lesson the panel's place is the lesson's: its words, wrapped, then as much of the score as fits."""
    lines: list[str] = []
    for paragraph in seat_view.lesson.split("\n"):
        lines += textwrap.wrap(printable(paragraph), width) or [""]
    status = status_text(seat_view, width).split("\n")
    if len(lines) + 1 + len(status) <= height:
        lines += ["─" * width, *status]
    return lines


def _fit(line: str, width: int) -> str:
    """A chat or picks line within the panel: longer ones wrap at a word onto an indented line."""
    line = printable(line)
    out = []
    while len(line) > width:
        cut = line.rfind(" ", 1, width + 1)
        cut = cut if cut > 1 else width
        out.append(line[:cut])
        line = "   " + line[cut:].lstrip()
    out.append(line)
    return "\n".join(out)
