"""The day's challenge at a server, its desk in this process (docs/table-protocol.md, "The day's challenge"): a
registered player who leaves comes back to the same table with the key; one with no key plays practice; a wrong
key counts as a wrong code; nobody watches or joins a challenge table by a code; one address holds at most three;
the server deals (``fixed`` commits, no nonce asked); today's margins are kept from those who have not played."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, AsyncIterator, Sequence

from spades_tui.table.host.experts import ExpertPool
from spades_tui.table.server.challenge import PER_ADDRESS, ChallengeDesk
from spades_tui.table.server.tables import TableServer
from tests.support.rated import ask, connection, rated_server, register
from tests.support.table import receive_json
from tests.support.wait import BOUND


class FirstLegal:
    """A pool's child that answers at once (the first legal action): the desk's work, not the expert's."""

    def alive(self) -> bool:
        return True

    def call(self, name: str, *args: Any) -> Any:
        legal: Sequence[Any] = args[-1]
        return legal[0]

    def close(self) -> None:
        pass


@contextlib.asynccontextmanager
async def challenge_server(tmp: Path) -> AsyncIterator[tuple[TableServer, ChallengeDesk, int]]:
    async with rated_server(tmp) as (lobby, port):
        assert lobby.desk is not None
        desk = ChallengeDesk(lobby.desk, bytes(range(32)), None, pool=ExpertPool(1, 1, make=FirstLegal))  # type: ignore[arg-type]
        try:
            yield lobby, desk, port
        finally:
            desk.close()


async def first_frames(ws: Any, until: str) -> list[dict[str, Any]]:
    """The frames a seat gets until one of type ``until`` (the first update, say)."""
    got: list[dict[str, Any]] = []
    while True:
        frame = await receive_json(ws, BOUND)
        assert frame is not None, f"closed before {until}: {got}"
        got.append(frame)
        if frame["type"] == until:
            return got


async def test_a_registered_player_comes_back_to_the_same_table_with_the_key(tmp_path: Path) -> None:
    async with challenge_server(tmp_path) as (_, desk, port):
        _, key = await register(port, "Ada")
        async with connection(port) as ws:
            await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, "key": key}))
            got = await first_frames(ws, "update")
            welcome = got[0]
            assert welcome["type"] == "welcome" and welcome["seat"] == 1
            assert next(f for f in got if f["type"] == "commit")["fixed"] is True  # the server deals: no nonce asked
            assert not any(f["type"] == "error" for f in got)
        table = desk.tables[0]
        assert not table.practice and table.player is not None
        async with connection(port) as ws:  # the same frame, the same key: the same table, the same seat
            await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, "key": key}))
            again = await first_frames(ws, "update")
        assert again[0]["type"] == "welcome" and again[0]["token"] == welcome["token"]
        assert desk.tables == [table]


async def test_no_key_is_practice_a_wrong_key_a_wrong_code_and_codes_find_no_challenge(tmp_path: Path) -> None:
    async with challenge_server(tmp_path) as (_, desk, port):
        async with connection(port) as ws:
            await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, "name": "Guest\x1b[2J"}))
            got = await first_frames(ws, "update")
            assert got[0]["players"][1]["name"] == "Guest"
            table = desk.tables[0]
            assert table.practice and table.player is None
            for kind, code in (("watch", table.watch_code), ("join", table.code)):
                answer = await ask(port, {"type": kind, "code": code, "name": "Eve"})
                assert answer == {"type": "error", "reason": "wrong code"}  # nobody watches the deals to come
        answer = await ask(port, {"type": "challenge", "key": "not-a-key"}, "127.0.0.2")
        assert answer["type"] == "error" and answer["reason"].startswith("unknown player key")
        for _ in range(4):
            await ask(port, {"type": "challenge", "key": "not-a-key"}, "127.0.0.2")
        locked = await ask(port, {"type": "standings"}, "127.0.0.2")
        assert locked["type"] == "standings"  # a question with no key is no guess
        locked = await ask(port, {"type": "challenge", "key": "another"}, "127.0.0.2")
        assert "too many wrong codes or keys" in locked["reason"]


async def test_one_address_holds_at_most_three_challenges(tmp_path: Path) -> None:
    async with challenge_server(tmp_path) as (_, desk, port):
        held = []
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(PER_ADDRESS):
                ws = await stack.enter_async_context(connection(port))
                await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, "name": "Guest"}))
                held.append(await first_frames(ws, "welcome"))
            answer = await ask(port, {"type": "challenge", "name": "Guest"})
            assert answer["type"] == "error" and f"{PER_ADDRESS} challenges" in answer["reason"]
            assert (await ask(port, {"type": "challenge", "name": "Guest"}, "127.0.0.3"))["type"] == "welcome"
        assert len(desk.tables) == PER_ADDRESS + 1


async def test_todays_margins_go_only_to_who_has_played_today(tmp_path: Path) -> None:
    async with challenge_server(tmp_path) as (_, desk, port):
        ada, ada_key = await register(port, "Ada")
        _, bob_key = await register(port, "Bob")
        code = desk.challenge()
        assert not isinstance(code, str)
        day = code.code.day.isoformat()
        desk.book.add_entry(day, "standard", ada, "Ada", (10, -5, 0, 30), 1.0, "g1")
        for key, shown in ((ada_key, True), (bob_key, False), (None, False)):
            answer = await ask(port, {"type": "standings", **({"key": key} if key else {})})
            assert answer["count"] == 1 and answer["entries"][0]["name"] == "Ada"
            assert ("hands" in answer["entries"][0]) is shown
        future = await ask(port, {"type": "standings", "date": "2999-01-01"})
        assert future["type"] == "error"


async def play_until(ws: Any, stop: Any) -> dict[str, Any]:
    """The seat's frames answered (each of its turns with its first legal action) until ``stop(frame)``."""
    while True:
        frame = await receive_json(ws, BOUND)
        assert frame is not None, "closed"
        if stop(frame):
            return frame
        if frame["type"] == "update" and frame["legal"]:
            await ws.send_str(json.dumps({"type": "act", "at": frame["at"], "action": frame["legal"][0]}))


async def test_a_challenge_the_server_stopped_in_goes_on_when_it_starts_again(tmp_path: Path) -> None:
    from spades_tui.keep.slots import SlotDirectory

    games = SlotDirectory(tmp_path / "challenge-games")
    async with rated_server(tmp_path / "server") as (lobby, port):
        assert lobby.desk is not None
        desk = ChallengeDesk(lobby.desk, bytes(range(32)), games, pool=ExpertPool(1, 1, make=FirstLegal))  # type: ignore[arg-type]
        _, key = await register(port, "Ada")
        async with connection(port) as ws:
            await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, "key": key}))
            welcome = await first_frames(ws, "welcome")
            left = await play_until(ws, lambda f: f["type"] == "update" and f["at"] >= 60)
        desk.close()  # what it saved after every action is all a killed server leaves: the same
        again = ChallengeDesk(lobby.desk, bytes(range(32)), games, pool=ExpertPool(1, 1, make=FirstLegal))  # type: ignore[arg-type]
        try:
            said = again.restore()
            assert any("Ada" in line and "goes on" in line for line in said), said
            async with connection(port) as ws:  # the key alone finds the same seat
                await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, "key": key}))
                back = await first_frames(ws, "welcome")
                assert back[-1]["token"] == welcome[-1]["token"]
                first = await play_until(ws, lambda f: f["type"] == "update")
                assert first["at"] >= left["at"]
                if first["legal"]:
                    await ws.send_str(json.dumps({"type": "act", "at": first["at"], "action": first["legal"][0]}))
                standings = await play_until(ws, lambda f: f["type"] == "standings")
            assert standings["you"]["name"] == "Ada" and standings["practice"] is False
            day = again.challenge()
            assert not isinstance(day, str)
            assert again.book.entry(day.code.day.isoformat(), "standard", again.tables[0].player or 0) is not None
        finally:
            again.close()


async def test_practice_nobody_is_at_is_let_go_and_an_entry_waits_for_its_player(tmp_path: Path) -> None:
    from spades_tui.keep.slots import SlotDirectory

    now = [1_000_000.0]
    games = SlotDirectory(tmp_path / "challenge-games")
    async with rated_server(tmp_path / "server") as (lobby, port):
        assert lobby.desk is not None
        lobby.clock = lambda: now[0]  # the server's own clock says when a seat was last there
        desk = ChallengeDesk(lobby.desk, bytes(range(32)), games, pool=ExpertPool(1, 1, make=FirstLegal),  # type: ignore[arg-type]
                             clock=lambda: now[0])
        try:
            _, key = await register(port, "Ada")
            for frame in ({"key": key}, {"name": "Guest"}):
                async with connection(port) as ws:
                    await ws.send_str(json.dumps({"type": "challenge", "protocol": 2, **frame}))
                    await play_until(ws, lambda f: f["type"] == "update" and f["at"] >= 30)
            entry, practice = desk.tables
            assert entry.player is not None and not entry.practice and practice.practice
            assert practice.slot is not None
            left = practice.slot.path
            now[0] += 31 * 60
            desk.sweep()
            assert desk.tables == [entry]  # the entry waits for Ada until the day ends
            assert not left.exists() and len(games.finished_games()) == 1  # never set up again after a restart
        finally:
            desk.close()
