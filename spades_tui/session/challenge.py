"""The daily challenge (``spades-tui challenge``, issue 40): the same four deals for everyone, scored against
the expert's par.

No Textual here.  A challenge is named by a code, ``DATE`` or ``DATE:PRESET`` (``2026-12-01``,
``2026-12-01:tournament``).  Its chance comes from the date alone: the dealer's seed is a SHA-256 of the
date, so every player of a challenge meets the same four stocks in the same order, whatever the preset and
whoever plays.  Its bots decide with a fixed number of samples (never a time budget) and a seed from the
challenge and the seat, and each decision's randomness comes from that seed and the observation
(``bots.heuristic.SeededBot``): the par and every decision the expert makes are the same on every machine.

The par is the expert's own margin in the player's seat: the expert plays both seats on the same stocks,
the one across the table being the very bot the player meets.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..bots.base import Bot
from ..bots.levels import make_bot
from ..bots.process import ProcessBot
from ..engine.actions import Action
from ..engine.observation import observe
from ..engine.record import GameRecord
from ..engine.reducer import legal_actions, reduce
from ..engine.rules import PRESETS, Rules, preset_name
from ..engine.state import GameState, HandResult, new_game
from ..i18n.language import _
from ..keep.challenges import ChallengeBook, ChallengeFileError, Result
from ..keep.meta import CHALLENGE_HANDS, RecordMeta, hands_scored, with_meta
from . import loop
from .dealer import Dealer
from .seat import Job
from .session import Session, new_record
from .view import ChallengeView

if TYPE_CHECKING:
    from ..keep.stats import StatsRecorder
    from .view import SeatView

PERSON = 0  # the player's seat; the expert sits in seat 1
BOT_LEVEL = "expert"
# Samples a challenge's expert takes for each decision: fixed, so that its decisions do not depend on the
# machine's speed (a time budget would).  200: the par's four hands, both seats, take 13 to 28 s on one core.
ITERATIONS = 200
EARLIEST = datetime.date(2026, 1, 1)  # the first day there was a challenge
FUTURE_DAYS = 1  # a date one day after today (UTC) is allowed: it is already today east of Greenwich


class ChallengeError(ValueError):
    """A code that names no challenge: said as it is, exit status 2 on the command line."""


@dataclass(frozen=True)
class ChallengeCode:
    """The challenge of ``day`` under ``preset``'s rules (each preset's game-ending rules left out: four hands
    are always played)."""

    day: datetime.date
    preset: str = "standard"

    @classmethod
    def parse(cls, text: str, today: Optional[datetime.date] = None) -> ChallengeCode:
        """``DATE`` or ``DATE:PRESET`` as a player gives it; ``today`` (UTC's by default) bounds the dates that
        have a challenge."""
        code = cls.read(text)
        today = today or utc_today()
        if code.day < EARLIEST:
            raise ChallengeError(_("there is no challenge before {date}").format(date=EARLIEST.isoformat()))
        if code.day > today + datetime.timedelta(days=FUTURE_DAYS):
            raise ChallengeError(_("the challenge of {date} is not out yet (today is {today}, UTC)").format(
                date=code.day.isoformat(), today=today.isoformat()))
        return code

    @classmethod
    def today(cls) -> ChallengeCode:
        """Today's challenge (UTC), standard rules."""
        return cls(utc_today())

    @classmethod
    def read(cls, text: str) -> ChallengeCode:
        """A code as a record or the results file keeps it: any date (it was out when it was played)."""
        raw = text.strip()
        day_text, colon, preset_text = raw.partition(":")
        try:
            day = datetime.date.fromisoformat(day_text)
            if len(day_text) != 10:
                raise ValueError
        except ValueError:
            raise ChallengeError(_("{typed} is not a challenge: expected a date as YYYY-MM-DD, optionally with a "
                                   "preset after a colon (2026-12-01 or 2026-12-01:tournament)").format(
                typed=repr(raw[:40]))) from None
        preset = "standard"
        if colon:
            found = preset_name(preset_text)
            if found is None:
                raise ChallengeError(_("{typed} is not a preset (known: {presets})").format(
                    typed=repr(preset_text[:40]), presets=", ".join(PRESETS)))
            preset = found
        return cls(day, preset)

    def __str__(self) -> str:
        return self.day.isoformat() if self.preset == "standard" else f"{self.day.isoformat()}:{self.preset}"

    @property
    def rules(self) -> Rules:
        """The preset's rules, played for four hands: no target reached, no losing score, no 13 tricks win."""
        return replace(PRESETS[self.preset].rules, target=10000, losing_score=0, thirteen_wins=False)

    @property
    def deal_seed(self) -> int:
        """The dealer's seed: from the date alone, so every preset's challenge of a day has the same stocks."""
        return _digest(f"spades-tui challenge deals {self.day.isoformat()}")

    @property
    def first(self) -> int:
        """Who drafts first in the first hand (then in turn): from the date, as the stocks."""
        return self.deal_seed % 2

    def bot_seed(self, seat: int) -> int:
        """The seed of the expert in ``seat``: from the challenge (date and preset) and the seat."""
        return _digest(f"spades-tui challenge bot {self} {seat}")


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def bot_spec(iterations: int = ITERATIONS) -> str:
    """The challenge's expert: a fixed number of samples, one process (one process is the same work on every
    machine)."""
    return f"{BOT_LEVEL}:iters={iterations},workers=1"


def make_challenge_bot(code: ChallengeCode, seat: int, iterations: int = ITERATIONS,
                       budget: Optional[float] = None) -> Bot:
    """The expert in ``seat``; ``budget`` (a time per decision) is overridden by the fixed samples: it changes
    nothing (the par's determinism test passes one)."""
    return make_bot(bot_spec(iterations), code.bot_seed(seat), budget=budget)


def margins(history: tuple[HandResult, ...], seat: int = PERSON) -> tuple[int, ...]:
    """``seat``'s margin in each hand: its points less the other's."""
    return tuple(h.points[seat] - h.points[1 - seat] for h in history)


def challenge_record(code: ChallengeCode, names: tuple[str, str], kinds: Optional[tuple[str, str]] = None,
                     bot: Optional[str] = BOT_LEVEL) -> GameRecord:
    """The record of a challenge before its first card: its rules, who drafts first, the dealer's seed, the
    code (``keep.meta``: the game ends once its fourth hand is scored)."""
    record = new_record(code.rules, code.first, names, bot=bot, seed=code.deal_seed, kinds=kinds)
    return with_meta(record, seed=code.deal_seed, challenge=str(code))


def play_out(code: ChallengeCode, bots: tuple[Bot, Bot], hands: int = CHALLENGE_HANDS,
             record: Optional[GameRecord] = None) -> tuple[GameRecord, GameState]:
    """The challenge's first ``hands`` hands between ``bots`` (seat 0, seat 1), through the one step loop:
    ``record`` (the challenge's, by default with both seats the expert) with every action, and the state."""
    if record is None:
        record = challenge_record(code, ("Expert", "Expert"), kinds=("bot:expert", "bot:expert"), bot=None)
    rules = code.rules
    for seat in (0, 1):
        bots[seat].start(seat, rules)
    actions: list[Action] = []

    def decide(state: GameState, seat: int) -> Any:
        legal = legal_actions(state)
        action = bots[seat].decide(observe(state, seat), legal)
        if action not in legal:
            raise ChallengeError(f"the bot in seat {seat} chose an illegal action: {action!r}")
        return action

    def apply(state: GameState, action: Action) -> GameState:
        actions.append(action)
        return reduce(state, action)

    state = loop.run(new_game(rules, code.first), Dealer(code.deal_seed), decide, apply=apply,
                     stop=functools.partial(hands_scored, hands=hands))
    return replace(record, actions=tuple(actions)), state


def compute_par(code: ChallengeCode, iterations: int = ITERATIONS, hands: int = CHALLENGE_HANDS,
                budget: Optional[float] = None) -> tuple[int, ...]:
    """The par: the expert's margin in the player's seat in each hand, the expert in both seats."""
    bots = (make_challenge_bot(code, 0, iterations, budget), make_challenge_bot(code, 1, iterations, budget))
    try:
        return margins(play_out(code, bots, hands)[1].history)
    finally:
        for bot in bots:
            bot.close()


class ParService:
    """The par computed in a child process (``bots.process.ProcessBot`` serves it): the expert's thinking must not
    slow the interface, nor the game's own bot."""

    def par(self, code: str, iterations: int) -> tuple[int, ...]:
        return compute_par(ChallengeCode.read(code), iterations)

    def close(self) -> None:
        return None


def _par_in_child(process: ProcessBot, code: str, iterations: int) -> tuple[Optional[tuple[int, ...]], str]:
    try:
        found: tuple[int, ...] = tuple(process.call("par", code, iterations))
        return found, ""
    except Exception as exc:  # the child failed or was closed with the game: said, never raised
        return None, str(exc)


class ChallengeSession(Session):
    """A challenge played by the person in seat 0 against the expert: saved like any game (its record names
    the challenge, so a resumed one goes on as one), never counted in the statistics (its results are kept
    apart, ``keep.challenges``), no hints and no take-backs (the par was made without them)."""

    def __init__(self, record: GameRecord, *, book: Optional[Path], iterations: Optional[int] = None,
                 **options: Any) -> None:
        code = RecordMeta.of(record).challenge
        if code is None:
            raise ChallengeError(_("the game record names no challenge"))
        self.code = ChallengeCode.read(code)
        self.iterations = ITERATIONS if iterations is None else iterations  # read here: a test may set a quick one
        self.book_path = book
        self.problem = ""
        self.on_record: Optional[Result] = None
        self.par: Optional[tuple[int, ...]] = None
        self._par_process: Optional[ProcessBot] = None
        self._par_asked = False
        self._kept = False
        if book is not None:
            try:
                loaded = ChallengeBook.load(book)
                self.on_record = loaded.on_record(str(self.code))
                self.par = loaded.par(str(self.code), self.iterations)
            except ChallengeFileError as exc:
                self.problem = str(exc)
        options.update(hints=False, show_hints=False)
        super().__init__(record, **options)

    def make_bot(self, seat: int, spec: str) -> Bot:
        return ProcessBot(functools.partial(make_challenge_bot, self.code, seat, self.iterations))

    @property
    def challenge_view(self) -> ChallengeView:
        mine = margins(self.store.state.history)[:CHALLENGE_HANDS]
        # The par's hands only once the four are played: a hand's par would say something of deals still to come.
        par = self.par if hands_scored(self.store.state) else None
        return ChallengeView(str(self.code), mine, par, self.on_record, self.problem)

    def view(self, seat: Optional[int] = -1) -> SeatView:
        return replace(super().view(seat), challenge=self.challenge_view)

    def take_back(self) -> bool:
        return False

    def replay_hand(self) -> bool:
        return False

    def _take_back_to(self) -> Optional[int]:
        return None

    def set_switches(self, *, show_hints: Optional[bool] = None, auto_review: Optional[bool] = None) -> None:
        super().set_switches(auto_review=auto_review)  # no hint panel: there is no hint service

    def next_hand(self) -> None:
        if not hands_scored(self.store.state):
            super().next_hand()

    # ------------------------------------------------------------ the par, the result

    def jobs(self) -> list[Job[Any]]:
        found = super().jobs()
        if self.par is None and not self._par_asked:
            self._par_asked = True
            found.append(Job("par", self._par_start, self._par_done))
        return found

    def _par_start(self) -> Optional[Callable[[], tuple[Optional[tuple[int, ...]], str]]]:
        self._par_process = ProcessBot(ParService)
        return functools.partial(_par_in_child, self._par_process, str(self.code), self.iterations)

    def _par_done(self, answer: tuple[Optional[tuple[int, ...]], str]) -> None:
        par, problem = answer
        if par is None:
            self.problem = _("The par could not be computed: {problem}").format(problem=problem)
            return
        self.par = par
        if self.book_path is not None:
            try:  # kept for the next play, and given to this play's result if it was kept before the par
                ChallengeBook.update(self.book_path, lambda b: b.with_par(str(self.code), self.iterations, par))
            except ChallengeFileError as exc:
                self.problem = str(exc)

    def record_stats(self, recorder: Callable[[], Optional[StatsRecorder]]) -> Optional[str]:
        """Not in the statistics: the result goes to the challenges' file once the four hands are scored (with
        the par if it is known, else the par is added once it is)."""
        if self._kept or not hands_scored(self.store.state) or self.book_path is None or self.forfeit:
            return None
        self._kept = True
        record = self.store.record
        name = record.players[PERSON].name if record.players is not None else "You"
        result = Result.new(str(self.code), name, margins(self.store.state.history)[:CHALLENGE_HANDS], self.par,
                            RecordMeta.of(record).game_id or "")
        try:
            book = ChallengeBook.update(self.book_path, lambda b: b.with_result(result))
        except ChallengeFileError as exc:
            self.problem = str(exc)
            return self.problem
        kept = book.on_record(str(self.code))
        if self.on_record is None and kept is not None and kept.game_id != result.game_id:
            self.on_record = kept  # another window finished this challenge first: this play is practice
        return None

    def close_all(self) -> None:
        process, self._par_process = self._par_process, None
        if process is not None:
            process.close()  # a par still being computed is computed again next time
        super().close_all()
