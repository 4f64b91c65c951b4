"""Game records (docs/game-record.md): round trips, atomic saves, and refusing malformed input."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.actions import Action, Bid, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Play, Shuffle
from spades_tui.engine.errors import RecordError
from spades_tui.engine.record import GameRecord, PlayerInfo, loads_record, parse_record, replay
from spades_tui.engine.rules import Rules
from spades_tui.keep.storage import StorageError, load_record, save_record
from spades_tui.session.randomplay import random_game
from tests.support.positions import card, cards

GOOD: dict[str, Any] = {
    "format": "spades-tui-game",
    "version": 1,
    "rules": {"target": 300},
    "first_drafter": 1,
    "players": [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot:hard"}],
    "actions": [],
}


def doc(**changes: Any) -> str:
    data = {**GOOD, **changes}
    return json.dumps({k: v for k, v in data.items() if v is not _DROP})


_DROP = object()


def with_action(action: Any) -> str:
    return doc(actions=[action])


def sample_record() -> GameRecord:
    record, _ = random_game(7, Rules(target=150, see_second_card=True), first_drafter=1, max_hands=2)
    return GameRecord(
        record.rules,
        record.first_drafter,
        (PlayerInfo("Ada", "human"), PlayerInfo("Bot ♠", "bot:hard")),
        record.actions,
        (("seed", 7), ("created", "2026-11-30T00:00:00Z")),
    )


def test_save_then_load_gives_the_same_record(tmp_path: Path) -> None:
    record = sample_record()
    assert any(isinstance(a, ExchangeDraw) for a in record.actions) or len(record.actions) > 50
    path = tmp_path / "game.json"
    save_record(path, record)
    loaded = load_record(path)
    assert loaded == record
    assert replay(loaded) == replay(record)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "spades-tui-game" and data["version"] == 1 and data["seed"] == 7
    assert loaded.dumps() == record.dumps()


def test_writers_emit_two_character_upper_case_cards() -> None:
    data = json.loads(sample_record().dumps())
    shuffle = data["actions"][0]
    assert shuffle["type"] == "shuffle" and len(shuffle["stock"]) == 52
    assert all(len(c) == 2 and c == c.upper() and c[0] in "23456789TJQKA" and c[1] in "SHDC" for c in shuffle["stock"])
    assert "TS" in shuffle["stock"]


def test_every_action_type_round_trips_through_json() -> None:
    actions: list[Action] = [
        Shuffle(cards("AS KS")),
        DeclareDoubleNil(1, True),
        Draft(0, "second"),
        Exchange(1, cards("QH 2C AS")),
        ExchangeDraw(1, cards("3D 4D 5D")),
        Bid(0, 0),
        Play(1, card("TS")),
    ]
    text = GameRecord(actions=tuple(actions)).dumps()
    for raw, action in zip(json.loads(text)["actions"], actions, strict=True):
        assert parse_record(json.loads(doc(actions=[raw]))).actions == (action,)


def test_save_is_atomic_when_the_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("old contents", encoding="utf-8")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("spades_tui.keep.storage.os.replace", fail)
    with pytest.raises(StorageError, match=r"cannot write .*game\.json: No space left on device"):
        save_record(path, sample_record())
    assert path.read_text(encoding="utf-8") == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary file left


def test_save_is_atomic_when_fsync_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("old contents", encoding="utf-8")

    def fail(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("spades_tui.keep.storage.os.fsync", fail)
    with pytest.raises(StorageError, match="Input/output error"):
        save_record(path, sample_record())
    assert path.read_text(encoding="utf-8") == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_save_refuses_unencodable_text_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old contents", encoding="utf-8")
    # A lone surrogate is valid JSON; names are cleaned as they are read, a note kept as written is not.
    record = loads_record(doc(note="\ud800"))
    with pytest.raises(StorageError, match="cannot write"):
        save_record(path, record)
    assert path.read_text(encoding="utf-8") == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_save_into_a_missing_directory_says_so(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match=r"cannot write .*nowhere"):
        save_record(tmp_path / "nowhere" / "game.json", sample_record())


def test_save_replaces_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old contents", encoding="utf-8")
    save_record(path, sample_record())
    assert load_record(path) == sample_record()
    assert os.listdir(tmp_path) == ["game.json"]


MALFORMED = [
    ("not json at all", "not valid JSON"),
    ("", "not valid JSON"),
    ("[1, 2]", "a game record must be a JSON object, not list"),
    ('"spades"', "a game record must be a JSON object, not str"),
    ("[" * 100_000, "nested too deeply"),
    (doc(format="chess-game"), "not a spades-tui game record: format is 'chess-game'"),
    (doc(format=_DROP), "not a spades-tui game record: it lacks 'format'"),
    (doc(version=_DROP), "not a spades-tui game record: it lacks 'version'"),
    (doc(version=2), "unsupported record version 2 (this program reads version 1)"),
    (doc(version="1"), "unsupported record version '1'"),
    (doc(version=True), "unsupported record version True"),
    (doc(version=1.0), "unsupported record version 1.0"),
    (doc(rules={"trumps": "hearts"}), "unknown rule option 'trumps'"),
    (doc(rules={"target": "500"}), "rule target must be a whole number, not '500'"),
    (doc(rules={"target": 0}), "rule target must be 1 to 10000, not 0"),
    (doc(rules={"bag_limit": -1}), "rule bag_limit must be 0 to 50, not -1"),
    (doc(rules={"nil": 1}), "rule nil must be true or false, not 1"),
    (doc(rules={"target": True}), "rule target must be a whole number, not True"),
    (doc(rules=[]), "rules must be an object, not list"),
    (doc(first_drafter=2), "first_drafter must be 0 or 1, not 2"),
    (doc(first_drafter="0"), "first_drafter must be 0 or 1, not '0'"),
    (doc(first_drafter=True), "first_drafter must be 0 or 1, not True"),
    (doc(first_drafter=1.0), "first_drafter must be 0 or 1, not 1.0"),
    (doc(players={"name": "Ada"}), "players must be a list of two objects"),
    (doc(players=["Ada", "Bot"]), "player 0 must be an object with a name"),
    (doc(actions=_DROP), "the record has no 'actions' list"),
    (doc(actions={"type": "bid"}), "the record has no 'actions' list"),
    (with_action(["bid", 0, 3]), "action 0: an action must be an object, not list"),
    (with_action({"type": "deal", "cards": []}), "action 0: unknown action type 'deal'"),
    (with_action({"player": 0, "tricks": 3}), "action 0: an action lacks its 'type'"),
    (with_action({"type": "bid", "player": 0}), "action 0: bid action lacks field 'tricks'"),
    (with_action({"type": "bid", "player": 0, "tricks": 3, "trick": 3}), "bid action has unknown field 'trick'"),
    (with_action({"type": "bid", "player": 0, "tricks": "3"}), "field 'tricks' must be a whole number, not '3'"),
    (with_action({"type": "bid", "player": 0, "tricks": True}), "field 'tricks' must be a whole number, not True"),
    (with_action({"type": "bid", "player": 0, "tricks": 2.5}), "field 'tricks' must be a whole number, not 2.5"),
    (with_action({"type": "bid", "player": False, "tricks": 3}), "field 'player' must be a whole number, not False"),
    (with_action({"type": "bid", "player": 2, "tricks": 3}), "action 0: field 'player' must be 0 or 1, not 2"),
    (with_action({"type": "double_nil", "player": 0, "declare": "yes"}), "field 'declare' must be true or false"),
    (with_action({"type": "double_nil", "player": 0, "declare": 1}), "field 'declare' must be true or false, not 1"),
    (with_action({"type": "draft", "player": 0, "take": "both"}), "field 'take' must be \"first\" or \"second\""),
    (with_action({"type": "shuffle", "stock": "AS KS"}), "field 'stock' must be a list of cards"),
    (with_action({"type": "exchange", "player": 0, "discard": "AS"}), "field 'discard' must be a list of cards"),
    (with_action({"type": "exchange_draw", "player": 0, "cards": None}), "field 'cards' must be a list of cards"),
    (with_action({"type": "play", "player": 0, "card": "1S"}), "action 0: '1S' is not a card"),
    (with_action({"type": "play", "player": 0, "card": "ZZ"}), "action 0: 'ZZ' is not a card"),
    (with_action({"type": "play", "player": 0, "card": "AX"}), "action 0: 'AX' is not a card"),
    (with_action({"type": "play", "player": 0, "card": 12}), "action 0: a card must be a string like 'TS', not 12"),
    (with_action({"type": "shuffle", "stock": ["AS", "11H"]}), "action 0: '11H' is not a card"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_records_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        loads_record(text)
    assert message in str(info.value)
    assert "Traceback" not in str(info.value)


def test_the_index_of_a_malformed_action_is_named() -> None:
    good = {"type": "bid", "player": 0, "tricks": 3}
    with pytest.raises(RecordError, match=r"^action 2: bid action lacks field 'player'$"):
        loads_record(doc(actions=[good, good, {"type": "bid", "tricks": 3}]))


def test_a_record_without_players_is_accepted() -> None:
    record = loads_record(doc(players=_DROP))
    assert record.players is None and record.first_drafter == 1 and record.rules == Rules(target=300)
    assert loads_record(doc(players=None)).players is None


def test_rules_and_first_drafter_take_their_defaults() -> None:
    record = loads_record(doc(rules=_DROP, first_drafter=_DROP))
    assert record.rules == Rules() and record.first_drafter == 0


def test_extra_top_level_keys_are_ignored() -> None:
    plain = loads_record(doc())
    extra = loads_record(doc(seed=42, created="today", app={"version": "9"}))
    assert extra.actions == plain.actions and extra.rules == plain.rules and extra.players == plain.players
    assert replay(extra) == replay(plain)


def test_readers_accept_10_and_lower_case() -> None:
    action = {"type": "exchange", "player": 1, "discard": ["10S", "th", "as", "10h"]}
    assert loads_record(with_action(action)).actions == (Exchange(1, cards("TS TH AS TH")),)
    assert loads_record(with_action({"type": "play", "player": 0, "card": "qd"})).actions == (Play(0, card("QD")),)


def test_load_record_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no such file"):
        load_record(tmp_path / "missing.json")
    with pytest.raises(StorageError, match="is a directory"):
        load_record(tmp_path)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(StorageError, match="not UTF-8"):
        load_record(binary)
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.json: not valid JSON"):
        load_record(bad)
