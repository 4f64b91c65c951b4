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
from ..i18n.language import AUTO, LANGUAGES, N_, _, resolve, translated, use
from . import play
from .common import CliError, Parser
from .play import parse_launch

# Each command's one-line help, in the order ``spades-tui --help`` lists them.  A command's module
# (spades_tui/cli/NAME.py) loads only when its name is on the command line: ``spades-tui`` alone,
# the game, starts without the analysis, the arena or the network tables.  Marked for the catalog here, said in the
# player's language where the parser is built (the language is chosen first: take_language, speak).
COMMANDS: dict[str, str] = {
    "learn": N_("learn to play: a guided first hand against the easy bot, the lesson beside the table"),
    "challenge": N_("the daily challenge: four hands against the expert on the day's deals, scored against its par"),
    "replay": N_("replay a game record and print where the game stands"),
    "analyse": N_("judge every card played in a game record with all cards face up (double dummy)"),
    "bench": N_("measure the engine's speed"),
    "arena": N_("play duplicate matches between bots and print the statistics"),
    "bot": N_("run a built-in bot as an external bot on stdin/stdout"),
    "stats": N_("print your statistics: games won by opponent, bids, Nil, points and bags per hand"),
    "serve": N_("serve the game to web browsers: each tab plays its own game"),
    "host": N_("open a network table for a friend on another machine (they run 'spades-tui join')"),
    "join": N_("sit at a friend's network table (the invite 'spades-tui host' shows)"),
    "watch": N_("watch a network table (its watch code): the public view, no hand"),
    "lobby": N_("list the public tables of a 'spades-tui serve' (to sit at one, or watch it)"),
    "quick": N_("play a stranger of your strength at a server, rated (registers you there the first time)"),
    "players": N_("a server's leaderboard, or one player's page and last rated games"),
    "whoami": N_("who you are at a server: your id, name, rating and games, and where your key is kept"),
    "rename": N_("take another name at a server (if nobody there holds it)"),
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
    p = Parser(prog="spades-tui", description=_("Two-player draft Spades in the terminal."),
               epilog=_("Run 'spades-tui COMMAND --help' for each command."))
    p.add_argument("--version", action="version", version=f"spades-tui {__version__}",
                   help=_("show program's version number and exit"))
    # Taken out of the arguments first (take_language).
    p.add_argument("--lang", metavar=_("CODE"), help=lang_help())
    play.configure(p)
    sub = p.add_subparsers(dest="command", metavar=_("COMMAND"), title=_("commands"), parser_class=Parser)
    parsers: dict[str, argparse.ArgumentParser] = {}
    named = set(COMMANDS) if argv is None else set(argv)
    for name, marked in COMMANDS.items():
        text = translated(marked)
        parsers[name] = sub.add_parser(name, help=text, description=text[:1].upper() + text[1:])
        if name in named:
            command_module(name).configure(parsers[name])
    return p, parsers


def lang_help() -> str:
    """``--lang``'s help: each language by its code and its own name."""
    languages = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    return _("the language to speak: {languages} or auto (the system's: LC_ALL, LC_MESSAGES, LANG); the settings' "
             "language by default").format(languages=languages)


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
                    speak(None)  # said in the settings' language, else the system's: none was given
                    raise CliError(_("spades-tui: --lang needs a language: {languages}").format(
                        languages=", ".join((AUTO, *LANGUAGES))))
                choice, i = args[i + 1], i + 2
            else:
                choice, i = arg.split("=", 1)[1], i + 1
            continue
        rest.append(arg)
        i += 1
    return choice, rest


def speak(choice: Optional[str]) -> str:
    """Speak the language of ``--lang`` (None: not given), else of the settings, else of the environment."""
    given = choice
    if choice is None:
        choice = settings_language()
    try:
        return use(resolve(choice, os.environ))
    except ValueError:
        # Said in the language the game would speak without the unknown one: the settings', else the system's.
        use(resolve(settings_language() if given is not None else None, os.environ))
        raise CliError(_("spades-tui: --lang: unknown language {language}: use one of {languages}").format(
            language=repr(choice[:20]), languages=", ".join((AUTO, *LANGUAGES)))) from None


def settings_language() -> str:
    from ..settings.preferences import user_preferences  # reads the file only where there is one

    return user_preferences().language


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        choice, args = take_language(args)
        speak(choice)
        parser, parsers = build_parser(args)
        ns, extra = parser.parse_known_args(args)
        if extra:  # said by the command's own parser: "spades-tui replay: unrecognized arguments: ..."
            parsers.get(ns.command, parser).error(_("unrecognized arguments: %s") % " ".join(extra))
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
