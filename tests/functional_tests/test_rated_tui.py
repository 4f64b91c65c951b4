"""Rated play on the start screen and in the lobby screen (docs/serving.md, "Rated play"), with Pilot: "Play a
stranger at ADDR:P (rated)" registers under the settings' name and seeks; the lobby screen shows the server's
leaderboard beside its tables, the player's own row marked.  A server in this process on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from spades_tui.engine.rules import Rules
from spades_tui.keep.serverkeys import ServerKey, load_key, new_key, save_key
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.table.seat.client import TableClient
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.ratedplay import SERVED
from spades_tui.tui.app.startup import JoinTable
from spades_tui.tui.messages import GiveUp
from spades_tui.tui.screens.choice import ChoiceScreen
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.gameover import GameOverScreen
from spades_tui.tui.screens.lobby import LobbyScreen
from spades_tui.tui.screens.start import StartScreen
from tests.support.pilot import screen_text, until
from tests.support.rated import connection, rated_server, register, until_begun
from tests.support.table import next_frame


def _app(tmp: Path, where: str, name: str = "Cleo") -> SpadesApp:
    config = tmp / "cfg"
    save_preferences(config / PREFERENCES_NAME, Preferences(player_name=name, table_server=where))
    return SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp / "data", config_dir=config)


async def _choose(app: SpadesApp, pilot: Pilot[int], option: str) -> None:
    await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending,
                "the start screen")
    menu = app.screen.query_one(OptionList)
    menu.highlighted = menu.get_option_index(option)
    await pilot.press("enter")


async def test_the_lobby_screen_shows_the_leaderboard_with_your_own_row_marked(tmp_path: Path) -> None:
    async with rated_server(tmp_path / "server") as (lobby, port):
        where = f"127.0.0.1:{port}"
        assert lobby.desk is not None
        store = lobby.desk.store
        cleo_key = new_key()
        ids = [store.register(name, key, f"10.0.0.{n}").id
               for n, (name, key) in enumerate([("Cleo", cleo_key), ("Dee", new_key()), ("Eve", new_key())])]
        pairs = [(0, 1), (1, 2), (2, 0), (1, 0), (2, 1), (0, 2)]
        for n in range(36):  # enough games to make the ratings firm
            winner, loser = pairs[n % 6]
            store.rate(f"g{n}", ids[winner], ids[loser])
        save_key(tmp_path / "data", ServerKey(where, ids[0], "Cleo", cleo_key))
        app = _app(tmp_path, where)
        async with app.run_test(size=(100, 36)) as pilot:
            await _choose(app, pilot, "find")
            await until(pilot, lambda: "← you" in screen_text(app), "the leaderboard")
            text = screen_text(app)
            assert isinstance(app.screen, LobbyScreen)
            assert "The best players here" in text and "No public table here now" in text
            mine = next(line for line in text.splitlines() if "← you" in line)
            assert "Cleo" in mine


async def test_play_a_stranger_registers_under_the_settings_name_and_seeks(tmp_path: Path) -> None:
    async with rated_server(tmp_path / "server") as (lobby, port):
        where = f"127.0.0.1:{port}"
        app = _app(tmp_path, where)
        async with app.run_test(size=(80, 24)) as pilot:
            await _choose(app, pilot, "quick")
            await until(pilot, lambda: "Seeking a stranger" in screen_text(app), "seeking")
            kept = load_key(tmp_path / "data", where)
            assert kept is not None and kept.name == "Cleo"
            assert lobby.desk is not None
            await until(pilot, lambda: len(lobby.desk.seeking.seekers) == 1 if lobby.desk else False,
                        "one seeker")
            await pilot.press("escape")
            await until(pilot, lambda: lobby.desk.seeking.seekers == [] if lobby.desk else False,
                        "no longer seeking")


async def test_a_player_who_chose_no_name_is_not_sent_back_for_player_being_taken(tmp_path: Path) -> None:
    # Every browser visitor is "Player" until they choose a name: the second one was sent back to the start screen
    # with "that name is taken".  A numbered one is found for them; a name the player chose is still refused.
    async with rated_server(tmp_path / "server") as (_lobby, port):
        where = f"127.0.0.1:{port}"
        await register(port, "Player", "127.0.0.4")
        app = _app(tmp_path, where, name="You")  # the settings' default: no name chosen
        async with app.run_test(size=(80, 24)) as pilot:
            await _choose(app, pilot, "quick")
            await until(pilot, lambda: "Seeking a stranger" in screen_text(app), "seeking")
            kept = load_key(tmp_path / "data", where)
            assert kept is not None and re.fullmatch(r"Player \d{4}", kept.name), kept
            await pilot.press("escape")
        await register(port, "Dee", "127.0.0.5")
        chosen = _app(tmp_path / "dee", where, name="Dee")
        async with chosen.run_test(size=(80, 24)) as pilot:
            await _choose(chosen, pilot, "quick")
            await until(pilot, lambda: "Cannot play a stranger" in screen_text(chosen), "the name refused")
            assert "Choose another name in the settings" in " ".join(screen_text(chosen).split())


async def test_play_a_stranger_at_a_server_not_there_says_why_in_words(tmp_path: Path) -> None:
    """Issue 52's "…ssl:default [Connect call failed…]": the rated path (registering, the leaderboard) still said
    aiohttp's words when nothing listened at the server's address."""
    from tests.support.table import free_port

    app = _app(tmp_path, f"127.0.0.1:{free_port()}")
    async with app.run_test(size=(80, 24)) as pilot:
        await _choose(app, pilot, "quick")
        await until(pilot, lambda: "Cannot play a stranger" in screen_text(app), "why not")
        text = " ".join(screen_text(app).split())
        assert "nothing is listening there" in text
        assert "ssl:default" not in text and "Connect call failed" not in text
        assert "ws://" not in text  # the address as the player gave it, not the connection's URL


# ------------------------------------------------------------------ at a rated table: resign, claim, the end


async def _bob_seated(port: int, key: str, connected: list[Any]) -> Any:
    """Bob seeks over a raw connection and answers each commit until the game's first update (his welcome)."""
    opened = connection(port, "127.0.0.3")
    ws = await opened.__aenter__()
    connected.append(opened)
    await ws.send_str(json.dumps({"type": "quick", "protocol": 2, "key": key}))
    await until_begun(ws)
    return ws


async def _at_the_table(app: SpadesApp, pilot: Pilot[int], port: int, connected: list[Any]) -> Any:
    """Cleo (the app: "Play a stranger") and Bob paired by quick play; the game screen up."""
    _, bob_key = await register(port, "Bob", "127.0.0.3")
    await _choose(app, pilot, "quick")
    bob = asyncio.ensure_future(_bob_seated(port, bob_key, connected))
    await until(pilot, lambda: isinstance(app.screen, GameScreen) and bob.done(), "the game screen")
    return bob.result()


async def _menu_choose(app: SpadesApp, pilot: Pilot[int], option: str) -> None:
    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "a menu")
    menu = app.screen.query_one(OptionList)
    menu.highlighted = menu.get_option_index(option)
    await pilot.press("enter")


def _choices(app: SpadesApp) -> list[str]:
    menu = app.screen.query_one(OptionList)
    return [str(menu.get_option_at_index(i).id) for i in range(menu.option_count)]


@pytest.mark.slow
async def test_resigning_from_the_game_menu_ends_the_game_and_shows_both_rating_changes(tmp_path: Path) -> None:
    connected: list[Any] = []
    async with rated_server(tmp_path / "server") as (lobby, port):
        app = _app(tmp_path, f"127.0.0.1:{port}")
        try:
            async with app.run_test(size=(100, 34)) as pilot:
                bob = await _at_the_table(app, pilot, port, connected)
                assert "Rated game" in screen_text(app)  # the table's panel says so
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the game menu")
                assert "resign" in _choices(app) and "claim" not in _choices(app)  # Bob is there: nothing to claim
                assert "Rated game: the result counts" in screen_text(app)
                await _menu_choose(app, pilot, "resign")
                await until(pilot, lambda: app.screen.name == "resign", "the question")
                assert _choices(app)[0] == "keep"  # Enter alone does not resign
                await _menu_choose(app, pilot, "resign")
                over = await next_frame(bob, "over")
                assert over["winner"] == 1 and "Cleo resigned" in json.dumps(over["record"])
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen) and "Rated:" in screen_text(app),
                            "the end, rated")
                text = screen_text(app)
                cleo = next(t for t in over["ratings"] if t["after"] < 1500)
                assert f"Cleo 1500? → {round(cleo['after'])}? (−{1500 - round(cleo['after'])})" in text
                assert "Bob 1500? → " in text
                await connected.pop().__aexit__(None, None, None)  # Bob goes once it is over: news to nobody
                remote = app.network_table.remote
                assert remote is not None
                await until(pilot, lambda: remote.client.connected[1] is False, "Bob gone")
                await pilot.pause()
                assert not any("left the table" in str(n.message) for n in app._notifications)
                assert "They come back with" not in screen_text(app) and "Rated:" in screen_text(app)
        finally:
            for opened in connected:
                await opened.__aexit__(None, None, None)
        assert lobby.desk is not None and lobby.desk.store.by_name("Cleo") is not None


@pytest.mark.slow
async def test_a_claim_is_offered_once_the_other_player_has_been_gone_long_enough(tmp_path: Path) -> None:
    connected: list[Any] = []
    async with rated_server(tmp_path / "server", claim_after=0.5) as (lobby, port):
        app = _app(tmp_path, f"127.0.0.1:{port}")
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await _at_the_table(app, pilot, port, connected)
                screen = app.screen
                assert isinstance(screen, GameScreen)
                app.post_message(GiveUp(claim=True))  # asked while Bob is there: the server's words said plainly
                await until(pilot, lambda: any("Not claimed: the other player is at the table" in str(n.message)
                                               for n in app._notifications), "the refusal")
                await connected.pop().__aexit__(None, None, None)  # Bob leaves
                await until(pilot, lambda: screen.claim_wait() == 0, "Bob gone half a second")
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the game menu")
                assert [c for c in _choices(app) if c in ("claim", "resign")] == ["claim", "resign"]
                await _menu_choose(app, pilot, "claim")
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen) and "Rated:" in screen_text(app),
                            "the end, rated")
                assert "Bob left the table, and the game was claimed" in screen_text(app)
        finally:
            for opened in connected:
                await opened.__aexit__(None, None, None)
        assert lobby.desk is not None
        page = lobby.desk.store.page(lobby.desk.store.by_name("Bob"))  # type: ignore[arg-type]
        assert [(r["won"], r["how"]) for r in page["results"]] == [(False, "claim")]


# ------------------------------------------------------------------ the lobby's rated tables, a browser's tab


async def test_the_lobby_marks_a_rated_table_and_sits_down_at_it_with_your_key(tmp_path: Path) -> None:
    async with rated_server(tmp_path / "server") as (lobby, port):
        where = f"127.0.0.1:{port}"
        ada, ada_key = await register(port, "Ada", "127.0.0.2")
        async with connection(port, "127.0.0.2") as a:
            await a.send_str(json.dumps({"type": "create", "protocol": 2, "name": "Ada", "rated": True,
                                         "key": ada_key}))
            await next_frame(a, "welcome")
            app = _app(tmp_path, where)
            async with app.run_test(size=(100, 36)) as pilot:
                await _choose(app, pilot, "find")
                await until(pilot, lambda: "Sit down: Ada waits" in screen_text(app), "the rated table listed")
                assert "rated, to 500, standard rules" in screen_text(app)
                await pilot.press("enter")  # Cleo has no key there yet: registered under her name, then seated
                host = lobby.tables[0]
                await until(pilot, lambda: host.rated.players is not None, "Cleo seated")
                kept = load_key(tmp_path / "data", where)
                assert kept is not None and kept.name == "Cleo" and host.rated.players == (ada, kept.player)


async def test_a_browser_tab_plays_a_stranger_on_its_own_server_with_the_key_in_the_visitors_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with rated_server(tmp_path / "server") as (lobby, port):
        monkeypatch.setenv("SPADES_TUI_TABLES", f"http://127.0.0.1:{port}")  # as 'spades-tui serve' tells its tabs
        visitor = tmp_path / "visitors" / "0123"
        config = tmp_path / "cfg"
        save_preferences(config / PREFERENCES_NAME, Preferences(player_name="Dana"))
        app = SpadesApp(LaunchOptions(served=True, hints=False, bot_pause=0), data_dir=visitor, config_dir=config)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Play a stranger on this server (rated)" in screen_text(app), "the entry")
            await _choose(app, pilot, "quick")
            await until(pilot, lambda: "Seeking a stranger" in screen_text(app), "seeking")
            kept = load_key(visitor, SERVED)
            assert kept is not None and kept.name == "Dana"
            assert lobby.desk is not None and lobby.desk.store.by_name("Dana") is not None
            await pilot.press("escape")


async def test_a_rated_tables_wait_screen_says_it_is_rated(tmp_path: Path) -> None:
    """'spades-tui host --server ADDR:P --rated' on the full screen: while it waits, it says the table is rated."""
    async with rated_server(tmp_path / "server") as (lobby, port):
        _, key = await register(port, "Ada", "127.0.0.2")
        url = f"ws://127.0.0.1:{port}/table"
        client = TableClient(url, name="Ada", seat_file=tmp_path / "a" / "tables" / "seat.json", create=(Rules(), None),
                             public=True, key=key, rated=True)
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "a", config_dir=tmp_path / "cfg",
                        start=JoinTable(client))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Your table is rated" in screen_text(app), "the wait screen")
            assert lobby.tables[0].rated.opener is not None and "Your table is public" in screen_text(app)
