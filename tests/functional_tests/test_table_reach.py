"""An invite that reaches the friend (issue 52): the host's wait screen says where its address works and offers
the ways that reach another machine: listen on this network (with the warning), a table server, an ssh tunnel.

Nothing here leaves loopback: "this network" is played by a second loopback address (127.0.0.3), which a test may
listen on; what the choice would bind and say is the same for a real network address.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from spades_tui.engine.rules import Rules
from spades_tui.settings.options import LaunchOptions
from spades_tui.table.seat.client import TableClient
from spades_tui.tui.app import tableways
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import HostTable
from spades_tui.tui.screens.help import HelpScreen
from spades_tui.tui.screens.table import ServerAddressScreen, TableWaitScreen
from tests.support.pilot import screen_text, until
from tests.support.table import SHORT, table_server

RULES = Rules.from_json(SHORT)
THIS_NETWORK = "127.0.0.3"  # plays this machine's network address: loopback, so nothing leaves the machine


@pytest.fixture(autouse=True)
def _network_is_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableways, "lan_address", lambda: THIS_NETWORK)


def host_app(tmp_path: Path, address: str = "127.0.0.2") -> SpadesApp:
    return SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "cfg",
                     start=HostTable(dict(address=address, name="Alice", rules=RULES)))


def flat(app: SpadesApp) -> str:
    return " ".join(screen_text(app).split())


async def waiting(pilot: Pilot[int], app: SpadesApp) -> None:
    await until(pilot, lambda: isinstance(app.screen, TableWaitScreen) and app.listener is not None
                and "choose how they reach you" in flat(app), "the invite and its ways")


async def test_the_invite_says_where_it_works_and_listening_on_this_network_warns_and_lets_the_friend_in(
        tmp_path: Path) -> None:
    app = host_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await waiting(pilot, app)
        text = flat(app)
        assert "listens on 127.0.0.2, which is this computer" in text and "cannot use it" in text
        assert re.search(r"spades-tui join 127\.0\.0\.2:\d+ \S+", text)
        assert f"Listen on this network ({THIS_NETWORK})" in text
        assert "table server" in text and "tunnel" in text
        assert "Warning" not in text  # loopback: nobody else can reach it
        port = app.listener.port  # type: ignore[union-attr]
        await pilot.press("enter")  # the first way: this network
        await until(pilot, lambda: app.listener is not None and app.listener.address == THIS_NETWORK
                    and f"join {THIS_NETWORK}" in flat(app), "the table on this network")
        text = flat(app)
        assert f"Warning: anyone who can reach {THIS_NETWORK} and has the code may sit down" in text
        assert app.listener is not None and app.listener.port == port  # the same port, the same code
        invite = re.search(rf"spades-tui join ({re.escape(THIS_NETWORK)}:\d+) (\S+)", text)
        assert invite is not None and app.table is not None and invite.group(2) == app.table.code
        assert "Back to this computer only" in text
        # The friend, by the invite's own words, sits down there.
        client = TableClient(f"ws://{invite.group(1)}/table", code=invite.group(2), name="Bob")
        await asyncio.wait_for(client.connect(), 10)
        try:
            await until(pilot, lambda: app.table is not None and app.table.joined_name == "Bob", "Bob seated")
        finally:
            await client.stop()


async def test_f1_on_the_table_screen_opens_the_help_about_tables(tmp_path: Path) -> None:
    app = host_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await waiting(pilot, app)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        assert isinstance(app.screen, HelpScreen) and app.screen.topic == "table"
        assert "Playing a friend" in flat(app) and "Where the invite works" in flat(app)


async def test_the_tunnel_is_told_with_this_tables_port_and_code(tmp_path: Path) -> None:
    app = host_app(tmp_path, "127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await waiting(pilot, app)
        assert app.listener is not None and app.table is not None
        port, code = app.listener.port, app.table.code
        await pilot.press("down", "down", "enter")  # from this network, past a server typed in, to the tunnel
        await until(pilot, lambda: "ssh -N -L" in flat(app), "the tunnel's lines")
        text = flat(app)
        assert f"ssh -N -L {port}:127.0.0.1:{port}" in text and f"spades-tui join 127.0.0.1:{port} {code}" in text
        assert "f1 Help" in screen_text(app).splitlines()[-1]  # F1 there opens the help about tables: said so
        await pilot.press("escape")
        await pilot.press("down", "enter")  # how to run a table server
        await until(pilot, lambda: "serve --tables-only" in flat(app), "how to run a table server")
        # Each command on a line of its own at 80 columns, as it is to be copied (the port wrapped to the next).
        lines = [line.strip(" │╭╮╰╯▊▎") for line in screen_text(app).splitlines()]
        assert "spades-tui serve --tables-only --host 0.0.0.0 --port 7000" in lines


@pytest.mark.slow
async def test_a_table_server_typed_in_opens_the_table_there_and_shows_its_invite(tmp_path: Path) -> None:
    async with table_server(tmp_path / "server") as (lobby, port):
        app = host_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await waiting(pilot, app)
            await pilot.press("down", "enter")  # a table server: type its address
            await until(pilot, lambda: isinstance(app.screen, ServerAddressScreen), "the address form")
            await pilot.press(*f"127.0.0.1:{port}", "enter")
            await until(pilot, lambda: f"spades-tui join 127.0.0.1:{port}" in flat(app), "the server's invite")
            assert app.listener is None  # nothing listens here any more: the table is the server's
            assert len(lobby.tables) == 1


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_the_server_address_form_sits_in_the_middle_like_every_form(tmp_path: Path,
                                                                          size: tuple[int, int]) -> None:
    """Issue 52's pictures: the form for a table server's address sat in the top left corner (no rule placed it)."""
    app = host_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await waiting(pilot, app)
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ServerAddressScreen), "the address form")
        box = app.screen.query_one("#choicebox").region
        left, right = box.x, size[0] - box.right
        top, below = box.y, size[1] - 1 - box.bottom  # the footer's row under it
        assert left > 0 and abs(left - right) <= 1 and top > 0 and abs(top - below) <= 1, (box, size)


@pytest.mark.slow
async def test_an_unreachable_server_is_said_in_words(tmp_path: Path) -> None:
    from tests.support.table import free_port

    app = host_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await waiting(pilot, app)
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ServerAddressScreen), "the address form")
        await pilot.press(*f"127.0.0.1:{free_port()}", "enter")
        await until(pilot, lambda: "nothing is listening there" in flat(app), "why the server was not reached")
        assert "Connect call failed" not in flat(app) and "ssl:default" not in flat(app)
        assert "ws://" not in flat(app)  # the address as typed, not the connection's URL


async def test_a_public_table_at_a_server_says_it_is_public_and_its_rules_once(tmp_path: Path) -> None:
    """Issue 52: the public table's wait screen said the rules twice (on the screen and in a notice over it) and
    never that the table is public."""
    from spades_tui.tui.app.startup import JoinTable

    rules = Rules.from_json({**SHORT, "nil_points": 50})
    async with table_server(tmp_path / "server") as (_, port):
        client = TableClient(f"ws://127.0.0.1:{port}/table", name="Ada", seat_file=tmp_path / "seat.json",
                             create=(rules, 0), public=True)
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=tmp_path / "data",
                        config_dir=tmp_path / "cfg", start=JoinTable(client))
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: "Give your friend this invite" in flat(app), "the public table's invite")
            text = flat(app)
            assert "Your table is public: it is listed in the server's lobby" in text
            assert text.count("The rules of this table") == 1 and "Nil points 50" in text
            # The way out is said last, under the rules (it came between the invite and the rules).
            assert text.index("Nil points 50") < text.index("Esc leaves the table")
            assert not any("rules of this table" in n.message for n in app._notifications)
