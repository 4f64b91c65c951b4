"""Command line: ``spades-tui [options]`` starts the game; subcommands do the rest.

One module per command, each with ``configure(parser)`` and ``run(namespace)``.
They import what they need inside ``run``, so ``replay`` and friends never load
Textual and start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import Optional, Sequence

from .. import __version__
from ..i18n.language import AUTO, LANGUAGES, resolve, use
from . import play
from .common import CliError, Parser
from .play import parse_launch

# Each command's one-line help, in the order ``spades-tui --help`` lists them.  A command's module
# (spades_tui/cli/NAME.py) loads only when its name is on the command line: ``spades-tui`` alone,
# the game, starts without the analysis, the arena or the network tables.
COMMANDS: dict[str, str] = {
    "learn": "learn to play: a guided first hand against the easy bot, the lesson beside the table",
    "challenge": "the daily challenge: four hands against the expert on the day's deals, scored against its par",
    "replay": "replay a game record and print where the game stands",
    "analyse": "judge every card played in a game record with all cards face up (double dummy)",
    "bench": "measure the engine's speed",
    "arena": "play duplicate matches between bots and print the statistics",
    "bot": "run a built-in bot as an external bot on stdin/stdout",
    "stats": "print your statistics: games won by opponent, bids, Nil, points and bags per hand",
    "serve": "serve the game to web browsers: each tab plays its own game",
    "host": "open a network table for a friend on another machine (they run 'spades-tui join')",
    "join": "sit at a friend's network table (the invite 'spades-tui host' shows)",
    "watch": "watch a network table (its watch code): the public view, no hand",
    "lobby": "list the public tables of a 'spades-tui serve' (to sit at one, or watch it)",
    "quick": "play a stranger of your strength at a server, rated (registers you there the first time)",
    "players": "a server's leaderboard, or one player's page and last rated games",
    "whoami": "who you are at a server: your id, name, rating and games, and where your key is kept",
    "rename": "take another name at a server (if nobody there holds it)",
}


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def build_parser(
    argv: Optional[Sequence[str]] = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The whole command line, and each command's own parser (for its error messages).

    Only the commands named in ``argv`` get their arguments (argparse can choose no other; all of them
    when ``argv`` is None); the rest are listed by name and help.
    """
    p = Parser(prog="spades-tui", description="Two-player draft Spades in the terminal.",
               epilog="Run 'spades-tui COMMAND --help' for each command.")
    p.add_argument("--version", action="version", version=f"spades-tui {__version__}")
    p.add_argument("--lang", metavar="CODE", help=LANG_HELP)  # taken out of the arguments first (take_language)
    play.configure(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=Parser)
    parsers: dict[str, argparse.ArgumentParser] = {}
    named = set(COMMANDS) if argv is None else set(argv)
    for name, text in COMMANDS.items():
        parsers[name] = sub.add_parser(name, help=text, description=text[:1].upper() + text[1:])
        if name in named:
            command_module(name).configure(parsers[name])
    return p, parsers


LANG_HELP = "the language to speak: " + ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items()) + \
    " or auto (the system's: LC_ALL, LC_MESSAGES, LANG); the settings' language by default"


def take_language(args: list[str]) -> tuple[Optional[str], list[str]]:
    """``--lang CODE`` (or ``--lang=CODE``) taken out of ``args``, wherever it is (before a command's ``--``): it
    applies to every command, and is chosen before any parser is built so that ``--help`` speaks it too."""
    rest: list[str] = []
    choice: Optional[str] = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg == "--lang" or arg.startswith("--lang="):
            if arg == "--lang":
                if i + 1 >= len(args):
                    raise CliError(f"spades-tui: --lang needs a language: {', '.join((AUTO, *LANGUAGES))}")
                choice, i = args[i + 1], i + 2
            else:
                choice, i = arg.split("=", 1)[1], i + 1
            continue
        rest.append(arg)
        i += 1
    return choice, rest


def speak(choice: Optional[str]) -> str:
    """Speak the language of ``--lang`` (None: not given), else of the settings, else of the environment."""
    if choice is None:
        from ..settings.preferences import user_preferences  # reads the file only where there is one

        choice = user_preferences().language
    try:
        return use(resolve(choice, os.environ))
    except ValueError:
        raise CliError(f"spades-tui: --lang: unknown language {choice[:20]!r}: use one of "
                       f"{', '.join((AUTO, *LANGUAGES))}") from None


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        choice, args = take_language(args)
        speak(choice)
        parser, parsers = build_parser(args)
        ns, extra = parser.parse_known_args(args)
        if extra:  # said by the command's own parser: "spades-tui replay: unrecognized arguments: ..."
            parsers.get(ns.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
        return command_module(ns.command).run(ns) if ns.command else play.run(ns)
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


__all__ = ["COMMANDS", "CliError", "build_parser", "command_module", "main", "parse_launch"]
