"""The JSON side of docs/bot-protocol.md: observations back from JSON, message lines."""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence

from ..engine.actions import PlayerAction, action_from_json, is_chance
from ..engine.cards import Card
from ..engine.errors import RecordError, RulesError
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..engine.state import BidValue, DraftTurn, Phase, PlayedCard

PROTOCOL = 1


class ProtocolError(ValueError):
    """A message that does not follow docs/bot-protocol.md."""


def _get(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise ProtocolError(f"observation lacks field {key!r}")
    return data[key]


def _card(text: Any) -> Card:
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None


def _played(item: Any) -> PlayedCard:
    if not isinstance(item, Mapping):
        raise ProtocolError(f"a played card must be an object, not {item!r}")
    return PlayedCard(int(_get(item, "player")), _card(_get(item, "card")))


def _bid(value: Any) -> Optional[BidValue]:
    if value is None or value == "double_nil":
        return value  # type: ignore[no-any-return]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ProtocolError(f"a bid must be a number, \"double_nil\" or null, not {value!r}")


def _pair(value: Any, key: str) -> tuple[Any, Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError(f"field {key!r} must be a list of two values")
    return (value[0], value[1])


def _check(ok: bool, why: str) -> None:
    if not ok:
        raise ProtocolError(f"impossible observation: {why}")


def check_observation(obs: Observation) -> Observation:
    """``obs`` if a game could have produced it, else ``ProtocolError`` saying why: the bots index tables by
    seat and shift bit masks by counts, so a seat 5 or a count of -1 must stop here, said plainly."""
    _check(obs.seat in (0, 1) and obs.first_drafter in (0, 1) and obs.to_act in (None, 0, 1),
           "seat, first_drafter and to_act must be 0 or 1")
    _check(0 <= obs.hand_number <= 10**6, "hand_number out of range")
    _check(all(abs(x) <= 10**9 for x in obs.scores + obs.bags) and all(b >= 0 for b in obs.bags),
           "scores or bags out of range")
    _check(0 <= obs.stock_left <= 52 and 0 <= obs.opponent_cards <= 26 and len(obs.hand) <= 26,
           "card counts out of range")
    _check(all(0 <= t <= 13 for t in obs.tricks_won) and len(obs.tricks) <= 13 and len(obs.trick) <= 1,
           "trick counts out of range")
    _check(sum(obs.tricks_won) == len(obs.tricks), "tricks_won does not match the completed tricks")
    played = [pc for t in obs.tricks for pc in t] + list(obs.trick)
    _check(all(pc.player in (0, 1) for pc in played) and all(d.player in (0, 1) for d in obs.draft_log),
           "a player must be 0 or 1")
    cards = [pc.card for pc in played] + list(obs.hand)
    _check(len(set(cards)) == len(cards), "a card is in two places")
    _check(len(obs.hand) + obs.opponent_cards + len(played) + obs.stock_left <= 52, "more than 52 cards")
    _check(all(b is None or b == "double_nil" or (type(b) is int and 0 <= b <= 13) for b in obs.bids),
           "a bid must be 0 to 13, \"double_nil\" or null")
    _check(all(x is None or (type(x) is int and 0 <= x <= 13) for x in obs.exchanged), "exchanged out of range")
    _check(len(obs.draft_log) <= 52, "draft_log too long")
    return obs


def observation_from_json(data: Any) -> Observation:
    """Rebuild an ``Observation`` from its docs/bot-protocol.md JSON form; ``ProtocolError`` if it is malformed or
    impossible (``check_observation``)."""
    if not isinstance(data, Mapping):
        raise ProtocolError("an observation must be an object")
    try:
        rules = Rules.from_json(_get(data, "rules"))
        drawn = _get(data, "drawn")
        trick = _get(data, "trick")
        tricks = _get(data, "tricks")
        draft_log = _get(data, "draft_log")
        if not isinstance(trick, list) or not isinstance(tricks, list) or not isinstance(draft_log, list):
            raise ProtocolError("trick, tricks and draft_log must be lists")
        pairs = []
        for t in tricks:
            if not isinstance(t, list) or len(t) != 2:
                raise ProtocolError("each completed trick must list two played cards")
            pairs.append((_played(t[0]), _played(t[1])))
        scores = _pair(_get(data, "scores"), "scores")
        bags = _pair(_get(data, "bags"), "bags")
        dn = _pair(_get(data, "double_nil"), "double_nil")
        exchanged = _pair(_get(data, "exchanged"), "exchanged")
        bids = _pair(_get(data, "bids"), "bids")
        won = _pair(_get(data, "tricks_won"), "tricks_won")
        return check_observation(Observation(
            seat=int(_get(data, "seat")),
            rules=rules,
            hand_number=int(_get(data, "hand_number")),
            first_drafter=int(_get(data, "first_drafter")),
            phase=Phase(_get(data, "phase")),
            to_act=None if data.get("to_act") is None else int(data["to_act"]),
            scores=(int(scores[0]), int(scores[1])),
            bags=(int(bags[0]), int(bags[1])),
            hand=frozenset(_card(c) for c in _get(data, "hand")),
            drawn=None if drawn is None else _card(drawn),
            seen_discards=frozenset(_card(c) for c in _get(data, "seen_discards")),
            draft_log=tuple(
                DraftTurn(int(_get(d, "player")), "first" if _get(d, "take") == "first" else "second")
                for d in draft_log
            ),
            stock_left=int(_get(data, "stock_left")),
            double_nil=(bool(dn[0]), bool(dn[1])),
            exchanged=(exchanged[0], exchanged[1]),
            bids=(_bid(bids[0]), _bid(bids[1])),
            tricks_won=(int(won[0]), int(won[1])),
            trick=tuple(_played(t) for t in trick),
            tricks=tuple(pairs),
            spades_broken=bool(_get(data, "spades_broken")),
            opponent_cards=int(_get(data, "opponent_cards")),
        ))
    except (RulesError, TypeError, ValueError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(f"bad observation: {exc}") from None


def player_action_from_json(data: Any) -> PlayerAction:
    try:
        action = action_from_json(data)
    except RecordError as exc:
        raise ProtocolError(str(exc)) from None
    if is_chance(action):
        raise ProtocolError(f"{action.type} is a chance action, not a player's decision")
    return action  # type: ignore[return-value]


def dumps(message: Mapping[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def hello(seat: int, rules: Rules) -> str:
    return dumps({"type": "hello", "protocol": PROTOCOL, "seat": seat, "rules": rules.to_json()})


def act(observation: Observation, legal: Sequence[PlayerAction]) -> str:
    return dumps({"type": "act", "observation": observation.to_json(), "legal": [a.to_json() for a in legal]})


def result(scores: tuple[int, int], winner: Optional[int]) -> str:
    return dumps({"type": "result", "scores": list(scores), "winner": winner})
