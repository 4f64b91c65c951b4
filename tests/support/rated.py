"""Rated play in tests: a table server with its players in this process (127.0.0.x), raw first frames, and the
Glicko-2 paper's formulas for one game worked by hand (to check what the server rated against)."""

from __future__ import annotations

import contextlib
import json
import math
import secrets
from pathlib import Path
from typing import Any, AsyncIterator, Optional

import aiohttp

from spades_tui.keep.glicko import Rating
from spades_tui.keep.players import PlayerStore
from spades_tui.table.server.rated import RatedDesk
from spades_tui.table.server.tables import TableServer
from tests.support.table import receive_json, table_server
from tests.support.wait import BOUND


def one_game_by_hand(player: Rating, other: Rating, score: float) -> tuple[float, float]:
    """The paper's steps 2 to 8 for one game, the volatility left as it was (for one game between new players it
    moves by under 1e-5, which moves the rating by far less than the 0.01 compared): the rating and the RD."""
    mu, phi = (player.rating - 1500) / 173.7178, player.rd / 173.7178
    mu_j, phi_j = (other.rating - 1500) / 173.7178, other.rd / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g**2 * e * (1 - e))
    phi_star = math.sqrt(phi**2 + player.volatility**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    return 1500 + 173.7178 * (mu + phi_new**2 * g * (score - e)), 173.7178 * phi_new


@contextlib.asynccontextmanager
async def rated_server(tmp: Path, **desk: Any) -> AsyncIterator[tuple[TableServer, int]]:
    """A table server keeping players (``serve --tables-only``'s), its games and database under ``tmp``."""
    store = PlayerStore.open(tmp)
    rated = RatedDesk(store, **desk)
    try:
        async with table_server(tmp / "games", rated) as (lobby, port):
            yield lobby, port
    finally:
        rated.close()
        store.close()


@contextlib.asynccontextmanager
async def connection(port: int, source: str = "127.0.0.1") -> AsyncIterator[aiohttp.ClientWebSocketResponse]:
    """A raw connection to the server from ``source`` (another 127.0.0.x stands for another address)."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0))) as session:
        async with session.ws_connect(f"ws://127.0.0.1:{port}/table") as ws:
            yield ws


async def ask(port: int, frame: dict[str, Any], source: str = "127.0.0.1") -> dict[str, Any]:
    """One first frame and its one answer (an ``error`` too)."""
    async with connection(port, source) as ws:
        await ws.send_str(json.dumps({"protocol": 2, **frame}))
        answer = await receive_json(ws)
    assert answer is not None, f"no answer to {frame}"
    return answer


async def register(port: int, name: str, source: str = "127.0.0.1") -> tuple[int, str]:
    answer = await ask(port, {"type": "register", "name": name}, source)
    assert answer["type"] == "registered", answer
    return answer["player"], answer["key"]


async def until_begun(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """A seat's frames answered with a nonce for each commit until the game's first update: the welcome."""
    welcome: Optional[dict[str, Any]] = None
    while True:
        frame = await receive_json(ws, BOUND)
        assert frame is not None, "closed before the game began"
        if frame["type"] == "welcome":
            welcome = frame
        elif frame["type"] == "commit":
            await ws.send_str(json.dumps({"type": "nonce", "hand": frame["hand"], "nonce": secrets.token_hex(32)}))
        elif frame["type"] == "update" and frame.get("observation") is not None and welcome is not None:
            return welcome
