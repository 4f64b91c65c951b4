"""``spades-tui analyse FILE [--json]`` (analysis.md).  Must not import Textual."""

from __future__ import annotations

import argparse
import json
import sys

from ..engine import RecordError, ReplayError
from ..session.storage import StorageError, load_record
from .common import print_or_quiet

HELP = "judge every card played in a game record with all cards face up (double dummy)"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(ns: argparse.Namespace) -> int:
    from ..solver.analysis import analyse_record, format_report

    try:
        record = load_record(ns.file)
    except (StorageError, RecordError) as exc:
        print(f"spades-tui analyse: {exc}", file=sys.stderr)
        return 2
    try:
        analysis = analyse_record(record)
    except ReplayError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if ns.json:
        text = json.dumps(analysis.to_json(), ensure_ascii=False)
    else:
        names = [p.name for p in record.players] if record.players else ["Player 0", "Player 1"]
        text = format_report(analysis, names)
    return print_or_quiet(text)
