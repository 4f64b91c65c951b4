"""``spades-tui join ADDR:PORT CODE``: sit at a friend's network table (docs/table-protocol.md).

In this terminal, or with ``--bot LEVEL`` a built-in bot plays the seat with no screen (it prints
the result).  Without a code the seat saved for that address (or the last one) is taken back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from ..i18n.language import _
from . import common
from .play import interface_options


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", nargs="?", metavar=_("ADDR:PORT"),
                   help=_("the table's address (wss://ADDR:PORT with TLS)"))
    p.add_argument("code", nargs="?", metavar=_("CODE"), help=_("the invite's code (left out: take back your seat)"))
    p.add_argument("--name", default=None, metavar=_("NAME"),
                   help=_("your name at the table (default: the settings' name)"))
    p.add_argument("--bot", choices=common.BOT_LEVELS, metavar=_("LEVEL"), default=None,
                   help=_("a built-in bot plays the seat, with no screen"))
    p.add_argument("--insecure", action="store_true",
                   help=_("with wss://, accept a certificate that is not trusted (a self-signed one you know)"))
    interface_options(p)


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..keep.storage import StorageError, atomic_write_text, private_dir
    from ..settings.preferences import user_preferences
    from ..table.run import bot_client
    from ..table.seat.client import TableClient
    from ..table.seat.link import TableError, table_url
    from ..table.seat.seat_file import saved_seats, seat_at, seat_path

    data_dir = default_data_dir()
    try:
        if ns.address is None:
            seats = saved_seats(data_dir)
            if not seats:
                raise common.CliError(_("spades-tui join: no seat to go back to: give the invite's ADDR:PORT CODE"))
            url = max(seats, key=lambda s: s[0].stat().st_mtime)[1].url
        else:
            url = table_url(ns.address)
    except TableError as exc:
        raise common.CliError(f"spades-tui join: {exc}") from None
    path = seat_path(data_dir, url, ns.code) if ns.code is not None else (seat_at(data_dir, url)
                                                                         or seat_path(data_dir, url))
    if ns.code is None and not path.exists():
        # The host came back on another address or port: the latest seat's token goes there.
        seats = saved_seats(data_dir)
        if not seats:
            raise common.CliError(_("spades-tui join: no seat saved for {address}: give the invite's CODE").format(
                address=url))
        latest = max(seats, key=lambda s: s[0].stat().st_mtime)[1]
        latest.url = url
        try:
            private_dir(path.parent)
            atomic_write_text(path, json.dumps(latest.to_json()))
        except (OSError, StorageError) as exc:
            raise common.CliError(_("spades-tui join: cannot keep the seat: {why}").format(why=exc)) from None
    prefs = user_preferences()
    from ..table.wire.protocol import table_name

    name = ns.name if ns.name is not None else (f"Bot ({ns.bot})" if ns.bot else table_name(prefs.player_name, "Guest"))
    # At a rated table the seat is a registered player's: this player's key for that server goes with the join.
    from ..table.seat.rated import RatedError, kept_key

    try:
        kept = kept_key(data_dir, url.removesuffix("/table").removeprefix("ws://")) if ns.code is not None else None
    except RatedError as exc:
        raise common.CliError(f"spades-tui join: {exc}") from None
    client = TableClient(url, code=ns.code, name=name, seat_file=path, insecure=ns.insecure,
                         key=kept.key if kept is not None else None)
    if ns.bot is None:
        return common.play_table(client, ns)
    try:
        return asyncio.run(bot_client(client, ns.bot))
    except TableError as exc:
        print(f"spades-tui join: {exc}", file=sys.stderr)
        return 1
