"""The footer of every screen: the keys that work now."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Footer


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
