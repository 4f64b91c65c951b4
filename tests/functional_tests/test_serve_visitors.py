"""``spades-tui serve`` with more than one visitor (issue 25): a seat belongs to whoever holds its token.

The serve app runs in aiohttp's test server on 127.0.0.1; each tab's game is a real game process
(``--served``), spoken to as the page's script does (textual-serve's websocket: keys in, the screen out).

- Each browser gets a visitor of its own (a cookie: 192 random bits, HttpOnly, SameSite=Strict), and its
  tabs' games use that visitor's data folder only. Before: every tab shared the server's data folder, so a
  new tab's start screen offered "Back to your seat at the table …" for the owner's seat, and Enter sat the
  visitor in it with the owner's hand; the saved games of other visitors were listed the same way.
- Wrong codes count against the browser's address, not the loopback address every tab's game comes from,
  and a seat's token is looked at first. Before: five tabs at ``/?table=<wrong code>`` locked out the
  owner's own rejoin for a minute, and every other browser's tabs with it.
"""

from __future__ import annotations

import asyncio
import json
import re
import types
from pathlib import Path
from typing import Any, AsyncIterator, Optional

import aiohttp
import pytest
from yarl import URL

from spades_tui.engine.rules import Rules
from spades_tui.keep.storage import save_record
from spades_tui.session.session import new_record
from spades_tui.table.wire import protocol as p
from spades_tui.table.wire.visitors import TAB_HEADER, VISITOR_COOKIE, visitor_data_dir, visitor_id
from tests.support.wait import BOUND, Deadline, until_async

# Every test here is marked slow (a served game process for each tab): left out of the quick check.

WS_HEADERS = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
              "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
COOKIE_A, COOKIE_B, COOKIE_C = "A" * 32, "B" * 32, "C" * 32


class Served:
    def __init__(self, server: Any, port: int, data: Path) -> None:
        self.server, self.port, self.data = server, port, data

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def visitor(self, cookie: str) -> Path:
        found = visitor_data_dir(self.data, visitor_id(cookie))
        assert found is not None
        return found


@pytest.fixture
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Served]:
    pytest.importorskip("textual_serve")
    from aiohttp.test_utils import TestServer

    from spades_tui.cli.serve import game_command
    from spades_tui.cli.webserver import GameServer
    from spades_tui.settings.options import LaunchOptions
    from tests.support.table import free_port

    port = free_port()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the tabs' games inherit them
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    server = GameServer(game_command(LaunchOptions(bot_pause=0.0)), host="127.0.0.1", port=port, max_games=10)
    test_server = TestServer(await server._make_app(), host="127.0.0.1", port=port)
    await test_server.start_server()
    try:
        yield Served(server, port, tmp_path / "data" / "spades-tui")
    finally:
        await test_server.close()


class Tab:
    """A browser tab as the page's script is one: a websocket to ``/ws`` (or ``/ws/CODE``), keys in, the
    screen's bytes out, from ``source`` (another loopback address is another browser's address)."""

    def __init__(self, served: Served, path: str = "/ws", cookie: Optional[str] = None,
                 source: str = "127.0.0.1") -> None:
        self.served, self.path, self.cookie, self.source = served, path, cookie, source
        self.output = bytearray()
        self.session: Optional[aiohttp.ClientSession] = None
        self.ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self._reader: Optional[asyncio.Task[None]] = None

    async def open(self) -> Tab:
        self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(self.source, 0)))
        headers = {"Cookie": f"{VISITOR_COOKIE}={self.cookie}"} if self.cookie else {}
        self.ws = await self.session.ws_connect(f"{self.served.base}{self.path}?width=100&height=32",
                                                headers=headers)
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                self.output.extend(message.data)

    def shows(self, text: str) -> bool:
        return text.encode() in self.output

    async def keys(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=BOUND)
        if self.session is not None:
            await self.session.close()


async def tables(served: Served, *tabs_open: Tab) -> None:
    """Let every tab's game process end (closing the tabs) so that the test leaves none, each reaped here."""
    processes = [service._process for service in served.server.games if service._process is not None]
    for tab in tabs_open:
        await tab.close()
    await until_async(lambda: not served.server.games, "the tabs' games to end")
    for process in processes:
        await asyncio.wait_for(process.wait(), BOUND)


def owner_seat(folder: Path) -> Optional[Path]:
    return next(iter(sorted((folder / "tables").glob("seat-*owner_*.json"))), None)


# ------------------------------------------------------------ the visitor's identity


@pytest.mark.slow
async def test_the_page_gives_a_browser_an_httponly_strict_cookie_once(served: Served) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:  # kept for an IP
        async with session.get(f"{served.base}/") as page:
            assert page.status == 200
            set_cookie = page.headers.getall("Set-Cookie", [])
        assert len(set_cookie) == 1
        header = set_cookie[0]
        value = re.match(rf"{VISITOR_COOKIE}=([A-Za-z0-9_-]+);", header)
        assert value is not None and len(value.group(1)) == 32  # 24 random bytes: 192 bits
        assert "HttpOnly" in header and "SameSite=Strict" in header and "Path=/" in header
        async with session.get(f"{served.base}/") as again:  # the cookie came back: no new identity
            assert not again.headers.getall("Set-Cookie", [])
    # A page reached from another site's link comes without the Strict cookie even when the browser has one:
    # no cookie is set then (the websocket sets one if it is really missing), so the visitor's own stays.
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{served.base}/?table=abcd-efgh-jkmn", headers={"Sec-Fetch-Site": "cross-site"}) \
                as page:
            assert page.status == 200 and not page.headers.getall("Set-Cookie", [])


@pytest.mark.slow
async def test_a_plain_get_of_the_game_websocket_is_a_plain_answer(served: Served,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the fix ``GET /ws`` without an upgrade printed a traceback on the server's console (its
    ``log.exception``, recorded here)."""
    import logging

    from spades_tui.cli import webserver

    said: list[logging.LogRecord] = []
    recorder = logging.Logger("spades-tui.test-serve")
    recorder.addHandler(type("Keep", (logging.Handler,), {"emit": lambda self, record: said.append(record)})())
    monkeypatch.setattr(webserver, "log", recorder)
    async with aiohttp.ClientSession() as session:
        for path in ("/ws", "/ws/abcd-efgh-jkmn"):
            async with session.get(f"{served.base}{path}") as response:
                assert response.status == 400 and "open the page" in await response.text()
        async with session.get(f"{served.base}/table") as response:
            assert response.status == 426
    assert served.server.games == {}
    assert not said, [r.getMessage() for r in said]


@pytest.mark.slow
async def test_a_visitor_never_sees_nor_takes_another_visitors_seat_or_saved_game(served: Served) -> None:
    # Visitor A has a saved game, and opens a table ("Play a friend") in a tab, which sits in the owner's seat.
    a_games = served.visitor(COOKIE_A) / "games"
    a_games.mkdir(parents=True)
    save_record(a_games / "game-1.json", new_record(Rules(), 0, ("Alice", "Bot (easy)"), bot="easy", seed=4))
    owner = await Tab(served, cookie=COOKIE_A).open()
    others: list[Tab] = []
    try:
        await until_async(lambda: owner.shows("Play a friend") and owner.shows("Alice"), "A's start screen")
        # A's saved game first, then bot, learn, hot-seat, settings, statistics: "Play a friend" is the seventh.
        await owner.keys("\x1b[B" * 6 + "\r")
        await until_async(lambda: owner.shows("Who may sit down"), "the choice of a private or a public table")
        await owner.keys("\r")  # a private table, the first choice
        await until_async(lambda: owner.shows("To watch it"), "the table's watch code beside its link")
        await until_async(lambda: owner_seat(served.visitor(COOKIE_A)) is not None, "A's table and its owner's seat")
        table = served.server.tables.tables[0]
        await until_async(lambda: table.links[0].ws is not None, "A's tab sitting in the owner's seat")
        held = table.links[0].ws

        # Another tab of A's own browser lists both: its seat and its saved game.
        again = await Tab(served, cookie=COOKIE_A).open()
        others.append(again)
        await until_async(lambda: again.shows("Back to your table game") and again.shows("Alice"),
                          "A's seat and game listed")

        # Visitor B: a start screen of its own. Its first entries are "Learn to play" (a new visitor's) and a new
        # game, not A's seat nor A's game: Enter on the new game (then Enter on the form's Start) starts B's own
        # game in B's own folder.
        visitor_b = await Tab(served, cookie=COOKIE_B).open()
        others.append(visitor_b)
        await until_async(lambda: visitor_b.shows("Play a friend"), "B's start screen")
        await visitor_b.keys("\x1b[B")  # past "Learn to play": Enter there would play the lesson first
        b_games = served.visitor(COOKIE_B) / "games"
        deadline = Deadline("B's Enter to start a game of B's own")
        while not list(b_games.glob("game-*.json")):
            if deadline.passed():
                raise deadline.fail()
            await visitor_b.keys("\r")
            await asyncio.sleep(0.5)  # key presses paced for the game process, not a timing assertion
        assert not visitor_b.shows("Back to your table game") and not visitor_b.shows("Alice")
        assert not (served.visitor(COOKIE_B) / "tables").exists()
        assert table.links[0].ws is held and held is not None and not held.closed  # A's seat is still A's
        assert json.loads(owner_seat(served.visitor(COOKIE_A)).read_text())["seat"] == 0  # type: ignore[union-attr]
    finally:
        await tables(served, owner, *others)


@pytest.mark.slow
async def test_a_websocket_without_a_cookie_gets_an_identity_of_its_own(served: Served) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.ws_connect(f"{served.base}/ws") as ws:
            found = session.cookie_jar.filter_cookies(URL(served.base))
            assert VISITOR_COOKIE in found and len(found[VISITOR_COOKIE].value) == 32
            await until_async(lambda: bool(served.server.games), "the tab's game")
            processes = [service._process for service in served.server.games if service._process is not None]
            await ws.close()
    await until_async(lambda: not served.server.games, "the tab's game to end")
    for process in processes:
        await asyncio.wait_for(process.wait(), BOUND)


# ------------------------------------------------------------ wrong codes


async def new_table(served: Served) -> tuple[str, str]:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{served.base}/tables/new", headers={"X-Spades-Key": served.server.table_key},
                                data=json.dumps({"name": "Owner", "rules": None})) as response:
            assert response.status == 200
            data = await response.json()
    return data["code"], data["token"]


async def first_answer(served: Served, frame: dict[str, Any], headers: Optional[dict[str, str]] = None,
                       source: str = "127.0.0.1") -> dict[str, Any]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0))) as session:
        async with session.ws_connect(f"{served.base}/table", headers=headers or {}) as ws:
            await ws.send_str(json.dumps(frame))
            message = await asyncio.wait_for(ws.receive(), BOUND)
            assert message.type is aiohttp.WSMsgType.TEXT, message
            answer = json.loads(message.data)
            assert isinstance(answer, dict)
            return answer


def wrong_code(code: str) -> str:
    return ("2222-" if not code.startswith("2222") else "3333-") + code[5:]


@pytest.mark.slow
async def test_wrong_codes_never_lock_out_a_seats_token_and_count_against_the_browsers_address(
        served: Served) -> None:
    code, owner_token = await new_table(served)
    tabs = served.server.tabs
    tabs["tab-of-browser-1"], tabs["tab-of-browser-2"] = "192.0.2.1", "192.0.2.2"  # two tabs' games, as serve has them
    one, two = {TAB_HEADER: "tab-of-browser-1"}, {TAB_HEADER: "tab-of-browser-2"}
    wrong = {"type": "join", "protocol": p.PROTOCOL, "code": wrong_code(code), "name": "Guesser"}
    for _ in range(p.WRONG_CODES):
        assert (await first_answer(served, wrong, one))["reason"] == "wrong code"
    assert "too many wrong codes" in (await first_answer(served, wrong, one))["reason"]
    # The owner, from that very browser, is back in the seat at once: the token is looked at first.
    rejoin = {"type": "rejoin", "protocol": p.PROTOCOL, "token": owner_token}
    assert (await first_answer(served, rejoin, one))["type"] == "welcome"
    # Another browser's tab, and a connection of its own from loopback, are not locked out.
    assert (await first_answer(served, wrong, two))["reason"] == "wrong code"
    assert (await first_answer(served, wrong))["reason"] == "wrong code"
    right = {"type": "join", "protocol": p.PROTOCOL, "code": code, "name": "Friend"}
    assert (await first_answer(served, right, two))["type"] == "welcome"
    # A tab header no tab has is no address: counted against the connection's own.
    assert (await first_answer(served, wrong, {TAB_HEADER: "made-up"}))["reason"] == "wrong code"
    assert set(served.server.tables._wrong) == {"192.0.2.1", "192.0.2.2", "127.0.0.1"}


@pytest.mark.slow
async def test_five_tabs_at_a_wrong_code_lock_out_neither_the_owner_nor_another_browser(served: Served) -> None:
    """Real tabs: five browsers' tabs at ``/?table=<wrong code>`` from one address (127.0.0.2), each a game
    process that tries the code from loopback; then the owner's rejoin, and a tab from another address
    (127.0.0.3) with the right code, each at once."""
    code, owner_token = await new_table(served)
    wrong = [await Tab(served, f"/ws/{wrong_code(code)}", source="127.0.0.2").open()
             for _ in range(p.WRONG_CODES)]
    friend: Optional[Tab] = None
    try:
        lobby = served.server.tables
        await until_async(lambda: len(lobby._wrong.get("127.0.0.2", [])) == p.WRONG_CODES,
                    "the five tabs' wrong codes, counted against their browsers' address")
        assert "127.0.0.1" not in lobby._wrong
        rejoin = {"type": "rejoin", "protocol": p.PROTOCOL, "token": owner_token}
        assert (await first_answer(served, rejoin))["type"] == "welcome"
        friend = await Tab(served, f"/ws/{code}", cookie=COOKIE_C, source="127.0.0.3").open()
        table = lobby.tables[0]
        await until_async(lambda: table.token_hash is not None, "the friend's tab sitting down")
        await until_async(lambda: list((served.visitor(COOKIE_C) / "tables").glob("seat-*.json")),
                    "the friend's seat, kept in the friend's own folder")
    finally:
        await tables(served, *wrong, *([friend] if friend is not None else []))


@pytest.mark.slow
@pytest.mark.parametrize("visitor", ["../../etc", "", "A" * 32, "0" * 31, "0" * 32 + "/x"])
def test_a_game_given_no_proper_visitor_refuses_to_start(tmp_path: Path, visitor: str) -> None:
    """The visitor's ID becomes a folder name: only the server's own hex IDs are taken, never a path."""
    from tests.support.cli import run_spades

    result = run_spades("--served", SPADES_TUI_VISITOR=visitor, XDG_DATA_HOME=str(tmp_path),
                        TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver")
    assert result.returncode == 2 and "no proper visitor" in result.stderr
    assert not list(tmp_path.rglob("*"))  # nothing made anywhere


@pytest.mark.slow
def test_visitor_folders_are_hex_ids_under_the_data_folder(tmp_path: Path) -> None:
    ids = {visitor_id(cookie) for cookie in (COOKIE_A, COOKIE_B, COOKIE_C)}
    assert len(ids) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert COOKIE_A not in visitor_id(COOKIE_A)  # the folder's name does not give the cookie away
    for i in ids:
        assert visitor_data_dir(tmp_path, i) == tmp_path / "visitors" / i


@pytest.mark.slow
async def test_a_visitors_palette_offers_only_its_own_saved_games(tmp_path: Path) -> None:
    """The folders a served game uses (``game_folders``, as ``run_app`` chooses them) and what its command
    palette offers then: visitor A's saved game to A, nothing of it to B."""
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp
    from spades_tui.tui.app.launch import game_folders
    from tests.support.pilot import palette

    options = LaunchOptions(served=True, bot_pause=0, hints=False, show_hints=False)
    data, config = tmp_path / "data", tmp_path / "config"
    folder_a = game_folders(options, data, config, {"SPADES_TUI_VISITOR": visitor_id(COOKIE_A)})
    folder_b = game_folders(options, data, config, {"SPADES_TUI_VISITOR": visitor_id(COOKIE_B)})
    assert folder_a is not None and folder_b is not None and folder_a[0] != folder_b[0]
    assert game_folders(LaunchOptions(), data, config, {"SPADES_TUI_VISITOR": "x"}) == (data, config)  # a terminal's
    (folder_a[0] / "games").mkdir(parents=True)
    save_record(folder_a[0] / "games" / "game-1.json",
                new_record(Rules(), 0, ("Alice", "Bot (easy)"), bot="easy", seed=4))
    for folders, listed in ((folder_a, 1), (folder_b, 0)):
        app = SpadesApp(options, data_dir=folders[0], config_dir=folders[1])
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(50):  # the start screen lists the saved games a moment after its menu
                await pilot.pause()
            hits = await palette(pilot, "resume")
            assert len([h for h in hits if "Alice" in h]) == listed, hits


@pytest.mark.slow
async def test_tables_opened_from_tabs_count_against_each_browsers_address(served: Served) -> None:
    """A browser's tab opens its table through the server (``/tables/new``, with the tab's token): at most 3
    waiting for a friend per browser address, as at any server (docs/table-protocol.md, "A server's limits");
    another browser still opens its own. Each answer gives the watch code the tab shows beside its link."""
    served.server.tabs.update({"tab-a": "127.0.0.9", "tab-b": "127.0.0.10"})
    async with aiohttp.ClientSession() as session:
        async def opened(tab: str) -> tuple[int, Any]:
            async with session.post(f"{served.base}/tables/new", data=json.dumps({"name": "Ada", "public": True}),
                                    headers={"X-Spades-Key": served.server.table_key, TAB_HEADER: tab}) as answer:
                return answer.status, (await answer.json() if answer.status == 200 else await answer.text())

        first = [await opened("tab-a") for _ in range(3)]
        assert all(status == 200 and body["watch"] != body["code"] for status, body in first)
        status, refused = await opened("tab-a")
        assert status == 503 and "waiting for a friend already" in refused
        assert (await opened("tab-b"))[0] == 200
    lobby = served.server.tables
    assert sorted(t.creator or "" for t in lobby.tables) == ["127.0.0.10"] + ["127.0.0.9"] * 3
    assert all(t.public for t in lobby.tables)
    assert lobby.listing() == []  # no tab sat at them (the test opened them alone): a table is listed with someone


@pytest.mark.slow
async def test_a_tab_finds_a_public_table_of_its_server_and_sits_down(served: Served) -> None:
    """In a browser, "Find a table on this server" lists the page's own public tables; Enter sits down."""
    lobby = served.server.tables
    public = lobby.new_table("Ada", Rules(target=120), 0, public=True)
    hidden = lobby.new_table("Pam", Rules(target=120), 0)
    assert public is not None and hidden is not None
    for opened in (public, hidden):  # each opener there (a connection that stands for one): listed if public
        opened.links[0].ws = types.SimpleNamespace(closed=False)
    tab = await Tab(served, cookie=COOKIE_C).open()
    try:
        await until_async(lambda: tab.shows("Find a table on this server"), "the start screen")
        # learn, bot, hot-seat, settings, statistics, play a friend, play a stranger, then: find
        await tab.keys("\x1b[B" * 7 + "\r")
        await until_async(lambda: tab.shows("Sit down: Ada waits"), "the list of the server's public tables")
        assert not tab.shows("Pam")  # a private table is not listed
        await tab.keys("\r")
        await until_async(lambda: public.token_hash is not None, "the tab sitting down at the table")
        assert hidden.token_hash is None
    finally:
        await tables(served, tab)


# ------------------------------------------------------------ the lesson in a tab


@pytest.mark.slow
async def test_a_new_visitor_learns_to_play_in_a_tab_and_the_lesson_leaves_nothing_behind(served: Served) -> None:
    # Issue 39: the lesson works in the browser. "Learn to play" is a new visitor's first entry; its words stand
    # beside the table, a key that does nothing is explained, Enter plays it to its end, Esc leaves, and the
    # visitor's folder holds no saved game and no statistics after it.
    tab = await Tab(served, cookie=COOKIE_C).open()
    folder = served.visitor(COOKIE_C)
    try:
        await until_async(lambda: tab.shows("Learn to play") and tab.shows("Play a friend"), "C's start screen")
        await tab.keys("\r")
        await until_async(lambda: tab.shows("Welcome!") and tab.shows("Leave lesson"), "the lesson's first step")
        await tab.keys("\r")  # the draft's first turn taken (the lesson has no Double Nil question)
        await until_async(lambda: tab.shows("Above"), "the lesson's second draft turn ('Above its cards, ...')")
        await tab.keys("x")
        await until_async(lambda: tab.shows("The key x does"), "the refused key explained")
        deadline = Deadline("Enter to the lesson's end")
        while not tab.shows("The lesson again"):
            if deadline.passed():
                raise deadline.fail()
            await tab.keys("\r")
            await asyncio.sleep(0.3)  # key presses paced for the game process, not a timing assertion
        await until_async(lambda: tab.shows("The hand is over"), "the score explained")
        tab.output.clear()
        await tab.keys("\x1b")
        await until_async(lambda: tab.shows("Learn to play") and tab.shows("Statistics"), "the start screen again")
    finally:
        await tables(served, tab)
    # A game against the bot is saved in this folder from its first move (the test of visitor B above); the
    # lesson, played to its end, wrote nothing there at all: no saved game, no statistics.
    written = sorted(str(f.relative_to(folder)) for f in folder.rglob("*") if f.is_file()) if folder.exists() else []
    assert written == [], f"the lesson left files behind: {written}"
