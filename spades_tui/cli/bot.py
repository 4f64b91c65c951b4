"""``spades-tui bot LEVEL``: a built-in bot speaking docs/bot-protocol.md on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

from ..i18n.language import _
from . import common
from .arena import bot_spec
from .common import CliError


def configure(p: argparse.ArgumentParser) -> None:
    p.description = _("Run a built-in bot as an external bot speaking bot-protocol.md on stdin/stdout.")
    p.add_argument("level", metavar=_("LEVEL"),
                   help=_("easy, normal, hard[:budget=S,iters=N] or expert[:budget=S,iters=N,workers=N]"))
    p.add_argument("--budget", type=float, metavar=_("BUDGET"),
                   help=_("thinking time of the hard or expert bot, seconds per decision"))
    p.add_argument("--seed", type=common.seed, metavar=_("SEED"), help=_("seed of the bot's own random choices"))


def run(ns: argparse.Namespace) -> int:
    if ns.level.startswith("cmd:"):
        raise CliError(_("spades-tui bot: LEVEL must be a built-in bot (easy, normal, hard, expert)"))
    bot_spec(ns.level, "spades-tui bot")
    from ..bots.server import serve

    try:
        return serve(ns.level, ns.budget, ns.seed, sys.stdin, sys.stdout)
    except BrokenPipeError:
        return 0
