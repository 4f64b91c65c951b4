"""``spades-tui rename ADDR:PORT NAME``: take another name at a server, if no other player holds it (names are
compared cleaned and case-folded); your rating and games stay yours (docs/serving.md, "Rated play")."""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..i18n.language import _
from . import common


def configure(p: argparse.ArgumentParser) -> None:
    from .players import configure_server

    configure_server(p)
    p.add_argument("name", metavar=_("NAME"), help=_("the new name (at most 24 characters)"))


def run(ns: argparse.Namespace) -> int:
    from ..engine.text import printable
    from ..keep.autosave import default_data_dir
    from ..table.seat import rated as rc
    from .players import server_of

    url, where = server_of(ns.address, "rename")
    try:
        renamed = asyncio.run(rc.rename(default_data_dir(), where, url, ns.name, insecure=ns.insecure))
    except rc.RatedError as exc:
        print(f"spades-tui rename: {exc}", file=sys.stderr)
        return 1
    return common.print_or_quiet(_("You are {name} at {server} now.").format(name=printable(renamed.name),
                                                                         server=where))
