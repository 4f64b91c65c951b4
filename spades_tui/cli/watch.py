"""``spades-tui watch ADDR:PORT WATCHCODE``: watch a network table (docs/table-protocol.md, "Watching").

A watcher sees the public view only (no hand, no drawn card, no discard), the reveals and the end,
and reads what the seats say.  In this terminal, or with ``--lines`` in line mode: one line per event on
standard output (lines/table.py), a log of the table that a screen reader reads too.
"""

from __future__ import annotations

import argparse

from ..i18n.language import _
from . import common
from .play import interface_options


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar=_("ADDR:PORT"), help=_("the table's address (wss://ADDR:PORT with TLS)"))
    p.add_argument("code", metavar=_("WATCHCODE"), help=_("the table's watch code (shown beside its invite)"))
    p.add_argument("--name", default=None, metavar=_("NAME"),
                   help=_("your name as a watcher (default: the settings' name)"))
    p.add_argument("--insecure", action="store_true",
                   help=_("with wss://, accept a certificate that is not trusted (a self-signed one you know)"))
    interface_options(p)


def run(ns: argparse.Namespace) -> int:
    from ..settings.preferences import user_preferences
    from ..table.seat.client import TableClient
    from ..table.seat.link import TableError, table_url
    from ..table.wire.protocol import table_name

    try:
        url = table_url(ns.address)
    except TableError as exc:
        raise common.CliError(f"spades-tui watch: {exc}") from None
    prefs = user_preferences()
    name = ns.name if ns.name is not None else table_name(prefs.player_name, "Watcher")
    client = TableClient(url, name=name, insecure=ns.insecure, watch=ns.code)
    return common.play_table(client, ns)
