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

from . import common


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar="ADDR:PORT", help="the server's address (wss://ADDR:PORT with TLS)")
    p.add_argument("--json", action="store_true", help="print JSON instead of lines")
    p.add_argument("--insecure", action="store_true",
                   help="with wss://, accept a certificate that is not trusted (a self-signed one you know)")


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..keep.serverkeys import key_path
    from ..table.seat import rated as rc
    from ..table.seat.link import TableError, table_url
    from .players import page_lines

    try:
        url = table_url(ns.address)
    except TableError as exc:
        raise common.CliError(f"spades-tui whoami: {exc}") from None
    where = url.removesuffix("/table").removeprefix("ws://")
    data_dir = default_data_dir()
    try:
        kept = rc.kept_key(data_dir, where)
        if kept is None:
            print(f"spades-tui whoami: you have no name at {where} yet: 'spades-tui quick {where} --name NAME' "
                  "registers you and finds you a game", file=sys.stderr)
            return 1
        page = asyncio.run(rc.page(url, key=kept.key, insecure=ns.insecure))
    except rc.RatedError as exc:
        print(f"spades-tui whoami: {exc}", file=sys.stderr)
        return 1
    path = key_path(data_dir, where)
    if ns.json:
        return common.print_or_quiet(json.dumps({**page.to_json(), "key_file": str(path)}, ensure_ascii=False))
    lines = [f"You are player {page.line.id} at {where}.", *page_lines(page, time.time()),
             f"Your key: {path} (copy it to move your account)."]
    return common.print_or_quiet("\n".join(lines))
