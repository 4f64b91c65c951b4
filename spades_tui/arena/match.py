"""The arena: bot against bot, duplicate deals.

Each game runs through the session's step loop with the seeded ``Dealer``; a bot only
ever gets ``observe(state, seat)``.  Every deal is played twice with the seats swapped
(duplicate), so the luck of the cards cancels.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from ..bots.base import Bot, BotError
from ..bots.levels import make_bot
from ..engine.actions import PlayerAction
from ..engine.errors import IllegalActionError
from ..engine.observation import observe
from ..engine.outcome import Forfeit, Outcome, Termination, hand_limit_outcome, outcome_of
from ..engine.reducer import legal_actions
from ..engine.rules import Rules
from ..engine.state import GameState, Phase, new_game
from ..i18n.language import in_source
from ..session import loop
from ..session.dealer import Dealer
from .stats import ArenaConfig, DealResult, SideStats, hand_stats

MAX_HANDS = 200  # a game still undecided after this many hands is scored on points


# ---------------------------------------------------------------- one game

@dataclass
class GameResult:
    """One game (or single hand) between seat 0 and seat 1, and how it ended."""

    state: GameState
    outcome: Outcome
    times: tuple[list[float], list[float]]
    # Each decision's phase, beside its time (issue 38 sets targets by kind).
    kinds: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))

    @property
    def winner(self) -> Optional[int]:
        """The winning seat; None for a draw (equal scores at the hand limit)."""
        return self.outcome.winner

    @property
    def forfeit(self) -> Optional[int]:
        """The seat that forfeited, if one did."""
        return self.outcome.forfeit.seat if self.outcome.forfeit is not None else None

    @property
    def message(self) -> str:
        return self.outcome.forfeit.reason if self.outcome.forfeit is not None else ""


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
    kinds: tuple[list[str], list[str]] = ([], [])
    limit = hands if hands is not None else max_hands
    seat = 0

    def decide(now: GameState, to_act: int) -> PlayerAction:
        nonlocal seat, state
        seat, state = to_act, now
        legal = legal_actions(now)
        obs = observe(now, to_act)
        if observer is not None:
            observer(now, to_act)
        start = time.perf_counter()
        action = bots[to_act].decide(obs, legal)
        times[to_act].append(time.perf_counter() - start)
        kinds[to_act].append(now.phase.value)
        if action not in legal:
            raise BotError(f"returned an illegal action {action!r}")
        return action

    def enough(now: GameState) -> bool:
        return now.phase is Phase.SHUFFLE and len(now.history) >= limit

    try:
        for seat in (0, 1):
            bots[seat].start(seat, rules)
        state = loop.run(state, dealer, decide, stop=enough)
        outcome = outcome_of(state) or hand_limit_outcome(state.scores)
        for b in bots:
            b.finish(state.scores, outcome.winner)
    except (BotError, IllegalActionError) as exc:
        reason = f"{_name(bots[seat])} (seat {seat}) forfeits: {exc}"
        forfeit = Outcome(Termination.FORFEIT, 1 - seat, state.scores, Forfeit(seat, reason))
        return GameResult(state, forfeit, times, kinds)
    except Exception as exc:  # a bug in a bot must not take the arena down
        reason = f"{_name(bots[seat])} (seat {seat}) forfeits: it crashed ({exc!r})"
        forfeit = Outcome(Termination.FORFEIT, 1 - seat, state.scores, Forfeit(seat, reason))
        return GameResult(state, forfeit, times, kinds)
    finally:
        for b in bots:
            try:
                b.close()
            except Exception:
                pass
    return GameResult(state, outcome, times, kinds)


def _name(bot: Bot) -> str:
    return bot.name


# ---------------------------------------------------------------- duplicate deals

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
        sides_of = [1, 1]
        sides_of[a_seat] = 0
        bots = tuple(_make(config, side, seed * 2 + k) for k, side in enumerate(sides_of))
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
            for kind, took in zip(result.kinds[seat], result.times[seat], strict=True):
                st.kind_times.setdefault(kind, []).append(took)
            sides[side].add(st)
        played = max(1, len(result.state.history))
        diff = result.state.scores[a_seat] - result.state.scores[b_seat]
        margins.append(diff / played)
        if result.message:
            who = "A" if result.forfeit == a_seat else "B"
            messages.append(f"deal {index}, {who}: {result.message}")
    return DealResult(index, sides, (margins[0], margins[1]), messages)


def _make(config: ArenaConfig, side: int, seed: int) -> Bot:
    made = config.made[side]
    if made is not None:
        return make_bot(made[0], seed=seed, timeout=config.timeout, env=made[1])
    spec = config.spec_a if side == 0 else config.spec_b
    # workers=1: the arena's games already run in parallel processes (--jobs).
    return make_bot(spec, seed=seed, budget=config.budget, timeout=config.timeout, workers=1)


def _play_deal_star(args: tuple[ArenaConfig, int]) -> DealResult:
    # A deal's forfeit messages are kept in a part file, which is data: in the source's words in every language.
    with in_source():
        return play_deal(*args)


def run_deals(config: ArenaConfig, deals: int, jobs: int = 1, start: int = 0) -> Iterator[DealResult]:
    """Deals ``start`` to ``start + deals - 1`` of the match (a part of it: ``arena --deals``), as they finish."""
    work = [(config, i) for i in range(start, start + deals)]
    if jobs <= 1:
        yield from map(_play_deal_star, work)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_deal_star, work)


