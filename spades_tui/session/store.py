"""The game store: the one place that holds the game (record + state) and changes it.

No Textual here, so it is unit-tested on its own.  Every change goes through
``dispatch(action)``, which reduces, appends the action to the record and
autosaves it atomically.  Chance actions come from the seeded ``Dealer`` through
the step loop (``settle``); the seed travels in the record's metadata so a
resumed game deals the same cards.  A forfeit is part of the record too: a
top-level ``result`` object, which readers that do not know it ignore.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ..engine.actions import Action, PlayerAction
from ..engine.observation import Observation, observe
from ..engine.outcome import Forfeit
from ..engine.record import GameRecord, PlayerInfo, replay
from ..engine.reducer import legal_actions, reduce
from ..engine.state import GameState
from ..i18n.language import _
from ..keep.meta import DEFAULT_NAMES, RecordMeta, with_meta
from ..keep.storage import StorageError, private_dir, save_record
from . import loop
from .dealer import Dealer


def forfeit_of(record: GameRecord) -> Optional[Forfeit]:
    """The forfeit recorded in ``record``'s ``result`` object (None if none, or malformed)."""
    return RecordMeta.of(record).forfeit


class GameStore:
    """Holds the current ``GameState`` and the ``GameRecord`` that produced it."""

    def __init__(self, record: GameRecord, *, seed: Optional[int] = None, autosave: Optional[Path] = None,
                 dealer: Optional[Dealer] = None) -> None:
        """``dealer`` replaces the seeded one (a network table's); its seed is kept in the record all the same."""
        if seed is None:
            seed = RecordMeta.of(record).seed
        self.dealer = dealer if dealer is not None else Dealer(seed)
        self.record = with_meta(record, seed=self.dealer.seed)
        self.state: GameState = replay(self.record)  # ReplayError if an action is illegal
        self.autosave_path = autosave
        self.save_error: Optional[str] = None

    # ------------------------------------------------------------ reading

    @property
    def players(self) -> tuple[PlayerInfo, PlayerInfo]:
        return self.record.players if self.record.players is not None else DEFAULT_NAMES

    def names(self) -> tuple[str, str]:
        p = self.players
        return (p[0].name, p[1].name)

    def legal(self) -> tuple[PlayerAction, ...]:
        return legal_actions(self.state)

    def observation(self, seat: int) -> Observation:
        return observe(self.state, seat)

    def chance_due(self) -> Optional[Action]:
        return self.dealer.chance_action(self.state)

    @property
    def forfeit(self) -> Optional[Forfeit]:
        return forfeit_of(self.record)

    # ------------------------------------------------------------ changing

    def dispatch(self, action: Action) -> GameState:
        """Apply ``action`` (raises ``IllegalActionError`` and changes nothing if illegal)."""
        new_state = reduce(self.state, action)
        self.record = self.record.with_action(action)
        self.state = new_state
        self.save()
        return new_state

    def _apply(self, state: GameState, action: Action) -> GameState:
        return self.dispatch(action)

    def settle(self, decide: loop.Decide = loop.waits) -> GameState:
        """Deal the chance actions due now and take ``decide``'s decisions (by default none: stop at the
        next decision); the next hand waits for ``deal``."""
        return loop.run(self.state, self.dealer, decide, apply=self._apply, stop=loop.between_hands)

    def deal(self) -> Optional[Action]:
        """Dispatch the chance action due now, if any, and return it."""
        action = self.chance_due()
        if action is not None:
            self.dispatch(action)
        return action

    def set_meta(self, **values: Any) -> None:
        """Set metadata keys of the record (a network table's secrets) and save it at once."""
        self.record = with_meta(self.record, **values)
        self.save()

    def rewind(self, length: int, **meta: Any) -> None:
        """Keep only the first ``length`` actions (a practice take-back) and set metadata; saved at once."""
        self.record = with_meta(self.record.truncated(length), **meta)
        self.state = replay(self.record)
        self.save()

    @property
    def practice(self) -> int:
        """How many take-backs made this a practice game (0: none)."""
        return RecordMeta.of(self.record).takebacks

    def record_forfeit(self, forfeit: Forfeit) -> None:
        """End the game by forfeit: the record says who and why, and is saved."""
        self.record = with_meta(self.record, result=forfeit.to_json())
        self.save()

    def save(self) -> None:
        """Write the record to the autosave file; a failure is remembered, never raised."""
        if self.autosave_path is None:
            return
        try:
            private_dir(self.autosave_path.parent)
            save_record(self.autosave_path, self.record)
            self.save_error = None
        except (OSError, StorageError) as exc:
            self.save_error = _("Autosave failed: {error}").format(error=exc)
