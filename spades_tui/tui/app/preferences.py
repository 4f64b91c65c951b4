"""The player's preferences at this app (settings/preferences.py): read at start, applied to the looks (the theme,
the four-colour deck), saved when the settings screen or the palette's "Change theme" changes them.  What a
change means for the game in play and the next game is the app's."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional

from textual.app import App

from ...i18n.language import resolve, use
from ...keep.storage import StorageError
from ...settings.preferences import PREFERENCES_NAME, Preferences
from ...settings.preferences import load as load_preferences
from ...settings.preferences import save as save_preferences


class PreferenceStore:
    """``config_dir`` holds the preferences file (None: the defaults, never saved); ``say(text, severity, timeout)``
    tells the player a file that could not be written."""

    def __init__(self, app: App[Any], config_dir: Optional[Path],
                 say: Callable[[str, str, Optional[float]], None]) -> None:
        self.app = app
        self._say = say
        self.path = config_dir / PREFERENCES_NAME if config_dir is not None else None
        self.prefs = Preferences()
        self.problem: Optional[str] = None  # why the file was not read as it is: said once the app runs
        self._applied = False  # the looks are ours, not Textual's first default
        if self.path is not None:
            self.prefs, self.problem = load_preferences(self.path, app.available_themes)

    def apply_looks(self) -> None:
        app = self.app
        if self.prefs.theme in app.available_themes:
            app.theme = self.prefs.theme
        app.set_class(self.prefs.four_colour, "-four-colour")  # assets/spades.tcss colours each suit
        self._applied = True

    def chosen(self, prefs: Preferences) -> Preferences:
        """The settings screen's ``prefs`` kept, saved and applied; returns those they replace."""
        old, self.prefs = self.prefs, prefs
        self.save()
        self.apply_looks()
        if prefs.language != old.language:  # the screens that follow speak it (docs/languages.md)
            use(resolve(prefs.language, os.environ))
        return old

    def theme_chosen(self, theme: str) -> None:
        """A theme chosen anywhere (the command palette's "Change theme" too) is kept for next time."""
        if theme != self.prefs.theme and self._applied:  # not Textual's first default, before ours
            self.prefs = replace(self.prefs, theme=theme)
            self.save()

    def save(self) -> None:
        if self.path is None:
            return
        try:
            save_preferences(self.path, self.prefs)
        except StorageError as exc:  # they apply for this run all the same
            self._say(f"Settings not saved: {exc}", "error", 12)
