"""The hidden-card oracle of docs/rules.md section 10, from the raw state, shared by the screen and view-model tests."""

from __future__ import annotations

import dataclasses
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


def swap_hidden(state: GameState, seat: int) -> Optional[GameState]:
    """The same state with two deep stock cards (the draft, Double Nil), or one opponent card and one unseen
    discard, exchanged: nothing ``seat`` may know changes, so a bot's move or a hint for it must not either.
    None where there is nothing hidden to exchange."""
    hand = state.hand
    assert hand is not None
    opp = 1 - seat
    if state.phase in (Phase.DRAFT, Phase.DOUBLE_NIL) and len(hand.stock) >= 6:
        stock = list(hand.stock)
        stock[3], stock[5] = stock[5], stock[3]
        return dataclasses.replace(state, hand=dataclasses.replace(hand, stock=tuple(stock)))
    unseen = sorted(hand.discard - hand.seen_discards[seat])
    theirs = sorted(hand.hands[opp])
    if not unseen or not theirs:
        return None
    a, b = theirs[0], unseen[-1]
    hands = list(hand.hands)
    hands[opp] = (hand.hands[opp] - {a}) | {b}
    new_hand = dataclasses.replace(hand, hands=(hands[0], hands[1]), discard=(hand.discard - {b}) | {a})
    return dataclasses.replace(state, hand=new_hand)
