"""``spades-tui players ADDR:PORT [NAME] [--json]``: a server's leaderboard, or one player's page
(docs/serving.md, "Rated play").  Your own line is marked when you have a key for that server; every name is the
server's, cleaned before it is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import TYPE_CHECKING, Optional

from . import common

if TYPE_CHECKING:
    from ..table.seat.rated import PlayerLine, PlayerPage

HOW = {"over": "", "resign": ", by resignation", "claim": ", claimed when a seat left"}


def configure_server(p: argparse.ArgumentParser) -> None:
    """The server's address and ``--insecure``: what every command of rated play takes."""
    p.add_argument("address", metavar="ADDR:PORT", help="the server's address (wss://ADDR:PORT with TLS)")
    p.add_argument("--insecure", action="store_true",
                   help="with wss://, accept a certificate that is not trusted (a self-signed one you know)")


def server_of(address: str, command: str) -> tuple[str, str]:
    """The server's table URL and the address its key file is named by (``CliError`` for a bad address)."""
    from ..table.seat.link import TableError, table_url

    try:
        url = table_url(address)
    except TableError as exc:
        raise common.CliError(f"spades-tui {command}: {exc}") from None
    return url, url.removesuffix("/table").removeprefix("ws://")


def configure(p: argparse.ArgumentParser) -> None:
    configure_server(p)
    p.add_argument("name", nargs="?", metavar="NAME", help="a player's page instead of the leaderboard")
    p.add_argument("--json", action="store_true", help="print JSON instead of lines")


def line_words(line: PlayerLine) -> str:
    from ..engine.text import num, plural, printable

    last = f", last played {line.last}" if line.last else ""
    return (f"{printable(line.name)} {num(round(line.rating))}{'?' if line.provisional else ''} (RD {round(line.rd)}), "
            f"{plural(line.games, 'game')}, {line.wins} won{last}")


def board_lines(where: str, lines: list[PlayerLine], you: Optional[PlayerLine]) -> list[str]:
    """The leaderboard as printed, your own line marked (and under it, when you are not on it, where you stand)."""
    from ..engine.text import printable
    from ..table.seat.rated import board_rows

    out = [f"The best players at {where} (a rating whose RD is over 110 is provisional, marked ?, and not listed):"]
    out += [printable(row) for row in board_rows(lines, you)]
    if not lines:
        out.insert(1, "     nobody yet: a rating is firm after about fifteen rated games.")
    return out


def page_lines(page: PlayerPage, now: float) -> list[str]:
    from ..engine.text import minus_signs, printable, when_words

    out = [f"{line_words(page.line)}."]
    if page.results:
        out.append("Last rated games:")
    for result in page.results:
        words = "won against" if result.won else "lost to"
        out.append(f"  {when_words(result.at, now)}  {words} {printable(result.opponent)} "
                   f"({minus_signs(f'{result.change:+.1f}')}){HOW.get(result.how, '')}")
    return out


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..table.seat import rated as rc

    url, where = server_of(ns.address, "players")
    try:
        kept = rc.kept_key(default_data_dir(), where)
        if ns.name is not None:
            page = asyncio.run(rc.page(url, name=ns.name, insecure=ns.insecure))
            text = (json.dumps(page.to_json(), ensure_ascii=False) if ns.json
                    else "\n".join(page_lines(page, time.time())))
        else:
            lines, you = asyncio.run(rc.players(url, kept.key if kept is not None else None, insecure=ns.insecure))
            text = (json.dumps({"players": [line.to_json() for line in lines],
                                "you": you.to_json() if you is not None else None}, ensure_ascii=False) if ns.json
                    else "\n".join(board_lines(where, lines, you)))
    except rc.RatedError as exc:
        print(f"spades-tui players: {exc}", file=sys.stderr)
        return 1
    return common.print_or_quiet(text)
