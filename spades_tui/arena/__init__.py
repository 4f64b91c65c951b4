"""Bot against bot: duplicate matches and their statistics."""

from .match import MAX_HANDS, GameResult, deal_seed, play_deal, play_game, run_deals
from .stats import (
    ArenaConfig,
    DealResult,
    SideStats,
    Summary,
    duplicate_margins,
    format_report,
    hand_stats,
    mean_ci,
    summarise,
    wilson,
)

__all__ = [
    "MAX_HANDS", "ArenaConfig", "DealResult", "GameResult", "SideStats", "Summary", "deal_seed",
    "duplicate_margins", "format_report", "hand_stats", "mean_ci", "play_deal", "play_game", "run_deals",
    "summarise", "wilson",
]
