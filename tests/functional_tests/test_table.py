"""Network tables over a real socket on 127.0.0.1 (docs/table-protocol.md): whole games, what each frame may
hold, the shuffle check, and every bad input getting the spec's answer without changing the game."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from spades_tui.engine.rules import Rules
from spades_tui.keep.meta import TableMeta
from spades_tui.keep.storage import load_record
from spades_tui.table.host import ledger as ledger_module
from spades_tui.table.host.host_seat import HostSeat
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.link import TableError
from spades_tui.table.wire import protocol
from tests.support.table import (
    SHORT,
    Recorder,
    check_frames,
    next_frame,
    play_with_bot,
    raw,
    receive_json,
    table,
    url_of,
)

RULES = Rules.from_json(SHORT)


@pytest.mark.slow
async def test_a_whole_game_between_a_host_bot_and_a_client_shows_no_hidden_card(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, names=("Hosty", "x")) as (host, listener):
        client = Recorder(url_of(listener), code=host.code, name="Guesty", seat_file=tmp_path / "seat.json")
        assert await play_with_bot(client) == 0
        record = client.record
        assert record is not None and client.outcome is not None
        hands = len([a for a in record.actions if type(a).__name__ == "Shuffle"])
        assert hands >= 1 and set(client.verified) == set(range(1, hands + 1))
        assert all(problem is None for problem in client.verified.values())  # "shuffle verified" every hand
        over = next(f for f in client.frames if f["type"] == "over")
        check_frames(client.frames, client.seat or 0, over["record"])
        assert "code" not in over["record"]["table"] and "token_hash" not in over["record"]["table"]
        # The host's slot holds the same game, the remote seat's kind said, the secrets to resume.
        saved = load_record(host.slot.path if host.slot else "")
        assert [p.kind for p in saved.players] == ["bot:easy", "remote"]
        assert saved.players[1].name == "Guesty"
        assert saved.actions == record.actions and TableMeta.of(saved) is not None
        # The client's review comes from the revealed hand: both hands, double dummy.
        job = client.review_job(1)
        assert job is not None
        review = job()
        assert review is not None and review.hand == 1 and all(len(h) == 13 for h in review.hands)


@pytest.mark.slow
async def test_the_leak_check_catches_a_host_that_sends_the_other_hand(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    async with table(tmp_path, rules=RULES) as (host, listener):
        honest = host.update_for

        def leaky(seat: int) -> dict[str, Any]:  # a host that sends the whole state: the check must catch it
            message = honest(seat)
            assert host.session is not None
            message["debug"] = host.session.view(1 - seat).observation.to_json()
            return message

        monkeypatch.setattr(host, "update_for", leaky)
        client = Recorder(url_of(listener), code=host.code)
        await play_with_bot(client)
        over = next(f for f in client.frames if f["type"] == "over")
        with pytest.raises(AssertionError, match="hidden cards"):
            check_frames(client.frames, 1, over["record"])


@pytest.mark.slow
async def test_a_host_that_deals_other_cards_than_committed_is_caught(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # The host reveals the secret and nonces it committed to, but deals from a key of its own choosing.
    monkeypatch.setattr(ledger_module, "hand_key", lambda secret, nonces: hashlib.sha256(b"chosen").digest())
    async with table(tmp_path, rules=RULES) as (host, listener):
        client = TableClient(url_of(listener), code=host.code)
        assert await play_with_bot(client) == 1  # join --bot's status says so
        assert all("other than those it committed to" in (problem or "") for problem in client.verified.values())
        assert any("WARNING: hand 1" in n for n in client.talk.notices)


@pytest.mark.slow
async def test_a_tampered_reveal_is_detected(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES) as (host, listener):
        real_send = host._send

        def tamper(message: dict, only: int | None = None) -> None:  # type: ignore[type-arg]
            if message.get("type") == "reveal" and message["hand"] == 1:
                message = dict(message, secret="00" * 32)
            real_send(message, only)

        host._send = tamper  # type: ignore[method-assign]
        client = TableClient(url_of(listener), code=host.code)
        assert await play_with_bot(client) == 1
        assert "other than the one it committed to" in (client.verified[1] or "")
        assert all(problem is None for hand, problem in client.verified.items() if hand != 1)


# ---------------------------------------------------------------- bad input: the spec's answer, nothing changed


async def _seated(listener, code: str):  # type: ignore[no-untyped-def]
    session, ws = await raw(listener)
    await ws.send_str(json.dumps({"type": "join", "protocol": 2, "code": code, "name": "Raw"}))
    welcome = await next_frame(ws, "welcome")
    commit = await next_frame(ws, "commit")
    await ws.send_str(json.dumps({"type": "nonce", "hand": commit["hand"], "nonce": "ab" * 32}))
    update = await next_frame(ws, "update")
    return session, ws, welcome, update


async def test_wrong_code_used_code_and_a_rate_limit_per_address(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES) as (host, listener):
        for _ in range(protocol.WRONG_CODES):
            session, ws = await raw(listener)
            await ws.send_str(json.dumps({"type": "join", "protocol": 2, "code": "aaaa-bbbb-cccc", "name": "x"}))
            assert (await receive_json(ws)) == {"type": "error", "reason": "wrong code"}
            assert await receive_json(ws) is None and ws.close_code == 1008
            await session.close()
        session, ws = await raw(listener)  # the right code, from an address that guessed too often
        await ws.send_str(json.dumps({"type": "join", "protocol": 2, "code": host.code, "name": "x"}))
        refused = await receive_json(ws)
        assert refused is not None and "too many wrong codes" in refused["reason"]
        await session.close()
        assert host.token_hash is None and not host.started
        host.connections.wrong.clear()  # the minute has passed
        session, ws, _welcome, _ = await _seated(listener, host.code)
        second, ws2 = await raw(listener)
        await ws2.send_str(json.dumps({"type": "join", "protocol": 2, "code": host.code, "name": "y"}))
        used = await receive_json(ws2)
        assert used is not None and "used" in used["reason"]
        await second.close()
        await session.close()


async def test_bad_frames_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, host_kind="human", first=1) as (host, listener):
        session, ws, welcome, update = await _seated(listener, host.code)
        assert host.session is not None
        before = host.session.store.record
        at = update["at"]
        other = 1 - welcome["seat"]
        mine = welcome["seat"]
        frames = [
            ("not json", "one JSON object"),
            ("[1, 2]", "one JSON object"),
        ]
        for text, answer in frames:
            await ws.send_str(text)
            got = await next_frame(ws, "error")
            assert answer in got["reason"]
        # Each refused act answers an error and the record stays as it was.
        acts = [
            ({"type": "act", "at": at, "action": {"type": "double_nil", "player": other, "declare": False}},
             "not your seat"),
            ({"type": "act", "at": at + 5, "action": {"type": "double_nil", "player": mine, "declare": False}},
             "stale"),
            ({"type": "act", "at": at, "action": {"type": "play", "player": mine, "card": "AS"}}, "not allowed"),
            ({"type": "act", "at": at, "action": {"type": "shuffle", "stock": []}}, "the dealer's"),
            ({"type": "act", "at": at, "action": "draft"}, "not an action"),
            ({"type": "nonce", "hand": 1, "nonce": "zz"}, "64 hex digits"),
            ({"type": "nonce", "hand": 1, "nonce": " " * 64}, "64 hex digits"),
            ({"type": "join", "protocol": 2, "code": host.code}, "already has its seat"),
            ({"type": "shout"}, "unknown message type"),
        ]
        for frame, answer in acts:
            await ws.send_str(json.dumps(frame))
            got = await next_frame(ws, "error")
            assert answer in got["reason"], (frame, got)
        assert host.session.store.record == before
        await ws.send_str("x" * (10 * 1024 * 1024))  # 10 MB: an error, then the connection is closed (1008)
        got = await receive_json(ws, timeout=30)
        assert got is not None and "at most" in got["reason"]
        assert await receive_json(ws, timeout=30) is None and ws.close_code == 1008
        await session.close()
        assert host.session.store.record == before
        # The host stays up: the seat comes back with its token and plays on.
        session, ws = await raw(listener)
        await ws.send_str(json.dumps({"type": "rejoin", "protocol": 2, "token": welcome["token"]}))
        await next_frame(ws, "welcome")
        update = await next_frame(ws, "update")
        assert update["at"] == at and update["connected"] == [True, True]
        await session.close()


@pytest.mark.slow
async def test_three_bad_frames_close_the_connection_and_a_flood_is_slowed_not_obeyed(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, host_kind="human") as (host, listener):
        session, ws, welcome, _update = await _seated(listener, host.code)
        assert host.session is not None
        before = host.session.store.record
        for _ in range(protocol.MAX_BAD_FRAMES):
            await ws.send_str("{")
        while (got := await receive_json(ws)) is not None:
            assert got["type"] == "error"
        assert ws.close_code == 1008
        await session.close()
        session, ws = await raw(listener)
        await ws.send_str(json.dumps({"type": "rejoin", "protocol": 2, "token": welcome["token"]}))
        await next_frame(ws, "update")
        stale = json.dumps({"type": "act", "at": 9999, "action": {"type": "bid", "player": 1, "tricks": 3}})
        for _ in range(1000):
            await ws.send_str(stale)
        # Meanwhile another connection is answered at once: the host is not stalled.
        other, ws2 = await raw(listener)
        await ws2.send_str(json.dumps({"type": "join", "protocol": 2, "code": "nope", "name": "z"}))
        assert (await receive_json(ws2)) == {"type": "error", "reason": "wrong code"}
        await other.close()
        errors = 0
        while errors < 1000:
            got = await receive_json(ws, timeout=60)
            assert got is not None and got["type"] == "error" and "stale" in got["reason"]
            errors += 1
        assert host.session.store.record == before
        await session.close()


async def test_a_silent_connection_is_closed_and_a_missing_nonce_counts_as_empty(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, hello_timeout=0.3, nonce_timeout=0.3) as (host, listener):
        session, ws = await raw(listener)
        got = await receive_json(ws)
        assert got is not None and "no join or rejoin" in got["reason"]
        assert await receive_json(ws) is None and ws.close_code == 1008
        await session.close()
        session, ws = await raw(listener)
        await ws.send_str(json.dumps({"type": "join", "protocol": 2, "code": host.code, "name": "Quiet"}))
        await next_frame(ws, "commit")
        told = await next_frame(ws, "error")  # no nonce sent: the client is told and the hand is dealt without it
        assert "no nonce came" in told["reason"]
        update = await next_frame(ws, "update")
        assert update["observation"]["hand_number"] == 1
        assert host.hands[1].nonces == (None, None)
        await session.close()


async def test_join_finds_no_table_or_a_web_page(tmp_path: Path) -> None:
    from tests.support.table import free_port

    client = TableClient(f"ws://127.0.0.1:{free_port()}/table", code="x")
    with pytest.raises(TableError, match="cannot reach"):
        await client.connect()
    app = web.Application()
    async def page(request: web.Request) -> web.Response:
        return web.Response(text="<html>hello</html>", content_type="text/html")

    app.router.add_get("/table", page)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        client = TableClient(f"ws://127.0.0.1:{port}/table", code="x")
        with pytest.raises(TableError, match="not a spades-tui table"):
            await client.connect()
    finally:
        await runner.cleanup()


async def test_a_connection_dropped_in_the_middle_of_a_frame_is_a_disconnect(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES, host_kind="human") as (host, listener):
        session, ws, welcome, update = await _seated(listener, host.code)
        assert host.connected == (True, True)
        # Half a frame: the header says 1000 bytes, 10 come, then the connection goes.
        transport = ws._response.connection.transport  # type: ignore[union-attr]
        transport.write(bytes([0x81, 0xFE, 0x03, 0xE8, 1, 2, 3, 4]) + b"0123456789")
        transport.abort()
        for _ in range(200):
            if host.connected == (True, False):
                break
            await asyncio.sleep(0.01)  # waiting for the host to notice, not timing it
        assert host.connected == (True, False)
        assert host.session is not None and HostSeat(host).view().connected == (True, False)  # the host's screen
        await session.close()
        session, ws = await raw(listener)
        await ws.send_str(json.dumps({"type": "rejoin", "protocol": 2, "token": welcome["token"]}))
        await next_frame(ws, "welcome")
        assert (await next_frame(ws, "update"))["at"] == update["at"]
        await session.close()


async def test_a_bad_token_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES) as (host, listener):
        session, ws = await raw(listener)
        await ws.send_str(json.dumps({"type": "rejoin", "protocol": 2, "token": "guess"}))
        got = await receive_json(ws)
        assert got is not None and "unknown seat token" in got["reason"]
        await session.close()
        # Any protocol but the JSON number 2 is refused, naming the version (issue 25: true and 2.0 were taken).
        for version in (1, True, 2.0, "2", None, 3):
            session, ws = await raw(listener)
            frame = {"type": "join", "code": host.code, "name": "Old"}
            if version is not None:
                frame["protocol"] = version
            await ws.send_str(json.dumps(frame))
            got = await receive_json(ws)
            assert got == {"type": "error", "reason": "this table speaks protocol 2; update spades-tui"}, version
            assert await receive_json(ws) is None and ws.close_code == 1008
            await session.close()
        assert host.token_hash is None and not host.connections.wrong  # nothing taken, no wrong code counted


def test_the_code_and_the_token_are_long_enough() -> None:
    import math

    code = protocol.new_code()
    assert len(code.replace("-", "")) * math.log2(31) >= 50
    assert len(protocol.new_token()) * 6 >= 128
    hostile = protocol.clean_name("\x1b[31mEvil\x07 [b]name[/b]\u202e" + "x" * 40)
    assert len(hostile) <= 16 and hostile.startswith("Evil") and all(ch.isprintable() for ch in hostile)
    assert protocol.clean_name(None, "Guest") == "Guest" and protocol.clean_name("\n\t", "Guest") == "Guest"


@pytest.mark.slow
async def test_a_table_whose_both_seats_are_clients(tmp_path: Path) -> None:
    """As 'spades-tui serve' holds one: the first seat comes with the owner's token, the friend with the code."""
    async with table(tmp_path, rules=RULES, host_kind=None, names=("Ann", "x")) as (host, listener):
        assert host.owner_token is not None and host.remotes == (0, 1)
        seat_file = tmp_path / "owner.json"
        from spades_tui.table.seat.seat_file import SeatFile

        seat_file.write_text(json.dumps(SeatFile(url_of(listener), host.owner_token, 0, ("Ann", "")).to_json()))
        owner = Recorder(url_of(listener), seat_file=seat_file)
        friend = Recorder(url_of(listener), code=host.code, name="Ben")
        first = asyncio.ensure_future(play_with_bot(owner))
        await owner.welcomed.wait()
        assert not host.started  # nothing is dealt before the friend sits down
        results = await asyncio.gather(first, play_with_bot(friend))
        assert results == [0, 0]
        for client, seat in ((owner, 0), (friend, 1)):
            over = next(f for f in client.frames if f["type"] == "over")
            check_frames(client.frames, seat, over["record"])
            assert all(problem is None for problem in client.verified.values())
        assert host.hands[1].nonces is not None and all(n is not None for n in host.hands[1].nonces)


async def test_wss_verifies_the_certificate_and_insecure_accepts_a_self_signed_one(tmp_path: Path) -> None:
    import shutil
    import subprocess

    from spades_tui.table.host.table import TableHost as Host
    from spades_tui.table.run import Listener, tls_context

    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a self-signed certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    host = Host(rules=RULES, host_kind="bot:easy")
    listener = Listener(host, "127.0.0.1", 0, tls_context(str(cert), str(key)))
    await listener.start()
    try:
        assert listener.invite.startswith("spades-tui join wss://127.0.0.1:")
        url = f"wss://127.0.0.1:{listener.port}/table"
        with pytest.raises(TableError, match="not trusted"):
            await TableClient(url, code=host.code).connect()
        assert host.token_hash is None  # refused before anything was sent
        assert await play_with_bot(TableClient(url, code=host.code, insecure=True)) == 0
    finally:
        await listener.stop()
        host.close()
