"""How a test waits for something another thread, task or process brings about: one bound policy.

A test never sleeps for a time and hopes; it waits for a condition.  The bound on that wait is a failure
message, never a timing assertion: it is far past what any step takes on a loaded machine, so only a stall
reaches it, and then the test fails saying what it waited for.  ``BOUND`` is that bound for one step (a
process started, a screen drawn, a frame received); a wait for a whole game passes a multiple of it.
``SPADES_TEST_BOUND`` scales every bound (seconds per step) on a machine slower still.

- ``until(check, what, bound)``: from plain code (threads, child processes, a browser);
- ``until_async(check, what, bound, pause=...)``: from a coroutine, ``pause`` between checks (an
  asyncio sleep by default; ``tests.support.pilot.until`` passes the Pilot's own pause).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Awaitable, Callable, Optional

BOUND = float(os.environ.get("SPADES_TEST_BOUND", "120"))  # seconds for one step; see the docstring
POLL = 0.02  # seconds between checks: a poll of what another process writes, not a timing


class Deadline:
    """The moment a wait gives up, and the failure it then raises."""

    def __init__(self, what: str, bound: float = BOUND) -> None:
        self.what, self.bound = what, bound
        self.end = time.monotonic() + bound

    def passed(self) -> bool:
        return time.monotonic() >= self.end

    def fail(self, detail: str = "") -> AssertionError:
        tail = f"\n{detail}" if detail else ""
        return AssertionError(f"gave up after {self.bound:g} s waiting for: {self.what}{tail}")


def until(check: Callable[[], object], what: str, bound: float = BOUND, *, poll: float = POLL,
          detail: Optional[Callable[[], str]] = None) -> None:
    """Return once ``check()`` is true; AssertionError naming ``what`` (and ``detail()``) past ``bound``."""
    deadline = Deadline(what, bound)
    while not check():
        if deadline.passed():
            raise deadline.fail(detail() if detail is not None else "")
        time.sleep(poll)


async def until_async(check: Callable[[], object], what: str, bound: float = BOUND, *,
                      pause: Optional[Callable[[], Awaitable[object]]] = None,
                      detail: Optional[Callable[[], str]] = None) -> None:
    """``until`` in a coroutine: ``await pause()`` (default: an asyncio sleep of ``POLL``) between checks,
    so the tasks that bring ``check`` about run."""
    deadline = Deadline(what, bound)
    while not check():
        if deadline.passed():
            raise deadline.fail(detail() if detail is not None else "")
        if pause is None:
            await asyncio.sleep(POLL)
        else:
            await pause()
