"""The bot's-eye check of the hidden-information rule (docs/rules.md 10), for the tests that drive the app.

``MashApp`` remembers the whole state each time the bot is about to be asked; ``CheckingBot`` is the easy
bot in-process, failing the test if an observation or legal list it is handed names a card it may not know.
"""

from __future__ import annotations

import json
import re
from typing import Optional, Sequence

from spades_tui.bots.base import Bot
from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.observation import Observation
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState
from spades_tui.session.session import Session
from spades_tui.tui.app import app as app_module
from tests.support.hidden import hidden_cards

CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
BOT_SEAT = 1  # the bot's seat in these games (the person is seat 0)


class MashApp(app_module.SpadesApp):
    """Remembers the state each time the bot is asked, to check what the bot is shown."""

    asked: Optional[GameState] = None

    def publish(self) -> None:
        session = self.session
        if isinstance(session, Session) and session.bot_due() is not None:
            self.asked = session.state  # the state the bot is about to be asked in
        super().publish()


class CheckingBot(Bot):
    """The easy bot in-process (fast), checking every observation and legal list it is handed."""

    name = "checking"

    def __init__(self, app: MashApp, seed: Optional[int]) -> None:
        self.app = app
        self.inner = make_bot("easy", seed)
        self.checked = 0

    def start(self, seat: int, rules: Rules) -> None:
        assert seat == BOT_SEAT
        self.inner.start(seat, rules)

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        state = self.app.asked
        assert state is not None and observation.seat == BOT_SEAT
        hidden = hidden_cards(state, BOT_SEAT)
        if state.hand is not None:
            # Cards it saw in the draft stay known (docs/rules.md 10) even once the opponent drew them in a
            # Double Nil exchange: the observation lists them as seen, never where they are.
            hidden -= set(state.hand.seen_discards[BOT_SEAT])
        hidden_codes = {c.code for c in hidden}
        shown = set(CODE.findall(json.dumps(observation.to_json())))
        shown |= set(CODE.findall(json.dumps([a.to_json() for a in legal])))
        leaked = shown & hidden_codes
        assert not leaked, f"the bot was shown hidden cards: {sorted(leaked)}"
        self.checked += 1
        return self.inner.decide(observation, legal)

    def finish(self, scores: tuple[int, int], winner: Optional[int]) -> None:
        self.inner.finish(scores, winner)
