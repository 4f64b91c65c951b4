"""A seat's view of a whole state, built as the session builds it, for the tests of what screens show."""

from __future__ import annotations

from typing import Optional

from spades_tui.engine.outcome import Forfeit, Outcome, Termination, outcome_of
from spades_tui.engine.record import PlayerInfo
from spades_tui.engine.state import GameState
from spades_tui.session.view import SeatView, seat_view

NAMES = (PlayerInfo("Ada"), PlayerInfo("Bob"))


def snap(state: GameState, viewer: Optional[int], *, vs_bot: bool = False, forfeit: Optional[str] = None,
         thinking: bool = False, actions: int = 0, save_error: Optional[str] = None,
         players: tuple[PlayerInfo, PlayerInfo] = NAMES) -> SeatView:
    """The view of ``viewer`` (None: the public view); a forfeit is seat 1's (the bot's, against a bot)."""
    outcome = (Outcome(Termination.FORFEIT, 0, state.scores, Forfeit(1, forfeit)) if forfeit
               else outcome_of(state))
    return seat_view(state, viewer, players, outcome=outcome, actions=actions, vs_bot=vs_bot, bot_thinking=thinking,
                     save_error=save_error, persons=(True, not vs_bot))
