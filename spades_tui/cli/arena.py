"""``spades-tui arena A B``: duplicate matches between bots."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Iterator

from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..i18n.language import _
from . import common
from .common import CliError, print_or_quiet

if TYPE_CHECKING:
    from ..arena.stats import ArenaConfig, DealResult


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
            raise CliError(_("{command}: cmd: needs a program, e.g. 'cmd:python -m spades_tui bot easy'").format(
                command=command))
        return text
    from ..bots.levels import make_bot

    try:
        make_bot(text, seed=0)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return text


def configure(p: argparse.ArgumentParser) -> None:
    # Both forms in the usage: the generic one ("A B [FILE ...]") hid that 'merge' is a form of its own.
    p.usage = _("%(prog)s [options] A B\n       %(prog)s merge FILE [FILE ...]")
    p.description = _("Play bot A against bot B on duplicate deals (each deal twice, seats swapped) "
                      "and print win rates, points and decision times. "
                      "Games in parallel (--jobs) already use the cores: an expert bot here solves its samples "
                      "in its own process (no pool of workers). "
                      "A long match can be played in parts: --deals START:END --out FILE plays those deals of "
                      "the seeded match and writes them to FILE; 'spades-tui arena merge FILE [FILE ...]' "
                      "reports the parts as one match.")
    p.add_argument("a", metavar="A", help=_(
        "easy, normal, hard[:budget=S,iters=N], "
        "expert[:budget=S,iters=N,workers=N,bid=played|slip|dd|fit,draft=hard|dd,objective=margin|win,"
        "sampler=draft|plain], 'cmd:PROGRAM ARGS' or git:COMMIT:BOT (BOT as that commit built it)"))
    p.add_argument("b", metavar="B", help=_("the same choices as A (after 'merge': the first part file)"))
    p.add_argument("more", nargs="*", metavar=_("FILE"), help=_("after 'merge': the other part files"))
    p.add_argument("--games", type=int, default=20, metavar=_("GAMES"),
                   help=_("games (or hands) to play, rounded up to even"))
    p.add_argument("--seed", type=common.seed, default=1, metavar=_("SEED"), help=_("seed of the deals (default 1)"))
    p.add_argument("--jobs", type=int, default=1, metavar=_("JOBS"),
                   help=_("games played in parallel processes (default 1)"))
    p.add_argument("--hands-only", action="store_true", help=_("play single duplicate hands, report the margin"))
    p.add_argument("--budget", type=float, metavar=_("BUDGET"),
                   help=_("thinking time of hard and expert bots, seconds per decision"))
    p.add_argument("--timeout", type=float, default=10.0, metavar=_("TIMEOUT"),
                   help=_("time limit per answer of a cmd: bot (s)"))
    p.add_argument("--rules", metavar=common.rules_metavar(), help=common.rules_help())
    p.add_argument("--deals", metavar=_("START:END"), help=_("play only these deals of the match (0-based, END "
                   "excluded; the same deals as in the whole match); needs --out"))
    p.add_argument("--out", metavar=_("FILE"), help=_("write the deals played to FILE (after each deal) for "
                   "'spades-tui arena merge'"))


def merge_parts(files: list[str]) -> int:
    """``arena merge FILES``: the parts' report as one match's, with a line per part."""
    from pathlib import Path

    from ..arena.parts import PartError, merge
    from ..arena.stats import format_report, summarise

    try:
        config, results, lines = merge([Path(f) for f in files])
    except PartError as exc:
        raise CliError(f"spades-tui arena merge: {exc}") from None
    report = format_report(config, summarise(results))
    return print_or_quiet(report + "\n\n" + _("parts:") + "\n" + "\n".join(lines))


def run(ns: argparse.Namespace) -> int:
    from ..arena.match import run_deals
    from ..arena.stats import ArenaConfig, format_report, summarise

    if ns.a == "merge":
        return merge_parts([ns.b, *ns.more])
    if ns.more:
        raise CliError("spades-tui arena: " + _("unrecognized arguments: %s") % " ".join(ns.more))
    try:
        a, b = bot_spec(ns.a, "spades-tui arena"), bot_spec(ns.b, "spades-tui arena")
        if ns.games < 1:
            raise CliError(_("spades-tui arena: --games must be at least 1"))
        if ns.jobs < 1:
            raise CliError(_("spades-tui arena: --jobs must be at least 1"))
        if ns.budget is not None and ns.budget <= 0:
            raise CliError(_("spades-tui arena: --budget must be positive"))
        if ns.timeout <= 0:
            raise CliError(_("spades-tui arena: --timeout must be positive"))
        rules = Rules.parse_assignments(ns.rules) if ns.rules else Rules()
        span = _deals(ns.deals, ns.out)
    except RulesError as exc:
        print(f"spades-tui arena: {exc}", file=sys.stderr)
        return 2
    from ..arena.gitbot import GitBotError, GitBots

    start, end = span if span is not None else (0, (ns.games + 1) // 2)
    with GitBots() as git:
        try:
            made = git.made(a, b, ns.budget)
        except GitBotError as exc:
            raise CliError(f"spades-tui arena: {exc}") from None
        config = ArenaConfig(a, b, rules, ns.seed, ns.hands_only, ns.budget, ns.timeout, made)
        results = run_deals(config, end - start, ns.jobs, start)
        if ns.out is not None:
            results = _written(results, ns.out, config, (start, end))
        summary = summarise(results)
    return print_or_quiet(format_report(config, summary))


def _deals(deals: str | None, out: str | None) -> tuple[int, int] | None:
    from ..arena.parts import parse_deals

    if deals is None:
        return None
    if out is None:
        raise CliError(_("spades-tui arena: --deals needs --out FILE (the part is merged later from it)"))
    try:
        return parse_deals(deals)
    except ValueError as exc:
        raise CliError(f"spades-tui arena: {exc}") from None


def _written(results: Iterator[DealResult], out: str, config: ArenaConfig,
             span: tuple[int, int]) -> Iterator[DealResult]:
    """The results as they come, each written to the part file ``out`` first."""
    from pathlib import Path

    from ..arena.parts import PartWriter
    from ..keep.storage import StorageError

    try:  # said as the storage says it: "cannot write FILE: why"
        writer = PartWriter(Path(out), config, span)
        for result in results:
            writer.add(result)
            yield result
    except StorageError as exc:
        raise CliError(f"spades-tui arena: {exc}") from None
