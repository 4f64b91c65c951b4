"""Quit and resume, corrupt autosave, --load errors, small terminals, help, hidden-card oracle."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from tests.support.cli import run_spades
from tests.support.pilot import (
    check_frame,
    game_state,
    game_store,
    local_session,
    make_app,
    screen_text,
    settle,
    slot_file,
    state_of,
    store_of,
    viewer,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
async def test_quit_and_resume_gives_the_identical_state(tmp_path: Path) -> None:
    app = make_app(tmp_path, hotseat=True, seed=21, rules=Rules(target=200))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(45):
            await pilot.press("enter")
        before_state, before_record = game_state(app), store_of(app).record
        await pilot.press("ctrl+q")
    assert before_state is not None and before_state.phase is not Phase.SHUFFLE

    again = make_app(tmp_path)  # no options: the start screen offers to resume
    async with again.run_test(size=(100, 32)) as pilot:
        await settle(pilot, again)
        assert "Resume hand 1: Player 1" in screen_text(again)
        await pilot.press("enter")  # the highlighted first entry is Resume
        await settle(pilot, again)
        assert game_state(again) == before_state
        assert game_store(again) is not None and store_of(again).record.actions == before_record.actions
        assert viewer(again) is None and "Pass to " in screen_text(again)  # hot-seat resumes behind a hand-off
        await pilot.press("enter")
        check_frame(again, hotseat=True)
        # The dealer continues with the same seed: the next actions match a fresh replay's.
        assert dict(store_of(again).record.metadata)["seed"] == 21


@pytest.mark.slow
async def test_corrupt_autosave_gives_a_message_and_a_fresh_start(tmp_path: Path) -> None:
    bad = tmp_path / "autosave.json"
    bad.write_text("{ this is not a record", encoding="utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        text = screen_text(app)
        assert "could not be read" in text
        assert "Resume" not in text
        kept = list(tmp_path.glob("autosave.corrupt-*.json"))
        assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "{ this is not a record"
        # A new game from the start screen is saved in a slot of its own; the bad copy stays.
        await pilot.press("down", "down", "enter")  # learn, bot: hot-seat
        await pilot.press("enter")  # Start (focused)
        await settle(pilot, app)
        assert game_state(app) is not None and state_of(app).phase is not Phase.SHUFFLE
    assert slot_file(tmp_path).exists() and kept[0].exists() and not bad.exists()


def _run_cli(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return run_spades(*args, XDG_DATA_HOME=str(tmp_path))


@pytest.mark.parametrize("content", [None, "not json", '{"format": "spades-tui-game", "version": 9, "actions": []}'])
def test_load_of_a_bad_file_is_a_clear_error(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = _run_cli("--load", str(path), tmp_path=tmp_path)
    assert result.returncode == 2
    assert "cannot load" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_bad_argument_is_a_clear_error(tmp_path: Path) -> None:
    result = _run_cli("--bot", "genius", tmp_path=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr and "--bot" in result.stderr


async def test_small_terminal_asks_for_room_and_the_game_carries_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, hotseat=True, seed=2)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot, app)
        assert "too small" in screen_text(app)
        before = game_state(app)
        await pilot.press("enter")  # keys do nothing while the game is hidden
        assert game_state(app) is before and viewer(app) is None
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in screen_text(app) and "Pass to " in screen_text(app)
        await pilot.press("enter")
        assert viewer(app) is not None


@pytest.mark.slow
async def test_help_shows_rules_and_keys_and_closes(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        state = game_state(app)
        await pilot.press("f1")
        await pilot.pause()
        text = screen_text(app)
        assert "Close help" in text and ("The draft" in text or "Double Nil" in text)  # the guide for this screen
        for _ in range(6):  # then the keys, a page or two down
            if "Keys" in screen_text(app):
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert "Keys" in screen_text(app) and "⏎" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Close help" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert game_state(app) is state  # help changes nothing


@pytest.mark.slow
async def test_the_frame_check_catches_a_leak(tmp_path: Path) -> None:
    """The hidden-card oracle would fail if the screen showed the other player's hand."""
    app = make_app(tmp_path, hotseat=True, seed=8)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(12):
            await pilot.press("enter")
        to_act = state_of(app).to_act
        assert to_act is not None
        local_session(app).viewer = 1 - to_act  # force the wrong person's view
        app.publish()
        await pilot.pause()
        with pytest.raises(AssertionError):
            check_frame(app, hotseat=True)


@pytest.mark.slow
async def test_footer_keys_do_not_pile_up(tmp_path: Path) -> None:
    """Textual's Footer kept every old key alive through a data binding; GameFooter drops them."""
    import gc

    from spades_tui.tui.textualprivate import FooterKey

    app = make_app(tmp_path, hotseat=True, seed=8)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(40):
            await pilot.press("enter")
        await pilot.pause()
        gc.collect()
        alive = [o for o in gc.get_objects() if isinstance(o, FooterKey)]
        assert len(alive) < 20


@pytest.mark.slow
async def test_load_a_record_from_the_start_screen(tmp_path: Path) -> None:
    from spades_tui.tui.screens.load import LoadScreen
    from spades_tui.tui.screens.start import StartScreen
    from tests.support.pilot import record_until, until

    record = record_until(lambda s: s.phase is Phase.BIDDING, seed=13)
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), encoding="utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await pilot.press("down", "down", "down", "enter")  # learn, bot, hot-seat: Load a game record…
        await until(pilot, lambda: isinstance(app.screen, LoadScreen), "the load form")
        field = app.screen.query_one("#path")
        await until(pilot, lambda: app.focused is field, "the path field focused")  # else keys land elsewhere
        missing = str(tmp_path / "missing.json")
        for ch in missing:
            await pilot.press(ch)
        await until(pilot, lambda: field.value == missing, "the path typed")  # type: ignore[attr-defined]
        await pilot.press("enter")
        # Words folded across lines: the message names the path, which under pytest-xdist is long enough to wrap.
        await until(pilot, lambda: "no such file" in " ".join(screen_text(app).split()),
                    "the form saying the file is missing")
        app.screen.query_one("#path").value = str(path)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: game_state(app) is not None, "the loaded game")
        await settle(pilot, app)
        assert game_store(app) is not None and store_of(app).record.actions == record.actions
        assert game_state(app) is not None and state_of(app).phase is Phase.BIDDING
        assert "Pass to " in screen_text(app)


@pytest.mark.slow
async def test_escape_and_back_close_the_forms_without_starting_a_game(tmp_path: Path) -> None:
    from spades_tui.tui.screens.load import LoadScreen
    from spades_tui.tui.screens.setup import SetupScreen
    from spades_tui.tui.screens.start import StartScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("down", "enter")  # New game against the bot (after Learn to play)
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press("down", "down", "enter")  # Load a game record…
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        await pilot.click("#back")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert game_store(app) is None


@pytest.mark.slow
async def test_the_start_screen_lists_each_game_and_refuses_one_open_elsewhere(tmp_path: Path) -> None:
    """Two unfinished games: each its own entry; the one another copy of the game holds says so,
    and resuming it is refused on the start screen while the other resumes in its own slot."""
    import os
    import re

    from spades_tui.keep.slots import SlotDirectory
    from tests.support.pilot import VS_BOT, record_until
    from tests.support.slots import held_by_another_process

    mine = record_until(lambda s: s.phase is Phase.BIDDING, seed=13)
    theirs = record_until(lambda s: s.phase is Phase.BIDDING, players=VS_BOT, seed=14)
    slots = SlotDirectory(tmp_path / "games")
    slots.root.mkdir()
    for n, record, mtime in ((1, mine, 1_700_000_000), (2, theirs, 1_700_000_100)):
        slot_file(tmp_path, n).write_text(record.dumps(), encoding="utf-8")
        os.utime(slot_file(tmp_path, n), (mtime, mtime))
    slot_file(tmp_path, 3).write_text("{ damaged", encoding="utf-8")
    with held_by_another_process(slots.root, slot_file(tmp_path, 2)) as other:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, app)
            text = " ".join(screen_text(app).replace("▊", " ").replace("▎", " ").split())  # wrapped lines joined
            assert "The saved game game-3.json could not be read" in text  # set aside, with a message
            # Played in 2023: each says its date (engine/text.py when_words).
            free = text.index("Resume hand 1: Ada 0 – Bob 0, hot-seat, last played 2023-11-1")
            held = text.index("Resume hand 1: Ada 0 – Bot (easy) 0, against the bot (easy), last played 2023-11-1")
            assert free < held < text.index("New game")  # the free one first: Enter resumes it
            assert re.match(r"Resume hand 1: [^\n]*, last played \d{4}-\d\d-\d\d \d\d:\d\d open in another window: "
                            r"continue it there New game",
                            text[held:])
            assert text.count("another window") == 1
            await pilot.press("down", "enter")  # the one open elsewhere
            await settle(pilot, app)
            text = screen_text(app)
            assert "That game is open in another window" in text and f"(process {other.pid})" in text
            assert game_store(app) is None and "Resume hand " in text  # still the start screen, both still listed
            await pilot.press("enter")  # the start screen again, the free game first: it resumes in its own slot
            await settle(pilot, app)
            assert app.autosave_path == slot_file(tmp_path, 1) and game_store(app) is not None
            assert store_of(app).record.actions == mine.actions
            await pilot.press("enter", "enter")  # the hand-off, then a bid
            await settle(pilot, app)
            assert len(store_of(app).record.actions) > len(mine.actions)
    assert slot_file(tmp_path, 2).read_text(encoding="utf-8") == theirs.dumps()  # never written by this copy
    assert [p.read_text(encoding="utf-8") for p in slots.root.glob("game-3.*.json")] == ["{ damaged"]
    assert not slots.is_held(slot_file(tmp_path, 1))  # released on exit


@pytest.mark.slow
async def test_the_saved_games_come_after_the_menu_and_keys_typed_ahead_keep_their_screen(tmp_path: Path) -> None:
    # The start screen is drawn before the saved games are read (a faster first paint), then lists them in
    # place; a form a quick key opened meanwhile stays open, and the list is under it when it closes.
    from spades_tui.tui.screens.setup import SetupScreen
    from spades_tui.tui.screens.start import StartScreen

    first = make_app(tmp_path, bot="easy", seed=3)
    async with first.run_test(size=(100, 32)) as pilot:
        await settle(pilot, first)
        await pilot.press("enter")  # a move: the game is saved in its slot
        await settle(pilot, first)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, StartScreen) and not app.screen.pending
        assert "Resume hand 1" in screen_text(app)
        # Typed ahead: the form of the menu's first entry is open before the list comes.
        pending = StartScreen(None, (), app.options, app.prefs, (), pending=True)
        app.switch_screen(pending)
        await pilot.pause()
        assert "Resume" not in screen_text(app)
        await pilot.press("down", "enter")  # New game against the bot (after Learn to play: no game listed yet)
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        app._list_saved_games()
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)  # not replaced by a new start screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is pending and "Resume hand 1" in screen_text(app)
