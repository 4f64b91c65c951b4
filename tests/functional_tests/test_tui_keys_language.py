"""The keys in the player's language (docs/languages.md): a binding's description and tooltip are marked where
they are written and translated where they are shown, in the footer and in help's list of keys, so a change of
language reaches them; the settings' language row can be found by a player who cannot read the language on the
screen."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from spades_tui.i18n import language as i18n
from tests.support.pilot import make_app, screen_text, settle


def footer_line(app: object) -> str:
    return screen_text(app).splitlines()[-1]  # type: ignore[arg-type]


async def test_the_footer_and_help_name_the_keys_in_the_players_language(tmp_path: Path) -> None:
    from spades_tui.tui.screens.help import HelpScreen

    i18n.use("sv")
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        line = footer_line(app)
        assert "Hjälp" in line and "Välj" in line and "Help" not in line and "Confirm" not in line
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Stäng hjälpen" in footer_line(app)
        console = Console(width=100, file=io.StringIO())
        console.print(app.screen.keys_table())
        keys = console.file.getvalue()  # type: ignore[attr-defined]
        assert keys.startswith("Tangenter")
        assert "Visa eller dölj det senaste fullständiga sticket." in keys  # t's tooltip
        assert "Show or hide" not in keys


async def test_a_change_of_language_reaches_the_footer_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        assert "Help" in footer_line(app)
        i18n.use("et")  # as the settings do when the language changes
        app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        assert "Abi" in line and "Vali" in line and "Help" not in line


async def test_the_language_row_is_found_in_any_language(tmp_path: Path) -> None:
    for language, label in (("en", "Language"), ("sv", "Språk (Language)"), ("et", "Keel (Language)")):
        i18n.use(language)
        app = make_app(tmp_path / language)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("f2")
            await pilot.pause()
            text = screen_text(app)
            assert label in text and "Language (Language)" not in text
