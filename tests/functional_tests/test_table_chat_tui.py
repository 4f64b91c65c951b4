"""The table's chat and a watcher on the screen, with Pilot: the chat key opens the lines said and a field,
hostile lines are shown cleaned (never markup, never an escape), a watcher's screen holds no hidden card
and its chat reads only."""

from __future__ import annotations

import asyncio
import io
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

import pytest
from textual.pilot import Pilot

from spades_tui.engine.rules import Rules
from spades_tui.settings.options import LaunchOptions
from spades_tui.table.host.table import TableHost
from spades_tui.table.run import bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import JoinTable
from spades_tui.tui.screens.chat import ChatScreen
from tests.support.hidden import hidden_cards
from tests.support.pilot import cards_on_screen, screen_text, until
from tests.support.table import SHORT, table, url_of

RULES = Rules.from_json(SHORT)
HOSTILE = "\x1b[31mred\x1b[0m [bold]loud[/bold] \x07\u202eevil\n" + "x" * 20


@asynccontextmanager
async def cleo_at_botty(tmp_path: Path,
                        size: tuple[int, int]) -> AsyncIterator[tuple[TableHost, SpadesApp, Pilot[None]]]:
    """Cleo's screen seated at Botty's table, the game begun."""
    async with table(tmp_path, rules=RULES, names=("Botty", "x")) as (host, listener):
        client = TableClient(url_of(listener), code=host.code, name="Cleo", seat_file=tmp_path / "seat.json")
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.session is not None and "Cleo" in screen_text(app), "the game")
            yield host, app, pilot


@pytest.mark.slow
async def test_the_guest_says_a_line_and_reads_a_hostile_one_cleaned(tmp_path: Path) -> None:
    async with cleo_at_botty(tmp_path, (100, 32)) as (host, app, pilot):
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat")
        assert "Nothing said yet." in screen_text(app)
        await pilot.press(*"good luck")
        await pilot.press("enter")
        await until(pilot, lambda: bool(host.chat), "the line reached the table")
        assert host.chat[-1]["text"] == "good luck" and host.chat[-1]["name"] == "Cleo"
        assert not isinstance(app.screen, ChatScreen)
        assert host.say(0, HOSTILE) is None  # the other seat's hostile line
        await until(pilot, lambda: "Botty: red" in screen_text(app), "the line on the panel")
        assert "\x1b" not in screen_text(app)
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat again")
        text = screen_text(app)
        assert "Cleo: good luck" in text and "Botty: red [bold]loud[/bold] evil" in text
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ChatScreen), "back to the game")


@pytest.mark.slow
async def test_a_wide_panel_lists_the_last_lines_said_from_the_seats_view(tmp_path: Path) -> None:
    """From 140 columns the panel lists the last lines said (docs/playing.md, "Screen sizes"): they come with the
    seat's view (a panel once looked for them on an app attribute that had been renamed, and showed none)."""
    async with cleo_at_botty(tmp_path, (160, 50)) as (host, app, pilot):
        # One line a second per seat: a line from each seat (the panel keeps the last three: test_table_fit.py).
        for seat, name, line in ((0, "Botty", "first words"), (1, "Cleo", "second words")):
            assert host.say(seat, line) is None
            await until(pilot, lambda name=name, line=line: app.session is not None  # type: ignore[misc]
                        and app.session.view().said[-1:] == ((name, line),), f"{line} in the seat's view")
        await until(pilot, lambda: "Cleo: second words" in screen_text(app), "the last line on the panel")
        chat = screen_text(app).split("Chat", 1)
        assert len(chat) == 2 and "Botty: first words" in chat[1] and "Cleo: second words" in chat[1]


@pytest.mark.slow
async def test_a_watcher_screen_shows_no_hidden_card_and_its_chat_reads_only(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, names=("Botty", "x")) as (host, listener):
        guest = TableClient(url_of(listener), code=host.code, name="Gus", seat_file=tmp_path / "seat.json")
        playing = asyncio.ensure_future(bot_client(guest, "easy", out=io.StringIO(), err=io.StringIO()))
        watcher = TableClient(url_of(listener), name="Wes", watch=host.watch_code)
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(watcher))
        seen = 0
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.session is not None, "the watcher's screen")
            host.say(1, "hello watchers")
            while not playing.done() and seen < 400:
                await pilot.pause()
                session = host.session
                if session is not None and session.outcome is None:
                    text = screen_text(app)
                    if "is over" not in text:  # a finished hand's summary shows its public cards
                        leaked = cards_on_screen(text) & hidden_cards(session.state, None)
                        assert not leaked, f"hidden cards on the watcher's screen: {leaked}"
                    seen += 1
            for _ in range(50):  # the screen may change under the key (the game ended meanwhile): pressed again
                await pilot.press("c")
                await pilot.pause()
                if isinstance(app.screen, ChatScreen):
                    break
            await until(pilot, lambda: isinstance(app.screen, ChatScreen), "the watcher's chat")
            text = screen_text(app)
            assert "watchers read only" in text and "Gus: hello watchers" in text
            assert not app.screen.query("#chatinput")  # no field: a watcher does not say
            await pilot.press("escape")
        assert await asyncio.wait_for(playing, 60) == 0
