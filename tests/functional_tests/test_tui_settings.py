"""Preferences in the app: the settings screen by keys, saved and applied at once; the theme; a bad file."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.command import CommandList
from textual.widgets import Input, Select

from spades_tui.engine.cards import Card, Suit
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import Preferences, load, save
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.screens.settings import SettingsScreen
from spades_tui.tui.screens.setup import SetupScreen
from spades_tui.tui.screens.start import StartScreen
from spades_tui.tui.widgets.cards import Picker
from tests.support.pilot import (
    VS_BOT,
    config_dir,
    game_store,
    make_app,
    prefs_file,
    record_until,
    screen_text,
    settle,
    state_of,
    store_of,
    until,
)

SUITS = {suit: Card.of(14, suit) for suit in Suit}


def notes(app: SpadesApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def suit_colours(app: SpadesApp) -> dict[Suit, object]:
    picker = app.screen.query_one("#hand", Picker)
    return {suit: picker.style_of(card).color for suit, card in SUITS.items()}


async def choose(pilot: object, app: SpadesApp, widget_id: str, steps: int) -> None:
    """Open the Select ``widget_id`` by keys, move ``steps`` (negative: up), choose."""
    select = app.screen.query_one(f"#{widget_id}", Select)
    select.focus()
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.press("enter", *(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


@pytest.mark.slow
async def test_settings_by_keys_are_saved_applied_and_read_at_restart(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        for _ in range(4):  # the menu: learn, bot, hot-seat, load, Settings
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await choose(pilot, app, "four_colour", -1)  # no -> yes
        await choose(pilot, app, "review", -1)
        await choose(pilot, app, "bot_level", 1)  # normal -> hard
        pause = app.screen.query_one("#bot_pause", Input)
        pause.focus()
        await pilot.press("end", *["backspace"] * 5, "1", ".", "5")
        name = app.screen.query_one("#player_name", Input)
        name.focus()
        await pilot.press("end", *["backspace"] * 5, *"Ada")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        expected = Preferences(four_colour=True, review=True, bot_pause=1.5, bot_level="hard", player_name="Ada")
        assert app.prefs == expected
        assert load(prefs_file(tmp_path)) == (expected, None)  # on disk
        assert app.has_class("-four-colour")
        assert app.bot_pause == 1.5  # what was saved wins over make_app's --bot-pause 0 from then on
    # A restart reads them: the new-game form's defaults come from them.
    app = SpadesApp(LaunchOptions(), data_dir=tmp_path, config_dir=config_dir(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.prefs == expected and app.bot_pause == 1.5 and app.has_class("-four-colour")
        await pilot.press("down", "enter")  # New game against the bot (after Learn to play)
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.query_one("#name0", Input).value == "Ada"
        assert app.screen.query_one("#level", Select).value == "hard"


@pytest.mark.slow
async def test_saved_settings_override_the_command_line_from_then_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy")  # bot_pause=0 and show_hints=False given
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.bot_pause == 0 and app.session is not None and not app.session.show_hints
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await choose(pilot, app, "hints", -1)
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert app.bot_pause == 0.6  # the preference now
        assert app.session.show_hints and app.seat_view is not None and app.seat_view.show_hints


@pytest.mark.slow
async def test_escape_cancels_and_saves_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path, hotseat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        game_screen = type(app.screen)
        await pilot.press("f2")
        await pilot.pause()
        await choose(pilot, app, "four_colour", -1)
        app.screen.query_one("#theme", Select).focus()
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen) is game_screen
        assert app.prefs == Preferences() and not app.has_class("-four-colour")
        assert not prefs_file(tmp_path).exists()


@pytest.mark.slow
async def test_a_bad_value_in_the_form_is_said_and_not_saved(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        pause = app.screen.query_one("#bot_pause", Input)
        pause.focus()
        await pilot.press("end", *["backspace"] * 5, "9", "9", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "bot pause" in str(app.screen.query_one("#message").render())
        assert not prefs_file(tmp_path).exists()


@pytest.mark.slow
async def test_four_colours_apply_at_once_in_a_game(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        two = suit_colours(app)
        assert two[Suit.HEARTS] == two[Suit.DIAMONDS] and two[Suit.SPADES] == two[Suit.CLUBS]
        assert two[Suit.HEARTS] != two[Suit.SPADES]
        await pilot.press("f2")
        await pilot.pause()
        await choose(pilot, app, "four_colour", -1)
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        four = suit_colours(app)
        assert len(set(four.values())) == 4  # each suit its own colour
        assert four[Suit.HEARTS] == two[Suit.HEARTS] and four[Suit.SPADES] == two[Suit.SPADES]
        app.theme = "textual-light"  # on a light theme too, four colours, spades dark now
        await settle(pilot, app)
        light = suit_colours(app)
        assert len(set(light.values())) == 4 and light[Suit.SPADES] != four[Suit.SPADES]


async def test_no_color_keeps_the_four_colour_deck_plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(tmp_path, bot="easy", seed=3, prefs=Preferences(four_colour=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.no_color and app.has_class("-four-colour")
        colours = suit_colours(app)
        assert len(set(colours.values())) == 1, colours  # the text colour for all: no hue to tell suits by


async def test_theme_from_the_file_and_kept_when_changed_elsewhere(tmp_path: Path) -> None:
    app = make_app(tmp_path, prefs=Preferences(theme="textual-light", four_colour=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-light" and app.has_class("-light-mode")
        app.theme = "nord"  # as the command palette's "Change theme" does
        await pilot.pause()
        assert load(prefs_file(tmp_path)) == (Preferences(theme="nord", four_colour=True), None)


async def test_the_default_theme_does_not_overwrite_the_saved_one(tmp_path: Path) -> None:
    app = make_app(tmp_path, prefs=Preferences(theme="textual-light"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert load(prefs_file(tmp_path))[0].theme == "textual-light"


@pytest.mark.parametrize("text", [
    "theme = [[[ not toml",
    'theme = "no-such-theme"\nbot_pause = "slow"\n',
    "four_colour = 1\n[rules]\ntarget = -3\n",
])
@pytest.mark.slow
async def test_a_bad_file_gives_one_message_the_defaults_and_a_game(tmp_path: Path, text: str) -> None:
    path = prefs_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    app = make_app(tmp_path, hotseat=True, rules=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        said = [n for n in notes(app) if str(path) in n]
        assert len(said) == 1, notes(app)
        assert app.theme == "textual-dark" and not app.has_class("-four-colour")
        assert game_store(app) is not None and store_of(app).record.rules == Rules()
        for _ in range(6):  # the game goes on
            await pilot.press("enter")
            await pilot.pause()
        hand = state_of(app).hand
        assert state_of(app).phase is Phase.DRAFT and hand is not None and hand.draft_log
        # Saving from the settings screen writes a good file.
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert load(path) == (Preferences(), None)


@pytest.mark.slow
async def test_a_settings_file_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    config_dir(tmp_path).write_text("not a directory", encoding="utf-8")  # the config directory is a file
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await choose(pilot, app, "four_colour", -1)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any(n.startswith("Settings not saved") for n in notes(app)), notes(app)
        assert app.has_class("-four-colour")  # applied for this run all the same


def test_preferences_saved_by_one_app_are_read_by_load(tmp_path: Path) -> None:
    save(prefs_file(tmp_path), Preferences(player_name="Ann"))
    app = SpadesApp(LaunchOptions(bot="easy"), data_dir=tmp_path, config_dir=config_dir(tmp_path))
    assert app.prefs.player_name == "Ann"


@pytest.mark.slow
async def test_help_from_the_settings_explains_them(tmp_path: Path) -> None:
    from spades_tui.tui.screens.help import HelpScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.topic == "settings"
        assert "Four-colour deck" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)  # back where help was opened


@pytest.mark.parametrize(("given", "expected"), [(None, True), (False, False)])
async def test_the_command_line_wins_over_the_file(tmp_path: Path, given: bool | None, expected: bool) -> None:
    save(prefs_file(tmp_path), Preferences(review=True, hints=True, bot_pause=2.0, player_name="Ann",
                                           rules=Rules(target=250)))
    options = LaunchOptions(bot="easy", seed=3, review=given, show_hints=given, hints=False,
                            bot_pause=None if given is None else 0.0)
    app = SpadesApp(options, data_dir=tmp_path, config_dir=config_dir(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.session is not None and game_store(app) is not None
        assert app.session.auto_review is expected and app.session.show_hints is expected
        assert app.bot_pause == (2.0 if given is None else 0.0)
        # A direct start takes the name and the rules from the file (no --rules given).
        assert store_of(app).names()[0] == "Ann" and store_of(app).record.rules == Rules(target=250)


@pytest.mark.slow
async def test_the_review_shows_the_four_colours_too(tmp_path: Path) -> None:
    from spades_tui.tui.screens.review import ReviewScreen

    record = record_until(lambda s: s.phase is Phase.SHUFFLE and bool(s.history), players=VS_BOT, seed=12)
    app = make_app(tmp_path, loaded=record, prefs=Preferences(four_colour=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)
        colours: dict[str, set[object]] = {}
        for line in app.screen._content().renderables:
            assert isinstance(line, Text)
            for span in line.spans:
                label = line.plain[span.start:span.end]
                if label[-1:] in "♠♥♦♣" and label[-1:]:
                    colours.setdefault(label[-1], set()).add(span.style.color)  # type: ignore[union-attr]
        assert set(colours) == set("♠♥♦♣") and all(len(c) == 1 for c in colours.values())
        assert len({next(iter(c)) for c in colours.values()}) == 4


@pytest.mark.slow
async def test_a_theme_chosen_in_textuals_theme_search_is_saved(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.search_themes()  # what the command palette's "Change theme" opens
        await pilot.pause()
        await pilot.press(*"gruvbox")
        for _ in range(200):  # until the palette's search (a worker) has listed the theme
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.screen.query_one(CommandList).option_count:
                break
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "gruvbox"
    assert load(prefs_file(tmp_path))[0] == Preferences(theme="gruvbox")


@pytest.mark.slow
async def test_line_mode_is_chosen_on_the_settings_screen_and_kept(tmp_path: Path) -> None:
    # A sighted friend sets up line mode for a screen reader's user: the form's two rows save the file's
    # interface and words, read by the next start (docs/playing.md, "Line mode").
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "Lines (screen readers)" not in screen_text(app)  # the choice shows its word for the current value
        await choose(pilot, app, "interface", 1)  # Full screen -> Lines (screen readers)
        await choose(pilot, app, "words", -1)  # no -> yes
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
    saved, problem = load(prefs_file(tmp_path))
    assert problem is None and saved.interface == "lines" and saved.words is True


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_the_buttons_are_in_sight_and_under_the_last_field_on_a_tall_screen(tmp_path: Path,
                                                                                  size: tuple[int, int]) -> None:
    """Seen in issue 52's pictures: at 200x60 the settings' Save sat at the screen's foot, 25 rows under the
    last field (the fields' scroll took every row left). On a tall screen the form is whole, its buttons right
    under it; on a short one the fields scroll and the buttons stay in sight."""
    from textual.widgets import Button

    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        field = app.screen.query_one("#table_server", Input)
        field.focus()
        await pilot.pause()
        save = app.screen.query_one("#save", Button).region
        assert save.height and save.bottom <= size[1] - 1  # in sight, above the footer
        if size[1] >= 50:
            assert 0 < save.y - field.region.bottom <= 3, (field.region, save)
