"""``spades-tui learn``: the lesson, a guided first hand against the easy bot (docs/playing.md, "Learn to play").

The same hand for every player (its stock is in ``assets/lesson.md``); never saved, never counted in the
statistics.  Textual is imported only in ``run``.
"""

from __future__ import annotations

import argparse

from ..settings.options import LaunchOptions
from . import common


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot-pause", type=common.seconds, metavar="SECONDS",
                   help="how long a finished trick stays on the table before the bot leads (default: the settings')")


def run(ns: argparse.Namespace) -> int:
    return common.start_app(LaunchOptions(bot_pause=ns.bot_pause), learn=True)  # Textual loads only here
