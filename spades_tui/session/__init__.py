"""A game being played, without Textual: the store, the dealer, files, autosave slots, the step loop.

Names load with their module on first use (``spades_tui._lazy``): the start screen reads the
options and the preferences before any game is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import exports, lazy_exports

if TYPE_CHECKING:
    from .autosave import AutosaveStatus, check_autosave, default_data_dir
    from .dealer import Dealer
    from .loop import between_hands, run
    from .meta import RecordMeta, game_outcome, with_meta
    from .options import LaunchOptions
    from .outcome import Forfeit, Outcome, Termination
    from .session import SeatKind, Session, create_bot, new_record
    from .slots import SavedGame, Slot, SlotBusy, SlotDirectory, open_games
    from .storage import LOAD_ERRORS, StorageError, load_game, load_record, save_record
    from .store import GameStore, forfeit_of
    from .view import SeatView, seat_view

__getattr__ = lazy_exports(__name__, exports(
    autosave=("AutosaveStatus", "check_autosave", "default_data_dir"),
    dealer=("Dealer",),
    loop=("between_hands", "run"),
    meta=("RecordMeta", "game_outcome", "with_meta"),
    options=("LaunchOptions",),
    outcome=("Forfeit", "Outcome", "Termination"),
    session=("SeatKind", "Session", "create_bot", "new_record"),
    slots=("SavedGame", "Slot", "SlotBusy", "SlotDirectory", "open_games"),
    storage=("LOAD_ERRORS", "StorageError", "load_game", "load_record", "save_record"),
    store=("GameStore", "forfeit_of"),
    view=("SeatView", "seat_view"),
))

__all__ = [
    "LOAD_ERRORS", "AutosaveStatus", "Dealer", "Forfeit", "GameStore", "LaunchOptions", "Outcome", "RecordMeta",
    "SavedGame", "SeatKind", "SeatView", "Session", "Slot", "SlotBusy", "SlotDirectory", "StorageError", "Termination",
    "between_hands", "check_autosave", "game_outcome",
    "create_bot", "default_data_dir", "forfeit_of", "load_game", "load_record", "new_record", "open_games", "run",
    "save_record", "seat_view", "with_meta",
]
