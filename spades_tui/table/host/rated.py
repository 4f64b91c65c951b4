"""A rated table's part of its host (docs/table-protocol.md, "Rated play"): whose each seat is, who may resign or
claim the game and when, and the one call at its end.

``RatedSeats`` is owned by ``table.TableHost``; a table that is not rated has one with no players, which refuses
``resign`` and ``claim``.  The seats' players are kept in the record's table meta (``TableMeta.rated``), so a
restarted server knows a rated table and rates its end.  A claim counts from when the other seat's connection
ended (or the table was made again after a restart: nobody was connected then).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..wire import protocol as p
from ..wire import reasons as r

if TYPE_CHECKING:
    from ...engine.record import PlayerInfo
    from ...session.session import Session


class RatedSeats:
    def __init__(self, remotes: tuple[int, ...], players: Optional[tuple[int, int]] = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.players = players  # each seat's registered player (their server ids)
        self.opener: Optional[int] = None  # a rated table waiting for its player: its opener's player id
        self.claim_after = p.CLAIM_AFTER
        self.monotonic = monotonic
        self.over: Callable[[], None] = lambda: None  # the server's: rate the end (once; it keeps results by id)
        # Each seat's rating before and after this game, once the server rated it: told in ``over`` (updates.over).
        self.ratings: Optional[list[dict[str, float]]] = None
        # A seat not connected (a new table's, or a restarted server's): since when.
        self.gone_since: dict[int, float] = dict.fromkeys(remotes, monotonic())

    @property
    def rated(self) -> bool:
        return self.players is not None or self.opener is not None

    def welcome(self) -> dict[str, Any]:
        """What a seat's ``welcome`` adds at a rated table: that it is rated, and how long a seat may be gone
        before the other may claim the game (the client offers the claim only then)."""
        return {"rated": True, "claim_after": self.claim_after} if self.rated else {}

    def left(self, seat: int) -> None:
        self.gone_since[seat] = self.monotonic()

    def back(self, seat: int) -> None:
        self.gone_since.pop(seat, None)

    def give_up(self, seat: int, claim: bool, session: Optional[Session], here: tuple[bool, bool],
                players: tuple[PlayerInfo, PlayerInfo], changed: Callable[[], None]) -> Optional[str]:
        """``resign`` (``seat`` gives the game up) or ``claim`` (the other seat has been gone longer than
        ``claim_after`` while this one is here): the game ends as that seat's forfeit, then ``changed()``.  None,
        or why not."""
        problem = self._give_up(seat, claim, session, here, players)
        if problem is None:
            changed()
        return problem

    def _give_up(self, seat: int, claim: bool, session: Optional[Session], here: tuple[bool, bool],
                 players: tuple[PlayerInfo, PlayerInfo]) -> Optional[str]:
        other = 1 - seat
        if self.players is None:
            return r.ONLY_RATED
        if session is None:
            return r.NOT_BEGUN
        if session.outcome is not None:
            return r.GAME_OVER
        if not claim:
            session.resign(seat, f"{players[seat].name} {p.RESIGNED}")
            return None
        gone = self.gone_since.get(other)
        if here[other] or gone is None:
            return r.OTHER_AT_TABLE
        waited = self.monotonic() - gone
        if waited < self.claim_after:
            return r.CLAIM_TOO_SOON.format(waited=f"{waited:.0f}", after=f"{self.claim_after:g}")
        session.resign(other, f"{players[other].name} {p.CLAIMED}")
        return None
