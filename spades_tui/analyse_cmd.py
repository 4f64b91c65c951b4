"""``spades-tui analyse FILE [--json]`` (analysis.md).  Must not import Textual."""

from __future__ import annotations

import json
import os
import sys
from typing import Sequence

from .cli import CliError, _Parser
from .engine import RecordError, ReplayError
from .solver.analysis import analyse_record, format_report
from .storage import StorageError, load_record


def main(argv: Sequence[str]) -> int:
    parser = _Parser(
        prog="spades-tui analyse",
        description="Judge every card played in a game record with all cards face up (double dummy).",
    )
    parser.add_argument("file", help="a game record (JSON)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    try:
        ns = parser.parse_args(list(argv))
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
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
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): say nothing more, and keep Python from
        # printing a traceback when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
