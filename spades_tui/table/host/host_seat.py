"""The host's own seat at a table hosted here, as the interface plays it: a ``session.seat.Seat``.

``HostSeat`` owns the ``TableHost`` (and through it the ``Session`` the host runs): the app draws its
``view()`` (the session's, with the friend's connection and the table's lines for the panel, which only the
table knows) and hands it decisions as to any seat.  Each change made here is sent to the friend once
(``TableHost.sync``); a change the friend made comes as the host's ``on_change``.  The next hand is dealt
once the friend's nonce for it is in (``TableHost.next_hand`` waits for it).  There is no take-back and no
replay at a table: the other player is a person.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...keep.slots import Slot
from ...keep.stats import StatsRecorder
from ...session.seat import Job, Seat, ViewSwitches
from ...session.session import Session
from ...session.view import SAID_KEPT, PlayerAction, SeatView, TableFacts
from .table import TableHost


class HostSeat(ViewSwitches):
    """The seat of the person hosting ``host``, once its game has begun (``host.session``)."""

    def __init__(self, host: TableHost, *, show_hints: bool = False, auto_review: bool = False) -> None:
        self.host = host
        # The seat's own switches, as the app sets them: no field of the Session is written.
        super().__init__(show_hints=show_hints, auto_review=auto_review)

    @property
    def session(self) -> Session:
        session = self.host.session
        assert session is not None, "a hosted seat is played once its game has begun"
        return session

    def take_slot(self) -> Optional[Slot]:
        """The autosave slot the game is saved in, handed to whoever keeps the game in play (released there)."""
        slot, self.host.slot = self.host.slot, None
        return slot

    # ------------------------------------------------------------ what the app reads

    def view(self) -> SeatView:
        """The host's view: the friend's connection and the panel's lines about the table are the table's, the
        hint panel and the review this seat's; the invite and the watch command are at hand all game."""
        host = self.host
        said = tuple((str(m["name"]), str(m["text"])) for m in host.chat[-SAID_KEPT:])
        facts = TableFacts(connected=host.connected, lines=host.note(), said=said, invite=host.invite,
                           watch_invite=host.watch_invite, invite_taken=host.invite_taken)
        return replace(self.session.view(), table_facts=facts, show_hints=self.show_hints,
                       auto_review=self.auto_review)

    # ------------------------------------------------------------ what the person does

    def act(self, action: PlayerAction) -> Optional[str]:
        problem = self.session.act(action)
        if problem is None:
            self.host.sync()  # the friend's screen follows
        return problem

    def reveal(self) -> None:
        """No hand-off at a table: each seat has its own screen."""

    def next_hand(self) -> None:
        """From the summary: the next hand, dealt as soon as the friend's nonce for it is in."""
        self.host.next_hand()

    def take_back(self) -> bool:
        return False

    def replay_hand(self) -> bool:
        return False

    def jobs(self) -> list[Job[Any]]:
        return self.session.jobs()

    def note_save_problem(self, problem: str) -> None:
        self.session.note_save_problem(problem)

    def record_stats(self, recorder: Callable[[], Optional[StatsRecorder]]) -> Optional[str]:
        return self.session.record_stats(recorder)

    def close_all(self) -> None:
        """The table closes: its session, its nonce timer and the slot it still holds."""
        self.host.close()

    def warm(self) -> None:
        self.session.warm()


if TYPE_CHECKING:
    def _a_seat(hosted: HostSeat) -> Seat:
        return hosted  # mypy proves that the host's own seat is a Seat the interface can play
