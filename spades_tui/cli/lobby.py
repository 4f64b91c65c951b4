"""``spades-tui lobby ADDR:PORT``: the public tables of a server (docs/table-protocol.md, "Public tables and
the lobby"), one line each with the command that sits down at it (a table waiting for a player) or watches
it (a table in play).  Every name in the list is the server's, cleaned before it is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..i18n.language import _
from . import common


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar=_("ADDR:PORT"), help=_("the server's address (wss://ADDR:PORT with TLS)"))
    p.add_argument("--insecure", action="store_true",
                   help=_("with wss://, accept a certificate that is not trusted (a self-signed one you know)"))


def lines(address: str, listed: list[object]) -> list[str]:
    """The list as printed: a line per table, and under it the command for it."""
    from ..table.seat.finder import ListedTable

    out: list[str] = []
    for table in listed:
        assert isinstance(table, ListedTable)
        out.append(table.line())
        out.append(f"    spades-tui join {address} {table.code}" if table.code is not None else
                   f"    spades-tui watch {address} {table.watch}")
    return out or [_("No public table here now: open one with 'spades-tui host --server ADDR:PORT --public'.")]


def run(ns: argparse.Namespace) -> int:
    from ..table.seat.finder import Lobby, LobbyError
    from ..table.seat.link import TableError, table_url

    try:
        url = table_url(ns.address)
    except TableError as exc:
        raise common.CliError(f"spades-tui lobby: {exc}") from None
    where = url.removesuffix("/table").removeprefix("ws://")

    async def listing() -> list[object]:
        lobby = Lobby(url, insecure=ns.insecure)
        try:
            return list(await lobby.connect())
        finally:
            await lobby.close()

    try:
        found = asyncio.run(listing())
    except LobbyError as exc:
        print(f"spades-tui lobby: {exc}", file=sys.stderr)
        return 1
    return common.print_or_quiet("\n".join(lines(where, found)))
