"""The store: dispatch, autosave, resume, corrupt autosave (no Textual involved)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spades_tui.engine import (
    Bid,
    GameRecord,
    IllegalActionError,
    Phase,
    PlayerInfo,
    Rules,
    legal_actions,
    loads_record,
    replay,
)
from spades_tui.store import GameStore, check_autosave, default_autosave_path, keep_previous

PLAYERS = (PlayerInfo("Ada"), PlayerInfo("Bob"))


def _play(store: GameStore, n: int, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(0)
    for _ in range(n):
        legal = legal_actions(store.state)
        bids = [a for a in legal if isinstance(a, Bid) and a.tricks == 1]  # modest bids: games end
        action = store.chance_due() or (bids[0] if bids else rng.choice(legal))
        store.dispatch(action)


def test_dispatch_appends_to_record_and_autosaves(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "autosave.json"
    store = GameStore.new(Rules(target=50), 1, PLAYERS, seed=7, autosave=path)
    seen = []
    store.subscribe(seen.append)
    _play(store, 40)
    assert len(store.record.actions) == 40
    assert seen[-1] is store.state and len(seen) == 40
    saved = loads_record(path.read_text(encoding="utf-8"))
    assert saved.actions == store.record.actions
    assert replay(saved) == store.state
    assert dict(saved.metadata)["seed"] == 7


def test_illegal_action_changes_nothing(tmp_path: Path) -> None:
    store = GameStore.new(Rules(), 0, PLAYERS, seed=1, autosave=tmp_path / "a.json")
    store.deal()
    before_state, before_record = store.state, store.record
    with pytest.raises(IllegalActionError):
        store.dispatch(Bid(0, 3))  # it is the draft, not the bidding
    assert store.state is before_state and store.record is before_record


def test_resume_continues_with_the_same_cards(tmp_path: Path) -> None:
    """A resumed game (seed from the record) deals exactly what the original would have."""
    path = tmp_path / "autosave.json"
    original = GameStore.new(Rules(target=100), 0, PLAYERS, seed=11, autosave=path)
    _play(original, 130)  # past the first hand's end
    status = check_autosave(path)
    assert status.resumable and status.record is not None
    resumed = GameStore(status.record, autosave=path)
    assert resumed.state == original.state
    _play(original, 60)
    _play(resumed, 60)
    assert resumed.state == original.state


def test_corrupt_autosave_is_set_aside_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.write_text('{"format": "spades-tui-game", "version": 1, "actions": [{"type": "bogus"}]}', encoding="utf-8")
    status = check_autosave(path)
    assert status.record is None and not status.resumable
    assert status.message is not None and "could not be read" in status.message
    assert not path.exists()
    aside = list(tmp_path.glob("autosave.corrupt-*.json"))
    assert len(aside) == 1 and "bogus" in aside[0].read_text(encoding="utf-8")
    assert str(aside[0]) in status.message


def test_illegal_record_in_autosave_is_corrupt_too(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    record = GameRecord(Rules(), 0, PLAYERS, (Bid(0, 3),))
    path.write_text(record.dumps(), encoding="utf-8")
    status = check_autosave(path)
    assert status.message and "action 0" in status.message
    assert len(list(tmp_path.glob("autosave.corrupt-*.json"))) == 1


def test_two_corrupt_files_never_overwrite_each_other(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    for text in ("not json", "still not json"):
        path.write_text(text, encoding="utf-8")
        check_autosave(path)
    kept = sorted(p.read_text(encoding="utf-8") for p in tmp_path.glob("autosave.corrupt-*"))
    assert kept == ["not json", "still not json"]


def test_missing_autosave_is_quietly_absent(tmp_path: Path) -> None:
    status = check_autosave(tmp_path / "none.json")
    assert status.record is None and status.message is None


def test_finished_game_is_not_offered_for_resume(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    store = GameStore.new(Rules(target=1), 0, PLAYERS, seed=2)  # no autosave while playing: faster
    rng = random.Random(5)
    for _ in range(20000):
        if store.state.phase is Phase.GAME_OVER:
            break
        _play(store, 1, rng)
    assert store.state.phase is Phase.GAME_OVER
    store.autosave_path = path
    store.save()
    status = check_autosave(path)
    assert status.record is not None and not status.resumable


def test_unwritable_autosave_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    store = GameStore.new(Rules(), 0, PLAYERS, seed=3, autosave=blocker / "autosave.json")
    store.deal()
    assert store.save_error is not None and "Autosave failed" in store.save_error


def test_keep_previous_keeps_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.write_text("old", encoding="utf-8")
    keep_previous(path)
    assert (tmp_path / "autosave.previous.json").read_text(encoding="utf-8") == "old"


def test_autosave_path_honours_xdg_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_autosave_path() == tmp_path / "spades-tui" / "autosave.json"


def test_keep_previous_never_overwrites_an_older_copy(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    for text in ("first", "second", "third"):
        path.write_text(text, encoding="utf-8")
        keep_previous(path)
    assert not path.exists()
    assert (tmp_path / "autosave.previous.json").read_text(encoding="utf-8") == "first"
    assert (tmp_path / "autosave.previous-1.json").read_text(encoding="utf-8") == "second"
    assert (tmp_path / "autosave.previous-2.json").read_text(encoding="utf-8") == "third"
