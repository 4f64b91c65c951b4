"""``spades-tui whoami ADDR:PORT [--json]``: who you are at a server: the id, the name, the rating and the games
(docs/serving.md, "Rated play").  Your key for that server is the file this prints the place of: copying it to
another machine's data folder moves the account there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

from ..i18n.language import _
from . import common


def configure(p: argparse.ArgumentParser) -> None:
    from .players import configure_server

    configure_server(p)
    p.add_argument("--json", action="store_true", help=_("print JSON instead of lines"))


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..keep.serverkeys import key_path
    from ..table.seat import rated as rc
    from .players import page_lines, server_of

    url, where = server_of(ns.address, "whoami")
    data_dir = default_data_dir()
    try:
        kept = rc.kept_key(data_dir, where)
        if kept is None:
            print(_("spades-tui whoami: you have no name at {server} yet: 'spades-tui quick {server} --name NAME' "
                    "registers you and finds you a game").format(server=where), file=sys.stderr)
            return 1
        page = asyncio.run(rc.page(url, key=kept.key, insecure=ns.insecure))
    except rc.RatedError as exc:
        print(f"spades-tui whoami: {exc}", file=sys.stderr)
        return 1
    path = key_path(data_dir, where)
    if ns.json:
        return common.print_or_quiet(json.dumps({**page.to_json(), "key_file": str(path)}, ensure_ascii=False))
    lines = [_("You are player {id} at {server}.").format(id=page.line.id, server=where),
             *page_lines(page, time.time()),
             _("Your key: {path} (copy it to move your account).").format(path=path)]
    return common.print_or_quiet("\n".join(lines))
