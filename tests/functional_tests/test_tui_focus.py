"""The focused field of a form stands out (issue 29): its row's label turns bold reverse video, which reads in
every theme, with NO_COLOR and on an ASCII screen; Tab after Tab, the field typed into is the one marked."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import Horizontal
from textual.widgets import Input, Label

from spades_tui.tui.screens.settings import SettingsScreen
from spades_tui.tui.screens.setup import SetupScreen
from tests.support.pilot import make_app, settle


def marked_rows(app: object) -> list[str]:
    """The labels drawn in reverse video: the focused field's row, and no other."""
    screen = app.screen  # type: ignore[attr-defined]
    return [str(label.render()) for label in screen.query(".row > .label").results(Label)
            if label.rich_style.reverse and label.rich_style.bold]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("keys, screen_type", [(["down", "enter"], SetupScreen), (["f2"], SettingsScreen)],
                         ids=["new_game", "settings"])
@pytest.mark.slow
async def test_the_focused_field_stands_out(tmp_path: Path, keys: list[str], screen_type: type, theme: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        app.theme = theme
        await pilot.press(*keys)
        await pilot.pause()
        assert isinstance(app.screen, screen_type)
        seen = 0
        for _ in range(8):
            await pilot.press("tab")
            await pilot.pause()
            await pilot.pause()
            focused = app.focused
            row = focused.parent if focused is not None else None
            if isinstance(row, Horizontal) and row.has_class("row"):
                label = row.query_one(Label)
                assert marked_rows(app) == [str(label.render())]  # this field's row, only it
                seen += 1
                if isinstance(focused, Input):  # typed text lands in the marked field
                    before = focused.value
                    await pilot.press("end", "x")
                    assert focused.value == before + "x" or focused.type != "text"
            else:
                assert marked_rows(app) == []  # a button focused: no row marked
        assert seen >= 3
