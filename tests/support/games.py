"""Whole games for the tests, played by built-in bots in this process: each one is played once.

``played`` is cached: the bots are seeded and a ``GameRecord`` is immutable, so every test (and every
fixture) that asks for the same game gets the same record, and a pytest-xdist worker plays it once.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Sequence

from spades_tui.bots.levels import make_bot
from spades_tui.engine.actions import Action, Bid, PlayerAction
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState
from spades_tui.keep.stats import STATS_NAME, open_stats, record_game
from spades_tui.session import loop
from spades_tui.session.dealer import Dealer


@cache
def played(seed: int, players: tuple[PlayerInfo, PlayerInfo], game_id: str,
           levels: tuple[str, str] = ("normal", "easy"), target: int = 500) -> GameRecord:
    """A whole game to ``target`` (500) played by two built-in bots through the session's step loop (in-process,
    fast)."""
    bots = [make_bot(levels[0], seed=seed), make_bot(levels[1], seed=seed + 1)]
    actions: list[Action] = []

    def decide(state: GameState, seat: int) -> PlayerAction:
        return bots[seat].decide(observe(state, seat), legal_actions(state))

    def apply(state: GameState, action: Action) -> GameState:
        actions.append(action)
        return reduce(state, action)

    rules = Rules(target=target)
    state = loop.run(GameRecord(rules, 0).new_state(), Dealer(seed), decide, apply=apply)
    assert state.winner is not None
    return GameRecord(rules, 0, players, tuple(actions), (("game_id", game_id),))


def fill(data_dir: Path) -> list[GameRecord]:
    records = [played(1, (PlayerInfo("You"), PlayerInfo("Bot", "bot:easy")), "a"),
               played(2, (PlayerInfo("You"), PlayerInfo("Bot", "bot:normal")), "b", ("easy", "normal")),
               played(4, (PlayerInfo("Ann"), PlayerInfo("Bob")), "c", ("normal", "normal"))]
    conn, _ = open_stats(data_dir / STATS_NAME)
    for record in records:
        record_game(conn, record)
    conn.close()
    return records


def bid_one(state: GameState, legal: Sequence[PlayerAction]) -> PlayerAction:
    """A policy for ``record_until``: bids of 1 (so a game to a target of 1 ends), else the first legal action."""
    bids = [a for a in legal if isinstance(a, Bid) and a.tricks == 1]
    return bids[0] if bids else legal[0]
