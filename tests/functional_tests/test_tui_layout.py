"""The card table at every size (docs/playing.md, "Screen sizes"): rules 3 and 4 of the layout, checked
over the app's own rendered lines (the compositor's), not over the snapshot files.

At each of 80x24, 100x32, 120x40, 160x50 and 200x60, on every game screen:

- the opponent's row, the table, the news and prompt, the choices and the hand are each centered in the
  main area: their left and right margins differ by at most 2 columns;
- from 120x40, no band of empty rows in the main area is taller than a quarter of the screen (on the
  screens with the card table: draft, Double Nil, exchange, bidding, play);
- no line ends a sentence cut with "…";
- no region draws over another, each lies inside the main area, the hand and the choices are whole.

A live resize changes the card size and the panel's width (the stylesheet's breakpoints).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widget import Widget

from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.widgets.cards import CardWidget

from .test_tui_snapshots import SCREENS, workers_done

SIZES = [(80, 24), (100, 32), (120, 40), (160, 50), (200, 60)]
TABLE_SCREENS = ["double_nil", "draft", "exchange", "bidding", "play", "hints_play"]
LAYOUT_SCREENS = [*TABLE_SCREENS, "handoff", "summary", "review", "game_over"]
CENTERED = ("#opponent", "#table", "#info", "#prompt", "#choices", "#handlabel", "#hand")
REGIONS = ("#opponent", "#body", "#handlabel", "#hand")  # the main area's rows, top to bottom
WHOLE = ("#choices", "#hand")
# Words that end in an ellipsis by meaning, not because a line was cut.
ELLIPSIS_WORDS = {"thinking", "analysing", "Dealing", "table"}


pytestmark = pytest.mark.usefixtures("forced_card_waits")  # the screen as it comes up


def lines_of(app: Any) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def geometry(app: Any, widget: Widget) -> Any:
    return app.screen._compositor.full_map.get(widget)


def shown(app: Any, selector: str) -> Widget | None:
    found = app.screen.query(selector)
    if not found:
        return None
    widget: Widget = found.first()
    geo = geometry(app, widget)
    if not widget.display or geo is None or geo.region.area == 0:
        return None
    return widget


def ink(lines: list[str], region: Region) -> tuple[int, int] | None:
    """The first and last column with a visible character inside ``region``, or None if it is blank."""
    xs = [x for y in range(region.y, region.bottom) for x in range(region.x, region.right)
          if y < len(lines) and x < len(lines[y]) and not lines[y][x].isspace()]
    return (min(xs), max(xs) + 1) if xs else None


def cut_sentences(lines: list[str]) -> list[str]:
    """Lines with an ellipsis that cuts a sentence (not 'thinking…', not a name shortened in its middle)."""
    bad = []
    for line in lines:
        for m in re.finditer("…", line):
            word = re.findall(r"\w+$", line[:m.start()])
            following = line[m.end():m.end() + 1]
            if following.isalnum() or (word and word[0] in ELLIPSIS_WORDS):
                continue
            bad.append(line.strip())
    return bad


def layout_problems(app: Any, name: str, size: tuple[int, int]) -> list[str]:
    width, height = size
    lines = lines_of(app)
    problems = [f"cut: {line!r}" for line in cut_sentences(lines[:-1])]  # the footer's keys are not sentences
    if name == "review":
        return problems  # a modal box over the summary: only rule 4's text applies
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    main = geometry(app, screen.query_one("#main"))
    assert main is not None
    area = main.region
    inner = screen.query_one("#main").content_region
    for selector in CENTERED:
        widget = shown(app, selector)
        if widget is None:
            continue
        geo = geometry(app, widget)
        extent = ink(lines, geo.region.intersection(geo.clip))
        if extent is None:
            continue
        left, right = extent[0] - inner.x, inner.right - extent[1]
        if abs(left - right) > 2:
            problems.append(f"{selector} not centered: {left} columns on the left, {right} on the right")
    placed = [(s, geometry(app, w).region) for s in REGIONS if (w := shown(app, s)) is not None]
    for i, (a, ra) in enumerate(placed):
        if not area.contains_region(ra):
            problems.append(f"{a} {ra} outside the main area {area}")
        for b, rb in placed[i + 1:]:
            if ra.overlaps(rb):
                problems.append(f"{a} {ra} overlaps {b} {rb}")
    for selector in WHOLE:
        widget = shown(app, selector)
        if widget is not None:
            geo = geometry(app, widget)
            if not geo.clip.contains_region(geo.region):
                problems.append(f"{selector} not whole on the screen: {geo.region} in {geo.clip}")
    if name in TABLE_SCREENS and width >= 120 and height >= 40:
        run, worst = 0, 0
        for y in range(inner.y, inner.bottom):
            blank = not lines[y][inner.x:inner.right].strip()
            run = run + 1 if blank else 0
            worst = max(worst, run)
        if worst > height // 4:
            problems.append(f"an empty band of {worst} rows (at most {height // 4})")
    return problems


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", LAYOUT_SCREENS)
@pytest.mark.slow
async def test_layout_rules(tmp_path: Path, name: str, size: tuple[int, int]) -> None:
    factory, keys = SCREENS[name]
    app = factory(tmp_path)
    async with app.run_test(size=size) as pilot:
        await workers_done(pilot)
        for key in keys:
            await pilot.press(key)
        await workers_done(pilot)
        await pilot.pause()
        problems = layout_problems(app, name, size)
        assert not problems, "\n".join([f"{name} at {size[0]}x{size[1]}:", *problems, *lines_of(app)])


def _card_height(app: Any) -> int:
    hand: CardWidget = app.screen.query_one("#hand", CardWidget)
    return hand.card.height


@pytest.mark.slow
async def test_live_resize_changes_the_cards_and_the_panel(tmp_path: Path) -> None:
    """Grown from 80x24 to 160x50 and back, the cards and the panel follow: the stylesheet's breakpoints
    give the panel its width, the screen picks the card size."""
    factory, _ = SCREENS["play"]
    app = factory(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await workers_done(pilot)
        panel = app.screen.query_one("#panel")
        small, narrow = _card_height(app), panel.outer_size.width
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        await pilot.pause()
        large, wide = _card_height(app), panel.outer_size.width
        assert (small, large) == (3, 7)
        assert narrow < wide, (narrow, wide)
        assert not layout_problems(app, "play", (160, 50))
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        await pilot.pause()
        assert _card_height(app) == 5
        assert narrow <= panel.outer_size.width < wide
        assert not layout_problems(app, "play", (100, 32))
