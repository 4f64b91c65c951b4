"""``spades-tui bot LEVEL``: a built-in bot speaking docs/bot-protocol.md on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

from . import common
from .arena import bot_spec
from .common import CliError


def configure(p: argparse.ArgumentParser) -> None:
    p.description = "Run a built-in bot as an external bot speaking bot-protocol.md on stdin/stdout."
    p.add_argument("level", help="easy, normal, hard[:budget=S,iters=N] or expert[:budget=S,iters=N,workers=N]")
    p.add_argument("--budget", type=float, help="thinking time of the hard or expert bot, seconds per decision")
    p.add_argument("--seed", type=common.seed, help="seed of the bot's own random choices")


def run(ns: argparse.Namespace) -> int:
    if ns.level.startswith("cmd:"):
        raise CliError("spades-tui bot: LEVEL must be a built-in bot (easy, normal, hard, expert)")
    bot_spec(ns.level, "spades-tui bot")
    from ..bots.server import serve

    try:
        return serve(ns.level, ns.budget, ns.seed, sys.stdin, sys.stdout)
    except BrokenPipeError:
        return 0
