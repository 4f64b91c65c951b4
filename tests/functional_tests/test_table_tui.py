"""A network table on the screen, with Pilot: the host's screen against a bot client, and the join screen
against a host's bot, each a whole game by Enter alone, every frame checked for hidden cards."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.keep.stats import STATS_NAME, load_summary
from spades_tui.keep.storage import load_record
from spades_tui.settings.options import LaunchOptions
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.seat_file import saved_seats, seat_path
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import HostTable, JoinTable
from spades_tui.tui.screens.table import TableWaitScreen
from tests.support.hidden import hidden_cards
from tests.support.pilot import cards_on_screen, screen_text, until
from tests.support.table import SHORT, Recorder, check_frames, play_with_bot, table, url_of

pytestmark = pytest.mark.slow  # whole games by Enter through a network table: left out of the quick check

RULES = Rules.from_json(SHORT)
PRESSES = 3000  # a bound on a short game played by Enter alone
# A game's hundreds of keys each wait for Pilot's idle check: at a finer grain (tests/support/pilot.py).
fine_grain = pytest.mark.usefixtures("fine_grain")


@fine_grain
async def test_host_screen_a_whole_game_against_a_bot_at_the_other_machine(tmp_path: Path) -> None:
    app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "cfg",
                    start=HostTable(dict(name="Alice", rules=RULES)))
    async with app.run_test(size=(100, 32)) as pilot:
        # Bounded in time, not in pauses (each a few milliseconds at the finer grain).
        await until(pilot, lambda: app.listener is not None and app.listener.runner is not None
                    and "spades-tui join" in screen_text(app), "the invite on the wait screen")
        text = screen_text(app)
        assert isinstance(app.screen, TableWaitScreen)
        invite = re.search(r"spades-tui join (127\.0\.0\.1:\d+) (\S+)", text)
        assert invite is not None and app.table is not None and invite.group(2) == app.table.code
        assert not cards_on_screen(text)
        client = Recorder(f"ws://{invite.group(1)}/table", code=invite.group(2), name="Bob")
        bot = asyncio.ensure_future(play_with_bot(client))
        joined = False
        for _ in range(PRESSES):
            await pilot.pause()
            if app.session is not None and app.table is not None and app.table.session is not None:
                state = app.table.session.state
                text = screen_text(app)
                joined = joined or "Bob connected" in text
                leaked = cards_on_screen(text) & hidden_cards(state, 0)
                assert not leaked, f"hidden cards on the host's screen: {leaked}"
                if app.table.session.outcome is not None:
                    break
            await pilot.press("enter")
        assert joined
        assert await asyncio.wait_for(bot, 60) == 0
        assert app.table is not None and app.table.session is not None and app.table.session.outcome is not None
        over = next(f for f in client.frames if f["type"] == "over")
        check_frames(client.frames, 1, over["record"])
        await pilot.pause()
        assert "wins" in screen_text(app) or "won" in screen_text(app)
    # The host counts the game against the friend, by name.
    report = load_summary(tmp_path / "data" / STATS_NAME).summary
    assert list(report["by_opponent"]) == ["remote:Bob"] and report["hands"] > 0


@fine_grain
async def test_join_screen_a_whole_game_against_the_hosts_bot(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, names=("Botty", "x")) as (host, listener):
        data = tmp_path / "data"
        client = TableClient(url_of(listener), code=host.code, name="Cleo",
                             seat_file=seat_path(data, url_of(listener)))
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=data,
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        summaries = 0
        last_turn = False  # the guest's draft screen says its last turn as a local player's does
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(PRESSES):
                await pilot.pause()
                session = host.session
                if session is not None and app.session is not None:
                    text = screen_text(app)
                    leaked = cards_on_screen(text) & hidden_cards(session.state, 1)
                    # The summary kept on the client's screen shows the finished hand, whose cards are public.
                    if "is over" not in text:
                        assert not leaked, f"hidden cards on the client's screen: {leaked}"
                    last_turn = last_turn or ("draft turn" in text and "Last turn you" in text)
                    if "is over" in text:
                        summaries += 1
                        if client.verified:
                            assert "shuffle verified" in text or "NOT VERIFIED" in text
                    if client.outcome is not None:
                        break
                await pilot.press("enter")
            assert client.outcome is not None and session is not None and session.outcome is not None
            assert client.outcome.scores == session.outcome.scores
            assert summaries and all(problem is None for problem in client.verified.values())
            assert last_turn
            await pilot.pause()
            text = screen_text(app)
            assert "Botty" in text
            # The game-over screen says it of every hand (issue 25), where the panel is not shown (< 110 columns).
            assert re.search(rf"Shuffle\s+verified\s+for\s+all\s+{client.played}\s+hands", text)

        # The guest counts its own game: every hand it played and the result, against the friend by name;
        # the finished record is kept with the finished games; its seat leaves the start screen's list.
        report = load_summary(data / STATS_NAME).summary
        assert report["hands"] == len(session.state.history) > 0
        won = int(session.outcome.winner == 1)
        assert report["by_opponent"] == {"remote:Botty": {"played": 1, "won": won}}
        kept = list((data / "games" / "finished").glob("table-*.json"))
        assert len(kept) == 1 and load_record(kept[0]).actions == session.store.record.actions
        assert saved_seats(data) == []


@fine_grain
async def test_join_screen_warns_of_a_hand_the_host_never_revealed(tmp_path: Path) -> None:
    """Issue 25: a host that skipped hand 1's reveal still got "verified"; now the game screen and the
    game-over screen say hand 1 was never revealed, as loudly as a wrong reveal."""
    async with table(tmp_path, rules=RULES, names=("Liar", "x")) as (host, listener):
        real_send = host._send

        def skip_first(message: dict, only: int | None = None) -> None:  # type: ignore[type-arg]
            if not (message.get("type") == "reveal" and message["hand"] == 1):
                real_send(message, only)

        host._send = skip_first  # type: ignore[method-assign]
        client = TableClient(url_of(listener), code=host.code, name="Cleo", seat_file=tmp_path / "seat.json")
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        warned_in_play = False
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(PRESSES):
                await pilot.pause()
                if app.session is not None and client.verified.get(1) is not None and client.outcome is None:
                    text = screen_text(app)
                    warned_in_play = warned_in_play or ("SHUFFLE NOT VERIFIED" in text and
                                                        "hand 1: never revealed" in text)
                if client.outcome is not None:
                    break
                await pilot.press("enter")
            assert client.outcome is not None and warned_in_play
            await pilot.pause()
            text = screen_text(app)
            assert re.search(r"NOT\s+verified:\s+hand\s+1\s+never\s+revealed", text)
            assert "Shuffle verified for all" not in text


async def test_a_joining_player_sees_the_house_rules_before_the_first_card(tmp_path: Path) -> None:
    """The table's rules once seated, before any card is shown: the panel's house-rules line from the first
    screen (o lists them), the wait screen while the first shuffle is fixed, and a notice with every option
    not as standard that stays over the first screens."""
    rules = Rules.from_json({**SHORT, "nil_points": 50, "spades_any_time": True})
    async with table(tmp_path, rules=rules, names=("Botty", "x")) as (host, listener):
        client = TableClient(url_of(listener), code=host.code, name="Cleo", seat_file=tmp_path / "seat.json")
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        told_at = card_at = None
        async with app.run_test(size=(100, 32)) as pilot:
            for frame in range(400):
                await pilot.pause()
                text = screen_text(app)
                if told_at is None and ("House rules: 3 changes" in text or "The rules of this table" in text):
                    told_at = frame
                if card_at is None and cards_on_screen(text):
                    card_at = frame
                if told_at is not None and card_at is not None:
                    break
                if app.session is not None:
                    await pilot.press("enter")
            assert told_at is not None and card_at is not None and told_at <= card_at
            notices = [n.message for n in app._notifications]  # the toast (rendered on its own layer)
            assert any("Nil points 50" in m and "Spades led any time yes" in m and "Target score 120" in m
                       for m in notices), notices
