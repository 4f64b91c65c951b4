"""How a game ended, as one value (python-chess's ``Outcome``/``Termination``), kept by the state.

The reducer sets ``GameState.outcome`` when the rule book ends the game (``rulebook.game_end``), so
the reason is kept where the winner is, never recomputed.  This module imports nothing of the
engine, so the state, the rule book and everyone else can name these types.

A game ends by the rules (a player reached the target, or fell to the losing score, with the scores
unequal, or took all 13 tricks on a bid of 13 under ``thirteen_wins``), by a forfeit (a
seat gave up: a bot failed, a program could not start), or, in the arena only, when its hand
limit is reached and it is scored on points.  The record keeps a forfeit in its top-level
``result`` object (``{"forfeit": SEAT, "reason": "..."}``), whose format stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Optional, Protocol


class Termination(str, Enum):
    TARGET = "target"  # docs/rules.md section 8: the target reached, scores not equal
    LOSING_SCORE = "losing_score"  # 8.4: a score at the losing floor, scores not equal
    THIRTEEN = "thirteen"  # 8.5: all 13 tricks on a bid of 13 under thirteen_wins
    FORFEIT = "forfeit"  # a seat gave up
    HAND_LIMIT = "hand_limit"  # the arena's limit on hands: scored on points (None on equal scores)


@dataclass(frozen=True)
class Forfeit:
    """How a game ended other than by the rules: ``seat`` gave up, for ``reason``."""

    seat: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"forfeit": self.seat, "reason": self.reason}

    @classmethod
    def from_json(cls, result: object) -> Optional[Forfeit]:
        """A record's ``result`` object; a malformed one is ignored like any unknown key."""
        if not isinstance(result, dict):
            return None
        seat, reason = result.get("forfeit"), result.get("reason", "")
        if type(seat) is not int or seat not in (0, 1) or not isinstance(reason, str):
            return None
        return cls(seat, reason)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, who won (None: nobody, only after a hand limit on equal scores),
    the final scores, and for a forfeit the seat that gave up and why."""

    termination: Termination
    winner: Optional[int]
    scores: tuple[int, int]
    forfeit: Optional[Forfeit] = None

    @property
    def loser(self) -> Optional[int]:
        return None if self.winner is None else 1 - self.winner

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"termination": self.termination.value, "winner": self.winner,
                                "scores": list(self.scores)}
        if self.forfeit is not None:
            data.update(self.forfeit.to_json())
        return data

    @classmethod
    def from_json(cls, data: object) -> Optional[Outcome]:
        if not isinstance(data, dict):
            return None
        try:
            termination = Termination(data.get("termination"))
            winner, scores = data.get("winner"), data.get("scores")
            if winner not in (0, 1, None) or type(winner) is bool:
                return None
            if not (isinstance(scores, list) and len(scores) == 2 and all(type(s) is int for s in scores)):
                return None
        except ValueError:
            return None
        forfeit = Forfeit.from_json(data) if termination is Termination.FORFEIT else None
        if termination is Termination.FORFEIT and forfeit is None:
            return None
        return cls(termination, winner, (scores[0], scores[1]), forfeit)


class _Ended(Protocol):
    """What ``outcome_of`` reads of a ``GameState`` (a protocol, so this module imports no state)."""

    @property
    def scores(self) -> tuple[int, int]: ...

    @property
    def outcome(self) -> Optional[Outcome]: ...


def outcome_of(state: _Ended, forfeit: Optional[Forfeit] = None) -> Optional[Outcome]:
    """The outcome of a game in ``state`` (with the record's forfeit, if any); None while it goes on."""
    if forfeit is not None:
        return Outcome(Termination.FORFEIT, 1 - forfeit.seat, state.scores, forfeit)
    return state.outcome


def hand_limit_outcome(scores: tuple[int, int]) -> Outcome:
    """The arena's end after its last hand: the higher score wins, equal scores are a draw."""
    a, b = scores
    return Outcome(Termination.HAND_LIMIT, None if a == b else (0 if a > b else 1), scores)
