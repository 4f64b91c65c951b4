"""A game being played, without Textual: the store, the dealer, files, autosave, the step loop."""

from .autosave import AutosaveStatus, check_autosave, default_autosave_path, keep_previous
from .dealer import Dealer
from .loop import between_hands, run
from .options import LaunchOptions
from .session import BOT_SEAT, Session, Snapshot, create_bot, new_record
from .storage import LOAD_ERRORS, StorageError, load_game, load_record, save_record
from .store import Forfeit, GameStore, forfeit_of

__all__ = [
    "BOT_SEAT", "LOAD_ERRORS", "AutosaveStatus", "Dealer", "Forfeit", "GameStore", "LaunchOptions", "Session",
    "Snapshot", "StorageError", "between_hands", "check_autosave", "create_bot", "default_autosave_path",
    "forfeit_of", "keep_previous", "load_game", "load_record", "new_record", "run", "save_record",
]
