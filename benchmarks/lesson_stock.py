"""Find a stock for the lesson (``spades-tui learn``, issue 39): one hand in which, played by Enter alone
against the seeded easy bot, every part of the game comes up.  Not run by the tests; its answer is
written into ``assets/lesson.md`` (the front matter's ``stock``, ``first`` and ``seed``).

    .venv/bin/python benchmarks/lesson_stock.py [TRIES]

Enter's suggestion is the view's default without hints: the normal bot's choice (``quick_advice``).
"""

from __future__ import annotations

import random
import sys

from spades_tui.bots.heuristic import EasyBot
from spades_tui.engine.actions import Bid, DeclareDoubleNil, Draft, Play, Shuffle
from spades_tui.engine.cards import CARDS, Card, Suit
from spades_tui.engine.observation import observe
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase, new_game
from spades_tui.session.view import quick_advice

PERSON, BOT = 0, 1


def parts(stock: tuple[Card, ...], first: int, seed: int) -> set[str]:
    """The parts of the game that come up when the person plays every suggestion."""
    state = reduce(new_game(Rules(), first), Shuffle(stock))
    bot = EasyBot(seed)
    bot.start(BOT, state.rules)
    seen: set[str] = set()
    while state.phase is not Phase.SHUFFLE:
        seat = state.to_act
        assert seat is not None, state.phase
        legal = legal_actions(state)
        obs = observe(state, seat)
        if seat == BOT:
            action = bot.decide(obs, legal)
            if isinstance(action, DeclareDoubleNil) and action.declare:
                return set()
        else:
            action = quick_advice(obs, legal)
            hand = state.hand
            assert hand is not None
            if isinstance(action, DeclareDoubleNil) and action.declare:
                return set()
            if isinstance(action, Draft):
                seen.add("keep" if action.take == "first" else "pass")
                if "pass" in seen and action.take == "first" and "keep" in seen:
                    seen.add("keep_after_pass")
            if isinstance(action, Bid):
                if action.tricks == 0:
                    return set()
                seen.add("bid")
            if isinstance(action, Play):
                if not hand.trick:
                    seen.add("lead")
                    if not hand.spades_broken and any(c.suit is Suit.SPADES for c in obs.hand):
                        seen.add("lead_unbroken")
                else:
                    led = hand.trick[0].card.suit
                    if action.card.suit is led:
                        seen.add("follow")
                    elif action.card.suit is Suit.SPADES:
                        seen.add("trump")
                        if not hand.spades_broken:
                            seen.add("break")
        state = reduce(state, action)
    result = state.history[-1]
    mine = result.tricks[PERSON]
    bid = result.bids[PERSON]
    if mine > 0:
        seen.add("won")
    if mine < 13:
        seen.add("lost")
    if isinstance(bid, int) and bid > 0 and mine > bid and result.lines[PERSON].bags_added == 1:
        seen.add("bag")
    return seen


WANTED = {"keep", "pass", "keep_after_pass", "bid", "lead", "lead_unbroken", "follow", "trump", "break", "won",
          "lost", "bag"}


def main(tries: int) -> None:
    rng = random.Random(39)
    for n in range(tries):
        stock = list(CARDS)
        rng.shuffle(stock)
        first = 0
        got = parts(tuple(stock), first, 39)
        if WANTED <= got:
            print(f"try {n}: first {first}")
            print("stock:", " ".join(c.code for c in stock))
            return
    print("none found", file=sys.stderr)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
