"""Every private name of Textual the interface uses, here and nowhere else (tests/unit_tests/test_import_hygiene.py).

Each is a workaround Textual's public interface has no means for; each says which and why.  Checked against
Textual 8.2.x (8.2.8 installed when written; pyproject.toml allows ``textual>=8.2,<9``): a new Textual that moves or
renames one of these breaks this module alone, and the tests of the footer (test_tui_kept_screens.py, the snapshots)
and of the keys typed ahead of a screen (test_tui_game.py) say so.

- ``event_clock``: ``textual._time.get_time``, the clock Textual stamps every message with (``Message.time``): a game
  screen drops a key stamped before the screen came up (``GameScreen.on_key``); only the same clock compares.
- ``FooterKey``, ``FooterLabel``: the footer's own widgets (``textual.widgets._footer``, not exported), which
  ``widgets/footer.GameFooter`` compares and updates in place rather than recomposing.
- ``bindings_ready`` / ``set_bindings_ready``: ``Footer._bindings_ready``, set by Textual only on the screen's first
  bindings signal, so Textual's Footer composes empty and then again; ``GameFooter`` composes the keys at once.
- ``key_disabled`` / ``set_key_disabled``: ``FooterKey._disabled`` (its ``disabled`` argument, kept under that
  name), so a shown key takes a new key's state in place.
- ``drop_detached_watchers``: a reactable's ``__watchers`` (the watchers ``watch``/``data_bind`` register): Textual
  drops a removed widget's entry only when the watched value next changes, which for the footer's ``compact`` is
  never, so the footer's recomposed keys would pile up (hundreds of MiB over a game).
- ``app_closing``: ``App._closing``, true once the app has begun to close: a timer can still fire then, and must not
  start work for a screen that is going.
- ``WordedPalette``: the command palette's "No matches found" in the player's language: Textual writes it in
  ``CommandPalette._start_no_matches_countdown`` (with its timer ``_no_matches_timer``), with no parameter for it.
"""

from __future__ import annotations

from typing import Any

from rich.align import Align
from rich.text import Text
from textual._time import get_time
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel
from textual.widgets.option_list import Option

__all__ = ["FooterKey", "FooterLabel", "WordedPalette", "app_closing", "bindings_ready", "drop_detached_watchers",
           "event_clock", "key_disabled", "set_bindings_ready", "set_key_disabled"]


def event_clock() -> float:
    """Now, by the clock of ``Message.time``."""
    return get_time()


def bindings_ready(footer: Footer) -> bool:
    """The footer has its screen's keys (Textual sets this on the screen's first bindings signal)."""
    return bool(footer._bindings_ready)


def set_bindings_ready(footer: Footer) -> None:
    """The footer's keys are known now: its first compose shows them (set without a watcher's recompose)."""
    footer.set_reactive(Footer._bindings_ready, True)


def key_disabled(key: FooterKey) -> bool:
    return bool(key._disabled)


def set_key_disabled(key: FooterKey, disabled: bool) -> None:
    key._disabled = disabled


def drop_detached_watchers(node: DOMNode) -> None:
    """Forget the watchers ``node``'s reactives hold for widgets no longer attached to the screen."""
    watchers: dict[str, list[tuple[object, object]]] = getattr(node, "__watchers", {})
    for entries in watchers.values():
        entries[:] = [(n, cb) for n, cb in entries if not isinstance(n, Widget) or n.is_attached]


def app_closing(app: App[Any]) -> bool:
    return bool(app._closing)


class WordedPalette(CommandPalette):
    """Textual's command palette, saying ``no_matches`` where Textual says "No matches found"."""

    def __init__(self, no_matches: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.no_matches = no_matches

    def _start_no_matches_countdown(self, search_value: str) -> None:  # as Textual's, with the words given
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(Option(Align.center(Text(self.no_matches, style="not bold")),
                                                              disabled=True, id=self._NO_MATCHES))
            self._list_visible = bool(search_value)

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
