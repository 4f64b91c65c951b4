"""What is said at a table, at the host (docs/table-protocol.md): the chat, the events, the host's panel line.

``HostTalk`` (of ``table.TableHost``): the chat (cleaned, bounded, one line a second per seat), the events told
once, and the host's panel line about the friend.  A seat's side is seat/talk.py.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...engine.record import PlayerInfo
from ...engine.text import score_words, signed, winner_words
from ..wire import protocol as p

if TYPE_CHECKING:
    from ...session.session import Session


class HostTalk:
    """The host's chat, its events (told once) and its panel line about the friend."""

    if TYPE_CHECKING:  # the host's, which this part reads and calls
        session: Optional[Session]
        remote: int
        token_hash: Optional[str]
        invite: str

        @property
        def connected(self) -> tuple[bool, bool]: ...
        def players(self) -> tuple[PlayerInfo, PlayerInfo]: ...
        def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None: ...

    def _init_talk(self) -> None:
        self.events: list[str] = []  # what happened at the table, one line each (sat down, scored, left, back, over)
        self.on_event: Callable[[str], None] = lambda line: None
        self.chat: list[dict[str, Any]] = []  # the lines said, newest last (a watcher that comes gets them)
        self._said_at: dict[int, float] = {}
        self.on_said: Callable[[dict[str, Any]], None] = lambda message: None
        self._told: tuple[int, bool] = (0, False)  # (hands scored, outcome) already told as events


    def note(self) -> str:
        """The host's panel line about the friend; while their seat is empty, the invite; once they sat and
        dropped, what takes them back (their code is used: ``join`` with no code, at this address, which is the
        same one unless the port could not be had again)."""
        guest = self.players()[self.remote].name
        said = f"\n{p.chat_line(self.chat[-1]['name'], self.chat[-1]['text'])}" if self.chat else ""
        if self.connected[self.remote]:
            return f"{guest} connected{said}"
        if self.token_hash is None:
            state = "Waiting for your friend"
            return (state if not self.invite else f"{state}\nTheir invite:\n{self.invite}") + said
        state = f"{guest} disconnected"
        return (state if not self.invite else f"{state}\nThey come back with:\n{p.way_back(self.invite)}") + said

    @property
    def invite_taken(self) -> Optional[int]:
        """The seat the invite's code sat down, once it did (None while it is empty): the code seats no one else."""
        return self.remote if self.token_hash is not None else None

    def event(self, line: str) -> None:
        """One thing that happened at the table, for the host's screen and ``host --bot``'s standard error."""
        self.events.append(line)
        self.on_event(line)

    def _tell_results(self) -> None:
        """Each scored hand and the end, said once as events."""
        session = self.session
        if session is None:
            return
        history = session.state.history
        told, over = self._told
        names = [pl.name for pl in self.players()]
        for number in range(told + 1, len(history) + 1):
            result = history[number - 1]
            points = ", ".join(f"{names[s]} {signed(result.points[s])}" for s in (0, 1))
            self.event(f"Hand {number} scored: {points} (score {score_words(*result.scores_after)}).")
        outcome = session.outcome
        if outcome is not None and not over:
            won = winner_words(names[outcome.winner]) if outcome.winner is not None else "a draw"
            self.event(f"Game over: {won}, {score_words(*outcome.scores)}.")
        self._told = (len(history), over or outcome is not None)

    def say(self, seat: int, text: object) -> Optional[str]:
        """A seat's line to the table: cleaned, bounded, one a second; None once said, else why not."""
        line, problem = p.clean_said(text)
        if line is None:
            return problem
        now = time.monotonic()
        if now - self._said_at.get(seat, -p.SAY_INTERVAL) < p.SAY_INTERVAL:
            return f"one line a second: wait a moment ({line[:30]!r} was not said)"
        self._said_at[seat] = now
        message = {"type": "said", "seat": seat, "name": self.players()[seat].name, "text": line}
        self.chat.append(message)
        del self.chat[:-p.CHAT_KEPT]
        self._send(message)
        self.on_said(message)
        return None
