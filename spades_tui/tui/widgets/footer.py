"""The footer of every screen: the keys that work now."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer

# The app's ctrl+p works on every screen, but a modal screen's footer lists only that screen's keys:
# modal screens add this so the footer shows the palette key at its right there too.
PALETTE_KEY = Binding("ctrl+p", "app.command_palette", "Palette", show=False,
                      tooltip="The command palette: type part of a command (new game, statistics, hints...), Enter.")

# "?" opens help over a modal screen too (its F1 is the app's, with priority); where a text field has the focus
# it types a "?" (Textual leaves a key the field takes to the field).
HELP_KEY = Binding("question_mark", "app.help", "Help", show=False)


class GameFooter(Footer):
    """Textual's Footer, minus a leak.

    On every bindings change the Footer recomposes and data-binds each new key
    to its ``compact`` reactive; the watchers of the removed keys are only
    dropped when ``compact`` changes, which it never does, so they pile up
    (measured: ~5 widgets kept per key press, hundreds of MiB over a game).
    After each recompose we drop the watchers of keys no longer attached.
    """

    _shown: object = None  # what the last compose showed (see _keys)

    def _keys(self) -> object:
        """What compose would show now: the shown keys, their state and labels, the palette key."""
        if not self._bindings_ready:
            return None
        app = self.app
        return (self.compact, self.show_command_palette, tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action, binding.group, enabled,
             tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show or binding.key == app.COMMAND_PALETTE_BINDING
        ))

    def compose(self) -> ComposeResult:
        self._shown = self._keys()
        yield from super().compose()

    async def recompose(self) -> None:
        # Every bindings change recomposes the footer, and new keys cost a style pass for each: most
        # changes (a repaint, a help screen closed) leave the keys as they were, so keep them then.
        if self.is_attached and self._keys() == self._shown:
            return
        await super().recompose()
        watchers: dict[str, list[tuple[object, object]]] = getattr(self, "__watchers", {})
        for entries in watchers.values():
            entries[:] = [(n, cb) for n, cb in entries if not isinstance(n, Widget) or n.is_attached]
