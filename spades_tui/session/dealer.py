"""The seeded dealer: the only source of chance, kept outside the engine.

It is stateless: the outcome for a hand depends on the seed and on the public
position in the game (hand number, which exchange), never on how many random
numbers were drawn before.  So a resumed game continues with the same cards it
would have had, and the same seed plus the same decisions give the same game.
"""

from __future__ import annotations

import random
from typing import Optional

from ..engine.actions import Action, ExchangeDraw, Shuffle
from ..engine.cards import CARDS
from ..engine.state import GameState, Phase


class Dealer:
    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)

    def _rng(self, *parts: object) -> random.Random:
        # String seeds are hashed with SHA-512: stable across runs and machines.
        return random.Random(":".join(str(p) for p in (self.seed, *parts)))

    def chance_action(self, state: GameState) -> Optional[Action]:
        """The chance action due in ``state``, or None if a player must act."""
        if state.phase is Phase.SHUFFLE:
            stock = list(CARDS)
            self._rng("shuffle", state.hand_number + 1).shuffle(stock)
            return Shuffle(tuple(stock))
        if state.phase is Phase.EXCHANGE_DRAW:
            hand = state.hand
            assert hand is not None and hand.to_act is not None
            player = hand.to_act
            pile = sorted(hand.discard)
            rng = self._rng("exchange", state.hand_number, player)
            return ExchangeDraw(player, tuple(sorted(rng.sample(pile, len(hand.set_aside)))))
        return None
