"""The daily challenge in the game (issue 40): from the start screen to its end screen, the result kept apart
from the statistics, the second play practice, a game left half-way resumed as the challenge."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import spades_tui.session.challenge as challenge
from spades_tui.engine.state import Phase
from spades_tui.keep.challenges import ChallengeBook
from spades_tui.keep.meta import RecordMeta
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import Challenge
from spades_tui.tui.screens.game import GameScreen
from tests.support.hidden import hidden_cards
from tests.support.pilot import cards_on_screen, config_dir, game_state, screen_text, settle, until

pytestmark = [pytest.mark.usefixtures("fine_grain"), pytest.mark.slow]

CODE = challenge.ChallengeCode.today().__str__()  # the start screen offers today's


@pytest.fixture(autouse=True)
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(challenge, "ITERATIONS", 4)  # the challenge's expert, quick (its own: 200 samples)


def ended(app: SpadesApp) -> bool:
    return type(app.screen).__name__ == "ChallengeEndScreen"


async def play_to_the_end(pilot: object, app: SpadesApp, hands: int = 4) -> None:
    """Enter at each of the person's decisions until ``hands`` hands are scored (the end screen at four); the
    bot's cards never on the screen while a hand is played."""
    for _ in range(2000):
        await settle(pilot, app)  # type: ignore[arg-type]
        state = game_state(app)
        assert state is not None
        if ended(app) or (len(state.history) >= hands and state.phase is Phase.SHUFFLE and hands < 4):
            return
        leaked = cards_on_screen(screen_text(app)) & hidden_cards(state, 0)
        assert not leaked or state.phase is Phase.SHUFFLE, f"the bot's cards on screen: {leaked}"
        view = app.seat_view
        if isinstance(app.screen, GameScreen) and view is not None and (view.my_turn or view.phase is Phase.SHUFFLE):
            await pilot.press("enter")  # type: ignore[attr-defined]
        else:
            await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError("the challenge never ended")


async def test_a_challenge_from_the_start_screen_to_its_end_and_again_as_practice(tmp_path: Path) -> None:
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("end", "up", "up", "enter")  # Today's challenge: above Help and Quit, at the end
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the challenge's first screen")
        text = screen_text(app)
        assert f"Challenge {CODE}" in text and "Standard, 4 hands" in text
        assert "h Hints" not in text  # no hint panel in a challenge
        assert "Spades to" not in text  # four hands, no target
        await play_to_the_end(pilot, app)
        await until(pilot, lambda: app.seat_view is not None and app.seat_view.challenge is not None
                    and app.seat_view.challenge.par is not None, "the par")
        await settle(pilot, app)
        text = screen_text(app)
        view = app.seat_view.challenge  # type: ignore[union-attr]
        assert view is not None and view.over_par is not None
        assert "par" in text and f"spades-tui challenge {CODE}:" in text and "Play it again (practice)" in text
        (kept,) = ChallengeBook.load(tmp_path / "challenges.json").results
        assert kept.challenge == CODE and not kept.practice and kept.over_par == view.over_par
        assert not (tmp_path / "stats.sqlite3").exists()  # never counted in the statistics
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(len(screen.items)):  # to "Play it again (practice)" by the arrow keys
            if screen.items[screen.cursor].key == "again":
                break
            await pilot.press("right")
        await pilot.press("enter")
        await until(pilot, lambda: app.seat_view is not None and not app.seat_view.hands
                    and isinstance(app.screen, GameScreen) and not ended(app), "the challenge again")
        assert "PRACTICE: played before" in screen_text(app)
        assert any("this play is practice" in n.message for n in app._notifications)  # said at its start


async def test_a_challenge_left_half_way_goes_on_as_the_challenge(tmp_path: Path) -> None:
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path),
                    start=Challenge(CODE))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot, app, hands=1)
    saved = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "games").glob("game-*.json")]
    assert len(saved) == 1 and saved[0]["challenge"] == CODE
    again = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path),
                      start=Challenge(CODE))
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: again.seat_view is not None, "the challenge's screen")
        state = game_state(again)
        assert state is not None and len(state.history) == 1  # the same game, where it was left
        assert again.session is not None and RecordMeta.of(again.session.store.record).challenge == CODE  # type: ignore
        assert type(again.session).__name__ == "ChallengeSession"


async def test_a_damaged_results_file_is_said_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "challenges.json"
    path.write_text("{damaged", encoding="utf-8")
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path),
                    start=Challenge(CODE))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "cannot start" in screen_text(app), "the message on the start screen")
        assert "is damaged" in screen_text(app) and app.session is None
    assert path.read_text(encoding="utf-8") == "{damaged" and not list((tmp_path / "games").glob("game-*.json"))


@pytest.mark.parametrize("finished", ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"])
async def test_a_result_finished_at_no_moment_a_game_could_be_is_said_on_the_statistics_screen(
        tmp_path: Path, finished: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49: such a result (under a time zone east or west of UTC) closed the whole game when the Statistics
    screen opened.  Now the screen opens and says the results file is damaged, leaving it as it is."""
    from tests.functional_tests.test_tui_palette import run_command
    from tests.support.pilot import make_app

    monkeypatch.setenv("TZ", "JST-9" if finished.startswith("9999") else "EST5")
    time.tzset()
    path = tmp_path / "challenges.json"
    text = json.dumps({"version": 1, "results": [
        {"challenge": "2026-11-30", "player": "Ann", "hands": [1, 2, 3, 4], "par": [0, 0, 0, 0], "practice": False,
         "finished": finished, "game_id": "g1"}]})
    path.write_text(text, encoding="utf-8")
    app = make_app(tmp_path)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await run_command(pilot, "Statistics")
            said = " ".join(screen_text(app).split())
            assert "challenges.json is damaged" in said and "no moment a game could be" in said
    finally:
        monkeypatch.undo()
        time.tzset()
    assert path.read_text(encoding="utf-8") == text
