"""``spades-tui challenge [DATE | CODE]``: the daily challenge (docs/commands.md, "challenge").

Four hands against the expert on the day's stocks (UTC), scored against the expert's own par.  Played by a
person in the game (Textual imported only then), by a built-in bot with ``--bot`` (headless, ``--json`` for one
JSON object), or listed with ``--history``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n.language import N_, _, translated
from ..settings.options import LaunchOptions
from . import common
from .play import interface_options

EPILOG = N_(
    "CODE is a date, YYYY-MM-DD (today's, UTC, when left out), optionally with a preset after a colon "
    "(2026-12-01:tournament): a friend sent the code plays the same four stocks in the same order. "
    "The par is the expert's own margin in your seat on the same stocks (the expert in both seats), with a "
    "fixed number of samples a decision, so it is the same on every machine. Results are kept in "
    "challenges.json in the user data directory; the first play of a challenge is the one on record, later "
    "ones are practice. A bad date or code, or a damaged results file: a message and exit status 2."
)


def positive(text: str) -> int:
    return common.whole(text, 1, 2000)


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = translated(EPILOG)
    p.add_argument("code", nargs="?", metavar=_("DATE|CODE"),
                   help=_("the challenge: a date, DATE:PRESET (default: today)"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--bot", type=common.bot_spec, metavar=_("LEVEL"),
                      help=_("play your seat by a bot (easy, normal, hard, expert or cmd:PROGRAM), headless; "
                             "nothing is kept"))
    mode.add_argument("--history", action="store_true", help=_("list your challenges' results, newest first"))
    p.add_argument("--json", action="store_true",
                   help=_("with --bot, --history or --standings: print one JSON object"))
    p.add_argument("--server", metavar=_("ADDR:PORT"),
                   help=_("the day's challenge at a server, against everyone who plays it there (scored duplicate); "
                          "with your key there, your first of the day is your entry"))
    p.add_argument("--standings", nargs="?", const="", metavar=_("DATE"),
                   help=_("with --server: the day's standings (today's, UTC, or DATE's), your line marked"))
    p.add_argument("--insecure", action="store_true",
                   help=_("with --server wss://ADDR:PORT: accept a certificate that is not trusted"))
    p.add_argument("--iters", type=positive, metavar="N",
                   help=_("with --bot: samples a decision for the expert (default: the challenge's, which makes the "
                          "par everyone has); another number makes another par"))
    p.add_argument("--bot-pause", type=common.seconds, metavar=_("SECONDS"),
                   help=_("how long a finished trick stays on the table before the bot leads (default: the "
                          "settings')"))
    interface_options(p)


def run(ns: argparse.Namespace) -> int:
    from ..engine.text import printable
    from ..keep.autosave import default_data_dir
    from ..keep.challenges import CHALLENGES_NAME, ChallengeBook, ChallengeFileError
    from ..session.challenge import ChallengeCode, ChallengeError

    if ns.server is not None:
        from .fieldplay import run as run_at_server

        return run_at_server(ns)
    if ns.standings is not None or ns.insecure:
        raise common.CliError(_("spades-tui challenge: --standings and --insecure go with --server ADDR:PORT"))
    if ns.json and ns.bot is None and not ns.history:
        raise common.CliError(_("spades-tui challenge: --json goes with --bot or --history (a person's play is a "
                                "game)"))
    if ns.iters is not None and ns.bot is None:
        raise common.CliError(_("spades-tui challenge: --iters goes with --bot (a person always meets the "
                                "challenge's expert)"))
    if ns.history and ns.code is not None:
        raise common.CliError(_("spades-tui challenge: --history lists every challenge; it takes no DATE"))
    book_path = default_data_dir() / CHALLENGES_NAME
    try:
        if ns.history:
            return _history(ChallengeBook.load(book_path), ns.json)
        code = ChallengeCode.parse(ns.code) if ns.code is not None else ChallengeCode.today()
        if ns.bot is not None:
            return _headless(code, ns.bot, ns.iters, ns.json, book_path)
        ChallengeBook.load(book_path)  # a damaged file refused before the game starts, not after four hands
    except (ChallengeError, ChallengeFileError) as exc:
        print(f"spades-tui challenge: {printable(str(exc))}", file=sys.stderr)
        return 2
    return common.start_game(LaunchOptions(bot_pause=ns.bot_pause), ns, challenge=str(code))  # Textual loads only here


def _headless(code: Any, bot: str, iters: Any, as_json: bool, book_path: Any) -> int:
    from ..bots.levels import make_bot
    from ..engine.text import over_par_words, signed
    from ..keep.challenges import ChallengeBook
    from ..session.challenge import (
        ITERATIONS,
        PERSON,
        challenge_record,
        compute_par,
        make_challenge_bot,
        margins,
        play_out,
    )

    iterations = ITERATIONS if iters is None else iters
    book = ChallengeBook.load(book_path)
    par = book.par(str(code), iterations)
    if par is None:
        print(_("spades-tui challenge: computing the par of {code} (the expert in both seats)...").format(code=code),
              file=sys.stderr)
        par = compute_par(code, iterations)
        if iterations == ITERATIONS:  # the par everyone has, kept for the next play
            ChallengeBook.update(book_path, lambda b: b.with_par(str(code), iterations, par))
    try:
        seat_bot = make_bot(bot, code.bot_seed(PERSON))
    except ValueError as exc:
        raise common.CliError(f"spades-tui challenge: {exc}") from None
    record = challenge_record(code, (f"Bot ({bot})", "Expert"), kinds=(f"bot:{bot}", "bot:expert"), bot=None)
    print(_("spades-tui challenge: playing {code}: {bot} against the expert...").format(code=code, bot=bot),
          file=sys.stderr)
    bots = (seat_bot, make_challenge_bot(code, 1, iterations))
    try:
        record, state = play_out(code, bots, record=record)
    finally:
        for each in bots:
            each.close()
    mine = margins(state.history)
    result, par_total = sum(mine), sum(par)
    if as_json:
        out = {"challenge": str(code), "par": par_total, "result": result, "over_par": result - par_total,
               "hands": list(mine), "par_hands": list(par), "bot": bot, "iterations": iterations,
               "record": record.to_json()}
        return common.print_or_quiet(json.dumps(out))
    lines = [_("Challenge {code}: {bot} in your seat against the expert, four hands ({preset} rules). Margin: your "
               "points less the expert's.").format(code=code, bot=bot, preset=code.preset)]
    lines += ["  " + _("Hand {hand}: {margin}; par {par}; {difference}").format(
                  hand=i, margin=signed(m), par=signed(p), difference=signed(m - p))
              for i, (m, p) in enumerate(zip(mine, par, strict=True), 1)]
    lines.append(_("Result {result}; par {par}: {against}").format(
        result=signed(result), par=signed(par_total), against=over_par_words(result - par_total)))
    return common.print_or_quiet("\n".join(lines))


def _history(book: Any, as_json: bool) -> int:
    import time

    from ..engine.text import over_par_words, printable, signed_or_zero, when_words

    now = time.time()
    results = book.newest_first
    if as_json:
        return common.print_or_quiet(json.dumps({"results": [r.to_json() for r in results]}))
    if not results:
        return common.print_or_quiet(_("No challenge played yet: 'spades-tui challenge' plays today's."))
    lines = [_("Your challenges, newest first (margin: your points less the expert's, over the four hands):")]
    for r in results:
        over = r.over_par
        against = over_par_words(over) if over is not None else _("par not known yet (open the challenge again)")
        at = r.finished_at
        when = when_words(at, now) if at is not None else _("at an unknown time")
        line = (_("{challenge}: {total}, {against} (practice); {player}, {when}") if r.practice
                else _("{challenge}: {total}, {against}; {player}, {when}"))
        lines.append("  " + line.format(challenge=printable(r.challenge), total=signed_or_zero(r.total),
                                        against=against, player=printable(r.player, limit=40), when=when))
    return common.print_or_quiet("\n".join(lines))
