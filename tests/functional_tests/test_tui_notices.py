"""Notices (Textual's toasts) sit in the bottom-right corner above the footer, over the score panel, never over the
hand or the table, at every size from 80x24 to 200x60."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from textual.widgets._toast import Toast

from spades_tui.engine.state import GameState, Phase
from spades_tui.tui.screens.game import GameScreen
from tests.support.pilot import VS_BOT, make_app, record_until, settle, until

LONG = ("The rules of this table are not the standard ones: Nil points 50, bag limit 5, see the second card, "
        "10 for 200, spades led any time.")


def playing(state: GameState) -> bool:
    hand = state.hand
    return state.phase is Phase.PLAY and state.to_act == 0 and hand is not None and len(hand.hands[0]) == 12


def drafting(state: GameState) -> bool:
    return state.phase is Phase.DRAFT and state.to_act == 0


@pytest.mark.parametrize("size", [(80, 24), (100, 32), (120, 40), (160, 50), (200, 60)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("when", [playing, drafting], ids=["play", "draft"])
@pytest.mark.slow
async def test_a_notice_covers_neither_the_hand_nor_the_table(tmp_path: Path, size: tuple[int, int],
                                                              when: Callable[[GameState], bool]) -> None:
    app = make_app(tmp_path, loaded=record_until(when, players=VS_BOT, seed=5))
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        app.say(LONG, timeout=30)
        app.say("Back at the table.", "warning", timeout=30)  # two at once: they stack upwards
        await until(pilot, lambda: len(screen.query(Toast)) == 2 and all(t.region.area for t in screen.query(Toast)),
                    "the notices on the screen")
        width, height = size
        regions = {name: screen.query_one(name).region for name in ("#hand", "#table", "#choices")}
        panel = screen.query_one("#panel").region
        for toast in screen.query(Toast):
            notice = toast.region
            assert notice.right == width and notice.bottom <= height - 1, f"{notice} is not above the footer, right"
            for name, region in regions.items():
                assert not notice.overlaps(region), f"the notice {notice} covers {name} {region}"
            if width < 130:  # the panel reaches the screen's right edge: the notice lies on it
                assert notice.x >= panel.x, f"the notice {notice} runs out of the panel {panel}"
