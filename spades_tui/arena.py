"""The arena: bot against bot, duplicate deals, statistics.

The host drives each game with the engine (``reduce``, ``legal_actions``,
``observe``) and the seeded ``Dealer``; a bot only ever gets ``observe(state, seat)``.
Every deal is played twice with the seats swapped (duplicate), so the luck of the
cards cancels.  The statistics are pure functions (``wilson``, ``mean_ci``,
``summarise``) so they can be checked by hand.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Optional, Sequence

from .bots import Bot, BotError, make_bot
from .dealer import Dealer
from .engine import GameState, IllegalActionError, Phase, Rules, legal_actions, new_game, observe, reduce

MAX_HANDS = 200  # a game still undecided after this many hands is scored on points
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
    times: list[float] = field(default_factory=list)

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
        self.times.extend(other.times)


def hand_stats(state: GameState, seat: int, stats: SideStats) -> None:
    """Add the scored hands of ``state`` for ``seat`` to ``stats``."""
    for h in state.history:
        bid = h.bids[seat]
        tricks = h.tricks[seat]
        stats.hands += 1
        stats.points += h.points[seat]
        if bid == "double_nil":
            stats.double_nil += 1
            stats.double_nil_made += tricks == 0
        elif bid == 0:
            stats.nil += 1
            stats.nil_made += tricks == 0
        else:
            stats.contracts += 1
            stats.made += tricks >= bid


# ---------------------------------------------------------------- one game

@dataclass
class GameResult:
    """One game (or single hand) between seat 0 and seat 1."""

    state: GameState
    winner: Optional[int]  # seat, None for a draw
    times: tuple[list[float], list[float]]
    forfeit: Optional[int] = None  # the seat that forfeited
    message: str = ""


def play_game(
    bots: tuple[Bot, Bot],
    seed: int,
    rules: Rules,
    first_drafter: int = 0,
    hands: Optional[int] = None,
    max_hands: int = MAX_HANDS,
    observer: Optional[Callable[[GameState, int], None]] = None,
) -> GameResult:
    """Play one game (or ``hands`` hands) with the engine; bots only see observations.

    A bot that raises (``BotError`` or anything else) or returns an illegal action
    forfeits: the other seat wins and the message says who and why.
    ``observer(state, seat)`` is called before each decision (tests use it).
    """
    dealer = Dealer(seed)
    state = new_game(rules, first_drafter)
    times: tuple[list[float], list[float]] = ([], [])
    limit = hands if hands is not None else max_hands
    seat = 0
    try:
        for seat in (0, 1):
            bots[seat].start(seat, rules)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.SHUFFLE and len(state.history) >= limit:
                break
            chance = dealer.chance_action(state)
            if chance is not None:
                state = reduce(state, chance)
                continue
            seat = state.to_act if state.to_act is not None else 0
            legal = legal_actions(state)
            obs = observe(state, seat)
            if observer is not None:
                observer(state, seat)
            start = time.perf_counter()
            action = bots[seat].decide(obs, legal)
            times[seat].append(time.perf_counter() - start)
            if action not in legal:
                raise BotError(f"returned an illegal action {action!r}")
            state = reduce(state, action)
        winner = state.winner
        if winner is None and state.scores[0] != state.scores[1]:
            winner = 0 if state.scores[0] > state.scores[1] else 1
        for b in bots:
            b.finish(state.scores, winner)
    except (BotError, IllegalActionError) as exc:
        return GameResult(state, 1 - seat, times, seat, f"{_name(bots[seat])} (seat {seat}) forfeits: {exc}")
    except Exception as exc:  # a bug in a bot must not take the arena down
        return GameResult(
            state, 1 - seat, times, seat, f"{_name(bots[seat])} (seat {seat}) forfeits: it crashed ({exc!r})"
        )
    finally:
        for b in bots:
            try:
                b.close()
            except Exception:
                pass
    return GameResult(state, winner, times)


def _name(bot: Bot) -> str:
    return bot.name


# ---------------------------------------------------------------- duplicate deals

@dataclass(frozen=True)
class ArenaConfig:
    spec_a: str
    spec_b: str
    rules: Rules = field(default_factory=Rules)
    seed: int = 1
    hands_only: bool = False
    budget: Optional[float] = None  # default thinking budget for hard bots
    timeout: float = 10.0  # per answer of an external bot


@dataclass
class DealResult:
    index: int
    sides: tuple[SideStats, SideStats]  # A, B
    margins: tuple[float, float]  # A's points minus B's, per seating (per hand in hands-only mode)
    messages: list[str]


def deal_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def play_deal(config: ArenaConfig, index: int) -> DealResult:
    """Deal ``index``: A in seat 0 then A in seat 1, with the same cards."""
    seed = deal_seed(config.seed, index)
    first = index % 2
    sides = (SideStats(), SideStats())
    margins = []
    messages = []
    for a_seat in (0, 1):
        specs = [config.spec_b, config.spec_b]
        specs[a_seat] = config.spec_a
        bots = tuple(
            make_bot(s, seed=seed * 2 + k, budget=config.budget, timeout=config.timeout)
            for k, s in enumerate(specs)
        )
        result = play_game(
            (bots[0], bots[1]), seed, config.rules, first, hands=1 if config.hands_only else None
        )
        b_seat = 1 - a_seat
        for side, seat in ((0, a_seat), (1, b_seat)):
            st = SideStats(games=1)
            if result.winner == seat:
                st.wins = 1.0
            elif result.winner is None:
                st.wins = 0.5
            st.forfeits = int(result.forfeit == seat)
            hand_stats(result.state, seat, st)
            st.times = result.times[seat]
            sides[side].add(st)
        played = max(1, len(result.state.history))
        diff = result.state.scores[a_seat] - result.state.scores[b_seat]
        margins.append(diff / played)
        if result.message:
            who = "A" if result.forfeit == a_seat else "B"
            messages.append(f"deal {index}, {who}: {result.message}")
    return DealResult(index, sides, (margins[0], margins[1]), messages)


def _play_deal_star(args: tuple[ArenaConfig, int]) -> DealResult:
    return play_deal(*args)


def run_deals(config: ArenaConfig, deals: int, jobs: int = 1) -> Iterator[DealResult]:
    work = [(config, i) for i in range(deals)]
    if jobs <= 1:
        yield from map(_play_deal_star, work)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_deal_star, work)


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
    return f"{100 * x:.1f}%"


def _share(k: int, n: int) -> str:
    return f"{k}/{n}" + (f" ({_pct(k / n)})" if n else "")


def format_report(config: ArenaConfig, summary: Summary) -> str:
    names = (config.spec_a, config.spec_b)
    a, b = summary.sides
    deals = len(summary.margins)
    unit = "hands" if config.hands_only else "games"
    lines = [
        f"arena: A = {names[0]}  vs  B = {names[1]}",
        f"{deals} duplicate deals x 2 seatings = {a.games} {unit}, seed {config.seed}"
        + (f", hard budget {config.budget:g} s" if config.budget is not None else ""),
        "",
    ]
    for label, s in (("A", a), ("B", b)):
        lines.append(f"{label} {names[0] if label == 'A' else names[1]}:")
        if not config.hands_only:
            lo, hi = wilson(s.wins, s.games)
            lines.append(
                f"  games won            {s.wins:g}/{s.games} = {_pct(s.wins / max(1, s.games))}"
                f"  (95% CI {_pct(lo)} to {_pct(hi)})"
            )
        per_hand = s.points / max(1, s.hands)
        lines.append(f"  points per hand      {per_hand:.1f}  ({s.hands} hands)")
        lines.append(f"  contracts made       {_share(s.made, s.contracts)}")
        lines.append(f"  Nil made/attempted   {s.nil_made}/{s.nil}")
        lines.append(f"  Double Nil made/att. {s.double_nil_made}/{s.double_nil}")
        if s.times:
            ts = sorted(s.times)
            lines.append(
                f"  decision time        mean {1000 * sum(ts) / len(ts):.1f} ms,"
                f" median {1000 * ts[len(ts) // 2]:.1f} ms, worst {1000 * ts[-1]:.1f} ms ({len(ts)} decisions)"
            )
        if s.forfeits:
            lines.append(f"  forfeits             {s.forfeits}")
    m, lo, hi = mean_ci(summary.margins)
    what = "per hand" if config.hands_only else "per hand (game average)"
    lines.append("")
    lines.append(f"margin A - B, points {what}: {m:+.1f}  (95% CI {lo:+.1f} to {hi:+.1f}, {deals} deals)")
    if summary.messages:
        lines.append("")
        lines.append(f"forfeits ({len(summary.messages)}):")
        lines.extend(f"  {msg}" for msg in summary.messages[:20])
        if len(summary.messages) > 20:
            lines.append(f"  ... and {len(summary.messages) - 20} more")
    return "\n".join(lines)
