"""``spades-tui analyse FILE [--json]`` (docs/analysis.md).  Must not import Textual."""

from __future__ import annotations

import argparse
import json

from ..i18n.language import _
from .common import Exit, player_names, print_or_quiet, read_record, record_file_help


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar=_("FILE"), help=record_file_help())
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))


def run(ns: argparse.Namespace) -> int:
    from ..solver.analysis import analyse_record, format_report

    try:
        record, analysis = read_record(ns.file, "spades-tui analyse", analyse_record)
    except Exit as stop:
        return stop.status
    if ns.json:
        text = json.dumps(analysis.to_json(), ensure_ascii=False)
    else:
        text = format_report(analysis, player_names(record))
    return print_or_quiet(text)
