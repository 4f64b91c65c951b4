"""One seat's hints: asked once per decision, worked out by the hint service (in a process of its own) from
that seat's own observation and legal actions, and kept for the decision they answer.

A game at this keyboard (``Session``) and a seat at another's table (``table.seat.remote_seat.RemoteSeat``) share it;
each says what its seat's decision is now.
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Callable, Optional

from ..bots.base import BotError
from ..bots.process import ProcessBot, hint_service
from .seat import Job

if TYPE_CHECKING:  # the hint service loads in its own process, at the first question
    from ..bots.hints import Hint
    from ..engine.actions import PlayerAction
    from ..engine.observation import Observation

Decision = tuple[int, int]  # (actions in the record so far, the seat that decides)


class HintDesk:
    """``decision`` tells the seat's decision now, or None when it has none to make."""

    def __init__(self, samples: Optional[int], decision: Callable[[], Optional[Decision]]) -> None:
        self.samples = samples  # a fixed count makes hints repeatable (tests); else a time budget
        self._decision = decision
        self._process: Optional[ProcessBot] = None
        self._hint: Optional[tuple[Decision, Hint]] = None
        self._asked: Optional[Decision] = None
        self._lock = threading.Lock()
        self._closed = False

    def current(self) -> Optional[Hint]:
        """The hint for the decision now, once it has come."""
        token = self._decision()
        return self._hint[1] if self._hint is not None and token is not None and self._hint[0] == token else None

    def ask(self) -> Optional[Decision]:
        """The decision to ask the service about, once per decision; None when there is none or it was asked."""
        token = self._decision()
        if token is None or token == self._asked:
            return None
        self._asked = token
        return token

    def compute(self, observation: Observation, legal: tuple[PlayerAction, ...]) -> Optional[Hint]:
        """Ask the hint service (from a worker thread); one question at a time on its pipe.  The service's
        process starts here, at the first question, off the interface's thread."""
        with self._lock:
            if self._closed:
                return None
            if self._process is None:
                try:
                    started = ProcessBot(functools.partial(hint_service, self.samples))
                except (BotError, OSError):  # a hint is advice: without it the game goes on
                    return None
                self._process = started
                if self._closed:  # closed meanwhile, before there was a process to close
                    self._process = None
                    started.close()
                    return None
            process = self._process
            try:
                found: Hint = process.call("hint", observation, legal, 0)  # the seed: nothing hidden in it
            except Exception:  # a hint is advice: without it the game goes on
                return None
            return found

    def job(self, token: Decision, observation: Observation, legal: tuple[PlayerAction, ...],
            ) -> Job[Optional[Hint]]:
        """The question ``ask`` gave, with the seat's own observation and legal actions, as a job: the service's
        answer (which never raises) is kept if it still answers the decision to be made."""
        return Job("hint", lambda: functools.partial(self.compute, observation, legal),
                   functools.partial(self.answer, token))

    def answer(self, token: Decision, hint: Optional[Hint]) -> None:
        """Keep ``hint`` if it answers the decision still to be made."""
        if hint is not None and token == self._decision():
            self._hint = (token, hint)

    def forget(self) -> None:
        """A take-back or a replayed hand: decisions of the same record length come back, to be asked again."""
        self._hint, self._asked = None, None

    def close(self) -> None:
        self._closed = True  # no service process starts after this (compute checks it)
        process, self._process = self._process, None
        if process is not None:
            process.close()  # a worker waiting on it gets an error and gives up
