"""A game being played: the store, the bot, and the session facts the screens show.

No Textual here.  The session facts (whose cards may be shown, whether the bot
is thinking, a forfeit) are set only here; the interface reads them from a
``Snapshot`` and tells the session what the person chose.  The bot is asked
from outside (the app runs it in a worker); it only ever gets its observation
and the legal actions.
"""

from __future__ import annotations

import functools
import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..bots import LEVELS as BOT_LEVELS
from ..bots import Bot, BotError, make_bot
from ..bots.hints import Hint
from ..bots.host import ProcessBot
from ..engine import (
    Bid,
    DeclareDoubleNil,
    Draft,
    Exchange,
    GameRecord,
    GameState,
    IllegalActionError,
    Observation,
    Phase,
    Play,
    PlayerAction,
    PlayerInfo,
    Rules,
    Shuffle,
)
from ..solver.analysis import HandReview
from .stats import game_id_of, new_game_id
from .store import Forfeit, GameStore

PLAYER_ACTIONS = (Bid, DeclareDoubleNil, Draft, Exchange, Play)

BOT_SEAT = 1  # against a bot the person is player 0


def create_bot(spec: str, seed: Optional[int]) -> Bot:
    """Built-in bots run in a child process so their thinking cannot slow the interface;
    an external ``cmd:`` bot is already a process and is driven from a worker thread."""
    if spec.startswith("cmd:"):
        return make_bot(spec, seed)
    from ..bots.host import ProcessBot

    if spec not in BOT_LEVELS:
        raise ValueError(f"unknown bot {spec!r}: expected easy, normal, hard, expert or cmd:PROGRAM")
    return ProcessBot(functools.partial(make_bot, spec, seed))


def new_record(rules: Rules, first: Optional[int], names: tuple[str, str], *, bot: Optional[str],
               seed: Optional[int]) -> GameRecord:
    """The record of a new game; ``first`` None means a random cut (from the seed, if any)."""
    if first is None:
        rng = random.Random(f"{seed}:cut") if seed is not None else random.SystemRandom()
        first = rng.randrange(2)
    kinds = ("human", f"bot:{bot}" if bot else "human")
    return GameRecord(rules, first, (PlayerInfo(names[0], kinds[0]), PlayerInfo(names[1], kinds[1])))


@dataclass(frozen=True)
class Snapshot:
    """Everything the screens may read about the game now, as one value."""

    state: GameState
    players: tuple[PlayerInfo, PlayerInfo]
    viewer: Optional[int]  # whose cards may be shown; None during a hot-seat hand-off
    vs_bot: bool
    bot_thinking: bool
    forfeit: Optional[str]  # the forfeit in words, once the game ended so
    save_error: Optional[str]
    actions: int  # actions in the record: one decision's identity
    review: Optional[HandReview] = None  # the last hand judged double dummy, only once it is over
    auto_review: bool = False  # open the review whenever a hand ends
    hint: Optional[Hint] = None  # for the viewer's decision now, from their observation alone
    show_hints: bool = False  # the hint panel is on
    practice: int = 0  # take-backs so far: a practice game, whose future the player may know
    can_take_back: bool = False

    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)


class Session:
    """One game in play.  ``allowed_cmd`` is the one external program the command line allowed."""

    def __init__(self, record: GameRecord, *, seed: Optional[int] = None, autosave: Optional[Path] = None,
                 allowed_cmd: Optional[str] = None, auto_review: bool = False, hints: bool = True,
                 show_hints: bool = False, hint_samples: Optional[int] = None) -> None:
        if "game_id" not in dict(record.metadata):  # the statistics count each game once (stats.py)
            gid = new_game_id() if not record.actions else game_id_of(record)
            record = GameRecord(record.rules, record.first_drafter, record.players, record.actions,
                                record.metadata + (("game_id", gid),))
        self.store = GameStore(record, seed=seed, autosave=autosave)
        self.hints = hints  # compute hints at all (Enter's default becomes the recommendation)
        self.show_hints = show_hints
        self.hint_samples = hint_samples  # a fixed count makes hints repeatable (tests); else a time budget
        self.hinter: Optional[ProcessBot] = None
        self._hint: Optional[tuple[tuple[int, int], Hint]] = None
        self._hint_asked: Optional[tuple[int, int]] = None
        self._hint_lock = threading.Lock()
        self.auto_review = auto_review
        self.review: Optional[HandReview] = None
        self._review_asked = 0
        self.bot: Optional[Bot] = None
        self.bot_spec: Optional[str] = None
        self.bot_thinking = False
        self.forfeit: Optional[str] = None
        kind = self.store.players[BOT_SEAT].kind
        if kind.startswith("bot:"):
            self.bot_spec = kind[4:]
        self.viewer: Optional[int] = 0 if self.vs_bot else None
        recorded = self.store.forfeit
        if recorded is not None:
            self.forfeit = recorded.reason  # the game already ended so: nothing to start
        else:
            self._start_bot(allowed_cmd)
        self.store.save()
        self.settle()

    @property
    def vs_bot(self) -> bool:
        return self.bot_spec is not None

    @property
    def state(self) -> GameState:
        return self.store.state

    def snapshot(self) -> Snapshot:
        store = self.store
        return Snapshot(store.state, store.players, self.viewer, self.vs_bot, self.bot_thinking, self.forfeit,
                        store.save_error, len(store.record.actions), self._finished_review(), self.auto_review,
                        self._current_hint(), self.show_hints, store.practice, self._take_back_to() is not None)

    # ------------------------------------------------------------ practice take-backs

    def _take_back_to(self) -> Optional[int]:
        """Where a take-back cuts the record: at the person's last decision of the hand in play.
        Only against a bot, never while it thinks, never across a scored hand."""
        if not self.vs_bot or self.bot_thinking or self.forfeit or self.bot is None:
            return None
        if self.store.state.phase in (Phase.SHUFFLE, Phase.GAME_OVER):
            return None  # the hand is scored: its score stays
        actions = self.store.record.actions
        for index in range(len(actions) - 1, -1, -1):
            action = actions[index]
            if isinstance(action, Shuffle):
                return None  # the hand began after the person's last decision: a scored hand stays
            if isinstance(action, PLAYER_ACTIONS) and action.player == 0:
                return index
        return None

    def take_back(self) -> bool:
        """Undo the person's last decision and the bot's answers after it; the game becomes practice."""
        cut = self._take_back_to()
        if cut is None:
            return False
        self.store.rewind(cut, practice={"takebacks": self.store.practice + 1})
        self._hint = None
        self._hint_asked = None
        self.settle()
        return True

    def replay_hand(self) -> bool:
        """From the hand summary: the same deal again, as practice (the hand's score is taken off)."""
        if not self.vs_bot or self.forfeit or self.bot is None or self.store.state.phase is not Phase.SHUFFLE:
            return False
        actions = self.store.record.actions
        start = max(i for i, a in enumerate(actions) if isinstance(a, Shuffle))
        self.store.rewind(start + 1, practice={"takebacks": self.store.practice + 1})
        self.review = None
        self._review_asked = 0
        self._hint, self._hint_asked = None, None  # decisions of the same record length come back
        self.settle()
        return True

    # ------------------------------------------------------------ hints for the person at the keyboard

    def _hint_token(self) -> Optional[tuple[int, int]]:
        """The viewer's decision now (actions so far, viewer), or None when it is not theirs to make."""
        st, viewer = self.store.state, self.viewer
        if viewer is None or st.to_act != viewer or self.forfeit or (self.vs_bot and viewer == BOT_SEAT):
            return None
        return (len(self.store.record.actions), viewer)

    def _current_hint(self) -> Optional[Hint]:
        token = self._hint_token()
        return self._hint[1] if self._hint is not None and token is not None and self._hint[0] == token else None

    def hint_request(self) -> Optional[tuple[tuple[int, int], Observation, tuple[PlayerAction, ...]]]:
        """Once per decision: the viewer's own observation and legal actions, for the hint service."""
        token = self._hint_token()
        if not self.hints or token is None or token == self._hint_asked:
            return None
        self._hint_asked = token
        if self.hinter is None:
            from ..bots.hints import HintService

            self.hinter = ProcessBot(functools.partial(HintService, self.hint_samples))
        return token, self.store.observation(token[1]), self.store.legal()

    def compute_hint(self, observation: Observation, legal: tuple[PlayerAction, ...]) -> Optional[Hint]:
        """Ask the hint service (from a worker thread); one question at a time on its pipe."""
        with self._hint_lock:
            hinter = self.hinter
            if hinter is None:
                return None
            try:
                found: Hint = hinter.call("hint", observation, legal, 0)  # the seed: nothing hidden in it
            except Exception:  # a hint is advice: without it the game goes on
                return None
            return found

    def set_hint(self, token: tuple[int, int], hint: Optional[Hint]) -> None:
        if hint is not None and token == self._hint_token():
            self._hint = (token, hint)

    # ------------------------------------------------------------ the review of a finished hand

    def _hand_over(self) -> int:
        """The number of the hand just finished, while nothing of the next one is dealt; else 0."""
        st = self.store.state
        if st.history and st.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and not self.forfeit:
            return len(st.history)
        return 0

    def _finished_review(self) -> Optional[HandReview]:
        review = self.review
        return review if review is not None and review.hand == self._hand_over() else None

    def review_request(self) -> Optional[tuple[GameRecord, int]]:
        """What to analyse now (once per hand, in the background): the record and the hand just finished."""
        hand = self._hand_over()
        if not hand or self._review_asked == hand:
            return None
        self._review_asked = hand
        return self.store.record, hand

    def set_review(self, review: Optional[HandReview]) -> None:
        if review is not None and review.hand == self._hand_over():
            self.review = review

    # ------------------------------------------------------------ the bot

    def _start_bot(self, allowed_cmd: Optional[str]) -> None:
        spec = self.bot_spec
        if spec is None:
            return
        name = self.store.players[BOT_SEAT].name
        if spec.startswith("cmd:") and spec != allowed_cmd:
            # A record only names its bot: running the program it names would let any file run any command.
            self._forfeit(f"{name} cannot play: a game record may not start the program it names ({spec[4:]})")
            return
        try:
            self.bot = create_bot(spec, self.store.dealer.seed)
            self.bot.start(BOT_SEAT, self.store.record.rules)
        except (BotError, ValueError, OSError) as exc:
            self._forfeit(f"{name} cannot play: {exc}")

    def _forfeit(self, reason: str) -> None:
        """The bot's seat gives up: said on screen and kept in the record."""
        self.forfeit = reason
        self.bot_thinking = False
        self.store.record_forfeit(Forfeit(BOT_SEAT, reason))
        self.close()

    def bot_due(self) -> bool:
        return (self.vs_bot and self.bot is not None and not self.forfeit and not self.bot_thinking
                and self.store.state.to_act == BOT_SEAT)

    def bot_request(self) -> tuple[int, Observation, tuple[PlayerAction, ...]]:
        """What the bot is asked: a token for its answer, its own observation and the legal actions."""
        self.bot_thinking = True
        store = self.store
        return len(store.record.actions), store.observation(BOT_SEAT), store.legal()

    def bot_answer(self, token: int, action: Optional[PlayerAction], error: Optional[str]) -> bool:
        """Apply the bot's answer; False if it was stale (the game moved on or ended meanwhile)."""
        store = self.store
        self.bot_thinking = False
        if token != len(store.record.actions) or self.forfeit or self.bot is None:
            return False
        if error is None and action not in store.legal():
            error = f"the bot chose an illegal action: {action!r}"
        if error is not None or action is None:
            self._forfeit(f"{store.players[BOT_SEAT].name} forfeits: {error}")
            return True
        self.act(action)
        return True

    def close(self) -> None:
        """Stop the bot; ``close_all`` stops the hint service too."""
        bot, self.bot = self.bot, None
        if bot is not None:
            try:
                bot.close()
            except Exception:  # closing a broken bot must not crash the game
                pass

    def close_all(self) -> None:
        self.close()
        hinter, self.hinter = self.hinter, None
        if hinter is not None:
            hinter.close()  # a worker waiting on it gets an error and gives up

    # ------------------------------------------------------------ the people

    def settle(self) -> None:
        """Deal due chance actions and decide whose cards may be shown."""
        st = self.store.settle()
        if self.vs_bot:
            self.viewer = 0
        elif st.to_act is not None and self.viewer != st.to_act:
            self.viewer = None  # hot-seat: hand the keyboard over before showing any card
        if st.phase is Phase.GAME_OVER and self.bot is not None:
            try:
                self.bot.finish(st.scores, st.winner)
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
        self.viewer = self.store.state.to_act

    def next_hand(self) -> None:
        if self.store.state.phase is not Phase.SHUFFLE:
            return
        if not self.vs_bot:
            self.viewer = None
        self.store.deal()
        self.settle()
