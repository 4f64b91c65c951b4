"""``spades-tui stats [--json]``: the figures of finished hands and games.  Must not import Textual."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import print_or_quiet

HELP = "print your statistics: games won by opponent, bids, Nil, points and bags per hand"

EPILOG = (
    "The database is stats.sqlite3 in the user data directory ($XDG_DATA_HOME/spades-tui/, beside games/). "
    "Figures are for player 0, the person at the keyboard; practice games are only counted apart. "
    "A damaged database is renamed stats.corrupt-DATE.sqlite3 (said on standard error), a new one is made and "
    "the empty figures are printed: exit status 0. A database that cannot be read (locked, unreadable, "
    "from a newer version): a message and exit status 2."
)

NAMES = {"easy": "easy bot", "normal": "normal bot", "hard": "hard bot", "expert": "expert bot",
         "external": "external bot",
         "hotseat": "hot-seat (first seat)"}


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part // whole}%)" if whole else f"{part}/{whole}"


def describe(s: dict[str, Any]) -> str:
    """The summary for a person to read."""
    lines = [f"Finished games: {s['finished_games']} (practice games, not counted: {s['practice_games']})"]
    for key, row in s["by_opponent"].items():
        lines.append(f"  vs {NAMES.get(key, key)}: won {_share(row['won'], row['played'])}")
    for name, row in s.get("hotseat_players", {}).items():
        lines.append(f"  hot-seat, {name}: won {_share(row['won'], row['played'])}")
    b, n = s["bids"], s["hands"]
    lines += [
        f"Hands: {n}",
        f"Bids: made {b['made']}, set {b['set']}, exact {b['exact']}, with bags {b['with_bags']}",
        f"Nil: made {s['nil']['made']} of {s['nil']['bid']}; "
        f"Double Nil: made {s['double_nil']['made']} of {s['double_nil']['bid']}",
        f"Points per hand: {s['points_per_hand']:.2f}; bags per hand: {s['bags_per_hand']:.2f}; "
        f"bag penalties: {s['bag_penalties']}",
    ]
    if s["recent"]:
        lines.append("Recent games (your score after each hand):")
        lines += ["  " + " ".join(str(x) for x in game) for game in s["recent"]]
    return "\n".join(lines)


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = EPILOG
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(ns: argparse.Namespace) -> int:
    from ..session.autosave import default_data_dir
    from ..session.stats import STATS_NAME, StatsError, empty_summary, open_stats, summary

    path = default_data_dir() / STATS_NAME
    if not path.exists():
        data = empty_summary()
    else:
        try:
            conn, message = open_stats(path)
        except StatsError as exc:
            print(f"spades-tui stats: {exc}", file=sys.stderr)
            return 2
        try:
            if message:
                print(f"spades-tui stats: {message}", file=sys.stderr)
            data = summary(conn)
        finally:
            conn.close()
    return print_or_quiet(json.dumps(data) if ns.json else describe(data))
