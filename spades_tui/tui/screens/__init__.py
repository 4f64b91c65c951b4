"""One screen per phase of the game, plus start, forms and help.  None imports the app."""

from .bidding import BiddingScreen
from .draft import DraftScreen
from .game import GameScreen
from .gameover import GameOverScreen
from .handoff import HandoffScreen
from .load import LoadScreen
from .play import PlayScreen
from .settings import SettingsScreen
from .setup import SetupScreen
from .start import StartScreen
from .stats import StatsScreen
from .summary import SummaryScreen
from .table import TableWaitScreen

__all__ = ["BiddingScreen", "DraftScreen", "GameOverScreen", "GameScreen", "HandoffScreen", "LoadScreen",
           "PlayScreen", "SettingsScreen", "SetupScreen", "StartScreen", "StatsScreen",
           "SummaryScreen", "TableWaitScreen"]
