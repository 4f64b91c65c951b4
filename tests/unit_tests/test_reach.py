"""Where a table's invite works, in words (issue 52): tui/reach.py, the help's topic at a table, the reasons a
table cannot be reached, and what 'spades-tui host' and the record commands' help say."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from types import SimpleNamespace

import aiohttp

from spades_tui.table.seat.link import why_unreachable
from spades_tui.tui.app.guide import guide_for
from spades_tui.tui.app.help import topic_of
from spades_tui.tui.app.resources import read_asset
from spades_tui.tui.reach import host_notes, is_loopback, lan_warning, tunnel_text, ways, where_it_works


def test_loopback_is_said_to_be_this_computer_and_a_network_address_is_not() -> None:
    assert all(is_loopback(a) for a in ("127.0.0.1", "127.0.0.2", "localhost", "::1"))
    assert not is_loopback("192.168.1.23")
    assert "which is this computer" in where_it_works("127.0.0.1")
    assert "cannot use it" in where_it_works("127.0.0.1")
    assert "this computer" not in where_it_works("192.168.1.23")
    assert "any machine that reaches" in where_it_works("127.0.0.3", shared=True)
    assert "anyone who can reach 10.0.0.5" in lan_warning("10.0.0.5")


def test_the_ways_offer_this_network_only_when_found_and_the_settings_server_only_when_set() -> None:
    keys = [key for key, _ in ways(False, "192.168.1.23", "")]
    assert keys == ["lan", "server-other", "tunnel", "serve"]
    assert [key for key, _ in ways(False, None, "t.example.org:7000")] == ["server", "server-other", "tunnel",
                                                                            "serve"]
    assert "t.example.org:7000" in dict(ways(False, None, "t.example.org:7000"))["server"]
    assert ways(True, "192.168.1.23", "")[0][0] == "loopback"


def test_the_tunnel_names_the_tables_port_and_code() -> None:
    text = tunnel_text(38051, "g8b3-96sp-d2h9")
    assert "ssh -N -L 38051:127.0.0.1:38051" in text and "spades-tui join 127.0.0.1:38051 g8b3-96sp-d2h9" in text
    # A table on another loopback address: ssh reaches it there; the friend joins at their end, 127.0.0.1.
    text = tunnel_text(38051, "g8b3-96sp-d2h9", "127.0.0.2")
    assert "ssh -N -L 38051:127.0.0.2:38051" in text and "ssh -N -R 38051:127.0.0.2:38051" in text
    assert "spades-tui join 127.0.0.1:38051 g8b3-96sp-d2h9" in text


def test_a_headless_host_says_where_its_invite_works_and_what_reaches_another_machine() -> None:
    notes = host_notes("127.0.0.1", 7000, "abcd-efgh-jkmn")
    assert "which is this computer" in notes[0]
    assert "--host 0.0.0.0" in notes[1] and "--server" in notes[1] and "ssh -N -L 7000:127.0.0.1:7000" in notes[1]


def test_help_at_a_table_puts_the_tables_section_first_and_after_a_game_screens_own() -> None:
    guide = read_asset("guide.md")
    assert guide_for("table", guide)[0].startswith("## Playing a friend")
    first = guide_for("play+table", guide)[0]
    assert first.startswith("## Play") and "## Playing a friend" in first
    at_table = SimpleNamespace(HELP_TOPIC="play", seat_view=SimpleNamespace(table="Bob connected"))
    at_home = SimpleNamespace(HELP_TOPIC="play", seat_view=SimpleNamespace(table=""))
    assert topic_of(at_table) == "play+table" and topic_of(at_home) == "play"


def test_a_refused_connection_is_said_in_words() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: refused

    async def attempt() -> BaseException:
        async with aiohttp.ClientSession() as session:
            try:
                await session.ws_connect(f"ws://127.0.0.1:{port}/table")
            except aiohttp.ClientError as exc:
                return exc
        raise AssertionError("connected to a port nobody listens on")

    said = why_unreachable(asyncio.run(attempt()))
    assert said.startswith("nothing is listening there") and "Connect call" not in said
    assert "not known" in why_unreachable(socket.gaierror(-2, "Name or service not known"))
    assert "no answer" in why_unreachable(TimeoutError())


def _help(*args: str) -> str:
    found = subprocess.run([sys.executable, "-m", "spades_tui", *args, "--help"], capture_output=True, text=True,
                           check=True)
    return " ".join(found.stdout.split())


def test_the_record_commands_say_where_the_saved_games_are_and_arena_shows_merge() -> None:
    for command in ("analyse", "replay"):
        text = _help(command)
        assert "games/game-N.json" in text and "games/finished/" in text, command
    assert "arena merge FILE" in _help("arena").split("options:")[0]
    host = _help("host")
    assert "127.0.0.1 by default, which is this computer" in host and "ssh tunnel" in host
