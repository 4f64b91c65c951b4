"""The start screen's "Find a table" (docs/playing.md, docs/table-protocol.md "Public tables and the lobby"), with
Pilot: with a table server in the settings, the start screen offers it; its list shows the public tables;
Enter on a waiting one sits down and the game is played to its end by Enter alone (no hidden card on the
screen), and Enter on a table in play watches it.  A server in this process on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import io
from pathlib import Path
from typing import AsyncIterator

import pytest
from textual.widgets import OptionList

from spades_tui.engine.rules import Rules
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.table.run import bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.table.server.tables import TableServer
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import JoinTable
from spades_tui.tui.screens.lobby import LobbyScreen
from spades_tui.tui.screens.start import StartScreen
from tests.support.hidden import hidden_cards
from tests.support.pilot import cards_on_screen, screen_text, until
from tests.support.table import SHORT, Recorder, table_server

RULES = Rules.from_json(SHORT)
PRESSES = 3000  # a bound on a short game played by Enter alone
PAUSES = 500  # a bound on waiting for the list


@contextlib.asynccontextmanager
async def server(tmp: Path) -> AsyncIterator[tuple[TableServer, str]]:
    async with table_server(tmp / "server" / "games") as (lobby, port):
        yield lobby, f"127.0.0.1:{port}"


def told(app: SpadesApp) -> list[str]:
    """What the app said in its notifications (the toasts), newest last."""
    return [n.message for n in app._notifications]


def app_at(tmp: Path, where: str) -> SpadesApp:
    config = tmp / "cfg"
    save_preferences(config / PREFERENCES_NAME, Preferences(player_name="Cleo", table_server=where))
    return SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp / "data", config_dir=config)


async def open_lobby(app: SpadesApp, pilot: object, rows: int) -> LobbyScreen:
    """From the start screen, "Find a table": the list screen once it lists ``rows`` tables."""
    # Bounded in time, not in pauses (a pause is a few milliseconds at the finer grain of the game test).
    await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending,  # type: ignore[arg-type]
                "the start screen")
    menu = app.screen.query_one(OptionList)
    menu.highlighted = menu.get_option_index("find")
    await pilot.press("enter")  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and len(app.screen.rows) >= rows,  # type: ignore[arg-type]
                "the list of tables")
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


@pytest.mark.slow  # a whole game: left out of the quick check
@pytest.mark.usefixtures("fine_grain")  # hundreds of keys: Pilot's idle wait at a finer grain (tests/support/pilot.py)
async def test_find_a_table_sits_down_at_a_waiting_one_and_plays_it_to_the_end(tmp_path: Path) -> None:
    async with server(tmp_path) as (lobby, where):
        opener = TableClient(f"ws://{where}/table", name="Ada", seat_file=tmp_path / "a" / "tables" / "seat.json",
                             create=(RULES, 0), public=True)
        opener_err = io.StringIO()
        opening = asyncio.ensure_future(bot_client(opener, "easy", out=io.StringIO(), err=opener_err))
        app = app_at(tmp_path, where)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_lobby(app, pilot, 1)
            text = screen_text(app)
            assert "Sit down: Ada waits for a player" in text and f"Tables at {where}" in text
            await pilot.press("enter")
            watcher = None
            for _ in range(PRESSES):
                await pilot.pause()
                table = lobby.tables[0] if lobby.tables else None
                session = table.game if table is not None else None
                if session is not None and app.session is not None:
                    if watcher is None:  # found through the lobby too, once the game is in play
                        watcher = Recorder(f"ws://{where}/table", name="Wes", watch=table.watch_code)  # type: ignore[union-attr]
                        await watcher.connect()
                        watching = asyncio.ensure_future(watcher.keep())
                    text = screen_text(app)
                    leaked = cards_on_screen(text) & hidden_cards(session.state, 1)
                    if "is over" not in text:  # a finished hand's summary shows its cards: public by then
                        assert not leaked, f"hidden cards on the screen: {leaked}"
                    if session.outcome is not None:
                        break
                await pilot.press("enter")
            assert await asyncio.wait_for(opening, 60) == 0
            assert "Cleo sat down." in opener_err.getvalue()
            assert screen is not None and watcher is not None
            await asyncio.wait_for(watcher.finished.wait(), 60)
            await watcher.stop()
            watching.cancel()


async def test_find_a_table_watches_a_table_in_play(tmp_path: Path) -> None:
    async with server(tmp_path) as (lobby, where):
        url = f"ws://{where}/table"
        opener = TableClient(url, name="Ada", seat_file=tmp_path / "a" / "tables" / "seat.json", create=(RULES, 0),
                             public=True)
        await opener.connect()
        assert opener.invite is not None
        guest = TableClient(url, code=opener.invite[0], name="Gus", seat_file=tmp_path / "g" / "tables" / "s.json")
        await guest.connect()
        listening = [asyncio.ensure_future(c.listen()) for c in (opener, guest)]
        app = app_at(tmp_path, where)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_lobby(app, pilot, 1)
            assert "Watch: Ada 0 – 0 Gus, hand 1" in screen_text(app)
            await pilot.press("enter")
            for _ in range(PAUSES):
                await pilot.pause()
                if lobby.tables[0].watchers:
                    break
            remote = app.network_table.remote
            assert remote is not None and remote.client.watching and len(lobby.tables[0].watchers) == 1
        for client in (opener, guest):
            await client.stop()
        for task in listening:
            task.cancel()


async def test_quitting_with_the_list_up_closes_its_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app quit while "Find a table" listed the tables: the lobby's connection is closed all the same (it was
    left to the garbage collector, which said "Unclosed client session" after the app had gone)."""
    from spades_tui.table.seat import finder

    followed: list[finder.Lobby] = []
    follow = finder.Lobby.follow

    async def recorded(lobby: finder.Lobby) -> None:
        followed.append(lobby)
        await follow(lobby)

    monkeypatch.setattr(finder.Lobby, "follow", recorded)
    async with server(tmp_path) as (_, where):
        app = app_at(tmp_path, where)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_lobby(app, pilot, 0)
            await until(pilot, lambda: bool(followed) and "No public table here now" in screen_text(app),
                        "the list followed")
            app.exit()
        assert len(followed) == 1 and followed[0]._session is None and followed[0]._ws is None


async def test_the_opener_of_a_server_table_is_told_when_the_friend_sits_down_leaves_and_comes_back(
        tmp_path: Path) -> None:
    """Issue 34: the table's creator on a server was never told "NAME sat down"; now, as at a hosted table, the
    screen says when the friend sits down, leaves and comes back."""
    async with server(tmp_path) as (_, where):
        url = f"ws://{where}/table"
        client = TableClient(url, name="Ada", seat_file=tmp_path / "data" / "tables" / "seat-new.json",
                             create=(RULES, 0), public=True)
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(PAUSES):
                await pilot.pause()
                if client.invite is not None:
                    break
            assert client.invite is not None
            guest = TableClient(url, code=client.invite[0], name="Gus", seat_file=tmp_path / "g" / "tables" / "s.json")
            await guest.connect()
            listening = asyncio.ensure_future(guest.listen())
            said: list[str] = []
            for line in ("Gus sat down.", "Gus left the table (disconnected).", "Gus is back at the table."):
                for _ in range(PAUSES):
                    await pilot.pause()
                    if line in told(app):
                        said.append(line)
                        break
                if line == "Gus sat down.":
                    await guest.close()  # the friend's connection drops
                    await asyncio.wait([listening], timeout=30)
                elif line.startswith("Gus left"):
                    await guest.connect()  # and comes back with its token
                    listening = asyncio.ensure_future(guest.listen())
            assert said == ["Gus sat down.", "Gus left the table (disconnected).", "Gus is back at the table."]
            await guest.stop()
            listening.cancel()
