"""The command palette (ctrl+p) and the statistics screen, driven through the keyboard with Pilot."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Sparkline

from spades_tui.engine.cards import CARDS
from spades_tui.engine.record import PlayerInfo, replay
from spades_tui.keep.stats import STATS_NAME, open_stats, record_game
from spades_tui.tui.messages import Reveal
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.handoff import HandoffScreen
from spades_tui.tui.screens.help import HelpScreen
from spades_tui.tui.screens.load import LoadScreen
from spades_tui.tui.screens.settings import SettingsScreen
from spades_tui.tui.screens.setup import SetupScreen
from spades_tui.tui.screens.start import StartScreen
from spades_tui.tui.screens.stats import StatsScreen
from spades_tui.tui.textualprivate import FooterKey
from tests.support.games import fill, played
from tests.support.pilot import (
    close_palette,
    game_store,
    make_app,
    palette,
    palette_open,
    screen_text,
    settle,
    slot_file,
    store_of,
    viewer,
)

SIZE = (100, 32)


async def run_command(pilot: Pilot[int], name: str, *, closes: bool = True) -> None:
    """Type the command's name, check it comes first, Enter."""
    hits = await palette(pilot, name)
    assert hits and hits[0] == name, hits
    await pilot.press("down", "enter")
    await settle(pilot, pilot.app)  # type: ignore[arg-type]
    assert palette_open(pilot.app) is not closes




# ---------------------------------------------------------------- the statistics screen


@pytest.mark.slow
async def test_statistics_from_the_start_screen_show_the_games_played(tmp_path: Path) -> None:
    records = fill(tmp_path)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press(*["down"] * 5, "enter")  # learn, bot, hot-seat, load, settings: Statistics
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "Games finished: 2" in text  # yours: the hot-seat game is Ann's and Bob's
        for line in ("vs easy bot", "vs normal bot", "hot-seat: Ann", "hot-seat: Bob"):
            assert line in text
        assert "vs hard bot" not in text  # never played: no empty row
        hands = sum(len(replay(r).history) for r in records[:2])
        assert f"Hands played {hands}" in " ".join(text.split())
        assert len(app.screen.query(Sparkline)) == 2
        first = [h.scores_after[0] for h in replay(records[0]).history]
        assert f"final {first[-1]}" in text and "Recent games" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)


@pytest.mark.slow
async def test_statistics_with_no_database_say_so_kindly(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "Statistics")
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "No finished games yet" in text and "Win rate" not in text and "Points per hand" not in text
        assert not app.screen.query(Sparkline)
    assert not (tmp_path / STATS_NAME).exists()  # looking made no database


@pytest.mark.slow
async def test_statistics_from_a_damaged_or_locked_database_say_so(tmp_path: Path) -> None:
    (tmp_path / STATS_NAME).write_bytes(b"not a database" * 200)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "Statistics")
        text = " ".join(screen_text(app).split())
        assert "could not be read" in text and "kept as" in text and "No finished games yet" in text
        await pilot.press("escape")
        conn, _ = open_stats(tmp_path / STATS_NAME)
        conn.execute("BEGIN EXCLUSIVE")  # another copy writing
        try:
            await run_command(pilot, "Statistics")
            text = " ".join(screen_text(app).split())
            assert "cannot be read now" in text and "locked" in text
            assert "No finished games yet" not in text  # it does not know that
        finally:
            conn.execute("ROLLBACK")
            conn.close()
    assert any(p.name.startswith("stats.corrupt-") for p in tmp_path.iterdir())


# ---------------------------------------------------------------- the palette


async def test_the_footer_shows_the_palette_key(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        keys = app.screen.query(FooterKey).filter(".-command-palette")
        assert len(keys) == 1 and "Palette" in screen_text(app)


@pytest.mark.slow
async def test_start_screen_commands_open_their_screens(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        hits = await palette(pilot)
        assert hits == ["New game against the bot", "New hot-seat game", "Load a game record", "Statistics",
                        "Settings", "Change theme", "Help", "Quit"]  # Textual's Keys, Screenshot, Quit left out
        assert not [h for h in hits if "hints" in h or "review" in h or h.startswith("Resume")]  # nothing to do
        await close_palette(pilot)
        for name, screen, check in [("New game against the bot", SetupScreen, "bot"),
                                    ("New hot-seat game", SetupScreen, "hotseat"),
                                    ("Load a game record", LoadScreen, None), ("Help", HelpScreen, None)]:
            await run_command(pilot, name)
            assert isinstance(app.screen, screen), name
            if isinstance(app.screen, SetupScreen):
                assert app.screen.mode == check
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)


@pytest.mark.slow
async def test_new_game_from_the_palette_starts_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "New hot-seat game")
        await pilot.press("enter")  # Start (focused)
        await settle(pilot, app)
        assert app.session is not None and isinstance(app.screen, HandoffScreen)


@pytest.mark.slow
async def test_resume_and_leaving_a_game_for_another(tmp_path: Path) -> None:
    first = make_app(tmp_path, bot="easy")
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot, first)
        await pilot.press("enter")
        await settle(pilot, first)
        actions = len(store_of(first).record.actions)
    app = make_app(tmp_path, hotseat=True)  # a second game, in slot 2
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        hits = await palette(pilot, "resume")
        assert len(hits) == 1 and hits[0].startswith("Resume hand 1: You 0 – Bot (easy) 0"), hits
        await close_palette(pilot)
        await run_command(pilot, hits[0])
        assert app.slot is not None and app.slot.path == slot_file(tmp_path, 1)
        assert game_store(app) is not None and len(store_of(app).record.actions) == actions
        # The game left is saved and offered in turn; the one in play is not.
        hits = await palette(pilot, "resume")
        assert len(hits) == 1 and "Player 1" in hits[0]
        await close_palette(pilot)
        # New game from inside a game: the form over the start screen, which lists the game left.
        await run_command(pilot, "New game against the bot")
        assert isinstance(app.screen, SetupScreen) and app.session is None
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and screen_text(app).count("Resume hand 1") == 2


@pytest.mark.slow
async def test_hints_and_review_toggle_in_a_game(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.session is not None and isinstance(app.screen, GameScreen)
        assert not app.session.show_hints and not app.session.auto_review
        await run_command(pilot, "Turn hints on")
        assert app.session.show_hints
        await run_command(pilot, "Turn hints off")
        assert not app.session.show_hints
        await run_command(pilot, "Turn review on")
        assert app.session.auto_review and app.options.review
        await run_command(pilot, "Turn review off")
        assert not app.session.auto_review and not app.options.review


@pytest.mark.slow
async def test_the_palette_never_shows_a_card_nor_skips_a_hand_off(tmp_path: Path) -> None:
    app = make_app(tmp_path, hotseat=True, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen) and viewer(app) is None
        hits = await palette(pilot)
        assert not [h for h in hits if "hints" in h]  # the hint panel is no business of a hand-off
        assert not {c for c in CARDS for h in hits if c.label() in h}
        await close_palette(pilot)
        for name in ("Statistics", "Help"):  # a screen over the hand-off, closed: the hand-off again
            await run_command(pilot, name)
            await pilot.press("escape")
            await settle(pilot, app)
            assert isinstance(app.screen, HandoffScreen) and viewer(app) is None
        await run_command(pilot, "Turn review on")
        assert isinstance(app.screen, HandoffScreen) and viewer(app) is None
        await pilot.press("enter")  # the player at the keyboard now: their cards, and the palette names none
        await settle(pilot, app)
        assert viewer(app) is not None
        hits = await palette(pilot)
        assert not {c for c in CARDS for h in hits if c.label() in h}
        await close_palette(pilot)


@pytest.mark.slow
async def test_change_theme_is_listed_and_works(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "Change theme", closes=False)  # it opens Textual's theme picker
        await pilot.press(*"nord", "down", "enter")
        await pilot.pause()
        assert app.theme == "nord"


@pytest.mark.slow
async def test_settings_from_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "Settings")
        assert isinstance(app.screen, SettingsScreen)
        assert "Settings" not in await palette(pilot)  # not again from the settings themselves
        await close_palette(pilot)
        assert isinstance(app.screen, SettingsScreen)


@pytest.mark.slow
async def test_quit_from_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy")
    result: Optional[int] = None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "Quit")
        result = app.return_code
    assert result == 0 and not app.is_running
    assert slot_file(tmp_path).exists()


@pytest.mark.slow
async def test_the_screen_catches_up_when_the_palette_closes(tmp_path: Path) -> None:
    """The game may move on under the palette (the bot plays); closing it shows the screen the game needs."""
    app = make_app(tmp_path, hotseat=True, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)
        await palette(pilot)
        app.post_message(Reveal())  # as a bot's move would, while the palette is open
        await settle(pilot, app)
        assert palette_open(app) and viewer(app) is not None
        await close_palette(pilot)
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and not isinstance(app.screen, HandoffScreen)
        assert app.screen.seat_view is not None and app.screen.seat_view.seat == viewer(app)


@pytest.mark.slow
async def test_modal_screens_show_the_palette_key(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for key in ("f1", None):
            if key:
                await pilot.press(key)
            else:
                await run_command(pilot, "Statistics")
            await pilot.pause()
            assert len(app.screen.query(FooterKey).filter(".-command-palette")) == 1, app.screen
            await pilot.press("escape")
            await pilot.pause()


@pytest.mark.slow
async def test_statistics_scroll_at_80x24(tmp_path: Path) -> None:
    """Five recent games and the figures do not fit 80x24: the body scrolls to the last chart."""
    conn, _ = open_stats(tmp_path / STATS_NAME)
    for seed in range(1, 7):
        record_game(conn, played(seed, (PlayerInfo("You"), PlayerInfo("Bot", "bot:easy")), f"g{seed}"))
    conn.close()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await run_command(pilot, "Statistics")
        assert len(app.screen.query(Sparkline)) == 5  # the last five games
        body = app.screen.query_one("#statsbody", VerticalScroll)
        assert body.max_scroll_y > 0 and body.scroll_y == 0  # more than fits
        last = app.screen.query(Sparkline).last()
        assert not body.region.contains_region(last.region)  # the last chart is out of sight
        for _ in range(body.max_scroll_y):
            await pilot.press("j")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        assert body.region.contains_region(last.region)  # now in sight, whole
