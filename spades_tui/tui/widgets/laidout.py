"""A renderable laid out once per width and kept (the help screen's guide): drawing it again costs no layout."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment


class LaidOut:
    """A renderable laid out once per width and kept: the guide's Markdown, wrapped to the help box's width
    in the background before help first opens, so that F1 draws lines already made (issue 21: a key's
    repaint within 100 ms; laying out the whole guide took about 150 ms)."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._lines: dict[tuple[int, bool], list[list[Segment]]] = {}

    def lines(self, console: Console, options: ConsoleOptions) -> list[list[Segment]]:
        key = (options.max_width, options.ascii_only)  # an ASCII screen draws other rules and boxes
        found = self._lines.get(key)
        if found is None:  # a width not prepared (the terminal was resized): laid out now, then kept
            found = console.render_lines(self.renderable, options.update(height=None), pad=False)
            self._lines[key] = found
        return found

    def widths(self) -> set[int]:
        """The widths laid out so far."""
        return {width for width, _ in self._lines}

    def prepare(self, console: Console, width: int) -> None:
        """Lay it out for ``width`` columns now (in a worker thread: the interface's thread draws meanwhile)."""
        if width > 0:
            self.lines(console, console.options.update(width=width))  # kept by lines: once per width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(console, options):
            yield from line
            yield Segment.line()
