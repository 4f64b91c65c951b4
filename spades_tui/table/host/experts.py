"""The server's challenge experts (docs/serving.md, "The day's challenge"): at most ``--challenge-workers``
decisions at once, each in a child process of its own, the others waiting in line and told their place.

``ExpertPool`` holds ``workers`` children (``bots.process.ProcessBot`` serving an ``ExpertService``); a table's
expert (``PooledBot``) or the par's computation takes a turn (``ExpertPool.turn``), is given a free child, and
gives it back.  A decision of the challenge's expert is a function of its seed, its seat and its observation
alone (fixed samples, one process: ``session.challenge.bot_spec``), so a child serves every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import OrderedDict
from typing import Any, AsyncIterator, Callable, Optional, Sequence

from ...bots.base import Bot, BotError
from ...bots.levels import make_bot
from ...bots.process import ProcessBot
from ...engine.actions import PlayerAction
from ...engine.observation import Observation
from ...engine.rules import Rules
from ...session.challenge import bot_spec

KEPT_BOTS = 64  # bots a child keeps made (a seed and a seat each): a day's tables share one per seat

Tell = Callable[[int], None]  # told the place in line (0: next), or -1 once its turn came after waiting


class ExpertService:
    """In the child: the challenge's expert of each (seed, seat), made once, asked for decisions."""

    def __init__(self, iterations: int) -> None:
        self.iterations = iterations
        self.bots: OrderedDict[tuple[int, int], Bot] = OrderedDict()

    def decide(self, seed: int, seat: int, rules: Rules, observation: Observation,
               legal: Sequence[PlayerAction]) -> PlayerAction:
        bot = self.bots.pop((seed, seat), None)
        if bot is None:
            bot = make_bot(bot_spec(self.iterations), seed)
        bot.start(seat, rules)
        self.bots[(seed, seat)] = bot
        while len(self.bots) > KEPT_BOTS:
            self.bots.popitem(last=False)[1].close()
        return bot.decide(observation, legal)

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()


class ExpertPool:
    """``workers`` children and the line of those waiting for one."""

    def __init__(self, workers: int, iterations: int,
                 make: Optional[Callable[[], ProcessBot]] = None) -> None:
        self.size = max(1, workers)
        self.iterations = iterations
        self._make = make or (lambda: ProcessBot(functools.partial(ExpertService, iterations)))
        self.free: list[ProcessBot] = [self._make() for _ in range(self.size)]
        self.line: list[tuple[asyncio.Future[ProcessBot], Tell]] = []

    @contextlib.asynccontextmanager
    async def turn(self, tell: Tell = lambda _place: None) -> AsyncIterator[ProcessBot]:
        """A free child for one decision (waiting in line, told its place, while none is free)."""
        if self.free and not self.line:
            worker = self.free.pop()
        else:
            waiter: asyncio.Future[ProcessBot] = asyncio.get_running_loop().create_future()
            entry = (waiter, tell)
            self.line.append(entry)
            tell(len(self.line) - 1)
            try:
                worker = await waiter
            except asyncio.CancelledError:
                if entry in self.line:
                    self.line.remove(entry)
                    self._tell_places()
                elif waiter.done() and not waiter.cancelled():
                    self._give_back(waiter.result())  # handed over as the wait was cancelled
                raise
            tell(-1)
        try:
            yield worker
        finally:
            self._give_back(worker)

    def _give_back(self, worker: ProcessBot) -> None:
        if not worker.alive():
            worker.close()
            worker = self._make()  # a child that died is replaced: the next decision starts a fresh one
        while self.line:
            waiter, _ = self.line.pop(0)
            if not waiter.done():
                waiter.set_result(worker)
                self._tell_places()
                return
        self.free.append(worker)

    def _tell_places(self) -> None:
        for place, (_, tell) in enumerate(self.line):
            tell(place)

    async def decide(self, seed: int, seat: int, rules: Rules, observation: Observation,
                     legal: Sequence[PlayerAction], tell: Tell = lambda _place: None) -> PlayerAction:
        """One decision of the expert in ``seat`` (seeded ``seed``), in its turn; ``BotError`` if it failed."""
        loop = asyncio.get_running_loop()
        async with self.turn(tell) as worker:
            action: Any = await loop.run_in_executor(None, worker.call, "decide", seed, seat, rules, observation,
                                                     tuple(legal))
        if action not in legal:
            raise BotError(f"the expert chose an illegal action: {action!r}")
        return action  # type: ignore[no-any-return]

    def close(self) -> None:
        for waiter, _ in self.line:
            waiter.cancel()
        self.line.clear()
        for worker in self.free:
            worker.close()
        self.free.clear()


class PooledBot(Bot):
    """A challenge table's expert: its decisions made by the pool's child its table's turn was given
    (``worker``, set by the table before the decision runs, in a thread)."""

    name = "expert"

    def __init__(self, seed: int, seat: int, rules: Rules) -> None:
        self.seed, self.seat, self.rules = seed, seat, rules
        self.worker: Optional[ProcessBot] = None

    def start(self, seat: int, rules: Rules) -> None:
        self.seat, self.rules = seat, rules

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        worker = self.worker
        if worker is None:
            raise BotError("the expert was asked outside its turn")
        action: PlayerAction = worker.call("decide", self.seed, self.seat, self.rules, observation, tuple(legal))
        return action
