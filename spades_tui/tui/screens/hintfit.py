"""A game screen's hint fitted to the body (issue 33: at 80x24 every choice can be read): the first choices each on
one line, its last phrases left out rather than cut, the others listed compactly; where the body would scroll (the
arrow keys move the cards, not the body), one full line fewer until it fits as laid out.

``HintFit`` is a mixin of ``game.GameScreen``: it keeps one number (how many full lines were taken off) and reads
the screen's view and its widgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..hintpanel import HINT_OPTIONS, hint_panel

if TYPE_CHECKING:
    from ..gameview import GameView

    _Screen = Screen[None]  # what the mixin is mixed into, for the type checker
else:
    _Screen = object

SHORT_BELOW = 30  # terminal rows: a shorter terminal's hint panel lists fewer choices
SHORT_HINT_OPTIONS = 1  # and the other choices listed compactly (hintpanel.py)


class HintFit(_Screen):
    shown: Optional[GameView]

    if TYPE_CHECKING:
        def _text(self, selector: str, text: str) -> None: ...

    hint_shrink = 0  # choices taken off the hint's full lines so that it fits the body (listed compactly instead)

    def _hint_text(self, vm: GameView) -> str:
        """The hint fitted to the panel: the first choices each on one line, its last phrases left out rather
        than cut, every other choice listed compactly after them; on a short terminal (80x24) one full line, and
        fewer where the body would scroll (the arrow keys move the cards), so that every choice can be read."""
        if not vm.hint_lines:
            return vm.hint
        width = self.query_one("#body", VerticalScroll).size.width - 4  # border, padding, a scrollbar
        options = SHORT_HINT_OPTIONS if self.app.size.height < SHORT_BELOW else HINT_OPTIONS
        return hint_panel(vm.hint_lines, width, max(0, options - self.hint_shrink))

    def _refit_hint(self) -> None:
        vm = self.shown
        if vm is not None and vm.hint_lines:
            text = self._hint_text(vm)
            if str(self.query_one("#hint", Static).content) != text:
                self._text("#hint", text)
            elif self.query_one("#body", VerticalScroll).max_scroll_y > 0 and text != self._shrunk_hint(vm):
                self.hint_shrink += 1  # laid out, the hint runs past the body's foot: one full line fewer
                self._text("#hint", self._hint_text(vm))
            else:
                return
            self.call_after_refresh(self._refit_hint)  # until it fits, as laid out again

    def _shrunk_hint(self, vm: GameView) -> str:
        """The hint with no full line at all: the summary and the compact list."""
        width = self.query_one("#body", VerticalScroll).size.width - 4
        return hint_panel(vm.hint_lines, width, 0)
