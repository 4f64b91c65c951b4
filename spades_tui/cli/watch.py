"""``spades-tui watch ADDR:PORT WATCHCODE``: watch a network table (docs/table-protocol.md, "Watching").

A watcher sees the public view only (no hand, no drawn card, no discard), the reveals and the end,
and reads what the seats say.  In this terminal, or with ``--lines`` one line per event on standard
error and nothing else (a headless log of a table).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from . import common


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar="ADDR:PORT", help="the table's address (wss://ADDR:PORT with TLS)")
    p.add_argument("code", metavar="WATCHCODE", help="the table's watch code (shown beside its invite)")
    p.add_argument("--name", default=None, help="your name as a watcher (default: the settings' name)")
    p.add_argument("--lines", action="store_true", help="no screen: one line per event on standard error")
    p.add_argument("--insecure", action="store_true",
                   help="with wss://, accept a certificate that is not trusted (a self-signed one you know)")


async def watch_lines(client: object) -> int:
    """The headless watcher: the events and lines said, until the game is over."""
    from ..table.run import line_out
    from ..table.seat.client import TableClient

    assert isinstance(client, TableClient)
    changed = asyncio.Event()
    client.on_change = changed.set
    await client.connect()
    keeping = asyncio.ensure_future(client.keep())
    told = chat = 0
    try:
        while not keeping.done() or changed.is_set():
            waiter = asyncio.ensure_future(changed.wait())
            await asyncio.wait([keeping, waiter], return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            changed.clear()
            lines, told = client.talk.events_since(told)
            for line in lines:
                line_out(line, sys.stderr)
            said, chat = client.talk.chat_since(chat)
            for name, line in said:
                line_out(f"{name}: {line}", sys.stderr)
            if client.outcome is not None:
                break
    finally:
        await client.stop()
        keeping.cancel()
    return 0 if client.outcome is not None else 1


def run(ns: argparse.Namespace) -> int:
    from ..settings.preferences import default_config_dir
    from ..settings.preferences import load as load_preferences
    from ..table.seat.client import TableClient
    from ..table.seat.link import TableError, table_url
    from ..table.wire.protocol import table_name

    try:
        url = table_url(ns.address)
    except TableError as exc:
        raise common.CliError(f"spades-tui watch: {exc}") from None
    prefs, _ = load_preferences(default_config_dir() / "preferences.toml")
    name = ns.name if ns.name is not None else table_name(prefs.player_name, "Watcher")
    client = TableClient(url, name=name, insecure=ns.insecure, watch=ns.code)
    if not ns.lines:
        from ..tui.app.launch import run_table_app  # Textual loads only here
        from ..tui.app.startup import JoinTable

        return run_table_app(JoinTable(client))
    try:
        return asyncio.run(watch_lines(client))
    except TableError as exc:
        print(f"spades-tui watch: {exc}", file=sys.stderr)
        return 1
