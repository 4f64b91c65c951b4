"""A host that stops at the game's end lets its last frames out first (table/host/connections.py ``drain``, called by
``run.Listener.stop``): ``host --bot`` and line mode's host once closed their sockets after a guessed 0.2 s, and on a
loaded machine a guest got the last update but not the last hand's reveal nor ``over`` (line mode then said "Shuffle
verified for 4 of 5 hands"; test_lines' join-and-watch test under load)."""

from __future__ import annotations

import asyncio
from typing import Any

from spades_tui.table.host.connections import Connections


class SlowSocket:
    """A connection whose every write takes a few turns of the loop (a loaded machine, a slow network)."""

    def __init__(self) -> None:
        self.closed = False
        self.sent: list[str] = []

    async def send_str(self, text: str) -> None:
        for _ in range(20):
            await asyncio.sleep(0)
        self.sent.append(text)


async def test_every_frame_made_before_the_stop_is_written_before_it_returns() -> None:
    connections = Connections((1,))
    seat, watcher = SlowSocket(), SlowSocket()
    sock: Any = seat
    connections.take(1, sock)
    watching: Any = watcher
    connections.watch(watching, "Wes")
    frames = [{"type": "update", "n": n} for n in range(30)] + [{"type": "reveal"}, {"type": "over"}]
    for frame in frames:
        connections.send(frame)
    assert len(seat.sent) < len(frames)  # nothing written yet: the writers have not run
    await connections.drain(bound=30)
    assert [text for text in seat.sent][-1].startswith('{"type":"over"')
    assert len(seat.sent) == len(frames) and len(watcher.sent) == 2  # a watcher is sent the reveal and the end


async def test_a_peer_that_reads_nothing_holds_the_stop_up_only_its_bound() -> None:
    class Stuck(SlowSocket):
        async def send_str(self, text: str) -> None:
            await asyncio.Event().wait()  # never read: the write never completes

    connections = Connections((1,))
    stuck: Any = Stuck()
    connections.take(1, stuck)
    connections.send({"type": "over"})
    loop = asyncio.get_running_loop()
    began = loop.time()
    await connections.drain(bound=0.2)
    assert loop.time() - began < 5  # bounded: returned at its bound, not when the peer read
