"""``spades-tui quick ADDR:PORT [--name N] [--bot LEVEL] [--lines]``: play a stranger of your strength at a server,
rated (docs/serving.md, "Rated play").  The first time at a server it registers you there (``--name``, else the
settings' name) and keeps your key in the data folder; then it seeks a game, and the server seats you at a rated
table as soon as it pairs you.  In this terminal (in lines with ``--lines``), or with ``--bot LEVEL`` a built-in
bot plays your seat with no screen (as ``join --bot``: one line per event on standard error, the result on
standard output).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys

from ..i18n.language import _
from . import common
from .play import interface_options


def configure(p: argparse.ArgumentParser) -> None:
    from .players import configure_server

    configure_server(p)
    p.add_argument("--name", default=None, metavar=_("NAME"),
                   help=_("the name to register the first time at this server (default: the settings' name)"))
    p.add_argument("--bot", choices=common.BOT_LEVELS, metavar=_("LEVEL"), default=None,
                   help=_("a built-in bot plays your seat, with no screen (rated as you)"))
    interface_options(p)  # --lines: the rated game in line mode (docs/playing.md, "Line mode")


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..settings.preferences import user_preferences
    from ..table.run import bot_client
    from ..table.seat import rated as rc
    from ..table.seat.client import TableClient
    from ..table.seat.link import TableError
    from ..table.seat.seat_file import seat_path
    from .players import server_of

    url, where = server_of(ns.address, "quick")
    data_dir = default_data_dir()
    prefs = user_preferences()
    name = ns.name if ns.name is not None else prefs.player_name
    try:
        kept = asyncio.run(rc.register(data_dir, where, url, name, insecure=ns.insecure))
    except rc.RatedError as exc:
        print(f"spades-tui quick: {exc}", file=sys.stderr)
        return 1
    if ns.name is not None and kept.name.casefold() != ns.name.strip().casefold():
        print(_("spades-tui quick: you are {name} at {server} (your key says so); 'spades-tui rename {server} NAME' "
                "takes another name").format(name=kept.name, server=where), file=sys.stderr)
    path = seat_path(data_dir, url, "quick-" + secrets.token_hex(6))  # the table's code comes with the welcome
    client = TableClient(url, name=kept.name, seat_file=path, insecure=ns.insecure, key=kept.key, quick=True)
    if ns.bot is None:
        return common.play_table(client, ns)  # in line mode (--lines, or the setting) or on the full screen
    try:
        return asyncio.run(bot_client(client, ns.bot))
    except TableError as exc:
        print(f"spades-tui quick: {exc}", file=sys.stderr)
        return 1
