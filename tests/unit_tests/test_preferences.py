"""The preferences file (settings/preferences.py): a round trip, and a bad file gives the defaults and one message."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from spades_tui.engine.rules import Rules
from spades_tui.engine.text import MAX_NAME, clean_name
from spades_tui.settings.preferences import Preferences, dumps, load, parse, save

THEMES = ("textual-dark", "textual-light", "nord")


def test_no_file_is_the_defaults_without_a_message(tmp_path: Path) -> None:
    assert load(tmp_path / "preferences.toml", THEMES) == (Preferences(), None)


def test_save_then_load_gives_the_same(tmp_path: Path) -> None:
    prefs = Preferences(theme="nord", four_colour=True, hints=True, review=True, bot_pause=1.25, bot_level="hard",
                        player_name='Zoë "Z" \\ 7', rules=Rules(target=300, bag_limit=5, bag_penalty=50, nil=False,
                                                                 see_second_card=True))
    path = tmp_path / "deep" / "config" / "preferences.toml"  # its directory is made
    save(path, prefs)
    assert load(path, THEMES) == (prefs, None)
    assert [p.name for p in path.parent.iterdir()] == ["preferences.toml"]  # no temporary file left behind


# Any name a person could keep: what clean_name leaves as it is (no control character, one space at most).
names = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=MAX_NAME).filter(
    lambda s: clean_name(s) == s)


@settings(max_examples=200, deadline=None)
@given(name=names, pause=st.floats(0, 10, allow_nan=False), target=st.integers(1, 10_000),
       flags=st.tuples(st.booleans(), st.booleans(), st.booleans()))
def test_any_valid_preferences_survive_the_file(name: str, pause: float, target: int,
                                                flags: tuple[bool, bool, bool]) -> None:
    prefs = Preferences(player_name=name, bot_pause=pause, four_colour=flags[0], hints=flags[1], review=flags[2],
                        rules=Rules(target=target))
    assert parse(dumps(prefs), THEMES) == (prefs, [])


def test_control_characters_are_escaped() -> None:
    text = dumps(Preferences(player_name="a\nb\tc\x7f"))
    assert tomllib.loads(text)["player_name"] == "a\nb\tc\x7f"
    assert "\n" not in text.split("player_name = ", 1)[1].split("\n", 1)[0][:-1]  # one line


def test_not_toml_gives_the_defaults_and_one_message(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    path.write_text("theme = textual-light\n[[[", encoding="utf-8")
    prefs, message = load(path, THEMES)
    assert prefs == Preferences()
    assert message is not None and str(path) in message and "not valid TOML" in message


def test_not_utf8_gives_the_defaults_and_one_message(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    path.write_bytes(b"theme = \"\xff\"\n")
    prefs, message = load(path, THEMES)
    assert prefs == Preferences() and message is not None and str(path) in message


def test_each_bad_field_falls_back_alone_and_is_named(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    path.write_text(
        'theme = "no-such-theme"\nfour_colour = "yes"\nhints = true\nbot_pause = "fast"\nbot_level = "genius"\n'
        'player_name = 7\nreview = true\ncolour = 3\n'
        '[rules]\ntarget = 0\nbag_limit = 5\nnil = "no"\nsurprise = true\n', encoding="utf-8")
    prefs, message = load(path, THEMES)
    # The good fields are kept, the bad ones are their defaults.
    assert prefs == Preferences(hints=True, review=True, rules=Rules(bag_limit=5))
    assert message is not None and str(path) in message
    for name in ("theme", "no-such-theme", "four_colour", "bot_pause", "bot_level", "player_name", "colour",
                 "rules.target", "rules.nil", "rules.surprise"):
        assert name in message, name
    assert "hints" not in message and "bag_limit" not in message


def test_out_of_range_values(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    for text, name in [("bot_pause = 11", "bot_pause"), ("bot_pause = -1", "bot_pause"),
                       ("bot_pause = nan", "bot_pause"), ("bot_pause = true", "bot_pause"),
                       ('player_name = "   "', "player_name"),
                       (f'player_name = "{"x" * (MAX_NAME + 1)}"', "player_name"), ("rules = 3", "rules"),
                       ("[rules]\nbag_penalty = -5", "rules.bag_penalty")]:
        path.write_text(text + "\n", encoding="utf-8")
        prefs, message = load(path, THEMES)
        assert prefs == Preferences() and message is not None and name in message, text


def test_whole_numbers_are_a_pause_too(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    path.write_text("bot_pause = 2\n", encoding="utf-8")
    prefs, message = load(path, THEMES)
    assert message is None and prefs.bot_pause == 2.0 and isinstance(prefs.bot_pause, float)


def test_a_directory_in_place_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "preferences.toml"
    path.mkdir()
    prefs, message = load(path, THEMES)
    assert prefs == Preferences() and message is not None and str(path) in message
