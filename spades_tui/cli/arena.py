"""``spades-tui arena A B``: duplicate matches between bots."""

from __future__ import annotations

import argparse
import sys

from ..engine.errors import RulesError
from ..engine.rules import Rules
from . import common
from .common import CliError, print_or_quiet


def bot_spec(text: str, command: str) -> str:
    """A bot spec checked now, so a typo is a clear message rather than a forfeit later."""
    if text.startswith("git:") and command == "spades-tui arena":
        from ..arena.gitbot import GitBotError, parse_git_spec

        try:
            parse_git_spec(text)
        except GitBotError as exc:
            raise CliError(f"{command}: {exc}") from None
        return text
    if text.startswith("cmd:"):
        if not text[4:].strip():
            raise CliError(f"{command}: cmd: needs a program, e.g. 'cmd:python -m spades_tui bot easy'")
        return text
    from ..bots.levels import make_bot

    try:
        make_bot(text, seed=0)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return text


def configure(p: argparse.ArgumentParser) -> None:
    p.description = ("Play bot A against bot B on duplicate deals (each deal twice, seats swapped) "
                     "and print win rates, points and decision times. "
                     "Games in parallel (--jobs) already use the cores: an expert bot here solves its samples "
                     "in its own process (no pool of workers).")
    p.add_argument("a", metavar="A", help="easy, normal, hard[:budget=S,iters=N], "
                   "expert[:budget=S,iters=N,workers=N,bid=slip|dd,draft=hard|dd,objective=margin|win,"
                   "sampler=draft|plain], 'cmd:PROGRAM ARGS' or git:COMMIT:BOT (BOT as that commit built it)")
    p.add_argument("b", metavar="B", help="the same choices as A")
    p.add_argument("--games", type=int, default=20, help="games (or hands) to play, rounded up to even")
    p.add_argument("--seed", type=common.seed, default=1, help="seed of the deals (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes (default 1)")
    p.add_argument("--hands-only", action="store_true", help="play single duplicate hands, report the margin")
    p.add_argument("--budget", type=float, help="thinking time of hard and expert bots, seconds per decision")
    p.add_argument("--timeout", type=float, default=10.0, help="time limit per answer of a cmd: bot (s)")
    p.add_argument("--rules", metavar=common.RULES_METAVAR, help=common.rules_help())


def run(ns: argparse.Namespace) -> int:
    from ..arena.match import run_deals
    from ..arena.stats import ArenaConfig, format_report, summarise

    try:
        a, b = bot_spec(ns.a, "spades-tui arena"), bot_spec(ns.b, "spades-tui arena")
        if ns.games < 1:
            raise CliError("spades-tui arena: --games must be at least 1")
        if ns.jobs < 1:
            raise CliError("spades-tui arena: --jobs must be at least 1")
        if ns.budget is not None and ns.budget <= 0:
            raise CliError("spades-tui arena: --budget must be positive")
        if ns.timeout <= 0:
            raise CliError("spades-tui arena: --timeout must be positive")
        rules = Rules.parse_assignments(ns.rules) if ns.rules else Rules()
    except RulesError as exc:
        print(f"spades-tui arena: {exc}", file=sys.stderr)
        return 2
    from ..arena.gitbot import GitBotError, GitBots

    deals = (ns.games + 1) // 2
    with GitBots() as git:
        try:
            made = git.made(a, b, ns.budget)
        except GitBotError as exc:
            raise CliError(f"spades-tui arena: {exc}") from None
        config = ArenaConfig(a, b, rules, ns.seed, ns.hands_only, ns.budget, ns.timeout, made)
        summary = summarise(run_deals(config, deals, ns.jobs))
    return print_or_quiet(format_report(config, summary))
