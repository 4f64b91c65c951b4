"""``spades-tui replay FILE [--json]`` (docs/game-record.md).  Must not import Textual."""

from __future__ import annotations

import argparse
import json
from typing import Any, Sequence

from ..engine.outcome import Forfeit, Outcome
from ..engine.record import replay, summary
from ..engine.state import GameState
from ..engine.text import num, printable, signed
from ..i18n.language import N_, _, translated
from ..keep.meta import RecordMeta, game_outcome
from ..session.store import forfeit_of
from .common import Exit, player_names, print_or_quiet, read_record, record_file_help

# The phase in words for a person; the record name follows in brackets for scripts and bug reports.
PHASE_WORDS = {
    "shuffle": N_("a new hand is due (shuffle)"),
    "double_nil": N_("Double Nil decision"),
    "draft": N_("draft"),
    "exchange": N_("Double Nil exchange"),
    "exchange_draw": N_("exchange draw (chance)"),
    "bidding": N_("bidding"),
    "play": N_("play"),
    "game_over": N_("game over"),
}


def describe(state: GameState, names: Sequence[str] | None = None,
             forfeit: Forfeit | None = None, practice_from: int | None = None,
             challenge: tuple[str, Outcome | None] | None = None) -> str:
    """The replay summary for a person to read (a negative number with the true minus; ``--json`` keeps
    ASCII); ``names`` already printable (``player_names``); ``practice_from``: the first hand a take-back
    touched, for a practice game; ``challenge``: a daily challenge's code and how it ended (None while it goes on)."""
    s = summary(state)
    if names is None:
        names = [_("Player {number}").format(number=seat) for seat in (0, 1)]
    words = translated(PHASE_WORDS[s["phase"]])
    # The record's name in brackets only where the words differ from it (never "play [play]").
    phase = words if words == s["phase"] else f"{words} [{s['phase']}]"
    ended = challenge[1] if challenge is not None else None
    if ended is not None:  # its fifth hand is never dealt
        phase = _("over: the challenge's four hands are played [{phase}]").format(phase=s["phase"])
    lines = [
        _("Phase: {phase}").format(phase=phase),
        _("Hands started: {hands}").format(hands=s["hand"]),
        _("Scores: {name0} {score0}, {name1} {score1}").format(
            name0=names[0], score0=num(s["scores"][0]), name1=names[1], score1=num(s["scores"][1])),
        _("Bags: {name0} {bags0}, {name1} {bags1}").format(
            name0=names[0], bags0=s["bags"][0], name1=names[1], bags1=s["bags"][1]),
    ]
    if practice_from is not None:
        lines.append(_practice_words(practice_from))
    if forfeit is not None:
        reason = printable(forfeit.reason, limit=300)
        lines.append(_("Result: {name} (player {seat}) forfeited: {reason}").format(
            name=names[forfeit.seat], seat=forfeit.seat, reason=reason))
    if challenge is not None:  # four hands, then over: its target is out of reach (docs/game-record.md)
        lines.append(_("Challenge {code}: {played} of its four hands played").format(
            code=printable(challenge[0]), played=len(state.history)))
    if ended is not None and forfeit is None:
        lines.append(_("Winner: {name} (player {seat})").format(name=names[ended.winner], seat=ended.winner)
                     if ended.winner is not None else _("A draw: the same score after the four hands"))
    elif s["winner"] is not None:
        lines.append(_("Winner: {name} (player {seat})").format(name=names[s["winner"]], seat=s["winner"]))
    elif s["to_act"] is not None:
        lines.append(_("To act: {name} (player {seat})").format(name=names[s["to_act"]], seat=s["to_act"]))
    else:
        lines.append(_("To act: chance (a shuffle or an exchange draw is due)"))
    if s["hands"]:
        lines.append(_("Completed hands:"))
        lines += ["  " + _hand_words(i, h, names) for i, h in enumerate(s["hands"], 1)]
    return "\n".join(lines)


def _practice_words(practice_from: int) -> str:
    if practice_from <= 1:
        return _("Practice: a take-back made this a practice game from hand {hand} on (in the statistics no hand "
                 "counts)").format(hand=practice_from)
    if practice_from == 2:
        return _("Practice: a take-back made this a practice game from hand {hand} on (in the statistics hand 1 "
                 "counts)").format(hand=practice_from)
    return _("Practice: a take-back made this a practice game from hand {hand} on (in the statistics hands 1 to "
             "{last} count)").format(hand=practice_from, last=practice_from - 1)


def _hand_words(i: int, h: dict[str, Any], names: Sequence[str]) -> str:
    """A completed hand's line: who drafted first, the bids, the tricks and the points."""
    bids = [_("Double Nil") if b == "double_nil" else (_("Nil") if b == 0 else str(b)) for b in h["bids"]]
    return _("hand {hand}: {drafter} drafted first; bids {name0} {bid0}, {name1} {bid1}; tricks {tricks0} / "
             "{tricks1}; points {points0} / {points1}").format(
        hand=i, drafter=names[h["first_drafter"]], name0=names[0], bid0=bids[0], name1=names[1], bid1=bids[1],
        tricks0=h["tricks"][0], tricks1=h["tricks"][1], points0=signed(h["points"][0]), points1=signed(h["points"][1]))


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar=_("FILE"), help=record_file_help())
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))


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
