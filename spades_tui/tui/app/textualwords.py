"""Textual's own words that the game shows, in the player's language: the command palette's placeholder and its
"No matches found", the theme picker's, and what ctrl+c says (Textual writes each in English, with no catalog of
its own).  Each is Textual's action as it is, given our words (checked against Textual 8.2.8)."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.command import CommandPalette

from ...i18n.language import _


def command_palette(app: App[Any]) -> None:
    """The command palette (ctrl+p): Textual's ``action_command_palette``."""
    from ..textualprivate import WordedPalette

    if app.use_command_palette and not CommandPalette.is_open(app):
        app.push_screen(WordedPalette(_("No matches found"), id="--command-palette",
                                      placeholder=_("Search for commands…")))


def theme_palette(app: App[Any]) -> None:
    """The theme picker (the palette's "Change theme"): Textual's ``search_themes``."""
    from textual.theme import ThemeProvider

    from ..textualprivate import WordedPalette

    app.push_screen(WordedPalette(_("No matches found"), providers=[ThemeProvider],
                                  placeholder=_("Search for themes…")))


def help_quit(app: App[Any]) -> None:
    """ctrl+c, which quits no Textual app: how to quit (Textual's ``action_help_quit``)."""
    for key, active in app.active_bindings.items():
        if active.binding.action in ("quit", "app.quit"):
            app.notify(_("Press [b]{key}[/b] to quit the app").format(key=key), title=_("Do you want to quit?"))
            return
