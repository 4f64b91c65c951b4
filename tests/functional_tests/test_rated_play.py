"""Rated play at a server (docs/table-protocol.md, "Rated play"; docs/serving.md): names held by their keys, a
wrong key counted as a wrong code, quick play, a resignation and a claim rated, the limits on registering and
seeking; and against a real ``serve --tables-only``: two registered bots paired by quick play to game over, and
the server killed mid-game and after the result, every rating kept once."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.record import replay
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.keep.glicko import Rating
from spades_tui.keep.meta import TableMeta, with_meta
from spades_tui.keep.players import PLAYERS_NAME, PlayerStore
from spades_tui.keep.storage import private_dir, save_record
from spades_tui.session.randomplay import random_game
from tests.support.rated import ask, connection, one_game_by_hand, rated_server, register, until_begun
from tests.support.table import free_port, next_frame, receive_json
from tests.support.wait import BOUND, until, until_async

ROOT = Path(__file__).resolve().parents[2]


def _rated_as_one_game(store: PlayerStore, winner: int, loser: int) -> None:
    """Both players moved exactly as one game between new players moves them (the paper's formulas)."""
    won, lost = store.by_id(winner), store.by_id(loser)
    assert won is not None and lost is not None
    for player, score in ((won, 1.0), (lost, 0.0)):
        rating, rd = one_game_by_hand(Rating(), Rating(), score)
        assert player.rating.rating == pytest.approx(rating, abs=0.01)
        assert player.rating.rd == pytest.approx(rd, abs=0.01)
        assert player.games == 1 and player.wins == int(score)


# ------------------------------------------------------------------ who you are


async def test_a_name_is_held_by_its_key_and_a_taken_one_refused(tmp_path: Path) -> None:
    async with rated_server(tmp_path) as (_, port):
        ada, key = await register(port, "  Ada\x1b[31m ")
        assert len(key) == 43
        refused = await ask(port, {"type": "register", "name": "ADA\u200b"}, "127.0.0.2")
        assert refused == {"type": "error", "reason": "that name is taken on this server"}
        bob, bob_key = await register(port, "Bob", "127.0.0.2")
        taken = await ask(port, {"type": "rename", "key": bob_key, "name": "ada"}, "127.0.0.2")
        assert taken["type"] == "error" and "taken" in taken["reason"]
        renamed = await ask(port, {"type": "rename", "key": bob_key, "name": "Robert"}, "127.0.0.2")
        assert renamed == {"type": "renamed", "player": bob, "name": "Robert"}
        mine = await ask(port, {"type": "player", "key": key})
        assert mine["player"]["name"] == "Ada" and mine["player"]["id"] == ada and mine["player"]["provisional"]
        board = await ask(port, {"type": "players", "key": key})
        assert board["players"] == [] and board["you"]["name"] == "Ada"  # provisional: not on the board
        missing = await ask(port, {"type": "player", "name": "nobody"})
        assert missing["type"] == "error"


async def test_a_wrong_key_counts_as_a_wrong_code(tmp_path: Path) -> None:
    async with rated_server(tmp_path) as (lobby, port):
        _, key = await register(port, "Ada")
        table = lobby.new_table("Cy", public=True)
        assert table is not None
        for _ in range(5):
            wrong = await ask(port, {"type": "players", "key": "A" * 43})
            assert wrong["type"] == "error" and wrong["reason"].startswith("unknown player key: ")
            assert "server-keys/" in wrong["reason"]  # what to do when a server was started afresh
        async with connection(port) as ws:  # the right code, from the locked address
            await ws.send_str(json.dumps({"type": "join", "protocol": 2, "code": table.code, "name": "Eve"}))
            locked = await receive_json(ws)
        assert locked is not None and "too many wrong codes" in locked["reason"]
        still = await ask(port, {"type": "quick", "key": key})  # the right key too, for the minute
        assert "too many wrong codes" in still["reason"]
        elsewhere = await ask(port, {"type": "players", "key": key}, "127.0.0.2")  # no other address refused
        assert elsewhere["type"] == "players"


async def test_a_flood_of_registrations_and_seekers_from_one_address_is_bounded(tmp_path: Path) -> None:
    async with rated_server(tmp_path, max_players=6) as (lobby, port):
        answers = [await ask(port, {"type": "register", "name": f"Flood {n}"}) for n in range(12)]
        assert [a["type"] for a in answers] == ["registered"] * 3 + ["error"] * 9
        assert all("3 new players an hour" in a["reason"] for a in answers[3:])
        keys = [a["key"] for a in answers[:3]]
        keys += [(await register(port, f"Other {n}", f"127.0.0.{10 + n}"))[1] for n in range(3)]
        full = await ask(port, {"type": "register", "name": "Seventh"}, "127.0.0.99")
        assert "as many players as it takes" in full["reason"]
        assert lobby.desk is not None
        store = lobby.desk.store
        for n, key in enumerate(keys):  # far apart: nobody is paired for a while
            player = store.by_key(key)
            assert player is not None
            store.conn.execute("UPDATE players SET rating = ? WHERE id = ?", (1000 + 400 * n, player.id))
        seekers = []
        try:
            for key in keys[:4]:
                seekers.append(connection(port, "127.0.0.50"))
                ws = await seekers[-1].__aenter__()
                await ws.send_str(json.dumps({"type": "quick", "protocol": 2, "key": key}))
            await until_async(lambda: len(lobby.desk.seeking.seekers) == 4 if lobby.desk else False, "four seeking")
            fifth = await ask(port, {"type": "quick", "key": keys[4]}, "127.0.0.50")
            assert "from one address" in fifth["reason"]
            again = await ask(port, {"type": "quick", "key": keys[0]}, "127.0.0.51")
            assert "seeking a game already" in again["reason"]
        finally:
            for seeker in seekers:
                await seeker.__aexit__(None, None, None)
        await until_async(lambda: lobby.desk.seeking.seekers == [] if lobby.desk else False, "seekers gone")


# ------------------------------------------------------------------ quick play, resign and claim


async def _quick_pair(port: int, keys: tuple[str, str]) -> tuple[tuple[Any, Any], tuple[Any, Any], dict[str, Any],
                                                                  dict[str, Any]]:
    first = connection(port, "127.0.0.2")
    second = connection(port, "127.0.0.3")
    a, b = await first.__aenter__(), await second.__aenter__()
    await a.send_str(json.dumps({"type": "quick", "protocol": 2, "key": keys[0]}))
    await b.send_str(json.dumps({"type": "quick", "protocol": 2, "key": keys[1]}))
    welcome_a, welcome_b = await asyncio.gather(until_begun(a), until_begun(b))
    return (first, a), (second, b), welcome_a, welcome_b


@pytest.mark.parametrize("resigner", [0, 1])
async def test_quick_play_seats_two_strangers_and_a_resignation_is_rated_as_a_loss(tmp_path: Path,
                                                                                  resigner: int) -> None:
    async with rated_server(tmp_path) as (lobby, port):
        ada, ada_key = await register(port, "Ada", "127.0.0.2")
        bob, bob_key = await register(port, "Bob", "127.0.0.3")
        (ca, a), (cb, b), welcome_a, welcome_b = await _quick_pair(port, (ada_key, bob_key))
        try:
            assert {welcome_a["seat"], welcome_b["seat"]} == {0, 1}
            host = lobby.tables[0]
            assert [p.name for p in host.players()] == ["Ada", "Bob"]
            assert host.rated.players == (ada, bob)
            assert host.record is not None and host.record.rules.preset == "standard"
            quitter = (a, b)[resigner]
            await quitter.send_str(json.dumps({"type": "resign"}))
            over = await next_frame((b, a)[resigner], "over")
            assert over["winner"] == 1 - resigner
        finally:
            await ca.__aexit__(None, None, None)
            await cb.__aexit__(None, None, None)
        assert lobby.desk is not None
        store = lobby.desk.store
        loser, winner = (ada, bob) if resigner == 0 else (bob, ada)
        _rated_as_one_game(store, winner, loser)
        page = store.page(store.by_id(loser))  # type: ignore[arg-type]
        assert [(r["won"], r["how"]) for r in page["results"]] == [(False, "resign")]


async def test_a_bot_whose_stranger_resigns_before_any_hand_is_scored_ends_with_status_0(tmp_path: Path) -> None:
    # 'quick --bot' and 'join --bot' exit 1 when a shuffle is not verified; a game over before its first hand was
    # scored has no shuffle to verify, and ended 1 ("No hand played yet.") as if the host had cheated.
    from spades_tui.table.run import bot_client
    from spades_tui.table.seat.client import TableClient

    async with rated_server(tmp_path) as (_lobby, port):
        _, ada_key = await register(port, "Ada", "127.0.0.2")
        _, bob_key = await register(port, "Bob", "127.0.0.3")
        out, err = io.StringIO(), io.StringIO()
        ada = TableClient(f"ws://127.0.0.1:{port}/table", name="Ada", key=ada_key, quick=True,
                          seat_file=tmp_path / "ada" / "seat.json")
        playing = asyncio.ensure_future(bot_client(ada, "easy", out=out, err=err))
        async with connection(port, "127.0.0.3") as bob:
            await bob.send_str(json.dumps({"type": "quick", "protocol": 2, "key": bob_key}))
            await until_begun(bob)
            await bob.send_str(json.dumps({"type": "resign"}))
            status = await asyncio.wait_for(playing, BOUND)
        assert status == 0, (out.getvalue(), err.getvalue())
        assert "Game over: Ada wins" in out.getvalue() and "No hand played yet." in out.getvalue()


async def test_a_rated_table_in_the_lobby_seats_only_another_registered_player(tmp_path: Path) -> None:
    async with rated_server(tmp_path) as (lobby, port):
        ada, ada_key = await register(port, "Ada", "127.0.0.2")
        bob, bob_key = await register(port, "Bob", "127.0.0.3")
        opener = connection(port, "127.0.0.2")
        a = await opener.__aenter__()
        try:
            await a.send_str(json.dumps({"type": "create", "protocol": 2, "name": "Someone else", "rated": True,
                                         "key": ada_key, "rules": {"target": 100, "nil": False}, "first": 1}))
            welcome = await next_frame(a, "welcome")
            host = lobby.tables[0]
            assert host.public and host.rules.preset == "standard" and host.first is None
            assert welcome["rated"] is True and lobby.listing()[0]["rated"] is True  # the lobby marks it
            assert host.players()[0].name == "Ada"
            code = welcome["code"]
            for frame, source, why in (({"name": "Eve"}, "127.0.0.4", "sit down with your player key"),
                                       ({"key": ada_key}, "127.0.0.2", "your own rated table")):
                refused = await ask(port, {"type": "join", "code": code, **frame}, source)
                assert why in refused["reason"]
            joiner = connection(port, "127.0.0.3")
            b = await joiner.__aenter__()
            try:
                await b.send_str(json.dumps({"type": "join", "protocol": 2, "code": code, "name": "B", "key": bob_key}))
                assert (await next_frame(b, "welcome"))["seat"] == 1
                assert host.rated.players == (ada, bob) and host.players()[1].name == "Bob"
            finally:
                await joiner.__aexit__(None, None, None)
        finally:
            await opener.__aexit__(None, None, None)
        async with connection(port, "127.0.0.5") as plain:  # a table that is not rated takes no resignation
            await plain.send_str(json.dumps({"type": "create", "protocol": 2, "name": "Dee", "public": True}))
            assert "rated" not in await next_frame(plain, "welcome")
            assert [t.get("rated") for t in lobby.listing()] == [None]  # (Ada's table is gone: its seats left)
            await plain.send_str(json.dumps({"type": "resign"}))
            assert "only a rated table" in (await next_frame(plain, "error"))["reason"]


async def test_a_rated_table_waiting_for_its_player_is_rated_still_after_a_restart(tmp_path: Path) -> None:
    async with rated_server(tmp_path) as (_, port):
        ada, ada_key = await register(port, "Ada", "127.0.0.2")
        bob, bob_key = await register(port, "Bob", "127.0.0.3")
        async with connection(port, "127.0.0.2") as a:
            await a.send_str(json.dumps({"type": "create", "protocol": 2, "name": "Ada", "rated": True,
                                         "key": ada_key}))
            code = (await next_frame(a, "welcome"))["code"]
    async with rated_server(tmp_path) as (lobby, port):
        host = next(t for t in lobby.tables if t.code == code)
        assert host.rated.opener == ada
        refused = await ask(port, {"type": "join", "code": code, "name": "Eve"}, "127.0.0.4")
        assert "player key" in refused["reason"]
        async with connection(port, "127.0.0.3") as b:
            await b.send_str(json.dumps({"type": "join", "protocol": 2, "code": code, "name": "B", "key": bob_key}))
            await next_frame(b, "welcome")
        assert host.rated.players == (ada, bob)


async def _seated_not_begun(port: int, keys: tuple[str, str], quick: bool) -> list[dict[str, Any]]:
    """Two players seated at a rated table (by quick play, or a rated create and a join) whose game has not begun:
    their welcomes (no nonce sent, so the first hand's shuffle waits)."""
    welcomes: list[dict[str, Any]] = []
    async with connection(port, "127.0.0.2") as a, connection(port, "127.0.0.3") as b:
        if quick:
            for ws, key in ((a, keys[0]), (b, keys[1])):
                await ws.send_str(json.dumps({"type": "quick", "protocol": 2, "key": key}))
            welcomes = list(await asyncio.gather(next_frame(a, "welcome"), next_frame(b, "welcome")))
        else:
            await a.send_str(json.dumps({"type": "create", "protocol": 2, "name": "A", "rated": True, "key": keys[0]}))
            welcomes.append(await next_frame(a, "welcome"))
            await b.send_str(json.dumps({"type": "join", "protocol": 2, "code": welcomes[0]["code"], "name": "B",
                                         "key": keys[1]}))
            welcomes.append(await next_frame(b, "welcome"))
    return sorted(welcomes, key=lambda w: w["seat"])


@pytest.mark.parametrize("quick", [True, False])
async def test_a_rated_table_stopped_between_its_second_seat_and_its_game_keeps_its_players(tmp_path: Path,
                                                                                           quick: bool) -> None:
    async with rated_server(tmp_path, claim_after=90.0) as (lobby, port):
        ada, ada_key = await register(port, "Ada", "127.0.0.2")
        bob, bob_key = await register(port, "Bob", "127.0.0.3")
        welcomes = await _seated_not_begun(port, (ada_key, bob_key), quick)
        assert all(w["rated"] is True and w["claim_after"] == 90.0 for w in welcomes)
        assert lobby.tables[0].game is None  # the window: both seated, the first shuffle not fixed
    async with rated_server(tmp_path) as (lobby, port):  # the server as a restart finds it (the table's file)
        host = lobby.tables[0]
        assert host.game is None and host.rated.players == (ada, bob)
        async with connection(port, "127.0.0.2") as a, connection(port, "127.0.0.3") as b:
            for ws, welcome in ((a, welcomes[0]), (b, welcomes[1])):
                await ws.send_str(json.dumps({"type": "rejoin", "protocol": 2, "token": welcome["token"]}))
            again = await asyncio.gather(until_begun(a), until_begun(b))
            assert all(w["rated"] is True for w in again)
            assert host.record is not None
            meta = TableMeta.of(host.record)
            assert meta is not None and meta.rated == (ada, bob)  # the game's record says so from its start
            await a.send_str(json.dumps({"type": "resign"}))
            over = await next_frame(b, "over")
        assert over["winner"] == 1
        ratings = over["ratings"]
        by_hand = [one_game_by_hand(Rating(), Rating(), score) for score in (0.0, 1.0)]
        for told, (rating, rd) in zip(ratings, by_hand, strict=True):
            assert told["before"] == 1500.0 and told["rd_before"] == 350.0
            assert told["after"] == pytest.approx(rating, abs=0.06) and told["rd_after"] == pytest.approx(rd, abs=0.06)
        assert lobby.desk is not None
        _rated_as_one_game(lobby.desk.store, bob, ada)


async def test_a_game_is_claimed_from_a_player_gone_longer_than_claim_after(tmp_path: Path) -> None:
    async with rated_server(tmp_path, claim_after=1.0) as (lobby, port):
        ada, ada_key = await register(port, "Ada", "127.0.0.2")
        bob, bob_key = await register(port, "Bob", "127.0.0.3")
        (ca, a), (cb, _), _, _ = await _quick_pair(port, (ada_key, bob_key))
        try:
            await a.send_str(json.dumps({"type": "claim"}))
            early = await next_frame(a, "error")
            assert "at the table" in early["reason"]
            await cb.__aexit__(None, None, None)  # Bob leaves
            await a.send_str(json.dumps({"type": "claim"}))
            soon = await next_frame(a, "error")
            assert "may be claimed after 1 s" in soon["reason"]
            host = lobby.tables[0]
            host.rated.gone_since[1] -= 1.0  # Bob has been gone a second
            await a.send_str(json.dumps({"type": "claim"}))
            over = await next_frame(a, "over")
            assert over["winner"] == 0 and "claimed" in json.dumps(over["record"])
        finally:
            await ca.__aexit__(None, None, None)
        assert lobby.desk is not None
        _rated_as_one_game(lobby.desk.store, ada, bob)
        page = lobby.desk.store.page(lobby.desk.store.by_id(bob))  # type: ignore[arg-type]
        assert [(r["won"], r["how"]) for r in page["results"]] == [(False, "claim")]


async def test_a_rated_game_that_ended_as_the_server_stopped_is_rated_once_at_the_next_start(tmp_path: Path) -> None:
    record, state = random_game(7, Rules(target=100, losing_score=200))  # a short game (random play loses points)
    assert state.phase is Phase.GAME_OVER
    async with rated_server(tmp_path) as (_, port):
        ada, _ = await register(port, "Ada", "127.0.0.2")
        bob, _ = await register(port, "Bob", "127.0.0.3")
    meta = TableMeta("abcd-efgh-jkmn", 1, None, rated=(ada, bob))
    record = with_meta(record, table=meta.to_json(), game_id="g-killed")
    finished = tmp_path / "games" / "finished"
    private_dir(finished)
    save_record(finished / "game-1.json", record)
    winner = state.scores.index(max(state.scores))
    for _ in range(2):  # started twice: rated once
        async with rated_server(tmp_path) as (lobby, _):
            assert lobby.desk is not None
            store = lobby.desk.store
            assert store.result("g-killed") is not None
            ids = (ada, bob)
            _rated_as_one_game(store, ids[winner], ids[1 - winner])
    assert replay(record).scores == state.scores


# ------------------------------------------------------------------ a real server, real clients


def spades(args: list[str], home: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home / "config"))
    return subprocess.Popen([sys.executable, "-m", "spades_tui", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _started(server: subprocess.Popen[str]) -> None:
    assert server.stdout is not None
    line = server.stdout.readline()
    assert "Tables are served on" in line, line + (server.stderr.read() if server.stderr else "")


def _page(address: str, name: str, home: Path) -> dict[str, object]:
    asked = spades(["players", address, name, "--json"], home)
    out, err = asked.communicate(timeout=BOUND)
    assert asked.returncode == 0, err
    page = json.loads(out)
    assert isinstance(page, dict)
    return page


def _stop(*processes: subprocess.Popen[str]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()


def _moved_as_one_game(pages: dict[str, dict[str, object]]) -> None:
    """Each player's page: one game, rated as the paper's formulas rate one game between new players."""
    for page in pages.values():
        score = 1.0 if page["wins"] == 1 else 0.0
        rating, rd = one_game_by_hand(Rating(), Rating(), score)
        assert page["rating"] == pytest.approx(rating, abs=0.06) and page["rd"] == pytest.approx(rd, abs=0.06)
        assert page["games"] == 1 and len(page["results"]) == 1  # type: ignore[arg-type]
    assert sorted(int(page["wins"]) for page in pages.values()) == [0, 1]  # type: ignore[call-overload]


@pytest.mark.slow
def test_two_registered_bots_play_by_quick_play_to_game_over_and_both_ratings_move(tmp_path: Path) -> None:
    port = free_port()
    address = f"127.0.0.1:{port}"
    server = spades(["serve", "--tables-only", "--port", str(port)], tmp_path / "server")
    players = []
    try:
        _started(server)
        players = [spades(["quick", address, "--name", name, "--bot", "normal"], tmp_path / name)
                   for name in ("Ada", "Bob")]
        for player in players:
            out, err = player.communicate(timeout=10 * BOUND)
            assert player.returncode == 0, err
            assert "Game over:" in out and "Sat down at the table as" in err
            assert "Seeking a stranger" in err or "Sat down" in err
        pages = {name: _page(address, name, tmp_path / "Ada") for name in ("Ada", "Bob")}
        _moved_as_one_game(pages)
        key_file = next((tmp_path / "Ada" / "spades-tui" / "server-keys").iterdir())
        assert key_file.stat().st_mode & 0o777 == 0o600
        who = spades(["whoami", address, "--json"], tmp_path / "Ada")
        out, err = who.communicate(timeout=BOUND)
        assert who.returncode == 0, err
        assert json.loads(out)["name"] == "Ada" and json.loads(out)["key_file"] == str(key_file)
        database = tmp_path / "server" / "spades-tui" / PLAYERS_NAME
        assert database.stat().st_mode & 0o777 == 0o600
    finally:
        _stop(server, *players)


def _slot_actions(home: Path, folder: str = "games") -> int:
    """The most actions in a saved game of the server at ``home`` (its tables' ``games``, or another folder)."""
    from spades_tui.keep.storage import load_record

    games = home / "spades-tui" / folder
    try:
        return max((len(load_record(path).actions) for path in games.glob("game-*.json")), default=0)
    except Exception:  # caught between writes, or not there yet
        return 0


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_the_server_killed_mid_game_and_after_the_result_keeps_every_rating_once(tmp_path: Path) -> None:
    port = free_port()
    address = f"127.0.0.1:{port}"
    serve = ["serve", "--tables-only", "--port", str(port)]
    home = tmp_path / "server"
    server = spades(serve, home)
    players: list[subprocess.Popen[str]] = []
    try:
        _started(server)
        players = [spades(["quick", address, "--name", name, "--bot", "normal"], tmp_path / name)
                   for name in ("Ada", "Bob")]
        until(lambda: _slot_actions(home) >= 60, "the rated game got going")
        server.send_signal(signal.SIGKILL)
        server.wait(BOUND)
        server = spades(serve, home)
        _started(server)  # the table is there again; both bots come back by themselves
        for player in players:
            _, err = player.communicate(timeout=10 * BOUND)
            assert player.returncode == 0, err
            assert "Back at the table." in err
        pages = {name: _page(address, name, tmp_path / "Ada") for name in ("Ada", "Bob")}
        _moved_as_one_game(pages)
        server.send_signal(signal.SIGKILL)
        server.wait(BOUND)
        server = spades(serve, home)
        _started(server)
        assert {name: _page(address, name, tmp_path / "Ada") for name in ("Ada", "Bob")} == pages
    finally:
        _stop(server, *players)


@pytest.mark.slow
def test_a_damaged_players_database_stops_the_start_and_is_left_as_it_is(tmp_path: Path) -> None:
    data = tmp_path / "spades-tui"
    data.mkdir(mode=0o700)
    damaged = b"SQLite format 3\x00" + bytes(range(256)) * 16
    (data / PLAYERS_NAME).write_bytes(damaged)
    server = spades(["serve", "--tables-only", "--port", str(free_port())], tmp_path)
    out, err = server.communicate(timeout=BOUND)
    assert server.returncode == 2 and "Tables are served" not in out
    assert "players.sqlite3" in err and "will not start" in err and "Traceback" not in err
    assert (data / PLAYERS_NAME).read_bytes() == damaged
