"""What a table sends its seats and watchers of its game (docs/table-protocol.md): each one's view, and the end.

A seat's ``update`` is its own view's wire form (``SeatView.to_json``, built without the advice a screen would
want) and nothing else; a watcher's the public view only (no hand, no drawn card, no discard); at the end,
the whole record but the seat's token and the code.  Pure functions of the session: the table's connections
(``connections.Connections``) put them in the outboxes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...keep.meta import TableMeta

if TYPE_CHECKING:
    from ...session.session import Session


def update(session: Session, seat: Optional[int], connected: tuple[bool, bool], names: list[str]) -> dict[str, Any]:
    """The ``update`` of ``seat`` from its own view only (None: a watcher's, the public view, no choice); the
    seats' names in every update (a seat that sat down before its friend learns the friend's name)."""
    return {"type": "update", **session.sent_view(seat).to_json(), "connected": list(connected), "players": names}


def public_record(session: Session) -> dict[str, Any]:
    """The whole record for ``over``: everything is known by then, except the seat's token and the code."""
    data = session.store.record.to_json()
    table = data.get(TableMeta.KEY)
    if isinstance(table, dict):
        data[TableMeta.KEY] = {k: v for k, v in table.items() if k in ("remote", "hands")}  # not the tokens
    return data


def over(session: Session, ratings: Optional[list[dict[str, float]]] = None) -> dict[str, Any]:
    """The ``over`` frame of a game that has ended; at a rated table, once rated, each seat's rating before and
    after it (``ratings``: public, as the leaderboard is)."""
    outcome = session.outcome
    assert outcome is not None
    rated = {"ratings": ratings} if ratings is not None else {}
    return {"type": "over", "scores": list(outcome.scores), "winner": outcome.winner,
            "record": public_record(session), **rated}
