"""Command line: ``spades-tui [options]`` starts the game; subcommands do the rest.

Textual is imported only when the game itself starts, so ``replay``, ``bench``
and friends start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from .engine import Rules, RulesError


class CliError(Exception):
    """A bad command line; printed as one clear line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so main decides."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message}")


BOT_LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class LaunchOptions:
    hotseat: bool = False
    bot: Optional[str] = None  # a level or "cmd:PROGRAM ARGS"
    seed: Optional[int] = None
    load: Optional[str] = None
    rules: Optional[Rules] = None

    @property
    def direct(self) -> bool:
        """True when the command line asks to skip the start screen."""
        return self.hotseat or self.bot is not None or self.load is not None


def _bot_spec(text: str) -> str:
    if text in BOT_LEVELS or (text.startswith("cmd:") and text[4:].strip()):
        return text
    raise argparse.ArgumentTypeError(f"must be easy, normal, hard or cmd:PROGRAM, not {text!r}")


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def _rules(text: str) -> Rules:
    try:
        return Rules.parse_assignments(text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def game_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="spades-tui",
        description="Two-player draft Spades in the terminal.",
        epilog="Other commands: spades-tui replay FILE [--json] | analyse FILE [--json] | bench | arena A B "
        "| bot LEVEL. "
        "Run 'spades-tui COMMAND --help' for each.",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--hotseat", action="store_true", help="start a two-person game at once")
    mode.add_argument(
        "--bot", type=_bot_spec, metavar="LEVEL", help="play against a bot: easy, normal, hard or cmd:PROGRAM"
    )
    mode.add_argument("--load", metavar="FILE", help="load a game record and continue it")
    p.add_argument("--seed", type=_seed, help="seed for the shuffles (same seed, same cards)")
    p.add_argument("--rules", type=_rules, metavar="KEY=VALUE[,...]", help=f"rule options: {', '.join(Rules.names())}")
    return p


def parse_launch(argv: Sequence[str]) -> LaunchOptions:
    ns = game_parser().parse_args(list(argv))
    return LaunchOptions(hotseat=ns.hotseat, bot=ns.bot, seed=ns.seed, load=ns.load, rules=ns.rules)


def _run_game(argv: Sequence[str]) -> int:
    options = parse_launch(argv)
    app = importlib.import_module("spades_tui.app")  # Textual loads only here
    run_app: Callable[[LaunchOptions], int] = app.run_app
    return run_app(options)


# Each subcommand lives in its own module, imported only when asked for.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("spades_tui.replay_cmd", "main"),
    "analyse": ("spades_tui.analyse_cmd", "main"),
    "bench": ("spades_tui.bench", "main"),
    "arena": ("spades_tui.arena_cmd", "arena_main"),
    "bot": ("spades_tui.arena_cmd", "bot_main"),
}


def _subcommand(name: str) -> Callable[[Sequence[str]], int]:
    module_name, func = SUBCOMMANDS[name]
    module = importlib.import_module(module_name)
    command: Callable[[Sequence[str]], int] = getattr(module, func)
    return command


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in SUBCOMMANDS:
            return _subcommand(args[0])(args[1:])
        return _run_game(args)
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
