"""What is said at a table, at a seat (docs/table-protocol.md): the chat, the events, the notices to the player.

``SeatTalk`` (owned by ``client.TableClient``, and needing nothing of it): the lines said at the table, its
events (sat down, scored, left, back, over) and the notices to tell the player once, each kept to a bound and
read by count (``*_since``); warnings about the host's frames are said at once up to a few, then counted.  The
host's side is host/talk.py.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from ...i18n.language import ngettext
from ..wire import frames as f
from ..wire import protocol as p

MAX_NOTICES = 50  # notices kept until shown
WARNINGS_SHOWN = 5  # host errors and dropped frames said at once; then one a WARNING_REFILL seconds
WARNING_REFILL = 10.0
MAX_EVENTS = 200  # the table's event lines kept (the screens and --bot read them as they come)


class SeatTalk:
    """A seat's chat, events and notices."""

    def __init__(self) -> None:
        self.chat: deque[tuple[str, str]] = deque(maxlen=p.CHAT_KEPT)  # (name, line) said, newest last
        self.chat_count = 0  # every line said so far (the readers count what they showed)
        self.notices: deque[str] = deque(maxlen=MAX_NOTICES)  # things to tell the player once
        self.notice_count = 0  # every notice so far (the screens count what they showed)
        self._allowance = float(WARNINGS_SHOWN)  # warnings about the host said now (then they are counted)
        self._allowance_at = time.monotonic()
        self._hushed = 0  # warnings not said since the last one said
        self.events: deque[str] = deque(maxlen=MAX_EVENTS)  # what happened at the table, one line each
        self.event_count = 0  # every event so far
        self.seat_news: deque[str] = deque(maxlen=MAX_EVENTS)  # of those, the other seat's: sat down, left, back
        self.seat_news_count = 0


    def note(self, text: str) -> None:
        """Something to tell the player once."""
        self.notices.append(text)
        self.notice_count += 1

    def notices_since(self, count: int) -> tuple[list[str], int]:
        """The notices after the first ``count`` (those still kept), and the count now."""
        new = max(0, min(self.notice_count - count, len(self.notices)))
        return (list(self.notices)[len(self.notices) - new:] if new else []), self.notice_count

    def event(self, line: str) -> None:
        """What happened at the table (sat down, scored, left, back, over), one line."""
        self.events.append(line)
        self.event_count += 1

    def seat_event(self, line: str) -> None:
        """The other seat sat down, left or is back: an event, and news the screen says as it comes."""
        self.event(line)
        self.seat_news.append(line)
        self.seat_news_count += 1

    def seat_news_since(self, count: int) -> tuple[list[str], int]:
        """The other seat's comings and goings after the first ``count`` (the screen says them as they come)."""
        return _since(self.seat_news, self.seat_news_count, count), self.seat_news_count

    def events_since(self, count: int) -> tuple[list[str], int]:
        """The event lines after the first ``count`` (those still kept), and the count now."""
        return _since(self.events, self.event_count, count), self.event_count

    def chat_since(self, count: int) -> tuple[list[tuple[str, str]], int]:
        """The lines said after the first ``count`` (those still kept), and the count now."""
        return _since(self.chat, self.chat_count, count), self.chat_count

    def warn(self, text: str) -> None:
        """A warning about what the host sent: said at once up to a few, then counted and said in one line."""
        now = time.monotonic()
        self._allowance = min(float(WARNINGS_SHOWN), self._allowance + (now - self._allowance_at) / WARNING_REFILL)
        self._allowance_at = now
        if self._allowance >= 1:
            self._allowance -= 1
            self.flush_warnings()
            self.note(text)
        else:
            self._hushed += 1

    def flush_warnings(self) -> None:
        """The count of warnings not said yet, said (at the end, so that none is lost unsaid)."""
        if self._hushed:
            self.note(ngettext("({count} more warning about the host's frames was not shown)",
                               "({count} more warnings about the host's frames were not shown)",
                               self._hushed).format(count=self._hushed))
            self._hushed = 0

    def said(self, m: f.Said) -> None:
        self.chat.append((m.name, m.text))  # cleaned and bounded by frames.said
        self.chat_count += 1


def _since(kept: deque[Any], total: int, count: int) -> list[Any]:
    new = max(0, min(total - count, len(kept)))
    return list(kept)[len(kept) - new:] if new else []

