"""``spades-tui challenge --server ADDR:PORT [--bot LEVEL] [--json]`` and ``... --standings [DATE] [--json]``: the
day's challenge at a server, against the field (docs/commands.md, "challenge"; docs/serving.md, "The day's
challenge").

The first time at a server it registers you there under the settings' name (as ``quick`` does) and keeps your key;
your first finished challenge of the day is your entry, any later one practice (a refused registration too).  In
this terminal (in lines with ``--lines``), or with ``--bot LEVEL`` a built-in bot plays your seat with no screen;
then the standings, your line marked.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import secrets
import sys
from typing import TYPE_CHECKING, Any, Optional

from ..i18n.language import _
from . import common

if TYPE_CHECKING:
    from ..session.field import FieldView


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..settings.preferences import user_preferences
    from ..table.run import bot_client
    from ..table.seat import rated as rc
    from ..table.seat.client import TableClient
    from ..table.seat.link import TableError
    from ..table.seat.seat_file import seat_path
    from .players import server_of

    if ns.code is not None:
        raise common.CliError(_("spades-tui challenge: --server plays the server's challenge of today (UTC); it takes "
                                "no DATE (--standings DATE lists another day's)"))
    if ns.iters is not None or ns.history:
        raise common.CliError(_("spades-tui challenge: --server goes with --bot, --json and --standings only"))
    url, where = server_of(ns.server, "challenge")
    data_dir = default_data_dir()
    kept = rc.kept_key(data_dir, where)
    if ns.standings is not None:
        return _standings(url, ns.standings or None, kept.key if kept is not None else None, ns)
    if ns.json and ns.bot is None:
        raise common.CliError(_("spades-tui challenge: --json goes with --bot or --standings (a person's play is a "
                                "game)"))
    from ..table.wire.protocol import table_name

    prefs = user_preferences()
    if kept is None:  # the first time at this server: registered under the settings' name, as quick play does
        try:
            kept = asyncio.run(rc.register(data_dir, where, url, table_name(prefs.player_name, "Player"),
                                           insecure=ns.insecure))
        except rc.RatedError as exc:
            print(_("spades-tui challenge: you could not be registered at {server} ({why}): this is practice, not an "
                    "entry (another name in the settings, then try again)").format(server=where, why=exc),
                  file=sys.stderr)
    from ..tui.fieldmodel import standings_words

    client = TableClient(url, name=kept.name if kept is not None else table_name(prefs.player_name, "Guest"),
                         seat_file=seat_path(data_dir, url, "challenge-" + secrets.token_hex(6)),
                         insecure=ns.insecure, key=kept.key if kept is not None else None, challenge=True)
    if ns.bot is None:
        return common.play_table(client, ns)  # in line mode (--lines, or the setting) or on the full screen
    try:
        status = asyncio.run(bot_client(client, ns.bot, out=sys.stderr if ns.json else sys.stdout))
    except TableError as exc:
        print(f"spades-tui challenge: {exc}", file=sys.stderr)
        return 1
    found = client.standings
    if found is None:
        print(_("spades-tui challenge: the server sent no standings"), file=sys.stderr)
        return 1
    if ns.json:
        common.print_or_quiet(json.dumps({**_json(found), "verified": status == 0}))
    else:
        common.print_or_quiet("\n".join(standings_words(found, where)))
    return status


def _standings(url: str, date: Optional[str], key: Optional[str], ns: argparse.Namespace) -> int:
    from ..table.seat import rated as rc
    from ..table.wire import frames as f
    from ..tui.fieldmodel import standings_words

    frame: dict[str, Any] = {"type": "standings", **({"date": date} if date else {}), **({"key": key} if key else {})}
    try:
        answer = f.standings(asyncio.run(rc.ask(url, frame, "standings", insecure=ns.insecure)))
    except rc.RatedError as exc:
        print(f"spades-tui challenge: {exc}", file=sys.stderr)
        return 1
    except f.FrameError as exc:
        print(_("spades-tui challenge: the server's standings cannot be read ({why})").format(why=exc), file=sys.stderr)
        return 1
    if ns.json:
        return common.print_or_quiet(json.dumps(_json(answer)))
    return common.print_or_quiet("\n".join(standings_words(answer, ns.server)))


def _json(found: FieldView) -> dict[str, Any]:
    return dataclasses.asdict(found)
