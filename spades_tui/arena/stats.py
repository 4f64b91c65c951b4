"""Arena statistics: pure functions, so they can be checked by hand.

``wilson`` and ``mean_ci`` give the 95% intervals; ``SideStats`` adds up what one side
did; ``summarise`` and ``format_report`` turn deal results into the report.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from ..engine.rulebook import made
from ..engine.rules import Rules
from ..engine.state import GameState
from ..engine.text import num_text
from ..i18n.language import N_, SOURCE, _, current, ngettext, translated

Z95 = 1.959963984540054


# ---------------------------------------------------------------- statistics (pure)

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional for draws)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (mean ± z · s / √n)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n < 2:
        return (m, m, m)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return (m, m - half, m + half)


def duplicate_margins(pairs: Iterable[tuple[float, float]]) -> list[float]:
    """Per deal, A's mean margin over B across the two seatings: ((a1 - b1) + (a2 - b2)) / 2
    is given here as the pair (a1 - b1, a2 - b2)."""
    return [(x + y) / 2 for x, y in pairs]


@dataclass
class SideStats:
    """What one side did over some games."""

    games: int = 0
    wins: float = 0.0  # a draw counts one half
    hands: int = 0
    points: int = 0
    contracts: int = 0
    made: int = 0
    nil: int = 0
    nil_made: int = 0
    double_nil: int = 0
    double_nil_made: int = 0
    forfeits: int = 0
    bid_sum: int = 0  # tricks bid, over the hands with a number bid (contracts and Nils)
    bids: int = 0  # hands with a number bid (a Double Nil has none)
    tricks: int = 0  # tricks taken, over all hands
    bags: int = 0  # bags added, over all hands
    times: list[float] = field(default_factory=list)
    # The same times by the phase each was decided in (draft, bidding, play, double_nil, exchange...): issue 38
    # sets a target for each kind, and the play's many quick decisions hide a slow bid in the whole's median.
    kind_times: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: SideStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.hands += other.hands
        self.points += other.points
        self.contracts += other.contracts
        self.made += other.made
        self.nil += other.nil
        self.nil_made += other.nil_made
        self.double_nil += other.double_nil
        self.double_nil_made += other.double_nil_made
        self.forfeits += other.forfeits
        self.bid_sum += other.bid_sum
        self.bids += other.bids
        self.tricks += other.tricks
        self.bags += other.bags
        self.times.extend(other.times)
        for kind, found in other.kind_times.items():
            self.kind_times.setdefault(kind, []).extend(found)


# The phases in a hand's order, as the report names them.
KIND_LABELS = {"double_nil": N_("Double Nil choice"), "draft": N_("draft turn"), "exchange": N_("exchange"),
               "exchange_draw": N_("exchange draw"), "bidding": N_("bid"), "play": N_("card play")}


def figure(x: float, places: Optional[int] = None, sign: bool = False) -> str:
    """A figure as the reader's language writes it: the true minus, a decimal comma in Swedish and Estonian
    ("−12,5"); ``places`` decimals, or (None) as few as it needs ("0.5", "3")."""
    shape = "g" if places is None else f".{places}f"
    text = num_text(format(x, ("+" if sign else "") + shape))
    return text if current() == SOURCE else text.replace(".", ",")


def row(label: str, value: str, width: int = 20) -> str:
    """A line of a side's figures: the label in its column (as wide as the longest label of the language, 20 at
    least), then the value."""
    widest = max(len(translated(kind)) for kind in BID_KINDS)
    return f"  {label:<{max(width, widest)}} {value}"


def kind_time_lines(s: SideStats) -> list[str]:
    """The decision times by kind, each with its median and worst (the whole's median is mostly card play)."""
    lines = []
    for kind in sorted(s.kind_times, key=lambda k: list(KIND_LABELS).index(k) if k in KIND_LABELS else 99):
        ts = sorted(s.kind_times[kind])
        if ts:
            label = translated(KIND_LABELS[kind]) if kind in KIND_LABELS else kind
            lines.append(f"    {label:17} " + _("median {median} ms, worst {worst} ms ({count})").format(
                median=figure(1000 * ts[len(ts) // 2], 1), worst=figure(1000 * ts[-1], 1), count=len(ts)))
    return lines


def hand_stats(state: GameState, seat: int, stats: SideStats) -> None:
    """Add the scored hands of ``state`` for ``seat`` to ``stats``."""
    for h in state.history:
        bid = h.bids[seat]
        tricks = h.tricks[seat]
        stats.hands += 1
        stats.points += h.points[seat]
        stats.tricks += tricks
        stats.bags += h.lines[seat].bags_added
        if isinstance(bid, int):
            stats.bid_sum += bid
            stats.bids += 1
        if bid == "double_nil":
            stats.double_nil += 1
            stats.double_nil_made += made(bid, tricks)
        elif bid == 0:
            stats.nil += 1
            stats.nil_made += made(bid, tricks)
        else:
            stats.contracts += 1
            stats.made += made(bid, tricks)


# ---------------------------------------------------------------- what a match is, what one deal gave

@dataclass(frozen=True)
class ArenaConfig:
    spec_a: str
    spec_b: str
    rules: Rules = field(default_factory=Rules)
    seed: int = 1
    hands_only: bool = False
    budget: Optional[float] = None  # default thinking budget for hard bots
    timeout: float = 10.0  # per answer of an external bot
    # What each side is made from when its spec is not made as it is (a git: bot): the spec to
    # make and the environment to run it in (``gitbot.GitBots.resolve``).
    made: tuple[Optional[tuple[str, dict[str, str]]], Optional[tuple[str, dict[str, str]]]] = (None, None)


@dataclass
class DealResult:
    index: int
    sides: tuple[SideStats, SideStats]  # A, B
    margins: tuple[float, float]  # A's points minus B's, per seating (per hand in hands-only mode)
    messages: list[str]


# ---------------------------------------------------------------- the report

@dataclass
class Summary:
    sides: tuple[SideStats, SideStats]
    margins: list[float]
    messages: list[str]


def summarise(results: Iterable[DealResult]) -> Summary:
    a, b = SideStats(), SideStats()
    margins: list[float] = []
    messages: list[str] = []
    for r in sorted(results, key=lambda r: r.index):
        a.add(r.sides[0])
        b.add(r.sides[1])
        margins.extend(duplicate_margins([r.margins]))
        messages.extend(r.messages)
    return Summary((a, b), margins, messages)


def _pct(x: float) -> str:
    return figure(100 * x, 1) + "%"


def _share(k: int, n: int) -> str:
    return f"{k}/{n}" + (f" ({_pct(k / n)})" if n else "")


BID_KINDS = (N_("contract bids"), N_("Nil bids"), N_("Double Nil bids"))


def bid_kind_lines(s: SideStats) -> list[str]:
    """Per bid kind: how many of the side's hands it was bid in, and how many of those it made."""
    counts = ((s.contracts, s.made), (s.nil, s.nil_made), (s.double_nil, s.double_nil_made))
    return [row(translated(kind), _("{share} of hands, made {made}").format(share=_share(bid, s.hands),
                                                                           made=_share(made, bid)))
            for kind, (bid, made) in zip(BID_KINDS, counts, strict=True)]


def bid_trick_lines(s: SideStats) -> list[str]:
    """The side's mean bid (over the hands it bid a number: Double Nil has none), the mean tricks
    it took and the bags it added, each a hand."""
    hands = max(1, s.hands)
    mean_bid = figure(s.bid_sum / s.bids, 2) if s.bids else "-"
    return [
        row(_("mean bid"), ngettext("{mean}  ({count} bid)", "{mean}  ({count} bids)", s.bids).format(
            mean=mean_bid, count=s.bids)),
        row(_("tricks per hand"), figure(s.tricks / hands, 2)),
        row(_("bags per hand"), figure(s.bags / hands, 2)),
    ]


def _heading(config: ArenaConfig, games: int, deals: int) -> str:
    """The match's line: its deals and games (or hands), its seed, the hard bots' budget."""
    said = dict(deals=deals, count=games, seed=config.seed)
    if config.hands_only:
        line = ngettext("{deals} duplicate deals x 2 seatings = {count} hand, seed {seed}",
                        "{deals} duplicate deals x 2 seatings = {count} hands, seed {seed}", games).format(**said)
    else:
        line = ngettext("{deals} duplicate deals x 2 seatings = {count} game, seed {seed}",
                        "{deals} duplicate deals x 2 seatings = {count} games, seed {seed}", games).format(**said)
    if config.budget is not None:
        line += _(", hard/expert budget {seconds} s").format(seconds=figure(config.budget))
    return line


def _side_lines(config: ArenaConfig, s: SideStats) -> list[str]:
    lines = []
    if not config.hands_only:
        lo, hi = wilson(s.wins, s.games)
        lines.append(row(_("games won"), _("{wins}/{games} = {share}  (95% CI {low} to {high})").format(
            wins=figure(s.wins), games=s.games,
            share=_pct(s.wins / max(1, s.games)), low=_pct(lo), high=_pct(hi))))
    per_hand = s.points / max(1, s.hands)
    lines.append(row(_("points per hand"), ngettext("{points}  ({count} hand)", "{points}  ({count} hands)",
                                                    s.hands).format(points=figure(per_hand, 1), count=s.hands)))
    lines.extend(bid_kind_lines(s))
    lines.extend(bid_trick_lines(s))
    if s.times:
        ts = sorted(s.times)
        lines.append(row(_("decision time"), ngettext(
            "mean {mean} ms, median {median} ms, worst {worst} ms ({count} decision)",
            "mean {mean} ms, median {median} ms, worst {worst} ms ({count} decisions)", len(ts)).format(
                mean=figure(1000 * sum(ts) / len(ts), 1), median=figure(1000 * ts[len(ts) // 2], 1),
                worst=figure(1000 * ts[-1], 1), count=len(ts))))
        lines.extend(kind_time_lines(s))
    if s.forfeits:
        lines.append(row(_("forfeits"), str(s.forfeits)))
    return lines


def format_report(config: ArenaConfig, summary: Summary) -> str:
    names = (config.spec_a, config.spec_b)
    a, b = summary.sides
    deals = len(summary.margins)
    lines = [_("arena: A = {a}  vs  B = {b}").format(a=names[0], b=names[1]), _heading(config, a.games, deals), ""]
    for label, s in (("A", a), ("B", b)):
        lines.append(f"{label} {names[0] if label == 'A' else names[1]}:")
        lines += _side_lines(config, s)
    m, lo, hi = mean_ci(summary.margins)
    lines.append("")
    # A person reads the report: its negative figures with the true minus (the parts files keep JSON's "-").
    said = dict(margin=figure(m, 1, sign=True), low=figure(lo, 1, sign=True), high=figure(hi, 1, sign=True),
                count=deals)
    lines.append(ngettext("margin A - B, points per hand: {margin}  (95% CI {low} to {high}, {count} deal)",
                          "margin A - B, points per hand: {margin}  (95% CI {low} to {high}, {count} deals)",
                          deals).format(**said) if config.hands_only else
                 ngettext("margin A - B, points per hand (game average): {margin}  (95% CI {low} to {high}, {count} "
                          "deal)", "margin A - B, points per hand (game average): {margin}  (95% CI {low} to {high}, "
                          "{count} deals)", deals).format(**said))
    if summary.messages:
        lines.append("")
        lines.append(_("forfeits ({count}):").format(count=len(summary.messages)))
        lines.extend(f"  {msg}" for msg in summary.messages[:20])
        if len(summary.messages) > 20:
            lines.append(_("  ... and {count} more").format(count=len(summary.messages) - 20))
    return "\n".join(lines)
