"""A match in parts: some deals of a seeded duplicate match played now, written to a file, and
the parts merged into the whole report later (``arena ... --deals A:B --out FILE``, ``arena merge
FILES``), so a long match fits across sessions and machines.

A part file is JSON: what the match is (the bots, the rules, the seed, the budgets: the parts of
one match must agree on all of it), which deals were asked for, the load average when the part
began and ended (figures taken at different loads say so when merged), and each finished deal.
It is rewritten atomically after every deal, so a part stopped midway keeps what it finished.
A part file is read as outside input: anything malformed is a ``PartError`` with the file's name.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Optional

from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..i18n.language import _
from ..keep.storage import atomic_write_text
from .stats import ArenaConfig, DealResult, SideStats, figure

FORMAT = "spades-tui arena part"
VERSION = 1
MAX_PART_BYTES = 64 * 1024 * 1024  # a part of thousands of deals with every decision time stays far below
MAX_DEALS = 1_000_000  # deal indices are bounded, so a typo cannot ask for a match that never ends


class PartError(Exception):
    """A part file that cannot be read or merged, with a message that says which and why."""


def parse_deals(text: str) -> tuple[int, int]:
    """``A:B``: the deals A to B - 1 of the match (0-based, as ``deal_seed`` numbers them)."""
    start, sep, end = text.partition(":")
    try:
        a, b = int(start), int(end)
    except ValueError:
        raise ValueError(_("--deals must be START:END (deal numbers, e.g. 0:30), not {text}").format(
            text=repr(text))) from None
    if not sep or not 0 <= a < b <= MAX_DEALS:
        raise ValueError(_("--deals must be START:END with 0 <= START < END <= {most}, not {text}").format(
            most=MAX_DEALS, text=repr(text)))
    return a, b


def match_of(config: ArenaConfig) -> dict[str, Any]:
    """What makes two parts the same match: every field of the config but how a git: bot was built."""
    return {"a": config.spec_a, "b": config.spec_b, "rules": config.rules.to_json(), "seed": config.seed,
            "hands_only": config.hands_only, "budget": config.budget, "timeout": config.timeout}


def _load() -> float:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else -1.0


@dataclass
class Part:
    """One part of a match: its config's facts, the deals asked for, the loads, the deals played."""

    match: dict[str, Any]
    deals: tuple[int, int]
    results: list[DealResult]
    load_start: float
    load_end: float

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "match": self.match, "deals": list(self.deals),
                "load": [self.load_start, self.load_end],
                "results": [{"index": r.index, "sides": [asdict(s) for s in r.sides],
                             "margins": list(r.margins), "messages": r.messages} for r in self.results]}


class PartWriter:
    """Writes a part file after each deal (atomically: a kill leaves the last whole version)."""

    def __init__(self, path: Path, config: ArenaConfig, deals: tuple[int, int]) -> None:
        self.path = path
        self.part = Part(match_of(config), deals, [], _load(), _load())
        self._write()

    def add(self, result: DealResult) -> None:
        self.part.results.append(result)
        self.part.load_end = _load()
        self._write()

    def _write(self) -> None:
        atomic_write_text(self.path, json.dumps(self.part.to_json(), separators=(",", ":")) + "\n")


# ---------------------------------------------------------------- reading (outside input)

def _int(v: Any) -> bool:
    return type(v) is int


def _number(v: Any) -> bool:
    return type(v) in (int, float) and math.isfinite(v)


def _times(v: Any) -> bool:
    """A list of decision times: numbers of seconds, none negative."""
    return isinstance(v, list) and all(_number(t) and t >= 0 for t in v)


def _side(data: Any) -> SideStats:
    if not isinstance(data, dict):
        raise ValueError(_("a side is not an object"))
    names = {f.name for f in fields(SideStats)}
    if set(data) not in (names, names - {"kind_times"}):  # a part written before the times by kind: without
        raise ValueError(_("a side's fields are not a side's"))
    for name, value in data.items():
        if name == "kind_times":
            if not (isinstance(value, dict)
                    and all(isinstance(k, str) and len(k) <= 20 and _times(v) for k, v in value.items())):
                raise ValueError(_("a side's decision times by kind are not lists of numbers"))
        elif name == "times":
            if not _times(value):
                raise ValueError(_("a side's decision times are not numbers"))
        elif name == "wins":
            if not (_number(value) and value >= 0):
                raise ValueError(_("a side's wins are not a number"))
        elif not (_int(value) and (value >= 0 or name == "points")):
            raise ValueError(_("a side's {field} is not a count").format(field=name))
    return SideStats(**data)


def _result(data: Any, deals: tuple[int, int]) -> DealResult:
    if not isinstance(data, dict):
        raise ValueError(_("a deal is not an object"))
    index, sides, margins, messages = (data.get(k) for k in ("index", "sides", "margins", "messages"))
    if type(index) is not int or not deals[0] <= index < deals[1]:
        raise ValueError(_("deal {deal} is not among the deals {start}:{end} of the part").format(
            deal=repr(index), start=deals[0], end=deals[1]))
    if not (isinstance(sides, list) and len(sides) == 2):
        raise ValueError(_("deal {deal}: not two sides").format(deal=index))
    if not (isinstance(margins, list) and len(margins) == 2 and all(_number(m) for m in margins)):
        raise ValueError(_("deal {deal}: the margins are not two numbers").format(deal=index))
    if not (isinstance(messages, list) and all(isinstance(m, str) for m in messages)):
        raise ValueError(_("deal {deal}: the messages are not text").format(deal=index))
    return DealResult(index, (_side(sides[0]), _side(sides[1])), (margins[0], margins[1]), list(messages))


def read_part(path: Path) -> Part:
    """A part file, checked field by field; ``PartError`` names the file and what is wrong."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_PART_BYTES + 1)
    except OSError as exc:
        raise PartError(_("{file}: cannot be read ({reason})").format(file=path, reason=exc.strerror or exc)) from None
    if len(raw) > MAX_PART_BYTES:
        raise PartError(_("{file}: larger than a part file can be ({size} MiB)").format(
            file=path, size=MAX_PART_BYTES // (1024 * 1024)))
    try:
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(_("not an arena part file (written by 'spades-tui arena ... --out FILE')"))
        if data.get("version") != VERSION:
            raise ValueError(_("an arena part of version {version}; this spades-tui reads {ours}").format(
                version=repr(data.get("version")), ours=VERSION))
        match, deals, load = data.get("match"), data.get("deals"), data.get("load")
        if not (isinstance(match, dict) and isinstance(match.get("rules"), dict)):
            raise ValueError(_("its match is not described"))
        Rules.from_json(match["rules"])  # the rules must be rules, as in a game record
        if not (isinstance(match.get("a"), str) and isinstance(match.get("b"), str) and _int(match.get("seed"))
                and type(match.get("hands_only")) is bool and _number(match.get("timeout"))
                and (match.get("budget") is None or _number(match.get("budget")))):
            raise ValueError(_("its match is not described (bots, seed, budgets)"))
        if not (isinstance(deals, list) and len(deals) == 2 and all(_int(d) for d in deals)
                and 0 <= deals[0] < deals[1] <= MAX_DEALS):
            raise ValueError(_("its deals are not START:END"))
        if not (isinstance(load, list) and len(load) == 2 and all(_number(x) for x in load)):
            raise ValueError(_("its loads are not two numbers"))
        span = (deals[0], deals[1])
        results = data.get("results")
        if not isinstance(results, list):
            raise ValueError(_("its deals played are not a list"))
        part = Part(match, span, [_result(r, span) for r in results], float(load[0]), float(load[1]))
    except (ValueError, RulesError, UnicodeDecodeError) as exc:
        raise PartError(_("{file}: {reason}").format(file=path, reason=exc)) from None
    return part


def merge(paths: list[Path]) -> tuple[ArenaConfig, list[DealResult], list[str]]:
    """The parts as one match: its config, every deal once, and a line per part (deals, loads).

    Parts of different matches, or two parts that both played a deal, are refused: merged, they
    would report a match nobody played."""
    parts = [read_part(p) for p in paths]
    first = parts[0].match
    lines: list[str] = []
    seen: dict[int, Path] = {}
    results: list[DealResult] = []
    for path, part in zip(paths, parts, strict=True):
        if part.match != first:
            differ = sorted(k for k in set(first) | set(part.match) if first.get(k) != part.match.get(k))
            raise PartError(_("{file}: another match than {first} (they differ in {fields})").format(
                file=path, first=paths[0], fields=", ".join(differ)))
        for r in part.results:
            if r.index in seen:
                raise PartError(_("{file}: deal {deal} was played in {other} too").format(
                    file=path, deal=r.index, other=seen[r.index]))
            seen[r.index] = path
            results.append(r)
        asked = part.deals[1] - part.deals[0]
        lines.append("  " + _("{file}: deals {start}:{end}, {played} of {asked} played, load {load_start} at the "
                              "start, {load_end} at the end").format(
            file=path, start=part.deals[0], end=part.deals[1], played=len(part.results), asked=asked,
            load_start=figure(part.load_start), load_end=figure(part.load_end)))
    loads = {round(x) for p in parts for x in (p.load_start, p.load_end)}
    if len(loads) > 1:
        lines.append("  " + _("the parts ran at different loads: their decision times are not one figure"))
    config = ArenaConfig(first["a"], first["b"], Rules.from_json(first["rules"]), first["seed"],
                         bool(first["hands_only"]), _budget(first.get("budget")), float(first["timeout"]))
    return config, results, lines


def _budget(value: Any) -> Optional[float]:
    return float(value) if _number(value) else None
