"""Mutated and truncated records: a clear RecordError/ReplayError, never another exception."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from spades_tui.engine.errors import RecordError
from spades_tui.engine.record import ReplayError, loads_record, replay
from spades_tui.engine.rules import Rules
from spades_tui.session.randomplay import random_game

RECORD, _ = random_game(3, Rules(target=150), max_hands=2)
TEXT = RECORD.dumps()
DATA = json.loads(TEXT)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def load_and_replay(text: str) -> None:
    try:
        replay(loads_record(text))
    except (RecordError, ReplayError) as exc:
        message = str(exc)
        assert message and "Traceback" not in message


@given(st.integers(0, len(TEXT)))
def test_truncated_text_is_refused_clearly(cut: int) -> None:
    load_and_replay(TEXT[:cut])


@given(st.integers(0, len(TEXT) - 1), st.characters())
def test_a_changed_character_is_refused_clearly_or_still_valid(pos: int, char: str) -> None:
    load_and_replay(TEXT[:pos] + char + TEXT[pos + 1 :])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):  # the first actions are enough to reach every field type
            out += _paths(v, (*prefix, i))
    return out


PATHS = [p for p in _paths(DATA) if p]


@given(st.sampled_from(PATHS), json_values, st.booleans())
def test_a_replaced_or_deleted_value_is_refused_clearly(path: tuple[Any, ...], new: Any, delete: bool) -> None:
    data = json.loads(TEXT)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    load_and_replay(json.dumps(data))


def test_deeply_nested_json_is_refused_clearly() -> None:
    load_and_replay("[" * 100_000 + "]" * 100_000)
    load_and_replay('{"format": "spades-tui-game", "version": 1, "actions": ' + "[" * 50_000 + "]" * 50_000 + "}")


def test_float_where_an_integer_belongs_is_refused() -> None:
    for key, value in (("first_drafter", 0.0), ("version", 1.0)):
        data = json.loads(TEXT)
        data[key] = value
        try:
            loads_record(json.dumps(data))
        except RecordError as exc:
            assert key in str(exc) or "version" in str(exc)
        else:
            raise AssertionError(f"{key}={value!r} was accepted")


def test_an_integer_beyond_json_limits_is_a_record_error() -> None:
    data = json.loads(TEXT)
    text = json.dumps(data).replace('"first_drafter": 0', '"first_drafter": ' + "9" * 5000)
    try:
        loads_record(text)
    except RecordError as exc:
        assert "not a game record" in str(exc)
    else:
        raise AssertionError("a 5000-digit integer was accepted")
