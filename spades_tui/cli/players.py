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

from ..i18n.language import _, ngettext, pgettext
from . import common

if TYPE_CHECKING:
    from ..table.seat.rated import PlayerLine, PlayerPage



def configure_server(p: argparse.ArgumentParser) -> None:
    """The server's address and ``--insecure``: what every command of rated play takes."""
    p.add_argument("address", metavar=_("ADDR:PORT"), help=_("the server's address (wss://ADDR:PORT with TLS)"))
    p.add_argument("--insecure", action="store_true",
                   help=_("with wss://, accept a certificate that is not trusted (a self-signed one you know)"))


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
    p.add_argument("name", nargs="?", metavar=_("NAME"), help=_("a player's page instead of the leaderboard"))
    p.add_argument("--json", action="store_true", help=_("print JSON instead of lines"))


def line_words(line: PlayerLine) -> str:
    from ..engine.text import num, printable

    fields = dict(name=printable(line.name), rating=num(round(line.rating)) + ("?" if line.provisional else ""),
                  rd=round(line.rd), count=line.games, wins=line.wins, last=line.last)
    if line.last:
        return ngettext("{name} {rating} (RD {rd}), {count} game, {wins} won, last played {last}",
                        "{name} {rating} (RD {rd}), {count} games, {wins} won, last played {last}",
                        line.games).format(**fields)
    return ngettext("{name} {rating} (RD {rd}), {count} game, {wins} won",
                    "{name} {rating} (RD {rd}), {count} games, {wins} won", line.games).format(**fields)


def board_lines(where: str, lines: list[PlayerLine], you: Optional[PlayerLine]) -> list[str]:
    """The leaderboard as printed, your own line marked (and under it, when you are not on it, where you stand)."""
    from ..engine.text import printable
    from ..table.seat.rated import board_rows

    out = [_("The best players at {server} (a rating whose RD is over 110 is provisional, marked ?, and not "
             "listed):").format(server=where)]
    out += [printable(row) for row in board_rows(lines, you)]
    if not lines:
        out.insert(1, "     " + _("nobody yet: a rating is firm after about fifteen rated games."))
    return out


def page_lines(page: PlayerPage, now: float) -> list[str]:
    from ..engine.text import minus_signs, printable, when_words

    out = [f"{line_words(page.line)}."]
    if page.results:
        out.append(_("Last rated games:"))
    for result in page.results:
        words = _result_words(result.won, result.how).format(
            when=when_words(result.at, now), opponent=printable(result.opponent),
            change=minus_signs(f"{result.change:+.1f}").replace(".", pgettext("decimal sign", ".")))
        out.append(f"  {words}")
    return out


def _result_words(won: bool, how: str) -> str:
    """A rated game's line on a player's page, as a whole sentence: won or lost, and how it ended."""
    if won:
        if how == "resign":
            return _("{when}  won against {opponent} ({change}), by resignation")
        if how == "claim":
            return _("{when}  won against {opponent} ({change}), claimed when a seat left")
        return _("{when}  won against {opponent} ({change})")
    if how == "resign":
        return _("{when}  lost to {opponent} ({change}), by resignation")
    if how == "claim":
        return _("{when}  lost to {opponent} ({change}), claimed when a seat left")
    return _("{when}  lost to {opponent} ({change})")


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
