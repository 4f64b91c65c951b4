"""``spades-tui stats [--json]``: the figures of finished hands and games.  Must not import Textual."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import print_or_quiet

EPILOG = (
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
    from ..engine.text import decimal, num, printable  # lazily, as every command's imports: a fast start
    from ..keep.stats import opponent_label, recent_label, rules_group_name

    # Names come from the database, written from records: text from outside, made printable here.

    lines = [f"Finished games: {s['finished_games']} (practice games, not counted: {s['practice_games']})"]
    for key, row in s["by_opponent"].items():
        shown = printable(opponent_label(key), limit=60)
        lines.append(f"  vs {shown}: won {_share(row['won'], row['played'])}")
    for name, row in s.get("hotseat_players", {}).items():
        lines.append(f"  hot-seat, {printable(name, limit=60)}: won {_share(row['won'], row['played'])}")
    b, n = s["bids"], s["hands"]
    lines += [
        f"Hands: {n}",
        f"Bids: made {b['made']}, set {b['set']}, exact {b['exact']}, with bags {b['with_bags']}",
        f"Nil: made {s['nil']['made']} of {s['nil']['bid']}; "
        f"Double Nil: made {s['double_nil']['made']} of {s['double_nil']['bid']}",
        f"Points per hand: {decimal(s['points_per_hand'], 2)}; bags per hand: {s['bags_per_hand']:.2f}; "
        f"bag penalties: {s['bag_penalties']}",
    ]
    by_rules = s.get("by_rules", {})
    if len(by_rules) > 1:  # games under different house rules: each group's figures apart
        lines.append("By house rules:")
        for group, g in by_rules.items():
            won = sum(row["won"] for row in g["by_opponent"].values())
            lines.append(f"  {rules_group_name(group)}: finished games {g['finished_games']} (won {won}); "
                         f"hands {g['hands']}, points per hand {decimal(g['points_per_hand'], 2)}, "
                         f"bids made {g['bids']['made']}, set {g['bids']['set']}")
    if s["recent"]:
        lines.append("Recent games (your score after each hand):")
        lines += [f"  {printable(recent_label(game), limit=80)}: " + " ".join(num(x) for x in game["scores"])
                  for game in s["recent_games"]]
    return "\n".join(lines)


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = EPILOG
    p.add_argument("--json", action="store_true", help="print one JSON object")


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
