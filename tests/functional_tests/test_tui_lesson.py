"""The lesson (``spades-tui learn``, issue 39): a guided first hand against the easy bot.

Played whole by Enter, every part of the game is shown by its lesson text; played with other choices it still
ends; an illegal key or card is explained; Esc leaves at once; the statistics and the saved games are untouched;
the bot's cards never show.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

import pytest
from textual.pilot import Pilot

from spades_tui.engine.state import Phase
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.resources import read_asset
from spades_tui.tui.app.startup import Learn
from spades_tui.tui.lesson import PARTS, LessonText
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.start import StartScreen
from spades_tui.tui.widgets.cards import Picker
from tests.support.hidden import hidden_cards
from tests.support.pilot import (
    HOTSEAT,
    cards_on_screen,
    config_dir,
    game_state,
    record_until,
    screen_text,
    settle,
    slot_file,
    store_of,
    until,
)

pytestmark = pytest.mark.usefixtures("fine_grain")

TEXT = LessonText.parse(read_asset("lesson.md"))


def lesson_app(tmp_path: Path) -> SpadesApp:
    return SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path), start=Learn())


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def fixed_words(step: str) -> str:
    """The longest stretch of a step's words between blanks to fill: what any showing of it says, and only it.
    (Its first line up to a blank was empty for "end-bag" and the same for "trump" and "void".)"""
    found = max((part.strip() for part in re.split(r"\{[a-z_]+\}", TEXT.steps[step])), key=len)
    assert len(found) >= 20 and all(found not in words for other, words in TEXT.steps.items() if other != step)
    return found


def ended(app: SpadesApp) -> bool:
    return type(app.screen).__name__ == "LessonEndScreen"


async def play_lesson(pilot: Pilot[int], app: SpadesApp, keys: Callable[[SpadesApp], tuple[str, ...]]) -> list[str]:
    """Play the lesson to its end screen, pressing ``keys(app)`` at each decision; every lesson text shown, with
    no hidden card on any screen."""
    said: list[str] = []
    for _ in range(300):
        await settle(pilot, app)
        view = app.seat_view
        assert view is not None and view.lesson, "a lesson's screen without the lesson's words"
        if not said or said[-1] != view.lesson:
            said.append(view.lesson)
        state = game_state(app)
        assert state is not None
        leaked = cards_on_screen(screen_text(app)) & hidden_cards(state, 0)
        assert not leaked or state.phase is Phase.SHUFFLE, f"the bot's cards on screen: {leaked}"
        if ended(app):
            return said
        if isinstance(app.screen, GameScreen) and view.my_turn:
            await pilot.press(*keys(app))
        else:
            await pilot.pause()
    raise AssertionError("the lesson never ended")


async def test_the_lesson_by_enter_shows_every_part_and_leaves_nothing_behind(tmp_path: Path) -> None:
    # A player with a saved game and a statistics folder: the lesson touches neither.
    record = record_until(lambda s: s.phase is Phase.DRAFT, players=HOTSEAT)
    slot = slot_file(tmp_path)
    slot.parent.mkdir(parents=True)
    slot.write_text(json.dumps(record.to_json()), encoding="utf-8")
    before = files(tmp_path)
    app = lesson_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        said = await play_lesson(pilot, app, lambda _: ("enter",))
        assert app.lesson is not None and app.lesson.missed() == []
        everything = "\n".join(said)
        for step, words in PARTS:
            assert fixed_words(step) in everything, f"{words} ({step}) never shown"
        end = said[-1]
        assert "You bid 8 and won 9" in end and "1 bag" in end and "not everything came up" not in end
        assert "The hand is over" in screen_text(app)  # the panel's place holds the lesson's words
        assert "Play a real game" in screen_text(app) and "The lesson again" in screen_text(app)
        assert app.session is not None and store_of(app).autosave_path is None
    assert files(tmp_path) == before, "the lesson wrote a saved game or statistics"


async def test_the_lesson_with_other_choices_still_ends_and_says_what_they_change(tmp_path: Path) -> None:
    def other(app: SpadesApp) -> tuple[str, ...]:
        view = app.seat_view
        assert view is not None
        if view.phase is Phase.EXCHANGE:
            return ("enter",)  # the suggested cards come marked: exchange them
        return ("right", "enter") if len(view.legal) > 1 else ("enter",)

    app = lesson_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        said = await play_lesson(pilot, app, other)
        everything = "\n".join(said)
        assert fixed_words("double-nil") in everything  # what Double Nil and its exchange are: said, never asked
        assert "instead" in everything
        assert app.lesson is not None
        # Parts that did not come up are said at the end, not an error.
        assert (fixed_words("end-missed") in said[-1]) == bool(app.lesson.missed())
        await pilot.press("right", "enter")  # The lesson again
        await until(pilot, lambda: app.seat_view is not None and app.seat_view.phase is Phase.DRAFT
                    and not ended(app) and app.lesson is not None and bool(app.lesson.shown), "the lesson again")
        assert app.lesson is not None and app.lesson.shown == ["draft-first"]
    assert files(tmp_path) == {}


async def test_an_illegal_key_or_card_is_explained_and_esc_leaves(tmp_path: Path) -> None:
    app = lesson_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("x")
        await settle(pilot, app)
        assert app.seat_view is not None and "The key x does nothing here" in app.seat_view.lesson
        assert "The key x does nothing" in screen_text(app)
        while not (app.seat_view.phase is Phase.PLAY and app.seat_view.my_turn
                   and app.seat_view.observation.trick):
            await pilot.press("enter")
            await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        barred = next(i for i, item in enumerate(screen.items) if item.card is not None and not item.enabled)
        screen.query_one("#hand", Picker).post_message(Picker.Refused(barred))  # a click on a lowered card
        await settle(pilot, app)
        card = screen.items[barred].card
        assert card is not None
        assert f"{card.label()} may not be played: you must follow suit" in app.seat_view.lesson
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert app.session is None and app.lesson is None
    assert files(tmp_path) == {}


async def test_learn_to_play_is_first_for_a_new_player_and_second_for_one_with_a_game(tmp_path: Path) -> None:
    from spades_tui.tui.app.startup import AS_ASKED

    def menu(app: SpadesApp) -> list[str]:
        from textual.widgets import OptionList

        found = app.screen.query_one(OptionList)
        return [str(found.get_option_at_index(i).id) for i in range(found.option_count)]

    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path), start=AS_ASKED)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending, "the start")
        assert menu(app)[:2] == ["learn", "bot"]
        await pilot.press("enter")  # Learn to play, highlighted first
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.seat_view is not None
                    and bool(app.seat_view.lesson), "the lesson")
    record = record_until(lambda s: s.phase is Phase.DRAFT, players=HOTSEAT)
    slot = slot_file(tmp_path)
    slot.parent.mkdir(parents=True, exist_ok=True)
    slot.write_text(json.dumps(record.to_json()), encoding="utf-8")
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path), start=AS_ASKED)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending, "the start")
        assert menu(app)[:3] == ["resume-0", "bot", "learn"]


async def test_the_end_offers_a_real_game_by_the_new_game_form_and_back_goes_to_the_start(tmp_path: Path) -> None:
    from spades_tui.tui.screens.setup import SetupScreen

    app = lesson_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_lesson(pilot, app, lambda _: ("enter",))
        assert app.lesson is not None and "The hand is over" in screen_text(app)
        await pilot.press("enter")  # Play a real game, highlighted first
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the new-game form")
        assert app.lesson is None and app.session is None  # the lesson closed: the form starts a game of its own
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen behind the form")
    assert files(tmp_path) == {}, "the lesson or its end wrote a saved game or statistics"
    app = lesson_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_lesson(pilot, app, lambda _: ("enter",))
        await pilot.press("right", "right", "enter")  # Back
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert app.session is None and app.lesson is None
    assert files(tmp_path) == {}


@pytest.mark.slow  # a whole lesson at 80x24 (about 3 s)
async def test_every_lesson_step_fits_beside_the_table_at_80x24(tmp_path: Path) -> None:
    """Issue 52: the lesson's words stand in the panel's place, 23 rows of about 24 columns at 80x24: each step
    must be read whole there (a longer one lost its last lines, the suggestion among them)."""
    import textwrap

    from spades_tui.tui.widgets.panel import ScorePanel

    app = lesson_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        said: list[str] = []
        for _ in range(300):
            await settle(pilot, app)
            view = app.seat_view
            if ended(app):
                break
            if isinstance(app.screen, GameScreen) and view is not None and view.my_turn:
                panel = app.screen.query_one(ScorePanel)
                rows = sum(len(textwrap.wrap(p, panel.size.width) or [""]) for p in view.lesson.split("\n"))
                assert rows <= panel.size.height, f"{rows} rows in {panel.size}:\n{view.lesson}"
                assert view.lesson.split("\n")[-1].split()[-1] in screen_text(app)
                said.append(view.lesson)
                await pilot.press("enter")
            else:
                await pilot.pause()
        assert ended(app) and len(said) > 20
