"""A game being played: the store, a player of some kind in each seat, and the session facts.

No Textual here.  Each seat has a player of a kind (``SeatKind``): a person at this keyboard, a
built-in or external bot, or a remote person (network tables); any pairing runs through the one
step loop.  The session facts (whose view the screen shows, whether a bot is thinking, a
forfeit) are set only here; the interface reads them from a ``SeatView`` (``view.py``) and tells
the session what the person chose.  A bot seat is played one way, ``bot_job``: its decision (``decide``, in
a worker the app or a table's host runs, or inline in ``run_bots``) from its own observation and the legal
actions, and its forfeit when it fails (``bot_answer``).  ``Session`` is a
``seat.Seat``: the interface plays it as it plays a seat at a network table.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..bots.base import Bot, BotError
from ..bots.levels import LEVELS as BOT_LEVELS
from ..bots.levels import make_bot
from ..bots.process import ProcessBot
from ..engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Play, PlayerAction, Shuffle
from ..engine.cards import Card
from ..engine.errors import IllegalActionError
from ..engine.observation import Observation
from ..engine.outcome import Forfeit, Outcome
from ..engine.record import HUMAN, GameRecord, PlayerInfo, SeatKind, bot_kind
from ..engine.rules import Rules
from ..engine.state import GameState, Phase
from ..i18n.language import _
from ..keep.meta import RecordMeta, game_id_of, game_outcome, new_game_id, with_meta
from .dealer import Dealer
from .hintdesk import HintDesk
from .reviewdesk import Review, ReviewDesk
from .seat import Job, Seat, ViewSwitches
from .store import GameStore
from .view import SeatView, seat_view

if TYPE_CHECKING:  # the hint service and the double-dummy review load when first used, not at start-up
    from ..bots.hints import Hint
    from ..keep.stats import StatsRecorder  # the statistics (sqlite) load when a hand first ends
    from ..solver.analysis import HandReview

PLAYER_ACTIONS = (Bid, DeclareDoubleNil, Draft, Exchange, Play)
BotAnswer = tuple[int, int, Optional[PlayerAction], Optional[str]]  # a bot job's result: (token, seat, action, why not)


def create_bot(spec: str, seed: Optional[int]) -> Bot:
    """Built-in bots run in a child process so their thinking cannot slow the interface;
    an external ``cmd:`` bot is already a process and is driven from a worker thread."""
    if spec.startswith("cmd:"):
        return make_bot(spec, seed)

    if spec not in BOT_LEVELS:
        raise ValueError(_("unknown bot {bot}: expected easy, normal, hard, expert or cmd:PROGRAM").format(
            bot=repr(spec)))
    return ProcessBot(functools.partial(make_bot, spec, seed))


def new_record(rules: Rules, first: Optional[int], names: tuple[str, str], *, bot: Optional[str],
               seed: Optional[int], kinds: Optional[tuple[str, str]] = None) -> GameRecord:
    """The record of a new game; ``first`` None means a random cut (from the seed, if any).

    Against ``bot`` the person is seat 0; ``kinds`` sets both seats' kinds instead (any pairing)."""
    if first is None:
        rng = random.Random(f"{seed}:cut") if seed is not None else random.SystemRandom()
        first = rng.randrange(2)
    if kinds is None:
        kinds = (HUMAN, bot_kind(bot) if bot else HUMAN)
    return GameRecord(rules, first, (PlayerInfo(names[0], kinds[0]), PlayerInfo(names[1], kinds[1])))


def _review_hand(record: GameRecord, hand: int) -> Optional[HandReview]:
    """The review, run beside the game: the solver loads there, not before a game's first screen."""
    from ..solver.analysis import review_hand

    return review_hand(record, hand)


class Session(ViewSwitches):
    """One game in play.  ``allowed_cmd`` is the one external program the command line allowed."""

    def __init__(self, record: GameRecord, *, seed: Optional[int] = None, autosave: Optional[Path] = None,
                 allowed_cmd: Optional[str] = None, auto_review: bool = False, hints: bool = True,
                 show_hints: bool = False, hint_samples: Optional[int] = None,
                 dealer: Optional[Dealer] = None) -> None:
        if RecordMeta.of(record).game_id is None:  # the statistics count each game once (stats.py)
            record = with_meta(record, game_id=new_game_id() if not record.actions else game_id_of(record))
        self.store = GameStore(record, seed=seed, autosave=autosave, dealer=dealer)
        self.kinds: tuple[SeatKind, SeatKind] = (self.store.players[0].seat_kind, self.store.players[1].seat_kind)
        self.hints = hints  # compute hints at all (Enter's default becomes the recommendation)
        super().__init__(show_hints=show_hints, auto_review=auto_review)
        self._hints = HintDesk(hint_samples, self._hint_token)
        self._reviews = ReviewDesk(self._hand_over, self._judge)
        self.bots: dict[int, Bot] = {}  # the running bot of each bot seat
        self.bot_thinking = False
        self._bot_offered: Optional[int] = None  # the decision (record length) a bot job was given for
        self.viewer: Optional[int] = self.persons[0] if len(self.persons) == 1 else None
        recorded = self.store.forfeit
        if recorded is None:
            for seat in self.bot_seats:  # a recorded forfeit ended the game: nothing to start
                if not self._start_bot(seat, allowed_cmd):
                    break
        self.store.save()
        self.settle()

    # ------------------------------------------------------------ the seats

    @property
    def persons(self) -> tuple[int, ...]:
        """The seats played by a person at this keyboard."""
        return tuple(s for s in (0, 1) if self.kinds[s] is SeatKind.PERSON)

    @property
    def bot_seats(self) -> tuple[int, ...]:
        return tuple(s for s in (0, 1) if self.kinds[s] is SeatKind.BOT)

    @property
    def hotseat(self) -> bool:
        """Two persons share the keyboard: the screen is handed over between them."""
        return len(self.persons) == 2

    @property
    def vs_bot(self) -> bool:
        """One person against a bot: "you" is that person."""
        return len(self.persons) == 1 and len(self.bot_seats) == 1

    @property
    def person(self) -> Optional[int]:
        """The one person's seat, when only one seat is played at this keyboard."""
        return self.persons[0] if len(self.persons) == 1 else None

    def bot_spec(self, seat: int) -> Optional[str]:
        return self.store.players[seat].bot_spec

    @property
    def state(self) -> GameState:
        return self.store.state

    @property
    def forfeit(self) -> Optional[str]:
        """The forfeit in words, once the game ended so."""
        found = self.store.forfeit
        return found.reason if found is not None else None

    @property
    def actions(self) -> int:
        """Actions in the record so far: a decision's identity."""
        return len(self.store.record.actions)

    @property
    def outcome(self) -> Optional[Outcome]:
        return game_outcome(self.store.record, self.store.state)

    def view(self, seat: Optional[int] = -1) -> SeatView:
        """The view of ``seat`` (by default the seat the screen shows now; None: the public view)."""
        if seat == -1:
            seat = self.viewer
        store = self.store
        hint = self._hints.current() if seat == self.viewer else None
        facts: dict[str, Any] = dict(persons=(self.kinds[0] is SeatKind.PERSON, self.kinds[1] is SeatKind.PERSON),
                     vs_bot=self.vs_bot, bot_thinking=self.bot_thinking,
                     save_error=store.save_error, practice=store.practice,
                     can_take_back=self._take_back_to() is not None, show_hints=self.show_hints,
                     auto_review=self.auto_review, hint=hint, review=self._reviews.current(),
                     last_draw=self._last_draw(seat), last_exchange=self._last_exchange(seat))
        return seat_view(store.state, seat, store.players, outcome=self.outcome, actions=len(store.record.actions),
                         **facts)

    def sent_view(self, seat: Optional[int]) -> SeatView:
        """``seat``'s view as a table's host sends it (``SeatView.to_json``, the ``update`` frame): the game only,
        with no Enter's default worked out (it is not sent) and no session facts."""
        store = self.store
        return seat_view(store.state, seat, store.players, outcome=self.outcome, actions=len(store.record.actions),
                         advise=False)

    def _last_draw(self, seat: Optional[int]) -> Optional[tuple[Card, Optional[Card], str]]:
        """``seat``'s last draft turn of the hand in play: the cards it saw (draft turn t uses stock cards
        2t and 2t + 1 of the hand's shuffle) and which it took.  Kept after the draft, so that the 13th
        turn's result is said on the next screen (the exchange or the bidding)."""
        state = self.store.state
        hand = state.hand
        if seat is None or hand is None or state.phase in (Phase.SHUFFLE, Phase.GAME_OVER):
            return None
        turns = [t for t, d in enumerate(hand.draft_log) if d.player == seat]
        shuffle = next((a for a in reversed(self.store.record.actions) if isinstance(a, Shuffle)), None)
        if not turns or shuffle is None:
            return None
        t = turns[-1]
        take = hand.draft_log[t].take
        top, second = shuffle.stock[2 * t], shuffle.stock[2 * t + 1]
        seen = take == "second" or state.rules.see_second_card
        return (top, second if seen else None, take)

    def _last_exchange(self, seat: Optional[int]) -> Optional[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        """``seat``'s own Double Nil exchange in the hand in play, once its cards came back: what it put
        back and what it drew, from the record (its own cards: only ``seat``'s view carries them)."""
        state = self.store.state
        if seat is None or state.hand is None or state.phase in (Phase.SHUFFLE, Phase.GAME_OVER):
            return None
        got: Optional[tuple[Card, ...]] = None
        for action in reversed(self.store.record.actions):
            if isinstance(action, Shuffle):
                return None
            if isinstance(action, ExchangeDraw) and action.player == seat:
                got = action.cards
            elif isinstance(action, Exchange) and action.player == seat:
                if not action.discard:
                    return ((), ())  # kept all: no draw follows
                return (action.discard, got) if got is not None else None
        return None

    # ------------------------------------------------------------ practice take-backs

    def _take_back_to(self) -> Optional[int]:
        """Where a take-back cuts the record: at the person's last decision of the hand in play.
        Only for one person against bots, never while a bot thinks, never across a scored hand."""
        person = self.person
        if person is None or not self.vs_bot or self.bot_thinking or self.forfeit or not self.bots:
            return None
        if self.store.state.phase in (Phase.SHUFFLE, Phase.GAME_OVER):
            return None  # the hand is scored: its score stays
        actions = self.store.record.actions
        for index in range(len(actions) - 1, -1, -1):
            action = actions[index]
            if isinstance(action, Shuffle):
                return None  # the hand began after the person's last decision: a scored hand stays
            if isinstance(action, PLAYER_ACTIONS) and action.player == person:
                return index
        return None

    def _practice(self, hand: int) -> dict[str, int]:
        """The record's ``practice`` after one more take-back that touches ``hand``: the hands scored before
        the first take-back's hand were played blind and keep counting in the statistics."""
        meta = RecordMeta.of(self.store.record)
        first = min(hand, meta.practice_from) if meta.practice_from is not None else hand
        return {"takebacks": meta.takebacks + 1, "from_hand": first}

    def take_back(self) -> bool:
        """Undo the person's last decision and the bot's answers after it; the game becomes practice."""
        cut = self._take_back_to()
        if cut is None:
            return False
        self.store.rewind(cut, practice=self._practice(self.store.state.hand_number))
        self._hints.forget()
        self._bot_offered = None  # the bot's next turn may have the record length of an old one
        self.settle()
        return True

    def replay_hand(self) -> bool:
        """From the hand summary: the same deal again, as practice (the hand's score is taken off)."""
        if not self.vs_bot or self.forfeit or not self.bots or self.store.state.phase is not Phase.SHUFFLE:
            return False
        actions = self.store.record.actions
        start = max(i for i, a in enumerate(actions) if isinstance(a, Shuffle))
        self.store.rewind(start + 1, practice=self._practice(len(self.store.state.history)))
        self._reviews.forget()
        self._hints.forget()  # decisions of the same record length come back
        self._bot_offered = None
        self.settle()
        return True

    # ------------------------------------------------------------ hints for the person at the keyboard

    def _hint_token(self) -> Optional[tuple[int, int]]:
        """The viewer's decision now (actions so far, viewer), or None when it is not theirs to make."""
        st, viewer = self.store.state, self.viewer
        if viewer is None or st.to_act != viewer or self.forfeit or self.kinds[viewer] is not SeatKind.PERSON:
            return None
        return (len(self.store.record.actions), viewer)

    def hint_request(self) -> Optional[tuple[tuple[int, int], Observation, tuple[PlayerAction, ...]]]:
        """Once per decision: the viewer's own observation and legal actions, for the hint service."""
        token = self._hints.ask() if self.hints else None
        return (token, self.store.observation(token[1]), self.store.legal()) if token is not None else None

    def compute_hint(self, observation: Observation, legal: tuple[PlayerAction, ...]) -> Optional[Hint]:
        """The hint service's answer (from a worker thread)."""
        return self._hints.compute(observation, legal)

    def set_hint(self, token: tuple[int, int], hint: Optional[Hint]) -> None:
        self._hints.answer(token, hint)

    # ------------------------------------------------------------ the review of a finished hand

    def _hand_over(self) -> int:
        """The number of the hand just finished, while nothing of the next one is dealt; else 0."""
        st = self.store.state
        if st.history and st.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and not self.forfeit:
            return len(st.history)
        return 0

    def _judge(self, hand: int) -> Review:
        return functools.partial(_review_hand, self.store.record, hand)

    def review_request(self) -> Optional[Review]:
        """Once per hand, what to run in the background to judge the hand just finished; its result goes to
        ``set_review``."""
        return self._reviews.request()

    def set_review(self, review: Optional[HandReview]) -> None:
        self._reviews.answer(review)

    # ------------------------------------------------------------ statistics and saving

    def record_stats(self, recorder: Callable[[], Optional[StatsRecorder]]) -> Optional[str]:
        """Write the statistics once a hand or the game has ended; a problem in words (once), never raised.

        ``recorder`` gives the writer (None: no statistics kept), asked only when there is something to write,
        so a game's first screen does not wait for the statistics' database to load."""
        st = self.store.state
        if not st.history and not self.forfeit:
            return None
        writer = recorder()
        return writer.record(self.store.record, st) if writer is not None else None

    def note_save_problem(self, problem: str) -> None:
        """A save problem found by the host (no slot could be claimed): shown until a save works."""
        self.store.save_error = problem

    # ------------------------------------------------------------ the bots

    def _start_bot(self, seat: int, allowed_cmd: Optional[str]) -> bool:
        spec = self.bot_spec(seat)
        assert spec is not None
        name = self.store.players[seat].name
        if spec.startswith("cmd:") and spec != allowed_cmd:
            # A record only names its bot: running the program it names would let any file run any command.
            self._forfeit(seat, f"{name} cannot play: a game record may not start the program it names ({spec[4:]})")
            return False
        try:
            bot = self.make_bot(seat, spec)
            self.bots[seat] = bot
            bot.start(seat, self.store.record.rules)
        except (BotError, ValueError, OSError) as exc:
            self._forfeit(seat, f"{name} cannot play: {exc}")
            return False
        return True

    def make_bot(self, seat: int, spec: str) -> Bot:
        """The bot for ``seat`` as its record names it (a challenge makes its own)."""
        return create_bot(spec, self.store.dealer.seed)

    def _forfeit(self, seat: int, reason: str) -> None:
        """``seat`` gives up: said on screen and kept in the record."""
        self.bot_thinking = False
        self.store.record_forfeit(Forfeit(seat, reason))
        self.close()

    def resign(self, seat: int, reason: str) -> bool:
        """``seat`` gives the game up (a resignation, or a game claimed from a seat that left, at a rated
        table): kept in the record as a forfeit.  False if the game was over already."""
        if self.outcome is not None:
            return False
        self._forfeit(seat, reason)
        return True

    def bot_due(self) -> Optional[int]:
        """The bot seat whose decision is due now (and not yet asked), else None."""
        seat = self.store.state.to_act
        if seat is None or seat not in self.bots or self.forfeit or self.bot_thinking:
            return None
        return seat

    def bot_request(self) -> tuple[int, int, Observation, tuple[PlayerAction, ...]]:
        """What the due bot is asked: a token for its answer, its seat, its own observation and the legal
        actions."""
        seat = self.store.state.to_act
        assert seat is not None and seat in self.bots
        self.bot_thinking = True
        store = self.store
        return len(store.record.actions), seat, store.observation(seat), store.legal()

    def bot_answer(self, token: int, seat: int, action: Optional[PlayerAction], error: Optional[str]) -> bool:
        """Apply a bot's answer; False if it was stale (the game moved on or ended meanwhile)."""
        store = self.store
        self.bot_thinking = False
        if token != len(store.record.actions) or self.forfeit or seat not in self.bots:
            return False
        if error is None and action not in store.legal():
            error = f"the bot chose an illegal action: {action!r}"
        if error is not None or action is None:
            self._forfeit(seat, f"{store.players[seat].name} forfeits: {error}")
            return True
        self.act(action)
        return True

    def bot_job(self) -> Optional[Job[BotAnswer]]:
        """The one way a bot seat is played (the app's worker, a table's host, ``run_bots``): the due bot's
        decision, given once per decision; asked when the job starts (the interface may first let a finished
        trick be seen), from the bot's own observation; its answer, or its forfeit, taken back by ``done``."""
        if self.bot_due() is None or self._bot_offered == self.actions:
            return None
        token = self._bot_offered = self.actions

        def start() -> Optional[Callable[[], BotAnswer]]:
            if self.bot_due() is None or self.actions != token:
                return None  # the game moved on meanwhile (a take-back, a forfeit)
            asked, seat, observation, legal = self.bot_request()
            return functools.partial(decide, self.bots[seat], asked, seat, observation, legal)

        return Job("bot", start, self._bot_answered)

    def _bot_answered(self, answer: BotAnswer) -> None:
        self.bot_answer(*answer)

    def jobs(self) -> list[Job[Any]]:
        """The review of a hand just finished, the viewer's hint, the due bot's decision: each once."""
        asked = self.hint_request()
        found = (self._reviews.job(), self._hints.job(*asked) if asked is not None else None, self.bot_job())
        return [job for job in found if job is not None]

    def run_bots(self) -> GameState:
        """Let the bots play inline, each decision as ``bot_job`` gives it, until a person (or remote seat) must
        act, a hand has been scored, or the game ends (tests, a lesson's set-up).  A failing bot forfeits."""
        while (job := self.bot_job()) is not None:
            work = job.start()
            if work is None:
                break
            job.done(work())
        return self.store.state

    def close(self) -> None:
        """Stop the bots; ``close_all`` stops the hint service too."""
        bots, self.bots = self.bots, {}
        for bot in bots.values():
            try:
                bot.close()
            except Exception:  # closing a broken bot must not crash the game
                pass

    def close_all(self) -> None:
        self.close()
        self._hints.close()

    def warm(self) -> None:
        """Start the bots' processes (made when first needed, not with the game: its first screen comes first)."""
        for bot in list(self.bots.values()):
            try:
                bot.warm()
            except BotError:
                pass  # said by its first decision, which forfeits it

    # ------------------------------------------------------------ the people

    def settle(self) -> None:
        """Deal due chance actions and decide whose view the screen shows."""
        st = self.store.settle()
        if self.hotseat:
            if st.to_act is not None and self.viewer != st.to_act:
                self.viewer = None  # hot-seat: hand the keyboard over before showing any card
        else:
            self.viewer = self.person  # one person: always theirs; none (bots only): the public view
        if st.phase is Phase.GAME_OVER and self.bots:
            outcome = self.outcome
            for bot in self.bots.values():
                try:
                    bot.finish(st.scores, outcome.winner if outcome is not None else st.winner)
                except Exception:  # the game is over either way
                    pass
            self.close()

    def act(self, action: PlayerAction) -> Optional[str]:
        """A decision; the reason in words if it is not allowed (nothing changes then)."""
        try:
            self.store.dispatch(action)
        except IllegalActionError as exc:
            return str(exc)
        finally:
            self.settle()
        return None

    def reveal(self) -> None:
        """Hot-seat: the player to act is at the keyboard now."""
        to_act = self.store.state.to_act
        if to_act is not None and self.kinds[to_act] is SeatKind.PERSON:
            self.viewer = to_act

    def next_hand(self) -> None:
        if self.store.state.phase is not Phase.SHUFFLE:
            return
        if self.hotseat:
            self.viewer = None
        self.store.deal()
        self.settle()


def decide(bot: Bot, token: int, seat: int, observation: Observation, legal: tuple[PlayerAction, ...]) -> BotAnswer:
    """A bot's answer for ``bot_answer`` (in a worker thread; never raises): its action, or why it failed (it
    then forfeits)."""
    try:
        return token, seat, bot.decide(observation, legal), None  # its own observation, never the state
    except BotError as exc:
        return token, seat, None, str(exc) or "the bot gave up"
    except Exception as exc:  # a crashing bot forfeits; the game goes on
        return token, seat, None, f"the bot crashed: {type(exc).__name__}: {exc}"


if TYPE_CHECKING:
    def _a_seat(session: Session) -> Seat:
        return session  # mypy proves that a game at this keyboard is a Seat the interface can play
