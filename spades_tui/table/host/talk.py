"""What is said at a table, at the host (docs/table-protocol.md): the chat, the events, the host's panel line.

``HostTalk`` (owned by ``table.TableHost``): the chat (cleaned, bounded, one line a second per seat) and the
events, each scored hand and the end told once.  A seat's side is seat/talk.py.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...engine.record import PlayerInfo
from ..wire import protocol as p
from ..wire import reasons as r

if TYPE_CHECKING:
    from ...session.session import Session


class HostTalk:
    """The host's chat and its events (each scored hand and the end told once), built by the table with the
    seats' ``players()``, ``send`` (a frame to every seat and watcher), and who hears of an event and of a line
    said (``on_event``, ``on_said``)."""

    def __init__(self, players: Callable[[], tuple[PlayerInfo, PlayerInfo]],
                 send: Callable[[dict[str, Any]], None], *, on_event: Callable[[str], None],
                 on_said: Callable[[dict[str, Any]], None]) -> None:
        self._players = players
        self._send = send
        self._on_event = on_event
        self._on_said = on_said
        self.events: list[str] = []  # what happened at the table, one line each (sat down, scored, left, back, over)
        self.chat: list[dict[str, Any]] = []  # the lines said, newest last (a watcher that comes gets them)
        self._said_at: dict[int, float] = {}
        self.told: tuple[int, bool] = (0, False)  # (hands scored, outcome) already told as events
        self.results: set[int] = set()  # the events that are a scored hand or the end (the screens show those)

    def event(self, line: str, result: bool = False) -> None:
        """One thing that happened at the table, for the host's screen and ``host --bot``'s standard error."""
        if result:
            self.results.add(len(self.events))
        self.events.append(line)
        self._on_event(line)

    def seat_news_since(self, count: int) -> tuple[list[str], int]:
        """The events after the first ``count`` that are no scored hand or end (a seat's comings and goings: the
        screens show the scores), and the count now; told apart by kind, not by their words (in any language)."""
        return [line for i, line in enumerate(self.events[count:], count) if i not in self.results], len(self.events)

    def tell_results(self, session: Session) -> None:
        """Each scored hand and the end, said once as events."""
        history = session.state.history
        told, over = self.told
        names = [pl.name for pl in self._players()]
        for number in range(told + 1, len(history) + 1):
            result = history[number - 1]
            self.event(p.hand_scored_line(number, names, result.points, result.scores_after), result=True)
        outcome = session.outcome
        if outcome is not None and not over:
            self.event(p.game_over_line(names[outcome.winner] if outcome.winner is not None else None,
                                        outcome.scores), result=True)
        self.told = (len(history), over or outcome is not None)

    def say(self, seat: int, text: object) -> Optional[str]:
        """A seat's line to the table: cleaned, bounded, one a second; None once said, else why not."""
        line, problem = p.clean_said(text)
        if line is None:
            return problem
        now = time.monotonic()
        if now - self._said_at.get(seat, -p.SAY_INTERVAL) < p.SAY_INTERVAL:
            return r.ONE_A_SECOND.format(line=repr(line[:30]))
        self._said_at[seat] = now
        message = {"type": "said", "seat": seat, "name": self._players()[seat].name, "text": line}
        self.chat.append(message)
        del self.chat[:-p.CHAT_KEPT]
        self._send(message)
        self._on_said(message)
        return None
