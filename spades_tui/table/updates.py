"""What a table sends its seats and watchers (docs/table-protocol.md): each one's view, and the frames out.

``HostUpdates`` (of ``host.TableHost``): after every change each connected seat gets an ``update`` built from
its own ``SeatView`` and nothing else, a watcher the public view only (no hand, no drawn card, no discard);
at the end, the whole record but the seat's token and the code.  ``_send`` puts a frame in the outbox of one
seat or of every connected one (and the watchers').
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..engine.record import PlayerInfo
from ..keep.meta import TableMeta
from ..session.view import hand_to_json
from . import protocol as p

if TYPE_CHECKING:
    from ..session.session import Session
    from .sockets import GuestLink, Watcher


class HostUpdates:
    """Each seat's update from its own view, the watchers' public one, the end; the frames out."""

    if TYPE_CHECKING:  # the host's, which this part reads and calls
        session: Optional[Session]
        links: dict[int, GuestLink]
        watchers: list[Watcher]
        _leak: bool

        @property
        def connected(self) -> tuple[bool, bool]: ...
        def players(self) -> tuple[PlayerInfo, PlayerInfo]: ...


    def _update(self) -> None:
        session = self.session
        if session is None:
            return
        at = session.actions
        for number, seat in self.links.items():
            if seat.ws is None or seat.sent == (at, self.connected):
                continue
            seat.sent = (at, self.connected)
            self._send(self.update_for(number), number)
        fresh = [w for w in self.watchers if w.sent != (at, self.connected)]
        if fresh:
            text = p.dumps(self.public_update())
            for watcher in fresh:
                watcher.sent = (at, self.connected)
                watcher.put(text)

    def public_update(self) -> dict[str, Any]:
        """A watcher's ``update``: the public view only (no hand, no drawn card, no discard), no choice."""
        assert self.session is not None
        view = self.session.view(None)
        observation = view.observation.to_json()
        observation.update(seat=None, hand=[], drawn=None)
        observation.pop("seen_discards", None)
        return {"type": "update", "at": view.actions, "observation": observation, "legal": [],
                "hands": [hand_to_json(h) for h in view.hands], "connected": list(self.connected),
                "players": self._names()}

    def _names(self) -> list[str]:
        """The seats' names, in every update: a seat that sat down before its friend learns the friend's name."""
        return [pl.name for pl in self.players()]

    def update_for(self, seat: int) -> dict[str, Any]:
        """The ``update`` of ``seat``: from its own view only."""
        assert self.session is not None
        view = self.session.view(seat)
        message = {"type": "update", "at": view.actions, "observation": view.observation.to_json(),
                   "legal": [a.to_json() for a in view.legal], "hands": [hand_to_json(h) for h in view.hands],
                   "connected": list(self.connected), "players": self._names()}
        if self._leak:
            message["debug"] = self.session.view(1 - seat).observation.to_json()
        return message

    def public_record(self) -> dict[str, Any]:
        """The whole record for ``over``: everything is known by then, except the seat's token and the code."""
        assert self.session is not None
        data = self.session.store.record.to_json()
        table = data.get(TableMeta.KEY)
        if isinstance(table, dict):
            data[TableMeta.KEY] = {k: v for k, v in table.items() if k in ("remote", "hands")}  # not the tokens
        return data

    def _send_over(self, only: Optional[int] = None) -> None:
        assert self.session is not None
        outcome = self.session.outcome
        assert outcome is not None
        self._send({"type": "over", "scores": list(outcome.scores), "winner": outcome.winner,
                    "record": self.public_record()}, only)

    def _send(self, message: dict[str, Any], only: Optional[int] = None) -> None:
        """To ``only`` that seat, or to every connected one (and the watchers: the reveal, the end, a line said)."""
        text = p.dumps(message)
        if only is None and message.get("type") in ("reveal", "over", "said"):
            for watcher in self.watchers:
                watcher.put(text)
        for number, seat in self.links.items():
            ws, outbox = seat.ws, seat.outbox
            if only in (None, number) and ws is not None and not ws.closed and outbox is not None:
                outbox.put_nowait(text)
