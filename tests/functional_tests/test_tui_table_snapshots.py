"""The table screens at 80x24 and 200x60 (issue 52, "Done when"): the host's invite and its ways, the address form
of a table server, the public table's wait screen, the lobby with its leaderboard, an unreachable server.

Every picture must read the same in every run, and each names an address:
- a table hosted here listens on a fixed port of 127.0.0.1 (``host_port``: outside the range the system hands out
  for outgoing connections, and checked free first, so a failure says so rather than drawing another screen);
- a table server runs in a thread on a free port, reached at a fixed name (``tests.support.named``): the app
  connects by that name, as to a real server, and what it shows comes from the server's own frames.

Regenerate with ``--snapshot-update`` and look at the SVGs (as pictures) before committing them.
"""

from __future__ import annotations

import itertools
import random
import socket
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.keep.serverkeys import ServerKey, new_key, save_key
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.table.seat.client import TableClient
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import HostTable, JoinTable
from tests.support.named import CLOSED, URL, WHERE, ServerThread, named_server
from tests.support.pilot import screen_text, until
from tests.support.wait import until_async

SIZES = [(80, 24), (200, 60)]
NETWORK = "192.168.1.23"  # "this network" as the pictures show it: never listened on (a loopback address is)
RULES = Rules(target=300, nil_points=50)  # a house rule: the wait screen says the table's rules
FIRST_PORT = 24711  # the host's fixed ports: below 32768, where Linux starts handing out ports of its own


def flat(app: Any) -> str:
    return " ".join(screen_text(app).split())


@pytest.fixture(autouse=True)
def _fixed_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables' codes and this machine's network address the same in every picture."""
    from spades_tui.table.wire import protocol
    from spades_tui.tui.app import tableways

    chosen = random.Random(52)  # one sequence of codes, each as new_code makes them (tables' codes must differ)

    def new_code() -> str:
        raw = "".join(chosen.choice(protocol._CODE_ALPHABET) for _ in range(12))
        return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"

    monkeypatch.setattr(protocol, "new_code", new_code)
    monkeypatch.setattr(tableways, "lan_address", lambda: NETWORK)


@pytest.fixture(autouse=True)
def _still_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A field's cursor drawn as it is when it takes the focus (its blink would make a picture differ)."""
    from textual.widgets import Input

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


def host_port(n: int, *addresses: str) -> int:
    """The ``n``th fixed port (one per picture: workers run them at once), free now on 127.0.0.1 and
    ``addresses``."""
    port = FIRST_PORT + n
    for address in ("127.0.0.1", *addresses):
        with socket.socket() as s:
            try:
                s.bind((address, port))
            except OSError as exc:
                pytest.fail(f"port {port} of {address}, fixed in a picture, is taken on this machine: {exc}")
    return port


def host_app(tmp_path: Path, port: int, server: str = "") -> SpadesApp:
    """``spades-tui host --port PORT`` as Ada (``server``: the settings' table server)."""
    config = tmp_path / "config"
    save_preferences(config / PREFERENCES_NAME, Preferences(player_name="Ada", table_server=server))
    return SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path, config_dir=config,
                     start=HostTable(dict(address="127.0.0.1", port=port, name="Ada")))


async def table_waits(pilot: Any) -> None:
    await until(pilot, lambda: "choose how they reach you" in flat(pilot.app), "the table's invite and its ways")


# ---------------------------------------------------------------- a table hosted here: its invite and its ways

@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("keys", [[], ["enter"]], ids=["loopback", "this_network"])
def test_table_invite_snapshot(snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keys: list[str],
                               size: tuple[int, int]) -> None:
    """The table's invite says where it works and offers the ways to another machine; on this network (Enter on
    the first way), with the warning.  The socket a table opens at NETWORK is opened at a loopback address of the
    test's own: everything the player reads is the app's, for a machine at NETWORK."""
    from spades_tui.table import run
    from spades_tui.table.wire.guard import GuardedSite

    stands_in = f"127.0.0.{3 + SIZES.index(size)}"
    port = host_port(SIZES.index(size) * 2 + len(keys), stands_in)
    monkeypatch.setattr(run, "GuardedSite", lambda runner, address, *args, **kwargs: GuardedSite(
        runner, stands_in if address == NETWORK else address, *args, **kwargs))

    async def run_before(pilot: Any) -> None:
        await table_waits(pilot)
        if keys:
            await pilot.press(*keys)
            await until(pilot, lambda: f"join {NETWORK}" in screen_text(pilot.app), "the table on this network")

    assert snap_compare(host_app(tmp_path, port), terminal_size=size, run_before=run_before)


# The ways under the invite, by their place (no table server in the settings): the address form with an address
# typed, the ssh tunnel's lines, how to run a table server, and F1's help about tables.
WAYS: dict[str, tuple[list[str], str]] = {
    "server_address": (["down", "enter", *"spades.example.org:7000"], "Open the table at a table server"),
    "tunnel": (["down", "down", "enter"], "ssh -N -L"),
    "serve": (["down", "down", "down", "enter"], "serve --tables-only"),
    "help": (["f1"], "Playing a friend"),
}


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("way", list(WAYS))
def test_table_way_snapshot(snap_compare: Any, tmp_path: Path, way: str, size: tuple[int, int]) -> None:
    keys, shown = WAYS[way]
    port = host_port(4 + list(WAYS).index(way) * 2 + SIZES.index(size))

    async def run_before(pilot: Any) -> None:
        await table_waits(pilot)
        await pilot.press(*keys)
        await until(pilot, lambda: shown in flat(pilot.app), f"the way {way}")

    assert snap_compare(host_app(tmp_path, port), terminal_size=size, run_before=run_before)


# ---------------------------------------------------------------- a table server, at a fixed name

@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    with named_server(tmp_path / "server", monkeypatch) as found:
        yield found


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_public_table_wait_snapshot(snap_compare: Any, tmp_path: Path, served: ServerThread,
                                    size: tuple[int, int]) -> None:
    """``spades-tui host --server spades.example.org:7000 --public``: the invite, that the table is public, and its
    rules once."""
    client = TableClient(URL, name="Ada", seat_file=tmp_path / "seat.json", create=(RULES, 0), public=True)
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                    start=JoinTable(client))

    async def run_before(pilot: Any) -> None:
        await until(pilot, lambda: "Your table is public" in flat(app) and "rules of this table" in flat(app),
                    "the public table's invite")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def _lobby_filled(served: ServerThread, tmp: Path, data_dir: Path) -> None:
    """(In the server's loop) a leaderboard of four players, Cleo's key kept in ``data_dir``; a public table
    waiting for a player (Ada's, for 3 minutes) and one in play (Bo's and Cy's, for 25)."""
    server = served.server
    assert server is not None and server.desk is not None
    store = server.desk.store
    store.clock = lambda: 1_790_000_000.0  # no time between the games: the ratings are the same in every run
    cleo = new_key()
    ids = [store.register(name, key, f"10.0.0.{n}").id
           for n, (name, key) in enumerate([("Cleo", cleo), ("Dee", new_key()), ("Eve", new_key()),
                                            ("Fay", new_key())])]
    for n, (winner, loser) in enumerate(itertools.islice(itertools.cycle(itertools.permutations(range(4), 2)), 60)):
        if (winner + n) % 3:  # not every pairing both ways: the ratings spread
            store.rate(f"g{n}", ids[winner], ids[loser])
    save_key(data_dir, ServerKey(WHERE, ids[0], "Cleo", cleo))
    await served.seat(TableClient(URL, name="Ada", seat_file=tmp / "ada.json", create=(RULES, 0), public=True))
    bo = await served.seat(TableClient(URL, name="Bo", seat_file=tmp / "bo.json", create=(Rules(), 1), public=True))
    assert bo.invite is not None
    await served.seat(TableClient(URL, code=bo.invite[0], name="Cy", seat_file=tmp / "cy.json"))
    await until_async(lambda: len(server.tables) == 2 and server.tables[1].game is not None,
                      "the second table's game begun")
    now = server.clock()
    for host, minutes in zip(server.tables, (3, 25), strict=True):
        host.opened_at = now - minutes * 60


def _app_at_server(tmp_path: Path, where: str = WHERE) -> SpadesApp:
    config = tmp_path / "config"
    save_preferences(config / PREFERENCES_NAME, Preferences(player_name="Cleo", table_server=where))
    return SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path / "data", config_dir=config)


async def _choose(pilot: Any, option: str) -> None:
    from textual.widgets import OptionList

    from spades_tui.tui.screens.start import StartScreen

    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, StartScreen) and not app.screen.pending, "the start screen")
    menu = app.screen.query_one(OptionList)
    menu.highlighted = menu.get_option_index(option)
    await pilot.press("enter")


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lobby_snapshot(snap_compare: Any, tmp_path: Path, served: ServerThread, size: tuple[int, int]) -> None:
    """"Find a table": the public tables (one waiting, one in play) and the leaderboard under them, your row
    marked."""
    served.call(_lobby_filled(served, tmp_path, tmp_path / "data"))

    async def run_before(pilot: Any) -> None:
        await _choose(pilot, "find")
        await until(pilot, lambda: "Bo 0 – 0 Cy" in flat(pilot.app) and "← you" in flat(pilot.app),
                    "the tables and the leaderboard")

    assert snap_compare(_app_at_server(tmp_path), terminal_size=size, run_before=run_before)


def _join_unreachable(tmp_path: Path) -> Callable[[], SpadesApp]:
    def factory() -> SpadesApp:
        client = TableClient(f"ws://{CLOSED}/table", code="g8b3-96sp-d2h9", name="Bo", seat_file=tmp_path / "s.json")
        return SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                         start=JoinTable(client))

    return factory


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_unreachable_server_snapshot(snap_compare: Any, tmp_path: Path, served: ServerThread,
                                     size: tuple[int, int]) -> None:
    """``spades-tui join`` at a port of the server where nothing listens: why, in words (not aiohttp's)."""
    async def run_before(pilot: Any) -> None:
        await until(pilot, lambda: "nothing is listening there" in flat(pilot.app), "why the table was not reached")

    assert snap_compare(_join_unreachable(tmp_path)(), terminal_size=size, run_before=run_before)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_moved_to_the_settings_server_snapshot(snap_compare: Any, tmp_path: Path, served: ServerThread,
                                                     size: tuple[int, int]) -> None:
    """The way "Open the table at the table server ADDR (the settings')": the table opened there instead, its
    invite naming the server."""
    port = host_port(12 + SIZES.index(size))

    async def run_before(pilot: Any) -> None:
        await table_waits(pilot)
        await pilot.press("down", "enter")  # past "this network", the settings' server
        await until(pilot, lambda: f"spades-tui join {WHERE}" in flat(pilot.app), "the table at the server")

    assert snap_compare(host_app(tmp_path, port, WHERE), terminal_size=size, run_before=run_before)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_guest_waits_for_a_person_snapshot(snap_compare: Any, tmp_path: Path, served: ServerThread,
                                           size: tuple[int, int]) -> None:
    """A seat at a table whose other seat is a person: "Waiting for Ada at the other machine." (it said "Ada is
    thinking…", as of a bot).  Ada drafts first and is asked first: no card is on this seat's screen yet, so the
    shuffle (random) draws nothing in the picture."""
    ada = served.call(served.seat(TableClient(URL, name="Ada", seat_file=tmp_path / "ada.json",
                                              create=(Rules(), 0))))
    assert ada.invite is not None
    client = TableClient(URL, code=ada.invite[0], name="Bo", seat_file=tmp_path / "bo.json")
    app = SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                    start=JoinTable(client))

    async def run_before(pilot: Any) -> None:
        await until(pilot, lambda: "Waiting for Ada at the other machine" in flat(app), "the guest's table")

    assert snap_compare(app, terminal_size=size, run_before=run_before)
