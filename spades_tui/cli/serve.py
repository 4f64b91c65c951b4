"""``spades-tui serve``: the game in web browsers, one game process per tab, through textual-serve.

Each tab that connects starts ``python -m spades_tui --served [GAME OPTIONS]`` under Textual's web
driver; the game options given to ``serve`` apply to every tab's game.  Each game saves itself after
every move in its own slot (keep/slots.py), as in a terminal.  The page may not choose a program
to run or a file to open: ``--bot cmd:`` and ``--load`` are refused here, and again by each game
(``--served``).  textual-serve and aiohttp are imported only when the server starts.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import TYPE_CHECKING, Optional
from urllib.parse import urlsplit

from ..i18n.language import _
from . import play
from .common import CliError, grouped_words

if TYPE_CHECKING:
    from ..settings.options import LaunchOptions

LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_MAX_GAMES = 16  # game processes at once (each with its bots about 90 MiB; 48 fitted on 2 cores)
DEFAULT_MAX_TABLES = 200  # tables at once: about 100 KiB each in play (docs/serving.md)
DEFAULT_MAX_PLAYERS = 10_000  # registered players (rated play, docs/serving.md)
DEFAULT_CLAIM_AFTER = 300.0  # seconds a rated seat may be gone before the other claims the game
STOP_GRACE = 10.0  # seconds each game has to finish on Ctrl+C before it is terminated, then killed


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a port number, not {value}").format(value=repr(text))) from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(_("must be a port number from 1 to 65535, not {value}").format(
            value=repr(text)))
    return value


def max_games(text: str) -> int:
    try:
        value = int(text[:12])
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a whole number of games, not {value}").format(
            value=repr(text[:20]))) from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError(_("must be from 1 to 1000 games, not {value}").format(value=repr(text[:20])))
    return value


def max_players(text: str) -> int:
    try:
        value = int(text[:12])
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a whole number of players, not {value}").format(
            value=repr(text[:20]))) from None
    if not 1 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(_("must be from 1 to 10000000 players, not {value}").format(
            value=repr(text[:20])))
    return value


def workers(text: str) -> int:
    from .common import whole

    return whole(text, 1, 64)


def challenge_iters(text: str) -> int:
    from .common import whole

    return whole(text, 1, 2000)


def claim_after(text: str) -> float:
    try:
        value = float(text[:20])
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a number of seconds, not {value}").format(
            value=repr(text[:20]))) from None
    if not 10 <= value <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(_("must be from 10 seconds to 7 days (604800), not {value}").format(
            value=repr(text[:20])))
    return value


def public_url(text: str) -> str:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # a bad port raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            _("must be an address such as https://spades.example.org/, not {value}").format(value=repr(text[:60])))
    return text


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1: this machine only)"))
    p.add_argument("--port", type=port_number, default=8000, help=_("port to listen on (default 8000)"))
    p.add_argument("--public-url", type=public_url, action="append", default=[], metavar="URL",
                   help=_("an address the page is opened at besides the one listened on, such as a proxy's "
                          "https://spades.example.org/ (repeatable); requests naming any other host are refused"))
    p.add_argument("--max-games", type=max_games, default=DEFAULT_MAX_GAMES, metavar="N",
                   help=_("game processes at once, one per open tab (default {count}); past that the page says the "
                          "server is full").format(count=DEFAULT_MAX_GAMES))
    p.add_argument("--tables-only", action="store_true",
                   help=_("serve network tables only (spades-tui host --server, join, watch): no browser page"))
    p.add_argument("--max-tables", type=max_games, default=DEFAULT_MAX_TABLES, metavar="N",
                   help=_("tables open at once (default {count}); each address may have at most 3 waiting for their "
                          "second seat").format(count=DEFAULT_MAX_TABLES))
    p.add_argument("--max-players", type=max_players, default=DEFAULT_MAX_PLAYERS, metavar="N",
                   help=_("registered players in all (default {count}); each address may register at most 3 an "
                          "hour").format(count=grouped_words(DEFAULT_MAX_PLAYERS)))
    p.add_argument("--claim-after", type=claim_after, default=DEFAULT_CLAIM_AFTER, metavar="SECONDS",
                   help=_("at a rated table, how long a seat may be gone before the other may claim the game "
                          "(default {seconds})").format(seconds=f"{DEFAULT_CLAIM_AFTER:g}"))
    p.add_argument("--challenge-workers", type=workers, default=1, metavar="N",
                   help=_("the day's challenge: decisions of the server's expert made at once, each on a core of its "
                          "own (default 1); the other players' wait their turn, and are told so"))
    p.add_argument("--challenge-iters", type=challenge_iters, default=None, metavar="N",
                   help=_("samples a decision of the server's challenge expert (default: the challenge's, 200); "
                          "fewer for a small machine, which makes a weaker expert and another par"))
    p.add_argument("--trust-proxy", action="store_true",
                   help=_("behind a reverse proxy on this machine: take each client's address from the last "
                          "X-Forwarded-For entry of connections from 127.0.0.1 or ::1 (the proxy)"))
    p.add_argument("--cert", metavar="FILE",
                   help=_("with --tables-only: a TLS certificate (tables served as wss://)"))
    p.add_argument("--key", metavar="FILE", help=_("the certificate's private key"))
    play.configure(p, serve=True)


def game_arguments(options: LaunchOptions) -> list[str]:
    """The command line of each tab's game: the served flag and the game options given to serve."""
    args = ["--served"]
    if options.hotseat:
        args.append("--hotseat")
    if options.bot is not None:
        args += ["--bot", options.bot]
    if options.seed is not None:
        args += ["--seed", str(options.seed)]
    if options.rules is not None:
        args += ["--rules", ",".join(f"{key}={str(value).lower()}" for key, value in options.rules.to_json().items())]
    if options.bot_pause is not None:  # else each game takes it from the settings, as in a terminal
        args += ["--bot-pause", repr(options.bot_pause)]
    if options.show_hints:
        args.append("--hints")
    if options.review:
        args.append("--review")
    return args


def game_command(options: LaunchOptions) -> str:
    """The shell command textual-serve runs for each tab.  ``exec`` makes the game the process that
    textual-serve holds (not a shell above it), so stopping it stops the game."""
    return "exec " + shlex.join([sys.executable, "-m", "spades_tui", *game_arguments(options)])


def host_warning(host: str) -> Optional[str]:
    if host in LOOPBACK:
        return None
    return _("spades-tui serve: warning: listening on {host}: anyone who can reach this address can open the page "
             "and play (each tab runs a game process on this machine). Use the default --host 127.0.0.1 to keep it "
             "to this machine.").format(host=host)


def run_tables(ns: argparse.Namespace) -> int:
    """``serve --tables-only``: tables for terminals, no page (table/server/tables_only.py)."""
    import asyncio

    from ..keep.autosave import default_data_dir
    from ..keep.field import FieldError
    from ..keep.players import PlayersError
    from ..session.challenge import ITERATIONS
    from ..table.run import tls_context
    from ..table.server.tables_only import serve_tables

    if (ns.cert is None) != (ns.key is None):
        raise CliError(_("spades-tui serve: --cert and --key go together"))
    try:
        tls = tls_context(ns.cert, ns.key)
    except (OSError, ValueError) as exc:
        raise CliError(_("spades-tui serve: cannot use that certificate: {reason}").format(reason=exc)) from None
    if ns.host not in LOOPBACK:
        print(_("spades-tui serve: warning: listening on {host}: anyone who can reach it may open tables here (at "
                "most {count}); a table's seats and watchers need its codes.").format(host=ns.host,
                                                                                     count=ns.max_tables),
              file=sys.stderr)
    try:
        return asyncio.run(serve_tables(default_data_dir(), ns.host, ns.port, tls=tls, max_tables=ns.max_tables,
                                        trust_proxy=ns.trust_proxy, max_players=ns.max_players,
                                        claim_after=ns.claim_after, challenge_workers=ns.challenge_workers,
                                        challenge_iters=ns.challenge_iters or ITERATIONS))
    except (PlayersError, FieldError) as exc:
        raise CliError(_("spades-tui serve: {reason}").format(reason=exc)) from None
    except OSError as exc:
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise CliError(_("spades-tui serve: cannot listen on {host} port {port}: {reason}").format(
            host=ns.host, port=ns.port, reason=why)) from None
    except KeyboardInterrupt:
        return 0


def run(ns: argparse.Namespace) -> int:
    if getattr(ns, "tables_only", False):
        return run_tables(ns)
    options = play.options(ns)
    refused = options.served_refusal()
    if refused is not None:
        raise CliError(_("spades-tui serve: {reason}").format(reason=refused))
    try:
        from .webserver import GameServer
    except ImportError as exc:  # textual-serve is a dependency; say so if an installation lacks it
        raise CliError(_("spades-tui serve: needs textual-serve (pip install textual-serve): {reason}").format(
            reason=exc)) from None
    warning = host_warning(ns.host)
    if warning is not None:
        print(warning, file=sys.stderr)
    from ..keep.field import FieldError
    from ..keep.players import PlayersError
    from ..session.challenge import ITERATIONS

    try:
        server = GameServer(game_command(options), host=ns.host, port=ns.port, public_urls=ns.public_url,
                            max_games=ns.max_games, max_tables=ns.max_tables, trust_proxy=ns.trust_proxy,
                            max_players=ns.max_players, claim_after=ns.claim_after,
                            challenge_workers=ns.challenge_workers, challenge_iters=ns.challenge_iters or ITERATIONS)
    except (PlayersError, FieldError) as exc:
        raise CliError(_("spades-tui serve: {reason}").format(reason=exc)) from None
    try:
        server.run()
    except OSError as exc:  # the port is taken, the address is not this machine's
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise CliError(_("spades-tui serve: cannot listen on {host} port {port}: {reason}").format(
            host=ns.host, port=ns.port, reason=why)) from None
    return 0

