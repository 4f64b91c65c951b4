"""``spades-tui host``: open a network table (docs/table-protocol.md) and play one seat of it.

With ``--bot LEVEL`` the seat is the bot's and there is no screen: the first line on standard
output is the invite, and the process ends with the game.  Otherwise the game opens in this
terminal and shows the invite until the friend sits down.  aiohttp loads only when it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Optional

from ..i18n.language import _
from . import common
from .play import interface_options
from .serve import port_number


def any_port(text: str) -> int:
    return 0 if text.strip() == "0" else port_number(text)


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = _("Where the invite works: the table listens on 127.0.0.1 by default, which is this computer, so its "
                 "invite works only in another terminal on this machine. For a friend on another machine: --host "
                 "0.0.0.0 listens on your network too (anyone on it who has the code may sit down); --server "
                 "ADDR:PORT opens the table at a 'spades-tui serve --tables-only' both of you reach; or keep 127.0.0.1 "
                 "and let your friend come through an ssh tunnel (ssh -N -L PORT:127.0.0.1:PORT you@this-machine, "
                 "then 'spades-tui join 127.0.0.1:PORT CODE' there). The table's screen offers the same choices.")
    p.add_argument("--host", default=None, metavar=_("HOST"),
                   help=_("address to listen on (default 127.0.0.1: this machine only, so a friend on another "
                          "machine needs --host 0.0.0.0 on your network, --server, or an ssh tunnel; resumed: where it "
                          "was)"))
    p.add_argument("--port", type=any_port, default=0, metavar=_("PORT"),
                   help=_("port to listen on (default 0: any free port; resumed: the port it had)"))
    p.add_argument("--name", default=None, metavar=_("NAME"),
                   help=_("your name at the table (default: the settings' name)"))
    p.add_argument("--rules", type=common.rules, metavar=common.rules_metavar(), help=common.rules_help())
    p.add_argument("--first", choices=("host", "guest"), default=None,
                   help=_("who drafts first in hand 1 (default: a cut neither player can choose)"))
    p.add_argument("--bot", choices=common.BOT_LEVELS, metavar=_("LEVEL"), default=None,
                   help=_("a built-in bot plays your seat, with no screen: the invite is the first line printed"))
    p.add_argument("--resume", action="store_true", help=_("continue the last unfinished table game saved here"))
    p.add_argument("--server", metavar=_("ADDR:PORT"), default=None,
                   help=_("open the table at a 'spades-tui serve' there (wss://ADDR:PORT with TLS) and sit at it, "
                          "rather than listening here: only the server needs an address both players reach"))
    p.add_argument("--public", action="store_true",
                   help=_("with --server: list the table in the server's lobby, where anyone may sit at its empty "
                          "seat or watch it ('spades-tui lobby ADDR:PORT')"))
    p.add_argument("--rated", action="store_true",
                   help=_("with --server: a rated table, in the lobby, under the standard rules, for another "
                          "registered player (registers you at that server the first time, as 'quick' does)"))
    p.add_argument("--insecure", action="store_true",
                   help=_("with --server wss://, accept a certificate that is not trusted (a self-signed one you "
                          "know)"))
    p.add_argument("--cert", metavar=_("FILE"), help=_("TLS certificate: the table is served as wss://"))
    p.add_argument("--key", metavar=_("FILE"), help=_("the certificate's private key"))
    interface_options(p)


def _resume(data_dir: object) -> tuple[object, object]:
    from ..engine.record import is_table_game
    from ..keep.meta import TableMeta
    from ..keep.slots import GAMES_DIR, SlotDirectory
    from ..keep.storage import StorageError

    slots = SlotDirectory(Path(str(data_dir)) / GAMES_DIR)
    for game in slots.scan().games:
        if game.finished or game.held_elsewhere or not is_table_game(game.players):
            continue  # not a table's game, or a served table (both seats were browser tabs)
        try:
            slot, record = slots.open_game(game.path)
        except StorageError:
            continue
        if TableMeta.of(record) is None:
            slot.release()
            continue
        return slot, record
    raise common.CliError(_("spades-tui host: no unfinished table game to resume here"))


def run(ns: argparse.Namespace) -> int:
    from ..engine.record import bot_kind
    from ..keep.autosave import default_data_dir
    from ..settings.preferences import user_preferences
    from ..table import run as table_run
    from ..table.host.table import TableHost

    if (ns.cert is None) != (ns.key is None):
        raise common.CliError(_("spades-tui host: --cert and --key go together"))
    try:
        tls = table_run.tls_context(ns.cert, ns.key)
    except (OSError, ValueError) as exc:
        raise common.CliError(_("spades-tui host: cannot use that certificate: {why}").format(why=exc)) from None
    warning = table_run.host_warning(ns.host or "127.0.0.1")
    if warning is not None:
        print(warning, file=sys.stderr)
    data_dir = default_data_dir()
    prefs = user_preferences()
    from ..table.wire.protocol import clean_name, table_name

    name = ns.name if ns.name is not None else (f"Bot ({ns.bot})" if ns.bot else table_name(prefs.player_name, "Host"))

    first: Optional[int] = None if ns.first is None else (0 if ns.first == "host" else 1)
    if ns.public and ns.server is None:
        raise common.CliError(_("spades-tui host: --public lists a table in a server's lobby: it goes with --server"))
    if ns.rated and (ns.server is None or ns.rules is not None or ns.first is not None):
        raise common.CliError(_("spades-tui host: --rated opens a rated table at a server (--server), under the "
                                "standard rules and a cut for who drafts first: no --rules or --first with it"))
    if ns.server is not None:
        return _at_server(ns, data_dir, clean_name(name, "Host"), ns.rules or prefs.rules, first)
    if ns.bot is None and common.lines_wanted(ns, prefs):
        return _host_lines(ns, data_dir, dict(address=ns.host, port=ns.port, tls=tls, name=clean_name(name, "Host"),
                                              rules=ns.rules or prefs.rules, first=first))
    if ns.bot is None:
        from ..tui.app.launch import run_table_app  # Textual loads only here
        from ..tui.app.startup import HostTable

        return run_table_app(HostTable(dict(address=ns.host, port=ns.port, tls=tls, name=clean_name(name, "Host"),
                                            rules=ns.rules or prefs.rules, first=first, resume=ns.resume)))
    from ..keep.slots import GAMES_DIR, SlotDirectory

    if ns.resume:
        slot, record = _resume(data_dir)
        players = getattr(record, "players", None)
        if players is None or not any(p.bot_spec is not None for p in players):
            slot.release()  # type: ignore[attr-defined]
            raise common.CliError(_("spades-tui host: the table game saved here was played on a screen: resume it "
                                    "with 'spades-tui host --resume' (without --bot)"))
        host = TableHost(record=record, slot=slot)  # type: ignore[arg-type]
    else:
        host = TableHost(rules=ns.rules or prefs.rules, first=first, names=(clean_name(name, "Host"), "Guest"),
                         host_kind=bot_kind(ns.bot), slots=SlotDirectory(data_dir / GAMES_DIR))
    try:
        from ..tui.reach import host_notes  # words only: no Textual

        notes = lambda listener: host_notes(listener.address, listener.port, host.code)  # noqa: E731
        return asyncio.run(table_run.headless_host(host, ns.host, ns.port, tls, notes=notes))
    except OSError as exc:
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise common.CliError(_("spades-tui host: cannot listen on {address} port {port}: {why}").format(
            address=ns.host or "127.0.0.1", port=ns.port, why=why)) from None


def _host_lines(ns: argparse.Namespace, data_dir: object, options: dict[str, object]) -> int:
    """``host --lines``: the table opened here, the host's seat played in lines (lines/table.py)."""
    import functools

    from ..lines.launch import run_lines_table
    from ..lines.table import host_table

    record = slot = None
    if ns.resume:
        slot, record = _resume(data_dir)
    return run_lines_table(functools.partial(host_table, options=options, record=record, slot=slot),
                           words=ns.words, color=ns.color)


def _at_server(ns: argparse.Namespace, data_dir: object, name: str, rules: object, first: Optional[int]) -> int:
    """``host --server``: a ``create`` frame opens the table there; this seat is its seat 0, a client."""
    import secrets
    from pathlib import Path

    from ..table.run import bot_client
    from ..table.seat.client import TableClient
    from ..table.seat.link import TableError, table_url
    from ..table.seat.seat_file import seat_path

    if ns.resume or ns.cert or ns.port:
        raise common.CliError(_("spades-tui host: --server opens a table at that server: --resume, --port and "
                                "--cert are for a table listening here (take a server's seat back with 'spades-tui "
                                "join')"))
    try:
        url = table_url(ns.server)
    except TableError as exc:
        raise common.CliError(f"spades-tui host: {exc}") from None
    path = seat_path(Path(str(data_dir)), url, "new-" + secrets.token_hex(6))  # its code comes with the welcome
    key: Optional[str] = None
    if ns.rated:  # a rated table's seat is a registered player's: this player's key there, registered if need be
        from ..table.seat import rated as rc

        where = url.removesuffix("/table").removeprefix("ws://")
        try:
            kept = asyncio.run(rc.register(Path(str(data_dir)), where, url, name, insecure=ns.insecure))
        except rc.RatedError as exc:
            print(f"spades-tui host: {exc}", file=sys.stderr)
            return 1
        name, key = kept.name, kept.key
    client = TableClient(url, name=name, seat_file=path, insecure=ns.insecure, create=(rules, first),  # type: ignore[arg-type]
                         public=ns.public or ns.rated, key=key, rated=ns.rated)
    if ns.bot is None:
        return common.play_table(client, ns)
    try:
        return asyncio.run(bot_client(client, ns.bot))
    except TableError as exc:
        print(f"spades-tui host: {exc}", file=sys.stderr)
        return 1
