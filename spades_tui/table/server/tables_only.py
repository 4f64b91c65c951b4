"""``spades-tui serve --tables-only``: a server that holds tables and nothing else (docs/table-protocol.md,
"Meeting on a server"), for a small public box: no browser page, no game process per visitor.

Terminals open tables here (``host --server``, a ``create`` frame), sit at them (``join``) and watch
them (``watch``); the server plays no seat.  Each table's game is saved in its slot after every action
and a table not begun yet in its small file (table/server/pending.py), so a server started again on the same
data folder (after a kill -9 too) holds the same tables, with the same codes and tokens.
"""

from __future__ import annotations

import asyncio
import signal
import ssl
import sys
from dataclasses import replace
from pathlib import Path
from typing import Optional, TextIO

from aiohttp import web

from ...i18n.language import ngettext
from ...keep.field import server_secret
from ...keep.players import MAX_PLAYERS, PlayerStore
from ...keep.slots import GAMES_DIR, SlotDirectory
from ...session.challenge import ITERATIONS
from ..wire import protocol as p
from ..wire.guard import TOTAL, Limits, quiet_failures, serve_until_stopped
from .challenge import CHALLENGE_GAMES, WORKERS, ChallengeDesk
from .rated import CLAIM_AFTER, RatedDesk
from .tables import MAX_TABLES, TableServer, keep_private


def tables_application(lobby: TableServer) -> web.Application:
    app = web.Application()
    app.router.add_get(p.PATH, lobby.handle)

    async def front(_: web.Request) -> web.Response:
        return web.Response(text="spades-tui tables: open one with 'spades-tui host --server ADDR:PORT', sit at "
                                 "one with 'spades-tui join ADDR:PORT CODE', watch with 'spades-tui watch ADDR:PORT "
                                 "CODE', list the public ones with 'spades-tui lobby ADDR:PORT'.\n")

    app.router.add_get("/", front)
    lobby.attach(app)
    return app


BESIDE_SEATS = 128  # connections beyond two seats a table: lobby lists, watchers, tables being opened


def room_for(max_tables: int) -> Limits:
    """The guard's limits for a server of ``max_tables``: room for every table's two seats at once and
    ``BESIDE_SEATS`` more (256 in all at least; the descriptor limit may lower it: ``Limits.within_descriptors``).
    256 alone left 200 tables in play 144 connections short: the last friends to sit down got a 503."""
    return Limits(total=max(TOTAL, 2 * max_tables + BESIDE_SEATS))


async def serve_tables(data_dir: Path, address: str, port: int, *, tls: Optional[ssl.SSLContext] = None,
                       max_tables: int = MAX_TABLES, trust_proxy: bool = False, out: TextIO = sys.stdout,
                       stop: Optional[asyncio.Event] = None, limits: Optional[Limits] = None,
                       max_players: int = MAX_PLAYERS, claim_after: float = CLAIM_AFTER,
                       challenge_workers: int = WORKERS, challenge_iters: int = ITERATIONS) -> int:
    """Serve the tables of ``data_dir`` until SIGINT or SIGTERM (or ``stop``); OSError if it cannot listen.

    The same guard as the browser's ``serve`` (table/wire/guard.py: the request deadline, the connection caps
    with a plain 503, failures said at most once a second) and the lobby's own limits (table/server/tables.py)."""
    loop = asyncio.get_running_loop()
    quiet_failures("spades-tui serve", loop=loop)
    keep_private(data_dir)
    store = PlayerStore.open(data_dir)  # PlayersError (said by the command) if it is damaged: nothing starts
    desk = RatedDesk(store, max_players=max_players, claim_after=claim_after)
    lobby = TableServer(SlotDirectory(data_dir / GAMES_DIR), max_tables=max_tables, trust_proxy=trust_proxy,
                        desk=desk)
    try:  # the day's challenge: FieldError (said by the command) if the server's secret is damaged
        challenges = ChallengeDesk(desk, server_secret(data_dir), SlotDirectory(data_dir / CHALLENGE_GAMES),
                                   workers=challenge_workers, iterations=challenge_iters)
        for line in challenges.restore():
            print(line, file=out, flush=True)
    except BaseException:
        store.close()
        raise
    for line in lobby.restore():
        print(line, file=out, flush=True)
    scheme = "wss" if tls is not None else "ws"
    where = f"[{address}]" if ":" in address else address

    def announce(name: str) -> None:
        restored = len(lobby.tables)
        listened = name.rstrip("/").rsplit(":", 1)[-1]  # the port listened on (a free one, for port 0)
        print(ngettext("Tables are served on {address} ({count} table kept from before). Press Ctrl+C to stop; every "
                       "table is saved after every action.", "Tables are served on {address} ({count} tables kept from "
                       "before). Press Ctrl+C to stop; every table is saved after every action.", restored).format(
                           address=f"{scheme}://{where}:{listened}", count=restored), file=out, flush=True)

    async def application() -> web.Application:
        return tables_application(lobby)

    done = stop or asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, done.set)
        except (NotImplementedError, RuntimeError):  # not on this platform: Ctrl+C ends asyncio.run instead
            pass
    try:
        await serve_until_stopped(application(), address, port,
                                  limits=replace(limits or room_for(max_tables), trust_proxy=trust_proxy), stopped=done,
                                  announce=announce, shutdown_timeout=1.0, ssl_context=tls)
    finally:
        lobby.close()
        challenges.close()
        desk.close()
        store.close()  # each rated result was one transaction
    return 0
