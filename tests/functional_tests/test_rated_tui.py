"""Rated play on the start screen and in the lobby screen (docs/serving.md, "Rated play"), with Pilot: "Play a
stranger at ADDR:P (rated)" registers under the settings' name and seeks; the lobby screen shows the server's
leaderboard beside its tables, the player's own row marked.  A server in this process on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList

from spades_tui.keep.serverkeys import ServerKey, load_key, new_key, save_key
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.screens.lobby import LobbyScreen
from spades_tui.tui.screens.start import StartScreen
from tests.support.pilot import screen_text, until
from tests.support.rated import rated_server


def _app(tmp: Path, where: str) -> SpadesApp:
    config = tmp / "cfg"
    save_preferences(config / PREFERENCES_NAME, Preferences(player_name="Cleo", table_server=where))
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
