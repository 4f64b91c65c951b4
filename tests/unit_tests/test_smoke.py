"""Quick end-to-end checks of the engine with random legal play."""

from spades_tui.engine.record import loads_record, replay
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.session.randomplay import random_game


def test_random_games_replay_to_equal_state() -> None:
    for seed in range(5):
        record, state = random_game(seed, Rules(target=200), max_hands=6)
        assert replay(loads_record(record.dumps())) == state
        assert state.phase in (Phase.SHUFFLE, Phase.GAME_OVER)
        assert len(state.history) >= 1
