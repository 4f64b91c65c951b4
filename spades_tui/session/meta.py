"""The game record's writer metadata, read through typed accessors.

A record's extra top-level keys (game-record.md: readers ignore keys they do not know) carry
what the session adds: the dealer's ``seed``, the statistics' ``game_id``, ``practice``
(take-backs), the forfeit's ``result``.  They are read here and only here, each checked for
its type, so a hand-edited record with a wrong type reads as if the key were absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..engine import GameRecord, GameState
from .outcome import Forfeit, Outcome, outcome_of


@dataclass(frozen=True)
class RecordMeta:
    seed: Optional[int]  # the dealer's seed: a resumed game deals the same cards
    game_id: Optional[str]  # the statistics count each game once
    practice: bool  # a take-back made this a practice game (the key is there)
    takebacks: int  # how many take-backs (0 when none or unreadable)
    # The first hand the take-backs touched: hands scored before it were played without knowing what
    # comes and still count in the statistics.  1 (all practice) for records that do not say.
    practice_from: Optional[int]
    forfeit: Optional[Forfeit]

    @classmethod
    def of(cls, record: GameRecord) -> RecordMeta:
        meta = dict(record.metadata)
        seed = meta.get("seed")
        gid = meta.get("game_id")
        found = meta.get("practice")
        takebacks = found.get("takebacks") if isinstance(found, dict) else None
        first = found.get("from_hand") if isinstance(found, dict) else None
        practice_from = (first if type(first) is int and first >= 1 else 1) if "practice" in meta else None
        return cls(
            seed=seed if type(seed) is int else None,
            game_id=gid if isinstance(gid, str) and gid else None,
            practice="practice" in meta,
            takebacks=takebacks if type(takebacks) is int and takebacks > 0 else 0,
            practice_from=practice_from,
            forfeit=Forfeit.from_json(meta.get("result")),
        )


def with_meta(record: GameRecord, **values: Any) -> GameRecord:
    """``record`` with these metadata keys set (others kept, in order)."""
    meta = {**dict(record.metadata), **values}
    return GameRecord(record.rules, record.first_drafter, record.players, record.actions, tuple(meta.items()))


def game_outcome(record: GameRecord, state: GameState) -> Optional[Outcome]:
    """How the game of ``record`` (replayed as ``state``) ended; None while it goes on."""
    return outcome_of(state, RecordMeta.of(record).forfeit)
