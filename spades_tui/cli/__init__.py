"""Command line: ``spades-tui [options]`` starts the game; subcommands do the rest.

One module per command, each with ``configure(parser)`` and ``run(namespace)``.
They import what they need inside ``run``, so ``replay`` and friends never load
Textual and start fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType
from typing import Optional, Sequence

from .. import __version__
from . import analyse, arena, bench, bot, host, join, play, replay, serve, stats
from .common import CliError, Parser
from .play import parse_launch

# In the order ``spades-tui --help`` lists them.
COMMANDS: dict[str, ModuleType] = {
    "replay": replay, "analyse": analyse, "bench": bench, "arena": arena, "bot": bot, "stats": stats,
    "serve": serve, "host": host, "join": join,
}


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The whole command line, and each command's own parser (for its error messages)."""
    p = Parser(prog="spades-tui", description="Two-player draft Spades in the terminal.",
               epilog="Run 'spades-tui COMMAND --help' for each command.")
    p.add_argument("--version", action="version", version=f"spades-tui {__version__}")
    play.configure(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=Parser)
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, module in COMMANDS.items():
        parsers[name] = sub.add_parser(name, help=module.HELP, description=module.HELP[:1].upper() + module.HELP[1:])
        module.configure(parsers[name])
    return p, parsers


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        parser, parsers = build_parser()
        ns, extra = parser.parse_known_args(args)
        if extra:  # said by the command's own parser: "spades-tui replay: unrecognized arguments: ..."
            parsers.get(ns.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
        module = COMMANDS.get(ns.command) if ns.command else None
        return module.run(ns) if module is not None else play.run(ns)
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``spades-tui bench | head -1``): stop quietly, as
        # the Python docs advise, so no traceback follows at interpreter exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


__all__ = ["COMMANDS", "CliError", "build_parser", "main", "parse_launch"]
