"""Tables on a server (docs/table-protocol.md, "Meeting on a server", "Watching", ``say``): a terminal opens a
table with ``create``, both seats are clients, watchers see the public view only, lines said are cleaned
and bounded, and every bad input gets the spec's ``error`` and changes nothing.  Real sockets on
127.0.0.1, in this process."""

from __future__ import annotations

import asyncio
import contextlib
import io
from pathlib import Path
from typing import Any, AsyncIterator

import aiohttp

from spades_tui.engine.rules import Rules
from spades_tui.keep.slots import SlotDirectory
from spades_tui.table.lobby import TableLobby
from spades_tui.table.run import bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.table.wire import protocol as p
from tests.support.table import SHORT, Recorder, check_frames, next_frame, receive_json, table, table_server, url_of
from tests.support.wait import BOUND, until_async

RULES = Rules.from_json(SHORT)


@contextlib.asynccontextmanager
async def server(tmp: Path) -> AsyncIterator[tuple[TableLobby, str]]:
    async with table_server(tmp / "games") as (lobby, port):
        yield lobby, f"ws://127.0.0.1:{port}/table"


async def frame(url: str, first: dict[str, Any]) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse,
                                                          dict[str, Any]]:
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(url)
    await ws.send_json(first)
    answer = await receive_json(ws)
    assert answer is not None
    return session, ws, answer


async def test_a_table_opened_at_a_server_played_to_the_end_and_watched_with_no_hidden_card(tmp_path: Path) -> None:
    async with server(tmp_path) as (lobby, url):
        opener = TableClient(url, name="Ada", seat_file=tmp_path / "a" / "tables" / "seat-a.json",
                             create=(RULES, None))
        out = io.StringIO()
        opening = asyncio.ensure_future(bot_client(opener, "easy", out=out, err=io.StringIO()))
        await until_async(lambda: opener.invite is not None, "the opener's invite")
        code, watch = opener.invite
        assert code != watch and len(lobby.tables) == 1
        host = lobby.tables[0]
        assert host.host_kind is None and host.remotes == (0, 1)  # the server plays no seat
        watcher = Recorder(url, name="Wes", watch=watch)
        await watcher.connect()
        watching = asyncio.ensure_future(watcher.keep())
        guest = TableClient(url, code=code, name="Gus", seat_file=tmp_path / "g" / "tables" / "seat-g.json")
        assert await asyncio.wait_for(bot_client(guest, "easy", out=io.StringIO(), err=io.StringIO()), BOUND) == 0
        assert await asyncio.wait_for(opening, BOUND) == 0
        await asyncio.wait_for(watcher.finished.wait(), BOUND)
        assert out.getvalue().startswith(f"spades-tui join 127.0.0.1:{url.split(':')[2].split('/')[0]} {code}")
        assert host.session is not None and host.session.outcome is not None
        assert opener.players is not None and opener.players[1].name == "Gus"  # learnt once the friend sat down
        # Both seats sent their nonces: the server alone did not choose any hand.
        assert all(h.nonces is not None and None not in h.nonces for h in host.hands.values())
        frames = watcher.frames
        assert frames[0]["type"] == "watching"
        updates = [f for f in frames if f["type"] == "update"]
        assert len(updates) > 50
        for f in updates:
            obs = f["observation"]
            assert obs["seat"] is None and obs["hand"] == [] and obs["drawn"] is None and "seen_discards" not in obs
            assert f["legal"] == []
        over = next(f for f in frames if f["type"] == "over")
        check_frames(frames, None, over["record"])  # type: ignore[arg-type]
        view = watcher.view()
        assert view is not None and view.seat is None and not any(view.persons)
        await watcher.stop()
        watching.cancel()


async def test_watchers_and_what_is_said_bad_input_gets_an_error_and_changes_nothing(tmp_path: Path) -> None:
    async with server(tmp_path) as (lobby, url):
        s0, w0, welcome = await frame(url, {"type": "create", "protocol": p.PROTOCOL, "name": "Ada\x1b[31m",
                                            "rules": SHORT, "first": 0})
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        code, watch = welcome["code"], welcome["watch"]
        host = lobby.tables[0]
        assert host.names[0] == "Ada"  # cleaned like any name
        sessions = [s0]
        try:
            # A watch with the join code, a join with the watch code: refused, saying which code is which.
            s, ws, answer = await frame(url, {"type": "watch", "protocol": p.PROTOCOL, "code": code, "name": "W"})
            sessions.append(s)
            assert answer["type"] == "error" and "join code" in answer["reason"]
            s, ws, answer = await frame(url, {"type": "join", "protocol": p.PROTOCOL, "code": watch, "name": "J"})
            sessions.append(s)
            assert answer["type"] == "error" and "watch code" in answer["reason"]
            assert host.token_hash is None and not host.watchers  # nobody sat down, nobody watches
            # Bad creates: another protocol, bad rules, a bad first.
            for bad in ({"protocol": 99}, {"protocol": float(p.PROTOCOL)}, {"rules": {"targt": 1}}, {"rules": [1]},
                        {"first": 2}, {"first": True}):
                s, ws, answer = await frame(url, {"type": "create", "protocol": p.PROTOCOL, "name": "X",
                                                  "rules": None, "first": None, **bad})
                sessions.append(s)
                assert answer["type"] == "error", bad
            assert len(lobby.tables) == 1
            # Eight watchers, and a ninth refused.
            watchers = []
            for n in range(p.MAX_WATCHERS):
                s, ws, answer = await frame(url, {"type": "watch", "protocol": p.PROTOCOL, "code": watch,
                                                  "name": f"W{n}"})
                sessions.append(s)
                assert answer["type"] == "watching", answer
                watchers.append(ws)
            s, ws, answer = await frame(url, {"type": "watch", "protocol": p.PROTOCOL, "code": watch, "name": "W9"})
            sessions.append(s)
            assert answer["type"] == "error" and "8 watchers" in answer["reason"]
            # A watcher may not act, send a nonce or say.
            w = watchers[0]
            for bad in ({"type": "act", "at": 0, "action": {"type": "bid", "player": 0, "bid": 3}},
                        {"type": "nonce", "hand": 1, "nonce": "ab" * 32}, {"type": "say", "text": "hello"}):
                await w.send_json(bad)
                answer = await next_frame(w, "error")
                assert "watcher" in answer["reason"]
            # What a seat says: cleaned, bounded, one a second; said to the seats and every watcher.
            await w0.send_json({"type": "say", "text": "\x1b]0;pwned\x07good \x1b[2Jluck\n\u202eevil"})
            said = await next_frame(w0, "said")
            assert said["text"] == "good luck evil" and said["name"] == "Ada" and said["seat"] == 0
            assert (await next_frame(watchers[3], "said"))["text"] == "good luck evil"
            await w0.send_json({"type": "say", "text": "again at once"})
            assert "one line a second" in (await next_frame(w0, "error"))["reason"]
            for bad in ("x" * 201, "\x1b[31m\x1b[0m", "", 5):
                await w0.send_json({"type": "say", "text": bad})
                assert (await next_frame(w0, "error"))["type"] == "error", bad
            assert [line["text"] for line in host.chat] == ["good luck evil"]
            assert host.session is None and host.token_hash is None  # the table is as it was
        finally:
            for s in sessions:
                await s.close()


async def test_a_create_to_a_table_that_is_not_a_server_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES) as (host, listener):
        s, _ws, answer = await frame(url_of(listener), {"type": "create", "protocol": p.PROTOCOL, "name": "X",
                                                       "rules": None, "first": None})
        try:
            assert answer["type"] == "error" and "not a server" in answer["reason"]
            assert host.token_hash is None and host.session is None
        finally:
            await s.close()


async def test_a_restarted_server_has_its_tables_not_begun_and_says_which_file_it_could_not_read(
        tmp_path: Path) -> None:
    first = TableLobby(SlotDirectory(tmp_path / "games"))
    opened = first.new_table("Ada", RULES, 1)
    assert opened is not None and opened.owner_token is not None and opened.pending_file is not None
    token, code, watch = opened.owner_token, opened.code, opened.watch_code
    (opened.pending_file.parent / "table-zzzz.json").write_text("{broken", encoding="utf-8")
    # The process dies (nothing closed); a new one starts on the same data folder.
    again = TableLobby(SlotDirectory(tmp_path / "games"))
    said = again.restore()
    assert any("table-zzzz.json" in line for line in said), said
    (table_again,) = again.tables
    assert (table_again.code, table_again.watch_code, table_again.first) == (code, watch, 1)
    assert table_again.rules == RULES and table_again.names[0] == "Ada"
    assert again._find({"type": "rejoin", "token": token}) is table_again  # the same seat token
    assert again._find({"type": "join", "code": code}) is table_again
    first.close()
    again.close()


async def test_create_and_watch_speak_protocol_2_only_and_wrong_watch_codes_count_as_wrong_codes(
        tmp_path: Path) -> None:
    """Issue 25 with issue 28's frames: a ``create`` or ``watch`` of any other version (1, true, 2.0, "2",
    none) gets the one refusal of ``protocol.version_problem``; a wrong watch code counts toward the same
    per-address limit as a wrong join code, at a server and at a plain host, and then even the right code is
    refused (no guessing the watch code instead of the join code)."""
    refusal = "this table speaks protocol 2; update spades-tui"
    async with server(tmp_path / "server") as (lobby, url):
        s0, _w0, welcome = await frame(url, {"type": "create", "protocol": p.PROTOCOL, "name": "Ada"})
        assert welcome["type"] == "welcome"
        code, watch = welcome["code"], welcome["watch"]
        for version in (1, True, 2.0, "2", None):
            first: dict[str, Any] = {"type": "create", "name": "X"} | ({} if version is None else {"protocol": version})
            s, _ws, answer = await frame(url, first)
            assert answer == {"type": "error", "reason": refusal}, version
            await s.close()
            s, _ws, answer = await frame(url, {"type": "watch", "protocol": version, "code": watch, "name": "W"})
            assert answer == {"type": "error", "reason": refusal}, version
            await s.close()
        assert len(lobby.tables) == 1  # no table made by a refused create
        for _ in range(p.WRONG_CODES):
            s, _ws, answer = await frame(url, {"type": "watch", "protocol": p.PROTOCOL, "code": "aaaa-bbbb-cccc",
                                               "name": "W"})
            assert answer == {"type": "error", "reason": "wrong code"}
            await s.close()
        for first in ({"type": "watch", "code": watch}, {"type": "join", "code": code}):
            s, _ws, answer = await frame(url, {**first, "protocol": p.PROTOCOL, "name": "W"})
            assert answer["type"] == "error" and "too many wrong codes" in answer["reason"]
            await s.close()
        await s0.close()
    async with table(tmp_path / "host", rules=RULES) as (host, listener):
        for _ in range(p.WRONG_CODES):
            s, _ws, answer = await frame(url_of(listener), {"type": "watch", "protocol": p.PROTOCOL,
                                                            "code": "aaaa-bbbb-cccc", "name": "W"})
            assert answer == {"type": "error", "reason": "wrong code"}
            await s.close()
        s, _ws, answer = await frame(url_of(listener), {"type": "join", "protocol": p.PROTOCOL, "code": host.code,
                                                        "name": "J"})
        assert answer["type"] == "error" and "too many wrong codes" in answer["reason"]
        await s.close()
        assert host.token_hash is None and not host.watchers
