"""``spades-tui replay FILE [--json]`` (docs/game-record.md).  Must not import Textual."""

from __future__ import annotations

import argparse
import json
from typing import Sequence

from ..engine.outcome import Forfeit, Outcome
from ..engine.record import replay, summary
from ..engine.state import GameState
from ..engine.text import num, printable, signed
from ..keep.meta import RecordMeta, game_outcome
from ..session.store import forfeit_of
from .common import Exit, player_names, print_or_quiet, read_record, record_file_help

# The phase in words for a person; the record name follows in brackets for scripts and bug reports.
PHASE_WORDS = {
    "shuffle": "a new hand is due (shuffle)",
    "double_nil": "Double Nil decision",
    "draft": "draft",
    "exchange": "Double Nil exchange",
    "exchange_draw": "exchange draw (chance)",
    "bidding": "bidding",
    "play": "play",
    "game_over": "game over",
}


def describe(state: GameState, names: Sequence[str] = ("Player 0", "Player 1"),
             forfeit: Forfeit | None = None, practice_from: int | None = None,
             challenge: tuple[str, Outcome | None] | None = None) -> str:
    """The replay summary for a person to read (a negative number with the true minus; ``--json`` keeps
    ASCII); ``names`` already printable (``player_names``); ``practice_from``: the first hand a take-back
    touched, for a practice game; ``challenge``: a daily challenge's code and how it ended (None while it goes on)."""
    s = summary(state)
    words = PHASE_WORDS[s["phase"]]
    # The record's name in brackets only where the words differ from it (never "play [play]").
    phase = words if words == s["phase"] else f"{words} [{s['phase']}]"
    ended = challenge[1] if challenge is not None else None
    if ended is not None:  # its fifth hand is never dealt
        phase = f"over: the challenge's four hands are played [{s['phase']}]"
    lines = [
        f"Phase: {phase}",
        f"Hands started: {s['hand']}",
        f"Scores: {names[0]} {num(s['scores'][0])}, {names[1]} {num(s['scores'][1])}",
        f"Bags: {names[0]} {s['bags'][0]}, {names[1]} {s['bags'][1]}",
    ]
    if practice_from is not None:
        counted = "no hand counts" if practice_from <= 1 else (
            "hand 1 counts" if practice_from == 2 else f"hands 1 to {practice_from - 1} count")
        lines.append(f"Practice: a take-back made this a practice game from hand {practice_from} on "
                     f"(in the statistics {counted})")
    if forfeit is not None:
        reason = printable(forfeit.reason, limit=300)
        lines.append(f"Result: {names[forfeit.seat]} (player {forfeit.seat}) forfeited: {reason}")
    if challenge is not None:  # four hands, then over: its target is out of reach (docs/game-record.md)
        lines.append(f"Challenge {printable(challenge[0])}: {len(state.history)} of its four hands played")
    if ended is not None and forfeit is None:
        lines.append(f"Winner: {names[ended.winner]} (player {ended.winner})" if ended.winner is not None
                     else "A draw: the same score after the four hands")
    elif s["winner"] is not None:
        lines.append(f"Winner: {names[s['winner']]} (player {s['winner']})")
    elif s["to_act"] is not None:
        lines.append(f"To act: {names[s['to_act']]} (player {s['to_act']})")
    else:
        lines.append("To act: chance (a shuffle or an exchange draw is due)")
    if s["hands"]:
        lines.append("Completed hands:")
        for i, h in enumerate(s["hands"], 1):
            bids = ["Double Nil" if b == "double_nil" else ("Nil" if b == 0 else str(b)) for b in h["bids"]]
            lines.append(
                f"  hand {i}: {names[h['first_drafter']]} drafted first; "
                f"bids {names[0]} {bids[0]}, {names[1]} {bids[1]}; "
                f"tricks {h['tricks'][0]} / {h['tricks'][1]}; "
                f"points {signed(h['points'][0])} / {signed(h['points'][1])}"
            )
    return "\n".join(lines)


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=record_file_help())
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(ns: argparse.Namespace) -> int:
    try:
        record, state = read_record(ns.file, "spades-tui replay", replay)
    except Exit as stop:
        return stop.status
    forfeit = forfeit_of(record)
    if ns.json:
        data = summary(state)
        if forfeit is not None:
            data["result"] = forfeit.to_json()  # an extra key: readers ignore keys they do not know
        code = RecordMeta.of(record).challenge
        if code is not None:  # extra keys too: the challenge, and its winner once its four hands are played
            ended = game_outcome(record, state)
            data["challenge"] = {"code": code, "over": ended is not None,
                                 "winner": ended.winner if ended is not None else None}
        text = json.dumps(data)
    else:
        meta = RecordMeta.of(record)
        challenge = (meta.challenge, game_outcome(record, state)) if meta.challenge is not None else None
        text = describe(state, player_names(record), forfeit, meta.practice_from if meta.practice else None,
                        challenge)
    return print_or_quiet(text)
