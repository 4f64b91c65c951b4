"""A host's frames as a client reads them (issue 25): each field checked by type and bound before use, and
whatever a host sends, ``frames.read`` answers a typed message or ``FrameError``, never another exception."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.reducer import reduce
from spades_tui.engine.rules import Rules
from spades_tui.session.dealer import Dealer
from spades_tui.session.view import hand_to_json
from spades_tui.table.wire import frames as f

RULES = Rules()


def _state():  # type: ignore[no-untyped-def]
    state = GameRecord(RULES, 0).new_state()
    action = Dealer(3).chance_action(state)
    assert action is not None
    return reduce(state, action)


def _good() -> dict[str, dict[str, Any]]:
    from spades_tui.engine.state import HandResult, ScoreLine

    hand = HandResult(0, (3, "double_nil"), (5, 8), (ScoreLine(contract=-30), ScoreLine(nil=200, bags_added=1)),
                      (-30, 200), (0, 1))
    return {
        "welcome": {"type": "welcome", "seat": 1, "token": "t" * 32, "rules": RULES.to_json(), "code": "abcd-efgh-jkmn",
                    "players": [{"name": "A", "kind": "bot:easy"}, {"name": "B", "kind": "remote"}]},
        "commit": {"type": "commit", "hand": 1, "commitment": "Ab" * 32},
        "update": {"type": "update", "at": 3, "observation": observe(_state(), 1).to_json(), "legal": [],
                   "hands": [hand_to_json(hand)], "connected": [True, False]},
        "reveal": {"type": "reveal", "hand": 1, "secret": "00" * 32, "nonces": [None, "ff" * 32]},
        "error": {"type": "error", "reason": "\x1b[31mred\x07 " + "x" * 5000},
        "over": {"type": "over", "scores": [500, -20], "winner": 0, "record": GameRecord(RULES, 0).to_json()},
        "watching": {"type": "watching", "rules": RULES.to_json(),
                     "players": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "remote"}]},
        "said": {"type": "said", "seat": 1, "name": "B\x1b[2J", "text": "hi [b]there[/b]\x07"},
        "public": {"type": "update", "at": 3, "observation": _public_view(), "legal": [],
                   "hands": [], "connected": [True, True], "players": ["A", "B\x1b]0;x\x07"]},
    }


def _public_view() -> dict[str, Any]:
    """A watcher's observation as the host sends it (table/host/updates.py ``update``)."""
    view = observe(_state(), 0).to_json()
    view.update(seat=None, hand=[], drawn=None)
    view.pop("seen_discards", None)
    return view


def test_the_good_frames_read_as_typed_messages() -> None:
    good = _good()
    welcome = f.read(good["welcome"])
    assert isinstance(welcome, f.Welcome) and welcome.seat == 1 and welcome.players[0] == PlayerInfo("A", "bot:easy")
    assert f.read(good["commit"]) == f.Commit(1, "ab" * 32)
    update = f.read(good["update"])
    assert isinstance(update, f.Update) and update.at == 3 and update.connected == (True, False)
    assert update.hands[0].bids == (3, "double_nil")
    assert f.read(good["reveal"]) == f.Reveal(1, bytes(32), (None, bytes([255] * 32)))
    error = f.read(good["error"])
    assert isinstance(error, f.Error) and len(error.reason) <= f.MAX_REASON and "\x1b" not in error.reason
    over = f.read(good["over"])
    assert isinstance(over, f.Over) and over.scores == (500, -20) and over.record is not None


BAD = [
    ("welcome", "players", "ab"), ("welcome", "players", [1, 2]), ("welcome", "players", [{"name": 1}, {}]),
    ("welcome", "seat", True), ("welcome", "seat", 2), ("welcome", "seat", "1"), ("welcome", "token", None),
    ("welcome", "token", "a\nb"), ("welcome", "rules", "x"), ("welcome", "rules", {"target": "x"}),
    ("commit", "hand", True), ("commit", "hand", 0), ("commit", "commitment", " " * 64), ("commit", "commitment", 5),
    ("update", "at", "3"), ("update", "at", -1), ("update", "at", 3.0), ("update", "connected", "yes"),
    ("update", "connected", [1, 0]), ("update", "legal", {"a": 1}), ("update", "legal", [{"type": "x"}]),
    ("update", "observation", [1]), ("update", "observation", {"seat": 1}), ("update", "hands", "ab"),
    ("update", "hands", [{"lines": [1, 2]}]), ("reveal", "secret", " " * 64), ("reveal", "nonces", "ab"),
    ("reveal", "nonces", [None, " " * 64]), ("reveal", "hand", None), ("error", "reason", ["x"]),
    ("error", "reason", None), ("over", "scores", ["1", "2"]), ("over", "winner", True), ("over", "winner", 2),
    ("watching", "players", "ab"), ("watching", "players", [{"name": "A"}]), ("watching", "rules", None),
    ("watching", "rules", {"target": "x"}), ("said", "seat", 2), ("said", "seat", True), ("said", "name", 5),
    ("said", "name", "n" * 1000), ("said", "text", None), ("said", "text", "x" * 5000), ("said", "text", "\x1b[2J"),
    ("public", "players", ["A"]), ("public", "players", [1, 2]), ("public", "players", "AB"),
    ("public", "legal", [{"type": "bid", "player": 0, "bid": 3}]),
]


@pytest.mark.parametrize("kind,key,value", BAD, ids=[f"{k}-{f_}-{json.dumps(v)[:20]}" for k, f_, v in BAD])
def test_a_bad_field_is_a_frame_error(kind: str, key: str, value: Any) -> None:
    frame = _good()[kind]
    frame[key] = value
    with pytest.raises(f.FrameError):
        f.read(frame)


def test_a_hand_summary_with_bad_lines_is_refused() -> None:
    frame = _good()["update"]
    frame["hands"][0]["lines"] = [1, 2]
    with pytest.raises(f.FrameError):
        f.read(frame)


def test_not_an_object_or_an_unknown_type() -> None:
    for bad in ([1], "x", None, 5, {"type": "shout"}, {"type": None}, {"type": ["update"]}, {}):
        with pytest.raises(f.FrameError):
            f.read(bad)


def _mutations(value: Any, rng: random.Random) -> Any:
    """``value`` with one node somewhere replaced by something of another type."""
    odd = [None, True, 0, -1, 2 ** 70, 1.5, "", "x" * 300, [], [1, 2], {}, {"a": [1]}, "AS", "\ud800"]
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        value[key] = _mutations(value[key], rng) if rng.random() < 0.6 else rng.choice(odd)
        return value
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        value[i] = _mutations(value[i], rng) if rng.random() < 0.6 else rng.choice(odd)
        return value
    return rng.choice(odd)


def test_whatever_a_host_sends_is_read_or_refused_never_a_crash() -> None:
    rng = random.Random(25)
    good = _good()
    for _ in range(3000):
        kind = rng.choice(sorted(good))
        frame = copy.deepcopy(good[kind])
        key = rng.choice(sorted(k for k in frame if k != "type"))
        frame[key] = _mutations(frame[key], rng)
        try:
            f.read(frame)
        except f.FrameError:
            pass


def test_a_watchers_frames_and_a_line_said_read_cleaned_and_bounded() -> None:
    """Tables' own messages (watching, said, an update's names, a watcher's public view) have readers too:
    without one the client would drop them as unknown."""
    good = _good()
    watching = f.read(good["watching"])
    assert isinstance(watching, f.Watching) and [pl.name for pl in watching.players] == ["A", "B"]
    said = f.read(good["said"])
    assert isinstance(said, f.Said) and said.seat == 1 and "\x1b" not in said.name and "\x07" not in said.text
    assert said.text.startswith("hi [b]there[/b]")  # markup is text: the screen shows it literally
    public = f.read(good["public"])
    assert isinstance(public, f.Update) and public.public and public.legal == ()
    assert not public.observation.hand and public.observation.drawn is None
    assert public.names is not None and public.names[0] == "A" and "\x1b" not in public.names[1]
    seat = f.read(good["update"])
    assert isinstance(seat, f.Update) and not seat.public and seat.names is None


@pytest.mark.parametrize("field,value", [("hand", [{"suit": "S", "rank": 14}]), ("hand", None),
                                         ("drawn", {"suit": "S", "rank": 14}), ("seen_discards", [[]])])
def test_a_watchers_view_with_a_seats_own_cards_is_refused(field: str, value: Any) -> None:
    frame = _good()["public"]
    frame["observation"][field] = value
    with pytest.raises(f.FrameError):
        f.read(frame)


def test_the_invite_and_watch_command_come_from_the_welcome_and_never_to_a_watcher(tmp_path: Any) -> None:
    """Issue 37: a seat welcomed with the table's codes has both commands (naming another address where asked:
    a browser's page); a watcher, even one a host wrongly sends a seat's welcome, never has the join code."""
    from spades_tui.table.seat.client import TableClient

    welcome = {**_good()["welcome"], "watch": "pqrs-tuvw-xyz2"}
    seat = TableClient("ws://127.0.0.1:47999/table", code="abcd-efgh-jkmn", seat_file=tmp_path / "seat.json")
    assert seat.invite_commands() is None  # before the welcome: no codes yet
    seat._handle(welcome)
    assert seat.invite_commands() == ("spades-tui join 127.0.0.1:47999 abcd-efgh-jkmn",
                                      "spades-tui watch 127.0.0.1:47999 pqrs-tuvw-xyz2")
    assert seat.invite_commands("box.example.org:7000")[0] == "spades-tui join box.example.org:7000 abcd-efgh-jkmn"
    watcher = TableClient("ws://127.0.0.1:47999/table", watch="pqrs-tuvw-xyz2")
    watcher._handle(_good()["watching"])
    watcher._handle(welcome)  # refused or not, a watcher shows no code
    assert watcher.invite_commands() is None and watcher.invite_lines() is None
