"""Nothing a player needs below the fold at 80x24, and the wide screens using their width (issue 52): the game
over's choices after a long game, every start-screen entry with saved games listed, the table with the last trick
or the hints shown (the middle never scrolls), the start list one game a line at 200 columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll

from spades_tui.engine.record import PlayerInfo
from spades_tui.engine.state import Phase
from spades_tui.keep.storage import save_record
from spades_tui.tui.screens import game as game_screen_module
from spades_tui.tui.screens.game import GameScreen
from tests.support.games import played
from tests.support.pilot import VS_BOT, make_app, record_until, screen_text

from .test_tui_snapshots import SCREENS, workers_done

MENU = ("New game against the bot", "Learn to play", "Load a game record", "Settings", "Statistics",
        "Play a friend on another machine", "Today's challenge", "Help", "Quit")


@pytest.fixture(autouse=True)
def _forced_card_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_screen_module, "FORCED_PAUSE", 3600.0)  # the screen as it comes up


def saved_games(tmp_path: Path, count: int) -> None:
    record = record_until(lambda s: s.phase is Phase.BIDDING, players=VS_BOT, seed=3)
    for n in range(1, count + 1):
        path = tmp_path / "games" / f"game-{n}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_record(path, record)


@pytest.mark.parametrize("count", [5, 12])
async def test_every_start_entry_is_on_an_80x24_screen_with_saved_games_listed(tmp_path: Path, count: int) -> None:
    saved_games(tmp_path, count)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
        text = " ".join(screen_text(app).split())
        for entry in MENU:
            assert entry in text, f"{entry!r} below the fold"
        assert "Resume hand" in text and "More saved games" in text
        await pilot.press("up")  # from the first game up to Quit: it is there, the menu did not need to scroll
        assert "Quit" in " ".join(screen_text(app).split())


async def test_a_wide_start_screen_lists_each_saved_game_on_one_line(tmp_path: Path) -> None:
    saved_games(tmp_path, 3)
    app = make_app(tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        await workers_done(pilot)
        lines = [line for line in screen_text(app).splitlines() if "Resume hand" in line]
        assert len(lines) == 3 and all("last played" in line for line in lines)


async def test_the_game_over_choices_are_in_sight_after_a_long_game(tmp_path: Path) -> None:
    record = played(1, (PlayerInfo("Ada"), PlayerInfo("Bot (easy)", "bot:easy")), "long", target=900)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
        text = screen_text(app)
        assert "Game over" in text
        assert "New game" in text and "Quit" in text and "Review this hand" in text


def body_scrolls(app: Any) -> bool:
    body: VerticalScroll = app.screen.query_one("#body", VerticalScroll)
    return body.max_scroll_y > 0


@pytest.mark.parametrize(("name", "keys"), [("play", ["t"]), ("hints_play", ["t"]), ("play", ["h"]),
                                             ("hints_play", [])])
async def test_the_last_trick_or_the_hints_never_scroll_the_table_at_80x24(tmp_path: Path, name: str,
                                                                           keys: list[str]) -> None:
    app = SCREENS[name][0](tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
        for key in keys:
            await pilot.press(key)
        await workers_done(pilot)
        for _ in range(20):  # the hint fits itself over a few layouts
            await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        text = screen_text(app)
        assert not body_scrolls(app), f"the middle of the table scrolls:\n{text}"
        if "t" in keys:
            assert "Last trick:" in text
        # Who drafts first, said so: "first: Ada" read as who bids or leads first (issue 52).
        assert "Ada drafts first" in " ".join(text.split())
        if "h" in keys or name == "hints_play":
            assert "Hint:" in text


async def test_the_review_box_is_as_tall_as_the_review_on_a_tall_screen(tmp_path: Path) -> None:
    name = "review"
    factory, keys = SCREENS[name]
    app = factory(tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        await workers_done(pilot)
        await pilot.press(*keys)
        await workers_done(pilot)
        box = app.screen.query_one("#reviewbody")
        text = app.screen.query_one("#reviewtext")
        assert box.outer_size.height <= text.outer_size.height + 2, "empty rows in the review's box"


@pytest.mark.slow  # two apps, a whole game's record replayed (about 1.3 s)
async def test_loading_a_finished_game_makes_no_second_copy_of_it(tmp_path: Path) -> None:
    """Issue 52: a finished game's record loaded (to look at its end, or review it) was saved in a new slot, and
    at the next start that slot joined the finished games: a second copy."""
    from spades_tui.tui.screens.load import LoadScreen
    from spades_tui.tui.screens.start import StartScreen

    record = played(2, (PlayerInfo("Ada"), PlayerInfo("Bot (easy)", "bot:easy")), "done")
    kept = tmp_path / "games" / "finished" / "game-7.json"
    kept.parent.mkdir(parents=True)
    save_record(kept, record)
    before = sorted(p.name for p in (tmp_path / "games").rglob("*.json"))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
        await pilot.press("down", "down", "down", "enter")  # Load a game record
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        # The form says so: it said every record found "continues as a new game".
        assert "one over is shown" in " ".join(screen_text(app).split())
        await pilot.press("enter")  # the finished game, listed first
        for _ in range(50):
            await pilot.pause()
            if "Game over" in screen_text(app):
                break
        assert "Game over" in screen_text(app)
        app.show_start()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
    again = make_app(tmp_path)  # the next start moves finished games' slots to the finished folder
    async with again.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
    assert sorted(p.name for p in (tmp_path / "games").rglob("*.json")) == before


async def test_with_no_record_found_the_load_form_asks_for_a_path_not_for_another_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen in issue 52's pictures: with nothing listed above it, the field's label began "Or the path"."""
    from spades_tui.tui.screens.load import LoadScreen

    monkeypatch.chdir(tmp_path)  # no record in this folder, none saved
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
        await pilot.press("down", "down", "down", "enter")  # Load a game record
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen) and not app.screen.found
        text = screen_text(app)
        assert "The path of a record (JSON):" in text and "Or the path" not in text
