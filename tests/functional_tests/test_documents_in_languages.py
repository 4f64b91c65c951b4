"""The guide, the lesson and the browser page in Swedish and Estonian (docs/languages.md), as a player meets them:
F1's guide in the language spoken, and in the new one after a change; the lesson's every step read whole beside
the table at 80x24 in each language; ``spades-tui serve``'s page and each tab's game in the browser's language."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spades_tui.i18n import language
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import Learn
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.help import HelpScreen
from tests.support.pilot import config_dir, make_app, screen_text, settle, until
from tests.support.serve import needs_browser

COMPLETE = ("sv", "et")


@pytest.fixture
def speaking() -> Iterator[None]:
    yield
    language.use(language.SOURCE)


async def test_f1_shows_the_guide_in_the_language_spoken_and_in_the_new_one_after_a_change(
        tmp_path: Path, speaking: None) -> None:
    app = make_app(tmp_path, bot="easy", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        assert "The draft" in screen_text(app)
        await pilot.press("f1")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed")
        language.use("sv")  # as the settings screen does when the language is changed there
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help again")
        text = screen_text(app)
        assert "Dragningen" in text and "The draft" not in text


@pytest.mark.slow  # a whole lesson at 80x24 in each language (about 3 s each)
@pytest.mark.parametrize("code", COMPLETE)
async def test_every_lesson_step_fits_beside_the_table_at_80x24_in_each_language(
        tmp_path: Path, speaking: None, code: str) -> None:
    """As test_tui_lesson's check in English: the step stands in the score panel's place and must be read whole."""
    from spades_tui.tui.widgets.panel import ScorePanel

    language.use(code)
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config_dir(tmp_path), start=Learn())
    async with app.run_test(size=(80, 24)) as pilot:
        said: list[str] = []
        for _ in range(300):
            await settle(pilot, app)
            view = app.seat_view
            if type(app.screen).__name__ == "LessonEndScreen":
                break
            if isinstance(app.screen, GameScreen) and view is not None and view.my_turn:
                panel = app.screen.query_one(ScorePanel)
                rows = sum(len(textwrap.wrap(p, panel.size.width) or [""]) for p in view.lesson.split("\n"))
                assert rows <= panel.size.height, f"{rows} rows in {panel.size}:\n{view.lesson}"
                said.append(view.lesson)
                await pilot.press("enter")
            else:
                await pilot.pause()
        assert type(app.screen).__name__ == "LessonEndScreen" and len(said) > 20
        assert not any("Suggested:" in words for words in said)  # the lesson's own words, translated


@pytest.mark.parametrize(("header", "spoken"), [
    ("sv-SE,sv;q=0.9,en;q=0.8", "sv"),
    ("de-DE, et;q=0.5, sv;q=0.4", "et"),  # German is not spoken: the next the game speaks, by weight
    ("en-GB,en;q=0.9,sv;q=0.8", "en"),
    ("sv;q=0.2, et;q=0.7", "et"),
    ("sv;q=0, de", "fr-server"),  # q=0 refuses; nothing else spoken: the server's
    ("", "fr-server"),
    ("*", "fr-server"),
    ("sv;q=bad", "fr-server"),
    ("x" * 10_000 + ",sv", "fr-server"),  # only the header's first few hundred characters are read
])
def test_the_page_speaks_the_first_language_of_the_browser_the_game_speaks(header: str, spoken: str) -> None:
    pytest.importorskip("textual_serve")
    from spades_tui.cli.webserver import page_language

    assert page_language(header, "fr-server") == spoken


@pytest.fixture
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    pytest.importorskip("textual_serve")
    from aiohttp.test_utils import TestClient, TestServer

    from spades_tui.cli import webserver

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    commands: list[str] = []

    class Recorded(webserver.GameService):
        """A tab's game not started: the command it would run is kept."""

        def __init__(self, command: str, *args: Any, **kwargs: Any) -> None:
            commands.append(command)
            super().__init__(command, *args, **kwargs)

        async def start(self, width: int, height: int) -> None:
            await self.remote_close()

        async def stop(self) -> None:
            pass

    monkeypatch.setattr(webserver, "GameService", Recorded)
    server = webserver.GameServer("exec true", host="127.0.0.1", port=8000, max_games=2)
    client = TestClient(TestServer(await server._make_app(), host="127.0.0.1", port=8000))
    await client.start_server()
    try:
        yield client, commands
    finally:
        await client.close()
        server.desk.close()
        server.players.close()


async def test_the_page_is_in_the_browsers_language_and_english_as_it_was(served: Any, speaking: None) -> None:
    client, _ = served
    english = await (await client.get("/", headers={"Host": "127.0.0.1:8000"})).text()
    assert "<html>" in english and ">Start</button>" in english and ">Session ended.</div>" in english
    swedish = await (await client.get("/", headers={"Host": "127.0.0.1:8000", "Accept-Language": "sv-SE,sv"})).text()
    assert '<html lang="sv">' in swedish and ">Starta</button>" in swedish and ">Start</button>" not in swedish
    estonian = await (await client.get("/", headers={"Host": "127.0.0.1:8000", "Accept-Language": "et"})).text()
    assert '<html lang="et">' in estonian and ">Alusta</button>" in estonian
    # The rest of the page is the same page: only its words changed.
    assert english.replace(">Start<", "><").replace("Session ended.", "").replace("Restart", "").replace(
        "<html>", "") == estonian.replace(">Alusta<", "><").replace("Seanss on lõppenud.", "").replace(
        "Alusta uuesti", "").replace('<html lang="et">', "")


async def test_a_server_speaking_swedish_serves_a_browser_asking_for_nothing_it_speaks_in_swedish(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, speaking: None) -> None:
    pytest.importorskip("textual_serve")
    from aiohttp.test_utils import TestClient, TestServer

    from spades_tui.cli.webserver import GameServer

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    language.use("sv")  # spades-tui --lang sv serve
    server = GameServer("exec true", host="127.0.0.1", port=8000, max_games=1)
    language.use(language.SOURCE)
    client = TestClient(TestServer(await server._make_app(), host="127.0.0.1", port=8000))
    await client.start_server()
    try:
        page = await (await client.get("/", headers={"Host": "127.0.0.1:8000", "Accept-Language": "de"})).text()
        assert ">Starta</button>" in page
        plain = await client.get("/ws", headers={"Host": "127.0.0.1:8000", "Accept-Language": "et"})
        assert plain.status == 400 and "veebibrauseris" in await plain.text()  # a plain GET: told in Estonian
    finally:
        await client.close()
        server.desk.close()
        server.players.close()


async def test_each_tab_starts_its_game_in_its_browsers_language(served: Any) -> None:
    client, commands = served
    for header in ("et-EE,et;q=0.9", "de", "sv"):
        async with client.ws_connect("/ws?width=80&height=24", headers={"Host": "127.0.0.1:8000",
                                                                      "Accept-Language": header}) as ws:
            await ws.receive()
    assert commands == ["exec true --lang et", "exec true --lang en", "exec true --lang sv"]


@pytest.mark.slow  # a browser and a served game
@pytest.mark.skipif(sys.platform != "linux", reason="reads the tab's game's command line from /proc")
@needs_browser
def test_a_swedish_browser_gets_the_page_and_its_tabs_game_in_swedish(browser: Any, tmp_path: Path) -> None:
    """End to end, as Chromium asks (its Accept-Language on the page and on the websocket's handshake)."""
    from tests.support.serve import TIMEOUT, Served

    served = Served(tmp_path)
    try:
        page = browser.new_page(locale="sv-SE", viewport={"width": 1280, "height": 800})
        page.goto(served.url)
        page.wait_for_selector("body.-first-byte", timeout=TIMEOUT * 1000)  # the tab's game drew its first screen
        assert page.get_attribute("html", "lang") == "sv"
        assert page.text_content("#start") == "Starta" and page.text_content(".message") == "Sessionen är slut."
        games = [Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
                 for pid in served.game_processes()]
        assert [command[-2:] for command in games] == [[b"--lang", b"sv"]], games
        page.close()
    finally:
        served.close()
