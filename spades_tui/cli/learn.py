"""``spades-tui learn``: the lesson, a guided first hand against the easy bot (docs/playing.md, "Learn to play").

The same hand for every player (its stock is in ``assets/lesson.md``); never saved, never counted in the
statistics.  Textual is imported only in ``run``.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Callable

from ..settings.options import LaunchOptions
from . import common


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot-pause", type=common.seconds, metavar="SECONDS",
                   help="how long a finished trick stays on the table before the bot leads (default: the settings')")


def run(ns: argparse.Namespace) -> int:
    app = importlib.import_module("spades_tui.tui.app.launch")  # Textual loads only here
    run_app: Callable[..., int] = app.run_app
    return run_app(LaunchOptions(bot_pause=ns.bot_pause), learn=True)
