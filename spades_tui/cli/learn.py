"""``spades-tui learn``: the lesson, a guided first hand against the easy bot (docs/playing.md, "Learn to play").

The same hand for every player (its stock is in ``assets/lesson.md``); never saved, never counted in the
statistics.  Textual is imported only in ``run``.
"""

from __future__ import annotations

import argparse

from ..i18n.language import _
from ..settings.options import LaunchOptions
from . import common
from .play import interface_options


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot-pause", type=common.seconds, metavar=_("SECONDS"),
                   help=_("how long a finished trick stays on the table before the bot leads (default: the "
                          "settings')"))
    interface_options(p)


def run(ns: argparse.Namespace) -> int:
    return common.start_game(LaunchOptions(bot_pause=ns.bot_pause), ns, learn=True)  # Textual loads only here
