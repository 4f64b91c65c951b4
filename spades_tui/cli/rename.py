"""``spades-tui rename ADDR:PORT NAME``: take another name at a server, if no other player holds it (names are
compared cleaned and case-folded); your rating and games stay yours (docs/serving.md, "Rated play")."""

from __future__ import annotations

import argparse
import asyncio
import sys

from . import common


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar="ADDR:PORT", help="the server's address (wss://ADDR:PORT with TLS)")
    p.add_argument("name", metavar="NAME", help="the new name (at most 24 characters)")
    p.add_argument("--insecure", action="store_true",
                   help="with wss://, accept a certificate that is not trusted (a self-signed one you know)")


def run(ns: argparse.Namespace) -> int:
    from ..engine.text import printable
    from ..keep.autosave import default_data_dir
    from ..table.seat import rated as rc
    from ..table.seat.link import TableError, table_url

    try:
        url = table_url(ns.address)
    except TableError as exc:
        raise common.CliError(f"spades-tui rename: {exc}") from None
    where = url.removesuffix("/table").removeprefix("ws://")
    try:
        renamed = asyncio.run(rc.rename(default_data_dir(), where, url, ns.name, insecure=ns.insecure))
    except rc.RatedError as exc:
        print(f"spades-tui rename: {exc}", file=sys.stderr)
        return 1
    return common.print_or_quiet(f"You are {printable(renamed.name)} at {where} now.")
