"""``spades-tui serve --tables-only``: a server that holds tables and nothing else (docs/table-protocol.md,
"Meeting on a server"), for a small public box: no browser page, no game process per visitor.

Terminals open tables here (``host --server``, a ``create`` frame), sit at them (``join``) and watch
them (``watch``); the server plays no seat.  Each table's game is saved in its slot after every action
and a table not begun yet in its small file (table/pending.py), so a server started again on the same
data folder (after a kill -9 too) holds the same tables, with the same codes and tokens.
"""

from __future__ import annotations

import asyncio
import signal
import ssl
import sys
from pathlib import Path
from typing import Optional, TextIO

from aiohttp import web

from ..keep.slots import GAMES_DIR, SlotDirectory
from . import protocol as p
from .lobby import TableLobby


def tables_application(lobby: TableLobby) -> web.Application:
    app = web.Application()
    app.router.add_get(p.PATH, lobby.handle)

    async def front(_: web.Request) -> web.Response:
        return web.Response(text="spades-tui tables: open one with 'spades-tui host --server ADDR:PORT', sit at "
                                 "one with 'spades-tui join ADDR:PORT CODE', watch with 'spades-tui watch ADDR:PORT "
                                 "CODE'.\n")

    app.router.add_get("/", front)
    return app


async def serve_tables(data_dir: Path, address: str, port: int, *, tls: Optional[ssl.SSLContext] = None,
                       max_tables: int = 50, out: TextIO = sys.stdout,
                       stop: Optional[asyncio.Event] = None) -> int:
    """Serve the tables of ``data_dir`` until SIGINT or SIGTERM (or ``stop``); OSError if it cannot listen."""
    lobby = TableLobby(SlotDirectory(data_dir / GAMES_DIR), max_tables=max_tables)
    for line in lobby.restore():
        print(line, file=out, flush=True)
    runner = web.AppRunner(tables_application(lobby), access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, address, port, ssl_context=tls, reuse_address=True)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        lobby.close()
        raise
    scheme = "wss" if tls is not None else "ws"
    where = f"[{address}]" if ":" in address else address
    restored = len(lobby.tables)
    print(f"Tables are served on {scheme}://{where}:{port} ({restored} table{'s' if restored != 1 else ''} kept from "
          "before). Press Ctrl+C to stop; every table is saved after every action.", file=out, flush=True)
    done = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, done.set)
        except (NotImplementedError, RuntimeError):  # not on this platform: Ctrl+C ends asyncio.run instead
            pass
    try:
        await done.wait()
    finally:
        await runner.cleanup()
        lobby.close()
    return 0
