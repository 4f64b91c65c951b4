"""The pure game engine: immutable state, actions, reducer, observations, records.

No Textual, no I/O, no randomness: chance arrives as ``Shuffle`` and
``ExchangeDraw`` actions made by ``spades_tui.dealer``.

Names load with their module on first use (``spades_tui._lazy``): the start screen needs the
rules and the cards, not the reducer or the records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import exports, lazy_exports

if TYPE_CHECKING:
    from .actions import (
        Action,
        Bid,
        DeclareDoubleNil,
        Draft,
        Exchange,
        ExchangeDraw,
        Play,
        PlayerAction,
        Shuffle,
        action_from_json,
        is_chance,
    )
    from .cards import CARDS, DECK, Card, Suit
    from .errors import IllegalActionError, RecordError, RulesError, SpadesError
    from .observation import Observation, observe
    from .record import (
        GameRecord,
        PlayerInfo,
        ReplayError,
        loads_record,
        parse_record,
        replay,
        replay_actions,
        summary,
    )
    from .reducer import legal_actions, playable_cards, reduce, trick_winner
    from .rules import PRESETS, Preset, Rules, find_preset
    from .scoring import score_player
    from .state import (
        BidValue,
        DraftTurn,
        GameState,
        HandResult,
        HandState,
        Phase,
        PlayedCard,
        ScoreLine,
        new_game,
    )

_WHERE = exports(
    actions=("Action", "Bid", "DeclareDoubleNil", "Draft", "Exchange", "ExchangeDraw", "Play", "PlayerAction",
             "Shuffle", "action_from_json", "is_chance"),
    cards=("CARDS", "DECK", "Card", "Suit"),
    errors=("IllegalActionError", "RecordError", "RulesError", "SpadesError"),
    observation=("Observation", "observe"),
    record=("GameRecord", "PlayerInfo", "ReplayError", "loads_record", "parse_record", "replay", "replay_actions",
            "summary"),
    reducer=("legal_actions", "playable_cards", "reduce", "trick_winner"),
    rules=("PRESETS", "Preset", "Rules", "find_preset"),
    scoring=("score_player",),
    state=("BidValue", "DraftTurn", "GameState", "HandResult", "HandState", "Phase", "PlayedCard", "ScoreLine",
           "new_game"),
)
__getattr__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "Action", "Bid", "BidValue", "CARDS", "Card", "DECK", "DeclareDoubleNil", "Draft",
    "DraftTurn", "Exchange", "ExchangeDraw", "GameRecord", "GameState", "HandResult",
    "HandState", "IllegalActionError", "Observation", "Phase", "Play", "PlayedCard",
    "PlayerAction", "PlayerInfo", "PRESETS", "Preset", "RecordError", "ReplayError", "Rules", "RulesError",
    "ScoreLine", "Shuffle", "SpadesError", "Suit", "action_from_json", "is_chance",
    "find_preset", "legal_actions", "loads_record", "new_game", "observe", "parse_record",
    "playable_cards", "reduce", "replay", "replay_actions", "score_player", "summary",
    "trick_winner",
]
