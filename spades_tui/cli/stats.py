"""``spades-tui stats [--json]``: the figures of finished hands and games.  Must not import Textual."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n.language import N_, _, translated
from .common import print_or_quiet

EPILOG = N_(
    "The database is stats.sqlite3 in the user data directory ($XDG_DATA_HOME/spades-tui/, beside games/). "
    "Figures are for player 0, the person at the keyboard; practice games are only counted apart. "
    "A damaged database is renamed stats.corrupt-DATE.sqlite3 (said on standard error), a new one is made and "
    "the empty figures are printed: exit status 0. A database that cannot be read (locked, unreadable, "
    "from a newer version): a message and exit status 2."
)

def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part // whole}%)" if whole else f"{part}/{whole}"


def describe(s: dict[str, Any]) -> str:
    """The summary for a person to read: a negative number with the true minus (``--json`` keeps ASCII)."""
    from ..engine.text import num, printable  # lazily, as every command's imports: a fast start
    from ..keep.stats import opponent_label, recent_label, rules_group_name
    from .common import decimal_words

    # Names come from the database, written from records: text from outside, made printable here.

    lines = [_("Finished games: {games} (practice games, not counted: {practice})").format(
        games=s["finished_games"], practice=s["practice_games"])]
    for key, row in s["by_opponent"].items():
        shown = printable(opponent_label(key), limit=60)
        lines.append("  " + _("vs {opponent}: won {share}").format(opponent=shown,
                                                                   share=_share(row["won"], row["played"])))
    for name, row in s.get("hotseat_players", {}).items():
        lines.append("  " + _("hot-seat, {name}: won {share}").format(
            name=printable(name, limit=60), share=_share(row["won"], row["played"])))
    b, n = s["bids"], s["hands"]
    lines += [
        _("Hands: {hands}").format(hands=n),
        _("Bids: made {made}, set {set}, exact {exact}, with bags {with_bags}").format(
            made=b["made"], set=b["set"], exact=b["exact"], with_bags=b["with_bags"]),
        _("Nil: made {nil_made} of {nil_bid}; Double Nil: made {double_made} of {double_bid}").format(
            nil_made=s["nil"]["made"], nil_bid=s["nil"]["bid"], double_made=s["double_nil"]["made"],
            double_bid=s["double_nil"]["bid"]),
        _("Points per hand: {points}; bags per hand: {bags}; bag penalties: {penalties}").format(
            points=decimal_words(s["points_per_hand"], 2), bags=decimal_words(s["bags_per_hand"], 2),
            penalties=s["bag_penalties"]),
    ]
    by_rules = s.get("by_rules", {})
    if len(by_rules) > 1:  # games under different house rules: each group's figures apart
        lines.append(_("By house rules:"))
        for group, g in by_rules.items():
            won = sum(row["won"] for row in g["by_opponent"].values())
            lines.append("  " + _("{rules}: finished games {games} (won {won}); hands {hands}, points per hand "
                                  "{points}, bids made {made}, set {set}").format(
                rules=rules_group_name(group), games=g["finished_games"], won=won, hands=g["hands"],
                points=decimal_words(g["points_per_hand"], 2), made=g["bids"]["made"], set=g["bids"]["set"]))
    if s["recent"]:
        lines.append(_("Recent games (your score after each hand):"))
        lines += [f"  {printable(recent_label(game), limit=80)}: " + " ".join(num(x) for x in game["scores"])
                  for game in s["recent_games"]]
    return "\n".join(lines)


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = translated(EPILOG)
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))


def run(ns: argparse.Namespace) -> int:
    from ..keep.autosave import default_data_dir
    from ..keep.stats import STATS_NAME, load_summary

    report = load_summary(default_data_dir() / STATS_NAME)
    if report.message:
        print(f"spades-tui stats: {report.message}", file=sys.stderr)
    if report.error:
        print(f"spades-tui stats: {report.error}", file=sys.stderr)
        return 2
    data = report.summary
    return print_or_quiet(json.dumps(data) if ns.json else describe(data))
