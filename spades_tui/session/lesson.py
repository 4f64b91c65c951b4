"""The lesson's game (``spades-tui learn``, issue 39): one hand against the easy bot on a fixed stock.

No Textual here.  The stock, who drafts first and the bot's seed come from the lesson's text
(``assets/lesson.md``, read by the interface); here they become a game: a dealer that deals that stock,
a record with the standard rules but no Double Nil question (never the player's house rules: every player sees
the same lesson),
and a session that saves nothing and counts in no statistics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..engine.actions import Action, Shuffle
from ..engine.cards import CARDS, Card
from ..engine.record import GameRecord
from ..engine.rules import Rules
from ..engine.state import GameState, Phase
from ..i18n.language import _
from .dealer import Dealer
from .session import Session, new_record

if TYPE_CHECKING:
    from ..keep.stats import StatsRecorder

PERSON = 0  # the learner's seat; the bot sits in seat 1
BOT_LEVEL = "easy"
NAMES = ("You", "Bot (easy)")


class LessonError(ValueError):
    """The lesson's text holds no proper stock: said instead of a lesson, never a traceback."""


@dataclass(frozen=True)
class LessonDeal:
    """What makes the lesson's hand the same for everyone: the stock (top card first), who drafts first, the
    bot's seed."""

    stock: tuple[Card, ...]
    first: int
    seed: int

    @classmethod
    def parse(cls, stock: str, first: str, seed: str) -> LessonDeal:
        """From the lesson's front matter: ``stock`` 52 card codes, ``first`` "you" or "bot", ``seed`` a number."""
        try:
            cards = tuple(Card.parse(code) for code in stock.split())
            number = int(seed)
        except ValueError as exc:
            raise LessonError(_("the lesson's stock or seed is not readable: {error}").format(error=exc)) from None
        if sorted(cards) != list(CARDS):
            raise LessonError(_("the lesson's stock is not the 52 cards, each once"))
        if first not in ("you", "bot"):
            raise LessonError(_("the lesson's 'first' is 'you' or 'bot', not {first}").format(first=repr(first)))
        return cls(cards, PERSON if first == "you" else 1 - PERSON, number)


class LessonDealer(Dealer):
    """Deals the lesson's stock; an exchange (a Double Nil chosen against the suggestion) draws as seeded."""

    def __init__(self, deal: LessonDeal) -> None:
        super().__init__(deal.seed)
        self.deal = deal

    def chance_action(self, state: GameState) -> Optional[Action]:
        if state.phase is Phase.SHUFFLE:
            return Shuffle(self.deal.stock)
        return super().chance_action(state)


class LessonSession(Session):
    """The lesson's game: no autosave, no statistics, no hint service (Enter's default is the normal bot's
    choice, the same for every player), no take-back (the lesson explains another choice instead)."""

    def __init__(self, deal: LessonDeal, **options: Any) -> None:
        super().__init__(lesson_record(deal), seed=deal.seed, autosave=None, dealer=LessonDealer(deal), hints=False,
                         show_hints=False, auto_review=False, **options)

    @property
    def lesson_over(self) -> bool:
        """The lesson's one hand has been scored."""
        return bool(self.store.state.history)

    def record_stats(self, recorder: Callable[[], Optional[StatsRecorder]]) -> Optional[str]:
        return None  # a lesson is never counted

    def take_back(self) -> bool:
        return False

    def replay_hand(self) -> bool:
        return False

    def next_hand(self) -> None:
        return None  # one hand only: the lesson's end screen follows it

    def set_switches(self, *, show_hints: Optional[bool] = None, auto_review: Optional[bool] = None) -> None:
        return None  # no hint panel (there is no hint service) and no review in a lesson

    def _take_back_to(self) -> Optional[int]:
        return None


def lesson_record(deal: LessonDeal) -> GameRecord:
    """The lesson's record before its first card (tests; the search script).  The standard rules but for the
    Double Nil question: asked before the first draft turn, it came before the draft was explained (issue 52); the
    lesson says what Double Nil and its exchange are as the draft ends, where the exchange would come."""
    return new_record(Rules(double_nil=False), deal.first, NAMES, bot=BOT_LEVEL, seed=deal.seed)
