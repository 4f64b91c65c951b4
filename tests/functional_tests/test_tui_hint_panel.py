"""The hint panel at 80x24 shows every choice of the hint: the first with its phrases, the others compactly by their
figure, all inside the screen's body (nothing scrolled out of sight: the arrow keys move the cards there)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest
from textual.widgets import Static

from spades_tui.engine.state import GameState, Phase
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.gameview import HintLine
from spades_tui.tui.hintpanel import compact, hint_panel
from spades_tui.tui.screens.game import GameScreen
from tests.support.pilot import VS_BOT, make_app, record_until, screen_text, settle, until


def draft_turn(state: GameState) -> bool:
    hand = state.hand
    return state.phase is Phase.DRAFT and state.to_act == 0 and hand is not None and len(hand.draft_log) >= 4


def bid_turn(state: GameState) -> bool:
    return state.phase is Phase.BIDDING and state.to_act == 0


def play_turn(state: GameState) -> bool:
    hand = state.hand
    return (state.phase is Phase.PLAY and state.to_act == 0 and hand is not None and len(hand.hands[0]) == 11
            and not hand.trick)


def region_text(app: SpadesApp, selector: str) -> str:
    """The characters on screen inside the widget's region."""
    region = app.screen.query_one(selector).region
    rows = screen_text(app).splitlines()[region.y:region.bottom]
    return "\n".join(row[region.x:region.right] for row in rows)


def shows(text: str, label: str) -> bool:
    return re.search(rf"(?<!\S){re.escape(label)}(?=[:\s]|$)", text, re.M) is not None


@pytest.mark.parametrize("when", [draft_turn, bid_turn, play_turn], ids=["draft", "bidding", "play"])
async def test_every_choice_of_the_hint_is_on_screen_at_80x24(tmp_path: Path,
                                                               when: Callable[[GameState], bool]) -> None:
    record = record_until(when, players=VS_BOT, seed=5)
    app = make_app(tmp_path, loaded=record, hints=True, show_hints=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await until(pilot, lambda: app.seat_view is not None and app.seat_view.hint is not None, "the hint")
        hint = app.seat_view.hint if app.seat_view is not None else None
        assert hint is not None and len(hint.options) > 1
        screen = app.screen
        assert isinstance(screen, GameScreen)

        def fitted() -> bool:  # the hint laid out and fitted to the body (it shrinks its full lines until it fits)
            body = screen.query_one("#body")
            return bool(str(screen.query_one("#hint", Static).content)) and body.max_scroll_y == 0

        await until(pilot, fitted, "the hint fitted inside the body")
        body, panel = screen.query_one("#body").region, screen.query_one("#hint").region
        assert body.contains_region(panel), f"the hint {panel} runs out of the body {body}"
        text = region_text(app, "#hint")
        for option in hint.options:
            assert shows(text, option.label), f"{option.label} is not readable in the hint panel:\n{text}"
        assert "…" not in text


def test_the_compact_list_wraps_between_choices() -> None:
    lines = (HintLine("Hint: 10♦: best chance to win the game, ≈ 71%"),
             *(HintLine(label, (f"win ≈ {n}%", "no more tricks in 0%"), "  ", f"≈ {n}%")
               for label, n in (("10♦", 71), ("3♣", 70), ("K♠", 64), ("Q♥", 60), ("2♦", 41), ("J♣", 40))))
    text = hint_panel(lines, 28, 1).splitlines()
    assert text[:2] == ["Hint: 10♦: best chance to win the game, ≈ 71%", "  10♦: win ≈ 71%"]
    assert all(len(row) <= 28 for row in text[1:])
    listed = " ".join(text[2:])
    for line in lines[2:]:
        assert compact(line) in listed  # each choice whole, on one line
    assert text[2].startswith("  also 3♣ 70%")
    assert hint_panel(lines, 0, 6).count("\n") == 6  # all full lines: nothing left to list compactly
