"""The footer of every screen: the keys that work now."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer

from ...i18n.language import N_, current, translated
from ..textualprivate import (
    FooterKey,
    FooterLabel,
    bindings_ready,
    drop_detached_watchers,
    key_disabled,
    set_bindings_ready,
    set_key_disabled,
)

# The app's ctrl+p works on every screen, but a modal screen's footer lists only that screen's keys:
# modal screens add this so the footer shows the palette key at its right there too.
PALETTE_KEY = Binding("ctrl+p", "app.command_palette", N_("Palette"), show=False,
                      tooltip=N_("The command palette: type part of a command (new game, statistics, hints...), "
                                 "Enter."))

# "?" opens help over a modal screen too (its F1 is the app's, with priority); where a text field has the focus
# it types a "?" (Textual leaves a key the field takes to the field).
HELP_KEY = Binding("question_mark", "app.help", N_("Help"), show=False)


_STATES = {"-disabled", "-compact"}  # a key's classes that change in place (compact: bound to the footer's on mount)


def _translated(widget: Widget) -> Widget:
    """A footer key's words in the player's language: every binding's description and tooltip is marked with
    ``N_`` where it is written, and translated here, where it is shown (a group's label too)."""
    if isinstance(widget, FooterKey):
        widget.description = translated(widget.description) if widget.description else ""
        tip = widget.tooltip
        if isinstance(tip, str) and tip:
            widget.tooltip = translated(tip)
    elif isinstance(widget, FooterLabel):
        widget.update(translated(str(widget.content)))
    return widget


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
        if not bindings_ready(self):
            return None
        app = self.app
        return (self.compact, self.show_command_palette, current(), tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action, binding.group, enabled,
             tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show or binding.key == app.COMMAND_PALETTE_BINDING
        ))

    def compose(self) -> ComposeResult:
        if not bindings_ready(self):
            # The screen's keys are known as it composes: show them at once. Textual's Footer composed empty and
            # waited for the screen's first bindings signal to recompose, which restyled and laid the screen out
            # again before its first paint (issue 33); that signal now finds the same keys and recomposes nothing.
            set_bindings_ready(self)
        self._shown = self._keys()
        for widget in super().compose():
            yield _translated(widget)

    async def recompose(self) -> None:
        # Every bindings change recomposes the footer, and new keys cost a style pass for each: most
        # changes (a repaint, a help screen closed) leave the keys as they were, so keep them then.
        if self.is_attached and self._keys() == self._shown:
            return
        if self.is_attached and self._same_looks():
            return
        await super().recompose()
        drop_detached_watchers(self)

    def _same_looks(self) -> bool:
        """The new keys look as the shown ones (the same labels, actions and groups; another key of the same
        binding, another tooltip, enabled or not): those shown take the new key, tooltip and state in place,
        with no new widgets to style and lay out. A screen's first keys often differ from its settled ones only
        so: the widget that takes the focus as it comes up shadows one key of a binding ("left" of "left,up,k")."""
        shown = list(self.children)
        wanted = list(self.compose())  # not mounted, only read (compose notes these keys as the shown ones)
        if len(shown) != len(wanted):
            return False
        for old, new in zip(shown, wanted, strict=True):
            if type(old) is not type(new) or (old.classes - _STATES) != (new.classes - _STATES):
                return False
            if isinstance(old, FooterKey) and isinstance(new, FooterKey):
                if (old.key_display, old.description, old.action) != (new.key_display, new.description, new.action):
                    return False
            elif isinstance(old, FooterLabel) and isinstance(new, FooterLabel):
                if str(old.content) != str(new.content):
                    return False
            elif list(old.children) or list(new.children):  # a group of keys: recomposed whole
                return False
        for old, new in zip(shown, wanted, strict=True):
            if isinstance(old, FooterKey) and isinstance(new, FooterKey):
                old.key = new.key
                old.tooltip = new.tooltip
                set_key_disabled(old, key_disabled(new))
                old.set_class(key_disabled(new), "-disabled")
        return True
