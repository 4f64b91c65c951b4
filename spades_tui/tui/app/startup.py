"""What the app opens with: one value, chosen by the command line (``launch.py``) or a test, instead of
which of several constructor arguments is set.

- ``AS_ASKED`` (``AsAsked``): the start screen, or the game the options ask for (``--hotseat``, ``--bot``),
  or a browser tab's invite to a served table;
- ``Resume(record)``: a record loaded from the command line, played on;
- ``Learn()``: ``spades-tui learn``, the lesson (a guided first hand);
- ``Challenge(code)``: ``spades-tui challenge``, the daily challenge of ``code`` (checked by the command);
- ``HostTable(options)``: ``spades-tui host``, a table opened here (``TableHost``'s options);
- ``JoinTable(client)``: ``spades-tui join`` or ``watch``, a seat taken at another machine's table.

Named tuples, not dataclasses: they are built before the first paint, and cost a tenth as much to define.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Union

if TYPE_CHECKING:
    from ...session.view import GameRecord
    from ...table.seat.client import TableClient


class AsAsked(NamedTuple):
    """The start screen, or what the options ask for."""


class Resume(NamedTuple):
    record: GameRecord


class Learn(NamedTuple):
    """``spades-tui learn``: the lesson, a guided first hand against the easy bot."""


class Challenge(NamedTuple):
    """``spades-tui challenge``: four hands against the expert on the challenge's stocks."""

    code: str


class HostTable(NamedTuple):
    options: dict[str, Any]


class JoinTable(NamedTuple):
    client: TableClient


StartUp = Union[AsAsked, Resume, Learn, Challenge, HostTable, JoinTable]
AS_ASKED = AsAsked()
