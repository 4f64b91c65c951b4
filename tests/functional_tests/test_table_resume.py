"""A table that loses its host (docs/table-protocol.md, Commands): resumed on the same port with the same code,
the client takes its seat back by itself, offers no choice while it is not connected, and asks again a
choice it had sent but not had answered.  Real sockets on 127.0.0.1, in this process."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.keep.slots import SlotDirectory
from spades_tui.table.host.table import TableHost
from spades_tui.table.run import Listener, bot_client
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.remote_seat import RemoteSeat
from tests.support.table import SHORT, url_of
from tests.support.wait import BOUND, until_async

RULES = Rules.from_json(SHORT)


@pytest.mark.slow
async def test_a_resumed_host_listens_where_it_was_and_the_client_comes_back_by_itself(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    host = TableHost(rules=RULES, names=("Hosty", "x"), host_kind="bot:easy", slots=slots)
    listener = Listener(host, None, 0)
    port = await listener.start()
    invite = listener.invite
    assert f"127.0.0.1:{port}" in invite and host.code in invite
    assert "Their invite:" in host.note() and invite in host.note()  # shown while the seat is empty
    client = TableClient(url_of(listener), code=host.code, name="Guesty", seat_file=tmp_path / "seat.json")
    err = io.StringIO()
    playing = asyncio.ensure_future(bot_client(client, "easy", out=io.StringIO(), err=err))
    await until_async(lambda: host.session is not None and host.session.actions >= 20, "the game got going")
    assert host.note() == "Guesty connected"
    # The host goes away (its socket closed, its slot kept): the client says so and offers nothing.
    await listener.stop()
    slot, record = host.slot, host.record
    host.slot = None
    host.close()
    assert slot is not None and record is not None
    await until_async(lambda: client.retry is not None, "the client tries again")
    view = client.view()
    assert view is not None and view.legal == () and view.connected == (False, False)
    # Resumed from its slot: the same place, the same code; the client is back and the game goes on.
    slot.release()
    slot, saved = slots.open_game(slot.path)
    resumed = TableHost(record=saved, slot=slot)
    assert resumed.code == host.code
    assert "Guesty disconnected" in resumed.note()
    again = Listener(resumed, None, 0)
    assert await again.start() == port and again.invite == invite and again.moved is None
    # Their code is used (a join with it is refused): the panel gives what takes them back, with no code.
    note = resumed.note()
    assert host.code not in note and f"They come back with:\nspades-tui join 127.0.0.1:{port}" in note
    assert resumed.events == []  # nobody came back yet: nobody is said to have joined
    try:
        assert await asyncio.wait_for(playing, BOUND) == 0
        assert "Guesty is back at the table." in resumed.events
        said = err.getvalue()
        assert "Lost the table" in said and "Back at the table." in said and "Game over:" in said
        assert resumed.session is not None and resumed.session.outcome is not None
    finally:
        await again.stop()
        resumed.close()


@pytest.mark.slow
async def test_a_port_taken_meanwhile_gives_a_new_invite_with_the_same_code(tmp_path: Path) -> None:
    slots = SlotDirectory(tmp_path / "games")
    host = TableHost(rules=RULES, names=("Hosty", "x"), host_kind="bot:easy", slots=slots)
    listener = Listener(host, None, 0)
    port = await listener.start()
    client = TableClient(url_of(listener), code=host.code, name="Guesty", seat_file=tmp_path / "seat.json")
    await client.connect()
    # The client listens, so it answers the commitment with its nonce and the hand is dealt at once (not after
    # the host's nonce timeout of 30 s, which this test is not about).
    listening = asyncio.ensure_future(client.listen())
    await until_async(lambda: host.session is not None, "the game began")
    await listener.stop()  # the host goes first: the client's listening ends with the connection
    await asyncio.wait_for(listening, BOUND)
    await client.stop()
    slot = host.slot
    host.slot = None
    host.close()
    assert slot is not None
    slot.release()
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1", port)  # somebody else has the port now
    try:
        slot, saved = slots.open_game(slot.path)
        resumed = TableHost(record=saved, slot=slot)
        moved = Listener(resumed, None, 0)
        new_port = await moved.start()
        assert new_port != port and moved.moved is not None
        assert resumed.code in moved.invite and f":{new_port} " in moved.invite
        # Kept on the host's screen until the friend is back: the new address with no code (theirs is used).
        assert resumed.note().endswith(f"They come back with:\nspades-tui join 127.0.0.1:{new_port}")
        await moved.stop()
        resumed.close()
    finally:
        blocker.close()
        await blocker.wait_closed()


@pytest.mark.slow
async def test_a_choice_sent_as_the_link_dropped_is_asked_again(tmp_path: Path) -> None:
    async with _human_guest_table(tmp_path) as (host, listener, remote):
        await until_async(lambda: remote.ready and bool(remote.view().legal), "the guest's first choice")
        view = remote.view()
        handle = host._handle
        got: list[dict[str, object]] = []
        host._handle = lambda data, seat: got.append(data)  # type: ignore[method-assign,assignment,return-value]
        assert remote.act(view.legal[0]) is None  # sent, and lost with the host (it never applies it)
        await until_async(lambda: bool(got), "the act reached the host")
        assert remote.view().legal == ()  # sent: waiting for the answer
        await listener.stop()  # the host goes away before it answered
        await until_async(lambda: not remote.client.link_up, "the link dropped")
        assert remote.view().legal == ()  # no choice offered while not connected
        assert "NOT CONNECTED" in remote.table_line()
        host._handle = handle  # type: ignore[method-assign]
        again = Listener(host, "127.0.0.1", listener.port)
        await again.start()
        try:
            await until_async(lambda: remote.client.link_up and bool(remote.view().legal), "asked again once back")
            assert remote.view().actions == view.actions  # the same decision, not lost
        finally:
            await again.stop()


class _human_guest_table:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    async def __aenter__(self) -> tuple[TableHost, Listener, RemoteSeat]:
        self.host = TableHost(rules=RULES, names=("Hosty", "x"), host_kind="bot:easy", slots=SlotDirectory(
            self.tmp / "games"), first=1)
        self.listener = Listener(self.host, "127.0.0.1", 0)
        await self.listener.start()
        client = TableClient(url_of(self.listener), code=self.host.code, name="Guesty",
                             seat_file=self.tmp / "seat.json")
        self.remote = RemoteSeat(client, hints=False)
        client.on_change = self.remote.changed
        self.saved_games = asyncio.ensure_future(client.keep())
        return self.host, self.listener, self.remote

    async def __aexit__(self, *exc: object) -> None:
        await self.remote.client.stop()
        self.saved_games.cancel()
        await self.listener.stop()
        self.host.close()
