"""One screen per phase of the game, plus start, forms and help.  None imports the app.

Names load with their module on first use (``spades_tui._lazy``): the start screen is drawn before
the game's screens are needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import exports, lazy_exports

if TYPE_CHECKING:
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

__getattr__ = lazy_exports(__name__, exports(
    bidding=("BiddingScreen",), draft=("DraftScreen",), game=("GameScreen",), gameover=("GameOverScreen",),
    handoff=("HandoffScreen",), load=("LoadScreen",), play=("PlayScreen",), settings=("SettingsScreen",),
    setup=("SetupScreen",), start=("StartScreen",), stats=("StatsScreen",), summary=("SummaryScreen",),
    table=("TableWaitScreen",),
))

__all__ = ["BiddingScreen", "DraftScreen", "GameOverScreen", "GameScreen", "HandoffScreen", "LoadScreen",
           "PlayScreen", "SettingsScreen", "SetupScreen", "StartScreen", "StatsScreen",
           "SummaryScreen", "TableWaitScreen"]
