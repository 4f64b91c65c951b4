"""The statistics screen: games and win rate per opponent, the hands' figures, recent games as sparklines.

It only renders its view model (``tui/statsview.py``), read by the app when it opens.  Modal, so the
game beneath waits (the app's screen switching leaves a modal alone), and opaque: it covers the table.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Sparkline, Static

from ...i18n.language import N_, _
from ..gameview import Sheet
from ..statsview import StatsView
from ..widgets.footer import HELP_KEY, PALETTE_KEY, GameFooter
from ..widgets.plain import plain, plain_cells
from ..widgets.toosmall import TooSmall

# Taller bars where there is room: (terminal rows at least, bar rows).
CHART_HEIGHTS = ((40, 3), (32, 2), (0, 1))


def figures_table(sheet: Sheet) -> Table:
    header = any(sheet.columns)
    # Plain Text cells: hot-seat players' names are in them, and a str would be read as markup.
    table = Table(title=plain(sheet.title, "bold"), title_justify="left", show_header=header, box=None,
                  padding=(0, 1, 0, 0), expand=False)
    for i, column in enumerate(sheet.columns):
        table.add_column(plain(column), justify="left" if i == 0 else "right", no_wrap=i == 0)
    for row in sheet.rows:
        table.add_row(*plain_cells(row))
    return table


class StatsScreen(ModalScreen[None]):
    PALETTE_COMMAND: ClassVar[str] = "stats"  # the palette's command that opens it: not offered over it
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Close"), key_display="Esc", id="stats.close",
                tooltip=N_("Close the statistics and go back.")),
        Binding("down,j", "scroll(1)", N_("Scroll"), key_display="↑↓", id="stats.scroll",
                tooltip=N_("Scroll the statistics.")),
        Binding("up,k", "scroll(-1)", N_("Scroll"), show=False),
        Binding("g", "next_rules", N_("House rules"), id="stats.rules",
                tooltip=N_("Show the figures of all games, or of the games under each house rules in turn.")),
        PALETTE_KEY,
        HELP_KEY,
    ]

    def __init__(self, view: StatsView) -> None:
        super().__init__()
        self.view = view
        self.page = 0  # which of view.pages is shown (0: all games)

    def compose(self) -> ComposeResult:
        vm = self.view
        with Vertical(id="content"):
            yield Static(self._title(), id="statstitle", markup=False)
            notice = Static(vm.notice, id="statsnotice", classes="message", markup=False)
            notice.display = bool(vm.notice)
            yield notice
            with VerticalScroll(id="statsbody"):
                if vm.empty:
                    if vm.empty_text:
                        yield Static(vm.empty_text, id="statsempty", markup=False)
                else:
                    with Horizontal(id="statsfigures"):
                        if vm.games.rows:
                            yield Static(figures_table(vm.games), id="statsgames")
                        else:  # no finished game yet: the count alone, not a heading over nothing
                            yield Static(plain(f"{vm.games.title}\n" + _("No game finished yet.")), id="statsgames")
                        yield Static(figures_table(vm.hands), id="statshands")
                    if vm.charts:
                        yield Static(_("Recent games: your score after each hand"), id="chartstitle")
                    for i, chart in enumerate(vm.charts):
                        yield Static(plain(f"{chart.label}: {chart.detail}"), classes="chartlabel")
                        yield Sparkline([float(x) for x in chart.series], id=f"chart-{i}")
                # The daily challenges, apart from the games (never counted in them): listed even with no game.
                if vm.challenges is not None:
                    yield Static(figures_table(vm.challenges), id="statschallenges")
                if vm.challenges_notice:
                    yield Static(vm.challenges_notice, id="challengesnotice", classes="message", markup=False)
            yield GameFooter()
        yield TooSmall()

    def on_mount(self) -> None:
        self.query_one("#statsbody").focus()

    def on_resize(self) -> None:
        rows = next(h for least, h in CHART_HEIGHTS if self.app.size.height >= least)
        for chart in self.query(Sparkline):
            chart.styles.height = rows
            chart.styles.margin = (0, 0, 1 if rows > 1 else 0, 0)  # taller charts read apart with a gap

    def _title(self) -> str:
        pages = self.view.pages
        if not pages:
            return _("Statistics")
        return _("Statistics: {rules} (g: house rules)").format(rules=pages[self.page].label)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_rules":
            return len(self.view.pages) > 1 and not self.view.empty
        return True

    def action_next_rules(self) -> None:
        pages = self.view.pages
        if not pages:
            return
        self.page = (self.page + 1) % len(pages)
        page = pages[self.page]
        self.query_one("#statstitle", Static).update(self._title())
        self.query_one("#statsgames", Static).update(figures_table(page.games))
        self.query_one("#statshands", Static).update(figures_table(page.hands))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        self.query_one("#statsbody", VerticalScroll).scroll_relative(y=delta, animate=False)
