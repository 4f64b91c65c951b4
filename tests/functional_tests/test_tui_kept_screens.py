"""Help is built once per topic and kept; the footer keeps its keys while they stay the same (issue 21's key
latency). Both must look exactly as before: help opens at the top, and the footer follows every change."""

from __future__ import annotations

from pathlib import Path

import pytest

from spades_tui.tui.widgets.footer import GameFooter
from tests.support.pilot import make_app, screen_text, settle


@pytest.mark.slow
async def test_help_is_kept_and_opens_at_the_top_each_time(tmp_path: Path) -> None:
    from spades_tui.tui.screens.help import HelpScreen

    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f1")
        await pilot.pause()
        first = app.screen
        assert isinstance(first, HelpScreen)
        top = screen_text(app)
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert screen_text(app) != top  # scrolled down
        await pilot.press("f1")  # close
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen is first  # the same screen, not built again
        assert screen_text(app) == top  # and at the top, as a new one would be


async def test_the_footer_follows_a_change_of_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        footer_line = screen_text(app).splitlines()[-1]
        assert "Take back" not in footer_line
        await pilot.press("enter")  # the first decision: now it can be taken back
        await settle(pilot, app)
        footer = app.screen.query_one(GameFooter)
        await pilot.pause()
        assert "Take back" in screen_text(app).splitlines()[-1]
        keys = list(footer.children)
        app.screen.refresh_bindings()  # nothing changed: the same keys, not new ones
        await pilot.pause()
        await pilot.pause()
        assert list(footer.children) == keys


@pytest.mark.slow
async def test_help_draws_the_guide_laid_out_beforehand_at_each_size(tmp_path: Path) -> None:
    # The guide is laid out in the background for the help box's width (help_text_width): opening help then
    # draws those lines and lays out nothing more, at 80 columns and at 160 (a wrong width would be added).
    from spades_tui.tui.app.guide import guide_in, guide_markdown, help_text_width, prepare_guide

    for width, height in ((80, 24), (160, 50)):
        guide_in.cache_clear()  # nothing laid out by an earlier test
        app = make_app(tmp_path, bot="easy", seed=3)
        async with app.run_test(size=(width, height)) as pilot:
            await settle(pilot, app)
            prepare_guide(["draft"], app.console, width)
            parts = [part for part in guide_markdown("draft") if part is not None]
            before = [part.widths() for part in parts]
            assert before == [{help_text_width(width)}] * len(parts)
            await pilot.press("f1")
            await pilot.pause()
            assert "Close help" in screen_text(app) and "The draft" in screen_text(app)
            assert [part.widths() for part in parts] == before


async def test_a_resize_just_before_quitting_does_no_harm(tmp_path: Path) -> None:
    # The guide is laid out again half a second after a resize; a timer that fires as the app closes (its
    # screens gone) must do nothing, not raise (it did, as "No screens on stack", in a test run).
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
    assert not app.screen_stack
    app.help.after_resize()  # what the timer would run now
    app._help_soon("draft")


async def test_a_key_changed_in_place_is_the_one_that_works_when_clicked(tmp_path: Path) -> None:
    # The game's first keys are composed with the screen, before the focus shadows "left" of "left,up,k"; the
    # footer then takes the settled key in place instead of composing its keys again. A click on "Move" must still
    # move the highlight: it presses the key the footer holds.
    from spades_tui.tui.textualprivate import FooterKey

    app = make_app(tmp_path, hotseat=True, seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # the hand-off screen: the first player's draft
        await settle(pilot, app)
        move = next(k for k in app.screen.query(FooterKey) if k.action == "move(-1)")
        assert move.key not in app.screen.focused._bindings.key_to_bindings  # type: ignore[union-attr]
        await pilot.press("j")  # the next choice, so that "Move" (to the previous) has somewhere to go
        await settle(pilot, app)
        before = app.screen.cursor  # type: ignore[attr-defined]
        assert before > 0
        await pilot.click(move)
        await settle(pilot, app)
        assert app.screen.cursor == before - 1  # type: ignore[attr-defined]
