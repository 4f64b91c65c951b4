"""The hidden-card oracle of docs/rules.md section 10, from the raw state, shared by the screen and view-model tests."""

from __future__ import annotations

from typing import Optional

from spades_tui.engine.cards import Card
from spades_tui.engine.state import GameState, Phase


def hidden_cards(state: GameState, viewer: Optional[int]) -> set[Card]:
    """Cards the person at the keyboard must not see; None: nobody is (every card in play is hidden)."""
    hand = state.hand
    if hand is None:
        return set()
    stock = list(hand.stock)
    if viewer is None:
        return set(hand.hands[0]) | set(hand.hands[1]) | set(stock) | set(hand.discard) | set(hand.set_aside)
    if state.phase is Phase.DRAFT and hand.to_act == viewer and stock:
        stock = stock[1:]  # the drafter sees the top card
    other = 1 - viewer
    hidden = set(hand.hands[other]) | set(stock) | (set(hand.discard) - set(hand.seen_discards[viewer]))
    if state.phase is Phase.EXCHANGE_DRAW and hand.to_act == other:
        hidden |= set(hand.set_aside)
    return hidden
