"""Hostile input below the interface (issue 17): the cleaning module, bounded readers, links where the game
writes, impossible bot observations, and the slot listing that no longer replays every record.

Each test for one of the issue's ten findings says why it failed before the fix.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades_tui.bots.server import serve
from spades_tui.engine.observation import observe
from spades_tui.engine.outcome import Forfeit
from spades_tui.engine.record import GameRecord, PlayerInfo, loads_record
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import new_game
from spades_tui.engine.text import MAX_NAME, MAX_RECORD_NAME, clean_name, printable
from spades_tui.keep import slots as slots_module
from spades_tui.keep.slots import SlotDirectory
from spades_tui.keep.storage import StorageError, load_game, save_record
from spades_tui.session.dealer import Dealer
from spades_tui.session.store import GameStore
from spades_tui.settings.options import MAX_SEED_DIGITS, parse_seed
from spades_tui.settings.preferences import Preferences, load
from tests.support.hostile import HOSTILE_NAMES, unsafe

# ---------------------------------------------------------------- the cleaning module


@pytest.mark.parametrize("kind", sorted(HOSTILE_NAMES))
def test_a_hostile_name_is_cleaned_to_a_name_a_person_could_type(kind: str) -> None:
    name = clean_name(HOSTILE_NAMES[kind], "Player 1")
    assert name and len(name) <= MAX_NAME
    assert not any(unsafe(ch) for ch in name)
    name.encode("utf-8")  # a lone surrogate could not be written to a terminal or a file
    assert clean_name(name, "Player 1") == name  # cleaning twice changes nothing


def test_what_cleaning_keeps_and_drops() -> None:
    assert clean_name(HOSTILE_NAMES["escapes"]) == "EVIL"  # whole sequences go, their parameters too
    assert clean_name("  Ada \n\t Lovelace  ") == "Ada Lovelace"
    assert clean_name("A\ud800B") == "A\ufffdB"
    assert clean_name("[/]") == "[/]" and clean_name("Bob [the builder]", limit=40) == "Bob [the builder]"
    assert clean_name("Zoë 👩‍💻") == "Zoë 👩‍💻"  # the zero-width joiner of an emoji stays
    assert clean_name("\x1b[31m\x07", "Player 2") == "Player 2" and clean_name(42, "P") == "P"
    assert len(clean_name("N" * 5000, limit=MAX_RECORD_NAME)) == MAX_RECORD_NAME


def test_printable_shows_what_a_terminal_would_obey_and_loses_nothing() -> None:
    assert printable("\x1b]0;x\x07") == "\\x1b]0;x\\x07"
    assert printable("a\nb") == "a\\nb" and printable("a\nb", newlines=True) == "a\nb"
    assert printable("\ud800") == "\\ud800" and printable("\u202e") == "\\u202e"
    assert printable("x" * 10, limit=5) == "xxxx…"
    assert printable("Zoë [/]") == "Zoë [/]"


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_comes_out_clean_and_printable(text: str) -> None:
    name = clean_name(text)
    assert len(name) <= MAX_NAME and not any(unsafe(ch) for ch in name) and clean_name(name) == name
    shown = printable(text)
    assert not any(unsafe(ch) for ch in shown)
    shown.encode("utf-8")


def test_finding_1_2_3_a_record_cleans_its_names_as_it_is_read() -> None:
    """Findings 1 to 3 where names enter from a record.  Before the fix ``parse_record`` kept a name as written:
    the escape sequence, the newline and the lone surrogate reached the slot, the statistics and the terminal."""
    for kind, raw in HOSTILE_NAMES.items():
        text = json.dumps({"format": "spades-tui-game", "version": 1, "actions": [],
                           "players": [{"name": raw}, {"name": "Bob", "kind": "\x1b[2Jbot"}]})
        record = loads_record(text)
        assert record.players is not None
        name = record.players[0].name
        assert not any(unsafe(ch) for ch in name) and len(name) <= MAX_RECORD_NAME, kind
        assert record.players[1].kind == "bot"
    assert loads_record("\ufeff" + json.dumps({"format": "spades-tui-game", "version": 1, "actions": []}))


def test_finding_2_a_name_in_the_preferences_is_cleaned(tmp_path: Path) -> None:
    """Before the fix a ``player_name`` with a control character was kept as written (only stripped)."""
    path = tmp_path / "preferences.toml"
    path.write_text('player_name = "\\u001b[31mRed\\nDwarf"\n', encoding="utf-8")
    prefs, message = load(path)
    assert prefs.player_name == "Red Dwarf" and message is None
    path.write_text('player_name = "[/]"\n', encoding="utf-8")
    assert load(path) == (Preferences(player_name="[/]"), None)  # markup is a fine name: it is shown as text


# ---------------------------------------------------------------- bounded readers


def test_finding_4_a_deeply_nested_preferences_file_is_one_message_and_the_defaults(tmp_path: Path) -> None:
    """Before the fix ``tomllib`` raised ``RecursionError``, which ``load`` did not catch: every start ended."""
    path = tmp_path / "preferences.toml"
    path.write_text("theme = \"nord\"\nx = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    prefs, message = load(path)
    assert prefs == Preferences()
    assert message is not None and "nested too deeply" in message and str(path) in message


def test_a_huge_preferences_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    path.write_text("# " + "x" * (1024 * 1024) + "\n", encoding="utf-8")
    prefs, message = load(path)
    assert prefs == Preferences() and message is not None and "too large" in message


def test_finding_5_a_seed_of_any_length_is_refused_plainly() -> None:
    """Before the fix the form called ``int()`` on 5,000 digits (``ValueError: Exceeds the limit``)."""
    assert parse_seed(" 12 ") == 12 and parse_seed("-3") == -3 and parse_seed("9" * MAX_SEED_DIGITS)
    for text in ("9" * 5000, "9" * (MAX_SEED_DIGITS + 1)):
        with pytest.raises(ValueError) as info:
            parse_seed(text)
        assert len(str(info.value)) < 100 and "digits" in str(info.value)
    for text in ("12x", "", "١٢", "1e5", "x" * 5000):  # Arabic-Indic digits are digits to Python, not to a seed
        with pytest.raises(ValueError) as info:
            parse_seed(text)
        assert len(str(info.value)) < 100


# ---------------------------------------------------------------- links where the game writes


def _saved(slots: SlotDirectory, number: int) -> Path:
    path = slots.slot_path(number)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_record(path, GameStore(GameRecord(Rules(), 0, (PlayerInfo("Ada"), PlayerInfo("Bob"))), seed=1).record)
    return path


def test_finding_6_a_lock_file_that_is_a_link_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    """Before the fix ``os.open(lock, O_RDWR | O_CREAT)`` followed the link: resuming wrote the game's process id
    into the link's target, and a dangling link made its target."""
    slots = SlotDirectory(tmp_path / "games")
    path = _saved(slots, 1)
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    os.symlink(victim, slots.slot_path(1).with_suffix(".lock"))
    with pytest.raises(StorageError, match="symbolic link"):
        slots.open_game(path)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert slots.holder(path) is None  # nor read through it

    _saved(slots, 2)
    made = tmp_path / "made-by-the-game"
    os.symlink(made, slots.slot_path(2).with_suffix(".lock"))
    with pytest.raises(StorageError):
        slots.claim(slots.slot_path(2))
    assert not made.exists() and not os.path.lexists(made)


def test_finding_6_setting_aside_a_damaged_game_does_not_follow_a_link_either(tmp_path: Path) -> None:
    """Before the fix ``_set_aside_damaged`` took the lock through the link, creating its target."""
    slots = SlotDirectory(tmp_path / "games")
    slots.root.mkdir(parents=True)
    slots.slot_path(3).write_text("not json", encoding="utf-8")
    made = tmp_path / "made-by-the-game"
    os.symlink(made, slots.slot_path(3).with_suffix(".lock"))
    listing = slots.scan()
    assert not os.path.lexists(made)
    assert listing.games == []


# ---------------------------------------------------------------- impossible observations


def _bidding_observation() -> tuple[dict[str, Any], list[Any]]:
    dealer, state = Dealer(3), new_game(Rules(), 0)
    while state.phase.value != "bidding":
        chance = dealer.chance_action(state)
        state = reduce(state, chance if chance is not None else legal_actions(state)[0])
    assert state.to_act is not None
    return observe(state, state.to_act).to_json(), [a.to_json() for a in legal_actions(state)]


@pytest.mark.parametrize(("key", "value"), [("seat", 5), ("opponent_cards", 60), ("opponent_cards", -1),
                                            ("stock_left", -3), ("to_act", 3), ("tricks_won", [20, 0])])
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_an_impossible_observation_is_refused_as_one(key: str, value: Any, level: str) -> None:
    """Before the fix ``spades-tui bot`` answered ``negative shift count`` (hard, 60 opponent cards), ``Sample
    larger than population`` (-1) or ``internal error: IndexError`` (seat 5)."""
    obs, legal = _bidding_observation()
    obs[key] = value
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = serve(level, 0.05, 1, io.StringIO(json.dumps({"type": "act", "observation": obs, "legal": legal})
                                                   + "\n"), io.StringIO())
    assert status == 2
    assert "impossible observation" in err.getvalue() and "internal error" not in err.getvalue()


# ---------------------------------------------------------------- finished games out of the way


def test_finding_10_listing_replays_only_what_changed_and_moves_finished_games(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the fix every listing (each start screen, each Ctrl+P) replayed every record, finished or not, and
    finished games stayed in games/ for ever."""
    slots = SlotDirectory(tmp_path / "games")
    for n in range(1, 6):
        _saved(slots, n)
    store = GameStore(GameRecord(Rules(), 0, (PlayerInfo("Ada"), PlayerInfo("Bob"))), seed=2)
    store.record_forfeit(Forfeit(1, "gone"))
    save_record(slots.slot_path(6), store.record)
    replays: list[Path] = []
    real = load_game

    def counting(path: Any) -> Any:
        replays.append(Path(path))
        return real(path)

    monkeypatch.setattr(slots_module, "load_game", counting)
    first = slots.scan().games
    assert len(replays) == 6 and sorted(g.path.name for g in first) == [f"game-{n}.json" for n in range(1, 6)]
    assert slots.finished_games() == [slots.finished_dir / "game-6.json"]
    replays.clear()
    assert slots.scan().games == first and replays == []  # from the index alone
    save_record(slots.slot_path(2), GameRecord(Rules(), 1, (PlayerInfo("Cy"), PlayerInfo("Di"))))
    again = slots.scan().games
    assert replays == [slots.slot_path(2)]  # only the record that changed
    assert next(g for g in again if g.path.name == "game-2.json").names == ("Cy", "Di")
    later = SlotDirectory(slots.root)  # another start of the game: nothing kept in memory
    replays.clear()
    assert later.scan().games == again and replays == []  # the index that the first wrote
    slots.index_path.write_text("{[[[ not an index", encoding="utf-8")  # a damaged index is only rebuilt
    replays.clear()
    assert SlotDirectory(slots.root).scan().games == again and len(replays) == 5


def test_an_index_entry_is_text_from_outside_too(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    path = _saved(slots, 1)
    slots.scan()
    data = json.loads(slots.index_path.read_text(encoding="utf-8"))
    data["games"]["game-1.json"]["summary"]["players"][0][0] = "\x1b[2JEvil\ud800"
    slots.index_path.write_text(json.dumps(data), encoding="utf-8")
    (game,) = SlotDirectory(slots.root).scan().games  # as the next start reads it
    assert game.path == path and game.names[0] == "Evil\ufffd"


def test_names_from_another_machine_are_cleaned_as_a_view_is_read() -> None:
    """A seat's view arrives from a network table's other end as the host's update (its wire form): the names in
    it enter as a record's do, cleaned and bounded by the seat's frame reader."""
    from spades_tui.session.view import seat_view
    from spades_tui.table.wire import frames

    state = new_game(Rules(), 0)
    view = seat_view(state, 0, (PlayerInfo("Ada"), PlayerInfo("Bob")), save_error="disk full")
    data = json.loads(json.dumps({"type": "update", **view.to_json(), "connected": [True, True],
                                  "players": ["Ada", HOSTILE_NAMES["escapes"]]}))
    back = frames.read(data)
    assert isinstance(back, frames.Update) and back.names is not None and back.names[1] == "EVIL"
    assert "save_error" not in data  # the session's facts never leave their machine


def test_the_words_of_a_win_and_a_count_agree() -> None:
    """Issue 37: "You wins" and "all 1 hands" were said; the one place that words them agrees."""
    from spades_tui.engine.text import plural, winner_words

    assert winner_words("You") == "You win" and winner_words(" you ") == "You win"
    assert winner_words("Ada") == "Ada wins" and winner_words("Youssef") == "Youssef wins"
    assert (plural(1, "hand"), plural(2, "hand"), plural(0, "hand")) == ("1 hand", "2 hands", "0 hands")


def test_a_player_called_you_is_you_mid_sentence_and_a_losing_score_is_below_zero() -> None:
    """Issue 37: "Bot (normal) led 8♠, You played 10♠; You won." and "Losing score 200" with no minus."""
    from spades_tui.engine.rules import PRESETS
    from spades_tui.engine.text import speaker
    from spades_tui.tui.houserules import house_rules_lines, value_words

    assert speaker("You") == "you" and speaker("Ada") == "Ada"
    tournament = PRESETS["tournament"].rules
    assert value_words(tournament, "losing_score") == f"−{tournament.losing_score}"
    assert any(line.startswith(f"Losing score: −{tournament.losing_score} ") for line in house_rules_lines(tournament))
