"""A forced card is said where the player looks next ("10♦ played itself (your only card)"), and the hand's last
trick stays on the table until seen, before the hand's summary, like any other trick: against a bot and at a
network table's seat, never in hot-seat (the hand-off screen comes between the players' cards)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest

from spades_tui.engine.actions import Play
from spades_tui.engine.record import replay
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import Preferences
from spades_tui.table.seat.client import TableClient
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import JoinTable
from spades_tui.tui.screens.play import PlayScreen
from spades_tui.tui.screens.summary import SummaryScreen
from tests.support.pilot import HOTSEAT, VS_BOT, game_state, make_app, record_until, screen_text, settle, until
from tests.support.table import SHORT, table, url_of

from .test_tui_forced import forced_follow, last_trick

LONG_PAUSE = 4.0  # the bot pause of these games: a finished trick stays 10 s unless a key is pressed


def flat(app: SpadesApp) -> str:
    """The screen's words with its line breaks and runs of spaces as single spaces (a line may wrap)."""
    return " ".join(screen_text(app).split())


def held(app: SpadesApp) -> bool:
    return isinstance(app.screen, PlayScreen) and app.seat_view is not None and app.seat_view.trick_held


def hand_over(app: SpadesApp) -> bool:
    state = game_state(app)
    return state is not None and state.phase in (Phase.SHUFFLE, Phase.GAME_OVER)


def paused_app(tmp_path: Path, when: Callable[[GameState], bool], pause: float = LONG_PAUSE,
               prefs: Preferences | None = None) -> tuple[SpadesApp, GameState]:
    record = record_until(when, players=VS_BOT, seed=5)
    app = make_app(tmp_path, loaded=record, prefs=prefs)
    app.options = replace(app.options, bot_pause=pause)
    return app, replay(record)


def the_forced_card(state: GameState) -> Play:
    plays = [a for a in legal_actions(state) if isinstance(a, Play) and a.player == 0]
    assert len(plays) == 1
    return plays[0]


async def test_a_forced_follow_is_said_under_the_table(tmp_path: Path) -> None:
    app, state = paused_app(tmp_path, forced_follow)
    card = the_forced_card(state).card
    hand = state.hand
    assert hand is not None and hand.trick
    led = hand.trick[0].card.suit
    expected = f"{card.label()} played itself (your only {led.name.lower()[:-1]})."
    async with app.run_test(size=(100, 32)) as pilot:
        # Nothing pressed: the card plays itself, and the line says so while its trick is on the table.
        await until(pilot, lambda: expected in flat(app), "the forced card said")
        assert isinstance(app.screen, PlayScreen)
        shown = game_state(app)
        assert shown is not None and shown.hand is not None and card in {pc.card for pc in shown.hand.tricks[-1]}


@pytest.mark.slow
async def test_the_last_trick_stays_until_a_key_then_the_summary(tmp_path: Path) -> None:
    app, state = paused_app(tmp_path, last_trick)
    card = the_forced_card(state).card
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: hand_over(app) and held(app), "the hand's last trick held on the table")
        done = game_state(app)
        assert done is not None and done.hand is not None and len(done.hand.tricks) == 13
        text = flat(app)
        assert "Hand 1 is over: press any key for its summary." in text
        assert f"{card.label()} played itself (your only card)." in text
        for pc in done.hand.tricks[-1]:  # both cards of the 13th trick, and who won it
            assert pc.card.label() in text
        assert "won trick 13" in text
        assert not isinstance(app.screen, SummaryScreen)
        await pilot.press("space")  # any key: seen
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the hand's summary after the key")
        assert app.seat_view is not None and not app.seat_view.trick_held


async def test_the_last_trick_played_by_enter_is_held_too(tmp_path: Path) -> None:
    # The setting off: the last card waits for Enter, and its trick stays as any other.
    app, _ = paused_app(tmp_path, last_trick, prefs=Preferences(forced_play=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, PlayScreen) and not hand_over(app)
        await pilot.press("enter")
        await until(pilot, lambda: hand_over(app) and held(app), "the last trick held")
        assert "played itself" not in flat(app)  # Enter played it: nothing to say
        await pilot.press("t")  # any key, even one bound to something else (here: the last trick in words)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary after the key")


@pytest.mark.slow
async def test_the_last_trick_goes_by_itself_after_its_pause(tmp_path: Path) -> None:
    app, _ = paused_app(tmp_path, last_trick, pause=0.2)  # 2.5 bot pauses: half a second
    shown: list[bool] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.watch(app, "seat_view", lambda snap: shown.append(snap is not None and snap.trick_held))
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary with no key pressed")
        assert True in shown and shown[-1] is False  # held first, then the summary by itself


async def test_no_hold_with_no_bot_pause(tmp_path: Path) -> None:
    app, _ = paused_app(tmp_path, last_trick, pause=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary at once")
        assert app.seat_view is not None and not app.seat_view.trick_held


@pytest.mark.slow
async def test_hot_seat_goes_to_the_summary_as_before(tmp_path: Path) -> None:
    record = record_until(last_trick, players=HOTSEAT, seed=5)
    app = make_app(tmp_path, loaded=record, hotseat=True)
    app.options = replace(app.options, bot_pause=LONG_PAUSE)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(6):  # hand-offs and the two last cards, by Enter
            if hand_over(app):
                break
            await pilot.press("enter")
            await settle(pilot, app)
        assert hand_over(app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary with no hold")
        assert app.seat_view is not None and not app.seat_view.trick_held


@pytest.mark.slow
@pytest.mark.usefixtures("fine_grain")  # a hand by Enter: Pilot's idle wait at a finer grain (tests/support/pilot.py)
async def test_a_table_seat_sees_the_last_trick_before_the_summary(tmp_path: Path) -> None:
    async with table(tmp_path, rules=Rules.from_json(SHORT), names=("Botty", "x")) as (host, listener):
        client = TableClient(url_of(listener), code=host.code, name="Cleo", seat_file=tmp_path / "seat.json")
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=LONG_PAUSE), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        seen_held = False
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(3000):  # Enter alone through the first hand, a bound on it
                await pilot.pause()
                if held(app):
                    seen_held = True
                    assert "Hand 1 is over: press any key for its summary." in flat(app)
                    assert "won trick" in flat(app)
                if isinstance(app.screen, SummaryScreen):
                    break
                await pilot.press("enter")
            assert seen_held, "the summary came with the last trick never held on the table"
            assert isinstance(app.screen, SummaryScreen)
