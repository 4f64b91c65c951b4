"""What the interface may ask of a seat it plays, and the work a seat needs done, as values.

Three kinds of seat implement ``Seat``: a game at this keyboard (``session.Session``), the host's own seat at a
table hosted here (``table.host.host_seat.HostSeat``) and a seat at another's network table
(``table.seat.remote_seat.RemoteSeat``).  The interface draws the seat's ``view()``, hands it decisions and
requests (a take-back, a replayed hand, the next hand) and runs the ``Job``s it gives: a bot's decision, a hint,
a review.  It never needs to know which kind of seat it holds; mypy checks that each is one (each module says
so in a typed function under ``TYPE_CHECKING``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generic, Literal, Optional, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from ..keep.stats import StatsRecorder
    from .view import PlayerAction, SeatView

T = TypeVar("T")

# Which worker runs a job: a bot's decision waits while a trick the bot won is shown; a hint waits until the
# screen has been drawn (its service's process must not delay it); a review and a challenge's par run beside the game.
JobKind = Literal["bot", "hint", "review", "par"]


@dataclass(frozen=True)
class Job(Generic[T]):
    """Work a seat needs done off the interface's thread.

    ``start`` is called on the interface's thread when the job's turn comes: it gives the work to run in a
    worker thread, or None when it is not due any more (the game moved on meanwhile).  The work never raises
    (whatever it may raise the seat says in its result).  ``done`` takes the result back on the interface's
    thread, only while the seat is still the one in play.
    """

    kind: JobKind
    start: Callable[[], Optional[Callable[[], T]]]
    done: Callable[[T], None]


class ViewSwitches:
    """A seat's two view switches, the hint panel and the review after each hand, and the one way the app
    sets them: the ``Seat`` protocol's ``show_hints``, ``auto_review`` and ``set_switches`` for every kind
    of seat (a game here, a seat at a network table, the seat of a table hosted here)."""

    def __init__(self, *, show_hints: bool = False, auto_review: bool = False) -> None:
        self.show_hints = show_hints
        self.auto_review = auto_review

    def set_switches(self, *, show_hints: Optional[bool] = None, auto_review: Optional[bool] = None) -> None:
        """The hint panel and the review after each hand, as the player sets them (the ``Seat`` protocol)."""
        if show_hints is not None:
            self.show_hints = show_hints
        if auto_review is not None:
            self.auto_review = auto_review


@runtime_checkable
class Seat(Protocol):
    """A seat the interface plays: a game at this keyboard or a seat at a network table.

    What the app calls, no more: the facts a screen shows (whether a bot thinks, a forfeit, the decision's
    identity, whether "you" plays a bot) are fields of the ``view()``, which the app and the tests read."""

    @property
    def show_hints(self) -> bool:
        """The hint panel is on (h toggles it)."""

    @property
    def auto_review(self) -> bool:
        """The review opens whenever a hand ends."""

    def set_switches(self, *, show_hints: Optional[bool] = None, auto_review: Optional[bool] = None) -> None:
        """The seat's two view switches, as the player sets them (h, the settings, the palette): the app asks
        the seat, and writes none of its fields."""

    def view(self) -> SeatView:
        """What the screen shows now: the view of the seat at the keyboard (or the public view)."""
        ...

    def act(self, action: PlayerAction) -> Optional[str]:
        """A decision; the reason in words if it is not allowed (nothing changes then)."""
        ...

    def reveal(self) -> None:
        """Hot-seat: the player to act is at the keyboard now."""
        ...

    def next_hand(self) -> None:
        """From the hand summary: on to the next hand."""
        ...

    def take_back(self) -> bool:
        """Undo the person's last decision (a practice game from then on); False where none may be."""
        ...

    def replay_hand(self) -> bool:
        """The hand just scored dealt again, as practice; False where it may not be."""
        ...

    def jobs(self) -> list[Job[Any]]:
        """The work due now, each job given once: the interface runs them and hands back their results."""
        ...

    def note_save_problem(self, problem: str) -> None:
        """A save problem found by the interface (no slot could be claimed): shown until a save works."""
        ...

    def record_stats(self, recorder: Callable[[], Optional[StatsRecorder]]) -> Optional[str]:
        """Write the statistics once a hand or the game has ended; a problem in words, never raised."""
        ...

    def close_all(self) -> None:
        """Stop everything the seat runs (bots, the hint service, the connection)."""
        ...

    def warm(self) -> None:
        """Start what the seat will need soon (a bot's process), once the interface has drawn its first screen."""
        ...
