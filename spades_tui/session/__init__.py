"""A game being played, without Textual: the store, the dealer, files, autosave slots, the step loop."""

from .autosave import AutosaveStatus, check_autosave, default_data_dir
from .dealer import Dealer
from .loop import between_hands, run
from .options import LaunchOptions
from .session import BOT_SEAT, Session, Snapshot, create_bot, new_record
from .slots import SavedGame, Slot, SlotBusy, SlotDirectory, open_games
from .storage import LOAD_ERRORS, StorageError, load_game, load_record, save_record
from .store import Forfeit, GameStore, forfeit_of

__all__ = [
    "BOT_SEAT", "LOAD_ERRORS", "AutosaveStatus", "Dealer", "Forfeit", "GameStore", "LaunchOptions", "SavedGame",
    "Session", "Slot", "SlotBusy", "SlotDirectory", "Snapshot", "StorageError", "between_hands", "check_autosave",
    "create_bot", "default_data_dir", "forfeit_of", "load_game", "load_record", "new_record", "open_games", "run",
    "save_record",
]
