"""The footer of every screen: the keys that work now."""

from __future__ import annotations

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer

# The app's ctrl+p works on every screen, but a modal screen's footer lists only that screen's keys:
# modal screens add this so the footer shows the palette key at its right there too.
PALETTE_KEY = Binding("ctrl+p", "app.command_palette", "Palette", show=False,
                      tooltip="The command palette: type part of a command (new game, statistics, hints...), Enter.")


class GameFooter(Footer):
    """Textual's Footer, minus a leak.

    On every bindings change the Footer recomposes and data-binds each new key
    to its ``compact`` reactive; the watchers of the removed keys are only
    dropped when ``compact`` changes, which it never does, so they pile up
    (measured: ~5 widgets kept per key press, hundreds of MiB over a game).
    After each recompose we drop the watchers of keys no longer attached.
    """

    async def recompose(self) -> None:
        await super().recompose()
        watchers: dict[str, list[tuple[object, object]]] = getattr(self, "__watchers", {})
        for entries in watchers.values():
            entries[:] = [(n, cb) for n, cb in entries if not isinstance(n, Widget) or n.is_attached]
