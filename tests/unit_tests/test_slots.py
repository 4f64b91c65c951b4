"""Autosave slots (keep/slots.py): one locked file per game, so two copies of the game never
write the same file.  "Another process" is a real child process holding the lock (tests/support/slots.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spades_tui.engine.outcome import Forfeit
from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.keep.slots import SlotBusy, SlotDirectory, open_games
from spades_tui.keep.storage import StorageError, load_record
from spades_tui.session.store import GameStore
from tests.support.slots import held_by_another_process

PLAYERS = (PlayerInfo("Ada"), PlayerInfo("Bob"))


def _record(actions: int = 10, seed: int = 1, *, hands: int = 0) -> GameRecord:
    """A legal record: ``actions`` actions, or played on until ``hands`` hands are over."""
    store = GameStore(GameRecord(Rules(), 0, PLAYERS), seed=seed)
    while len(store.record.actions) < actions or len(store.state.history) < hands:
        store.dispatch(store.chance_due() or legal_actions(store.state)[0])
    return store.record


def _save(path: Path, record: GameRecord, mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.dumps(), encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_two_claims_get_two_slots_and_a_new_game_never_takes_a_used_number(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    with slots.claim_new() as one, slots.claim_new() as two:
        assert one.path != two.path and one.held and two.held
        assert {one.path.name, two.path.name} == {"game-1.json", "game-2.json"}
        assert slots.is_held(one.path) and not slots.held_elsewhere(one.path)  # held here, not elsewhere
        _save(one.path, _record())
    assert not one.held
    # Game 1 is saved and free, game 2 was claimed but never saved: a new game takes 3.
    with slots.claim_new() as three:
        assert three.path.name == "game-3.json"
    assert load_record(one.path).actions == _record().actions  # untouched


def test_a_second_copy_takes_the_next_free_slot(tmp_path: Path) -> None:
    root = tmp_path / "games"
    with held_by_another_process(root, how="new") as other, SlotDirectory(root).claim_new() as mine:
        assert other.path.name == "game-1.json" and mine.path.name == "game-2.json"


@pytest.mark.parametrize("how", ["claim", "flock"])
def test_a_slot_held_by_another_process_is_listed_as_open_elsewhere_and_refused(tmp_path: Path, how: str) -> None:
    slots = SlotDirectory(tmp_path / "games")
    path = _save(slots.slot_path(1), _record())
    with held_by_another_process(slots.root, path, how) as other:
        [game] = slots.list_games()
        assert game.path == path and game.held_elsewhere
        with pytest.raises(SlotBusy, match="open in another window") as refused:
            slots.claim(path)
        if how == "claim":
            assert f"process {other.pid}" in str(refused.value)
        assert slots.clean_strays() == []
        other.kill()  # however it ends, the OS drops the lock
        assert not slots.list_games()[0].held_elsewhere
        with slots.claim(path) as slot:
            assert slot.held and slot.path == path


def test_claim_release_and_claiming_twice_in_one_process(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    path = _save(slots.slot_path(4), _record())
    slot = slots.claim(path)
    with pytest.raises(SlotBusy, match="already open in this window"):
        SlotDirectory(tmp_path / "games").claim(path)  # flock alone would not stop the same process
    slot.release()
    slot.release()  # twice: nothing
    assert not slots.is_held(path)
    with slots.claim(path):
        pass
    with pytest.raises(StorageError, match="no such file"):
        slots.claim(slots.slot_path(9))
    with pytest.raises(StorageError, match="not a game slot"):
        slots.claim(tmp_path / "game-1.json")


def test_list_games_says_who_played_the_score_the_hand_when_and_whether_finished(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    played = _record(hands=1, seed=3)
    store = GameStore(_record(5, seed=4))
    store.record_forfeit(Forfeit(1, "Bob forfeits: gone"))
    _save(slots.slot_path(1), played, mtime=1_700_000_000)
    _save(slots.slot_path(2), _record(20, seed=5), mtime=1_700_000_500)
    _save(slots.slot_path(3), store.record, mtime=1_700_001_000)
    slots.slot_path(3).with_suffix(".lock").touch()  # a lock file left by the process that played it
    games = slots.list_games()
    assert [g.path.name for g in games] == ["game-2.json", "game-1.json"]  # unfinished, latest first
    second = games[1]
    state = replay(played)
    assert second.names == ("Ada", "Bob") and second.scores == state.scores and state.scores != (0, 0)
    assert second.hand_number == state.hand_number and second.last_played == 1_700_000_000
    assert [g.finished for g in games] == [False, False]
    # A forfeit ends a game too: game 3 is moved out of the way, a record as it was, its number never used again.
    assert not slots.slot_path(3).exists()
    assert slots.finished_games() == [tmp_path / "games" / "finished" / "game-3.json"]
    assert load_record(slots.finished_games()[0]) == store.record
    assert slots.list_games() == games  # the second listing from the index, the same
    with slots.claim_new() as slot:
        assert slot.path.name == "game-4.json"


def test_the_old_autosave_moves_into_slots_once_and_a_damaged_one_is_set_aside(tmp_path: Path) -> None:
    records = {name: _record(10 + i, seed=i) for i, name in enumerate(
        ["autosave.json", "autosave.previous.json", "autosave.previous-1.json"])}
    for name, record in records.items():
        _save(tmp_path / name, record)
    (tmp_path / "autosave.corrupt-20240101-000000.json").write_text("old damage", encoding="utf-8")
    (tmp_path / ".autosave.json.x1y2.tmp").write_text("half", encoding="utf-8")
    slots, messages = open_games(tmp_path)
    assert messages == []
    moved = sorted((load_record(g.path).actions for g in slots.list_games()), key=len)
    assert moved == sorted((r.actions for r in records.values()), key=len)
    assert not any((tmp_path / name).exists() for name in records)
    assert not (tmp_path / ".autosave.json.x1y2.tmp").exists()
    assert (tmp_path / "autosave.corrupt-20240101-000000.json").read_text(encoding="utf-8") == "old damage"
    assert open_games(tmp_path)[0].list_games() == slots.list_games()  # once: nothing more to move

    (tmp_path / "autosave.json").write_text("{ damaged", encoding="utf-8")
    _, messages = open_games(tmp_path)
    assert len(messages) == 1 and "could not be read" in messages[0]
    kept = list(tmp_path.glob("autosave.corrupt-2*.json"))
    assert len(kept) == 2 and "{ damaged" in {p.read_text(encoding="utf-8") for p in kept}
    assert len(slots.list_games()) == 3


def test_stray_temporary_files_go_but_not_those_of_live_slots(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    for n in (1, 2, 3):
        _save(slots.slot_path(n), _record(seed=n))
    strays = {n: slots.root / f".game-{n}.json.k{n}x.tmp" for n in (1, 2, 3)}
    for path in strays.values():
        path.write_text("half written", encoding="utf-8")
    other_file = slots.root / ".notes.tmp"
    other_file.write_text("not ours", encoding="utf-8")
    with held_by_another_process(slots.root, slots.slot_path(1)), slots.claim(slots.slot_path(3)):
        assert slots.clean_strays() == [strays[2]]  # 1: another process writes it; 3: this one does
        assert strays[1].exists() and strays[3].exists() and not strays[2].exists()
    assert other_file.exists()
    assert sorted(slots.clean_strays()) == [strays[1], strays[3]]


def test_a_damaged_slot_is_set_aside_with_a_message_never_overwritten(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    good = _save(slots.slot_path(1), _record())
    bad = slots.slot_path(2)
    bad.write_text("{ not a record", encoding="utf-8")
    listing = slots.scan()
    assert [g.path for g in listing.games] == [good]
    assert len(listing.messages) == 1 and "game-2.json could not be read" in listing.messages[0]
    [kept] = slots.root.glob("game-2.corrupt-*.json")
    assert kept.read_text(encoding="utf-8") == "{ not a record" and str(kept) in listing.messages[0]
    with slots.claim_new() as slot:
        assert slot.path.name == "game-3.json"  # 2's number stays with its damaged copy

    # Damaged while another process holds it: that process's business, left alone.
    held = slots.slot_path(5)
    held.write_text("{ mid-upgrade", encoding="utf-8")
    with held_by_another_process(slots.root, held):
        assert slots.scan().messages == [] and held.exists()


def test_open_game_reads_the_record_or_sets_a_damaged_one_aside(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    record = _record(12)
    path = _save(slots.slot_path(1), record)
    slot, got = slots.open_game(path)
    with slot:
        assert got.actions == record.actions and slots.is_held(path)
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(StorageError, match="could not be read"):
        slots.open_game(path)
    assert not path.exists() and not slots.is_held(path)
    assert len(list(slots.root.glob("game-1.corrupt-*.json"))) == 1


def test_a_store_saves_only_into_its_own_slot(tmp_path: Path) -> None:
    """Two games at once in one directory: each record lands in its own file."""
    slots = SlotDirectory(tmp_path / "games")
    with slots.claim_new() as a, slots.claim_new() as b:
        one = GameStore(GameRecord(Rules(), 0, PLAYERS), seed=1, autosave=a.path)
        two = GameStore(GameRecord(Rules(), 1, PLAYERS), seed=2, autosave=b.path)
        for store in (one, two, one, one, two):
            store.dispatch(store.chance_due() or legal_actions(store.state)[0])
        assert load_record(a.path).actions == one.record.actions and len(one.record.actions) == 3
        assert load_record(b.path).actions == two.record.actions and len(two.record.actions) == 2


def test_a_directory_that_cannot_be_made_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "games").write_text("a file in the way", encoding="utf-8")
    slots = SlotDirectory(tmp_path / "games")
    with pytest.raises(StorageError, match="cannot create"):
        slots.claim_new()
    assert slots.scan().games == [] and slots.clean_strays() == []
