"""``spades-tui [options]``: the game itself.  Textual is imported only here, when it starts."""

from __future__ import annotations

import argparse
from typing import Sequence

from ..i18n.language import _
from ..settings.options import LaunchOptions
from . import common


def configure(p: argparse.ArgumentParser, *, serve: bool = False) -> None:
    """The game options; ``serve`` hides ``--load`` (kept only to be refused clearly by ``spades-tui serve``)."""
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--hotseat", action="store_true", help=_("start a two-person game at once"))
    mode.add_argument(
        "--bot", type=common.bot_spec, metavar=_("LEVEL"),
        help=(_("play against a bot: easy, normal, hard or expert") if serve
              else _("play against a bot: easy, normal, hard, expert or cmd:PROGRAM")),
    )
    mode.add_argument("--load", metavar=_("FILE"),
                      help=argparse.SUPPRESS if serve else _("load a game record and continue it"))
    p.add_argument("--seed", type=common.seed, metavar=_("SEED"),
                   help=_("seed for the shuffles (same seed, same cards)"))
    p.add_argument("--rules", type=common.rules, metavar=common.rules_metavar(), help=common.rules_help())
    # Not given (None): the preferences file's setting, or its default.
    p.add_argument("--bot-pause", type=common.seconds, metavar=_("SECONDS"),
                   help=_("how long a finished trick stays on the table before the bot leads again "
                          "(default {seconds} or the settings'; 0 for instant)").format(
                       seconds=common.decimal_words(0.6, 1)))
    p.add_argument("--hints", action="store_true", default=None,
                   help=_("show the hint panel from the start (h toggles it): the odds of each choice"))
    p.add_argument("--review", action="store_true", default=None,
                   help=_("open the review of each hand (every card judged double dummy) as it ends"))
    if not serve:
        interface_options(p)
        # Given by 'spades-tui serve' to each browser tab's game: no external bots, no files by path.
        p.add_argument("--served", action="store_true", help=argparse.SUPPRESS)


def options(ns: argparse.Namespace) -> LaunchOptions:
    return LaunchOptions(hotseat=ns.hotseat, bot=ns.bot, seed=ns.seed, load=ns.load, rules=ns.rules,
                         bot_pause=ns.bot_pause, review=ns.review, show_hints=ns.hints,
                         served=getattr(ns, "served", False))


def parse_launch(argv: Sequence[str]) -> LaunchOptions:
    """The game's options alone (no subcommand), as the start of ``spades-tui`` reads them."""
    p = common.Parser(prog="spades-tui")
    configure(p)
    return options(p.parse_args(list(argv)))


def interface_options(p: argparse.ArgumentParser) -> None:
    """``--lines``, ``--tui`` and ``--words``: for every command that opens a game (docs/playing.md, "Line mode")."""
    ui = p.add_mutually_exclusive_group()
    ui.add_argument("--lines", dest="lines", action="store_const", const=True, default=None,
                    help=_("line mode: the game in plain lines of text on standard input and output, for screen "
                           "readers, braille displays, slow links and scripts"))
    ui.add_argument("--tui", dest="lines", action="store_const", const=False,
                    help=_("the full screen, whatever the interface setting says"))
    p.add_argument("--words", action="store_true", default=None,
                   help=_("in line mode, spell cards out ('ten of hearts') for screen readers that read symbols "
                          "badly"))
    p.add_argument("--color", action="store_true",
                   help=_("in line mode, hearts and diamonds in red (line mode is plain text otherwise)"))


def run(ns: argparse.Namespace) -> int:
    return common.start_game(options(ns), ns)
