"""A seat's view: everything one seat may know now, and nothing else, as one value.

The interface draws from a ``SeatView`` only (an import-linter contract keeps the engine's
rules and the whole state out of ``spades_tui.tui``), so a screen cannot show what its seat may
not know, and the same screens can be drawn on a machine that never holds the whole game (a
network table's client).  Two builders make it, here and nowhere else: ``seat_view(state, seat, ...)``
from the state, where the game is held (a game here, a table's host); ``seen_view(observation, ...)``
from what a seat was sent, where it is not (a seat at another's table).  ``seat`` None is the **public
view** (a hot-seat hand-off, a watcher): it holds no card of any hand, only what both players know (cards
played to tricks are public).  A network table's facts (who is connected, the invite, the lines said, the
shuffle check) are one field, ``table_facts``.

``to_json`` is its wire form: the game part of the ``update`` frame a table's host sends each seat
(docs/table-protocol.md), which is all that ever leaves the host of a view; a seat reads it back through
the table's frame reader, which trusts nothing.  The session facts, the hint and the review stay out of
it: each side computes them from what it may know (its own observation; a hand once it is revealed).

This module is also the interface's vocabulary: the value types a screen needs (cards,
actions, rules, records) are re-exported here, so ``spades_tui.tui`` never imports the engine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..bots.heuristic import NormalBot
from ..engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, Play, PlayerAction
from ..engine.cards import Card, Suit
from ..engine.errors import RulesError
from ..engine.observation import Observation, observe
from ..engine.outcome import Outcome, Termination
from ..engine.record import GameRecord, PlayerInfo, SeatKind, is_served_table, is_table_game
from ..engine.reducer import legal_actions, trick_winner
from ..engine.rulebook import rules_outcome
from ..engine.rules import PRESETS, Preset, Rules
from ..engine.state import BidValue, GameState, HandResult, Phase, PlayedCard, ScoreLine
from ..keep.meta import CHALLENGE_HANDS

if TYPE_CHECKING:
    from ..bots.hints import Hint
    from ..keep.challenges import Result  # a challenge's only: not loaded before a game's first screen
    from ..solver.analysis import HandReview
    from .field import FieldView

__all__ = [
    "Bid", "BidValue", "Card", "DeclareDoubleNil", "Draft", "Exchange", "GameRecord", "HandResult",
    "Observation", "Outcome", "Phase", "Play", "PlayedCard", "PlayerAction", "PlayerInfo", "PRESETS", "Preset",
    "Rules", "RulesError", "ScoreLine", "SeatKind", "SeatView", "Suit", "TableFacts", "is_served_table",
    "is_table_game", "public_observation", "seat_view", "seen_view",
]

_NONE: frozenset[Card] = frozenset()


@dataclass(frozen=True)
class ChallengeView:
    """What the challenge's screens show: the code, the player's margins so far, the par's (None while it is
    computed), whether this play counts."""

    code: str
    mine: tuple[int, ...]
    par: Optional[tuple[int, ...]]
    on_record: Optional[Result]  # the result on record when this play is practice
    problem: str = ""  # the results file could not be read or written, or the par failed

    @property
    def over(self) -> bool:
        return len(self.mine) >= CHALLENGE_HANDS

    @property
    def result(self) -> int:
        return sum(self.mine)

    @property
    def over_par(self) -> Optional[int]:
        return self.result - sum(self.par) if self.par is not None else None


@dataclass(frozen=True)
class TableFacts:
    """What a network table adds to a seat's view: only a table knows these, and a game here has none."""

    connected: tuple[bool, bool] = (True, True)  # each seat's link, as the host says (a remote seat may drop)
    lines: str = ""  # the panel's lines about the table: who joined or dropped, the shuffle checks
    shuffle: str = ""  # the shuffle check of every hand so far, in one sentence (said at the end)
    # The table's invite ("spades-tui join ADDR:P CODE") and watch command ("spades-tui watch ADDR:P WATCHCODE"),
    # for a seat that has the table's codes (its host, a seat welcomed with them); never a watcher's.
    invite: str = ""
    watch_invite: str = ""
    # The seat the invite's code sat down, once it did (None: that seat is still empty, or there is no invite):
    # the code seats one player once, so from then on only the watch code lets anyone else in.
    invite_taken: Optional[int] = None
    watcher: bool = False  # a watcher: the public view, and leaving leaves the table
    said: tuple[tuple[str, str], ...] = ()  # the last lines said, (name, text) as the host cleaned them
    # A rated table (docs/table-protocol.md, "Rated play"): a seat may resign, and claim the game once the other
    # seat has been gone ``claim_after`` seconds (``gone_since``: since when, on the monotonic clock); at the end,
    # each player's rating change in words ("Ada 1500? → 1662? (+162)").
    rated: bool = False
    claim_after: Optional[float] = None
    gone_since: Optional[float] = None
    ratings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatView:
    """What one seat (or, ``seat`` None, anybody) may know now, with the session facts a screen shows."""

    seat: Optional[int]  # whose view; None: the public view
    players: tuple[PlayerInfo, PlayerInfo]
    # The seat's observation (docs/bot-protocol.md); in the public view the public facts, with no hand,
    # no drawn card and no seen discards (its ``seat`` is then only the side drawn at the bottom).
    observation: Observation
    legal: tuple[PlayerAction, ...]  # this seat's legal actions now; () when not its turn or no seat
    hands: tuple[HandResult, ...]  # the completed, scored hands
    trick_winners: tuple[int, ...]  # who won each completed trick of this hand
    outcome: Optional[Outcome]  # how the game ended; None while it goes on
    actions: int  # actions in the record: a decision's identity (a choice carries it back)
    # Session facts.
    persons: tuple[bool, bool] = (True, True)  # which seats a person plays at this keyboard
    vs_bot: bool = False  # one person against a bot: "you" is that person
    bot_thinking: bool = False
    save_error: Optional[str] = None
    practice: int = 0  # take-backs so far: a practice game, whose future the player may know
    can_take_back: bool = False
    show_hints: bool = False  # the hint panel is on
    auto_review: bool = False  # open the review whenever a hand ends
    table_facts: Optional[TableFacts] = None  # a network table's; None: a game at this keyboard
    # Enter's default for this seat's decision: the hint's recommendation once it has come, until
    # then the normal bot's choice from the same observation (computed here, not in rendering).
    default: Optional[PlayerAction] = None
    hint: Optional[Hint] = None  # for this seat's decision now, from its observation alone
    review: Optional[HandReview] = None  # the hand just finished, double dummy, only once it is over
    # The seat's own last draft turn of this hand: the top card it saw, the second card if it saw it
    # (it took it, or see_second_card), and which it took: "you passed 9♥ and drew Q♠".
    last_draw: Optional[tuple[Card, Optional[Card], str]] = None
    # The seat's own Double Nil exchange of this hand once its cards came back: (gave, got), sorted;
    # both () when it kept all.  Its own cards only: the other seat never sees them.
    last_exchange: Optional[tuple[tuple[Card, ...], tuple[Card, ...]]] = None
    # The hand is over but its last trick is still shown on the table until seen (the app sets it on its own
    # copy of the view; never sent to another machine, each screen holds its own).
    trick_held: bool = False
    # A lesson's words for this moment (``spades-tui learn``): set by the app on its own copy of the view, shown
    # in the panel's place; never sent to another machine.  Empty: not a lesson.
    lesson: str = ""
    # A daily challenge's facts (session/challenge.py): its code, the margins so far, the par once known.
    challenge: Optional[ChallengeView] = None
    # The day's challenge at a server, once its four hands are played: the field's standings (session/field.py).
    field: Optional[FieldView] = None

    # ------------------------------------------------------------ a network table's facts, read as one

    @property
    def connected(self) -> tuple[bool, bool]:
        return self.table_facts.connected if self.table_facts is not None else (True, True)

    @property
    def table(self) -> str:
        """The panel's lines about a network table ("" at a game here)."""
        return self.table_facts.lines if self.table_facts is not None else ""

    @property
    def shuffle(self) -> str:
        return self.table_facts.shuffle if self.table_facts is not None else ""

    @property
    def invite(self) -> str:
        return self.table_facts.invite if self.table_facts is not None else ""

    @property
    def watch_invite(self) -> str:
        return self.table_facts.watch_invite if self.table_facts is not None else ""

    @property
    def invite_taken(self) -> Optional[int]:
        return self.table_facts.invite_taken if self.table_facts is not None else None

    @property
    def watcher(self) -> bool:
        return self.table_facts is not None and self.table_facts.watcher

    @property
    def said(self) -> tuple[tuple[str, str], ...]:
        return self.table_facts.said if self.table_facts is not None else ()

    # ------------------------------------------------------------ read-only helpers

    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)

    @property
    def phase(self) -> Phase:
        return self.observation.phase

    @property
    def to_act(self) -> Optional[int]:
        return self.observation.to_act

    @property
    def rules(self) -> Rules:
        return self.observation.rules

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat and bool(self.legal)

    @property
    def in_hand(self) -> bool:
        """A hand is being drafted, bid or played (not between hands, not over)."""
        return self.observation.hand_number > 0 and self.phase not in (Phase.SHUFFLE, Phase.GAME_OVER)

    @property
    def winner(self) -> Optional[int]:
        return self.outcome.winner if self.outcome is not None else None

    @property
    def forfeit(self) -> Optional[str]:
        """The forfeit in words, once the game ended so."""
        o = self.outcome
        return o.forfeit.reason if o is not None and o.forfeit is not None else None

    @property
    def last_trick(self) -> Optional[tuple[tuple[PlayedCard, PlayedCard], int]]:
        """The last completed trick of this hand and its winner."""
        tricks = self.observation.tricks
        return (tricks[-1], self.trick_winners[-1]) if tricks else None

    @property
    def trick_just_finished(self) -> bool:
        """A trick is complete and the next not yet led: the moment to let it be seen."""
        obs = self.observation
        return obs.phase is Phase.PLAY and not obs.trick and bool(obs.tricks)

    # ------------------------------------------------------------ the wire form

    def to_json(self) -> dict[str, Any]:
        """The view's wire form, the game part of a table host's ``update`` frame (docs/table-protocol.md): the
        record length, the seat's observation (the public view's with no seat, hand, drawn card or seen
        discards), its legal actions and the completed hands.  Nothing else of a view leaves its machine."""
        observation = self.observation.to_json()
        if self.seat is None:
            observation.update(seat=None, hand=[], drawn=None)
            observation.pop("seen_discards", None)
        return {"at": self.actions, "observation": observation, "legal": [a.to_json() for a in self.legal],
                "hands": [hand_to_json(h) for h in self.hands]}


SAID_KEPT = 8  # the lines said a view carries: the panel shows the last few


def draw_news(seen: Sequence[Observation]) -> Optional[tuple[Card, Optional[Card], str]]:
    """The seat's last draft turn of the hand from the observations it was sent, in order (a network
    table's seat, which never sees the shuffle): the top card it was shown, which it took, and the
    second card if it saw it (the card it drew, or with ``see_second_card`` the one it passed)."""
    for i in range(len(seen) - 1, -1, -1):
        before = seen[i]
        if before.drawn is None or before.phase is not Phase.DRAFT:
            continue
        if i + 1 >= len(seen):
            continue  # its turn now, not yet taken: the turn before it is the last one
        after = seen[i + 1]
        turn = len(before.draft_log)
        if len(after.draft_log) <= turn or after.draft_log[turn].player != before.seat:
            return None
        take = after.draft_log[turn].take
        new = after.hand - before.hand
        passed = after.seen_discards - before.seen_discards - {before.drawn}
        if take == "second":
            return (before.drawn, next(iter(new)) if len(new) == 1 else None, take)
        return (before.drawn, next(iter(passed)) if len(passed) == 1 else None, take)
    return None


def exchange_news(seen: Sequence[Observation]) -> Optional[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """The seat's own exchange from the observations it was sent: the hand before it against the hand
    once the cards came back (the discards drawn never include the cards put back)."""
    for i in range(len(seen) - 1, -1, -1):
        before = seen[i]
        if before.phase is not Phase.EXCHANGE or before.to_act != before.seat:
            continue
        for after in seen[i + 1:]:
            if after.exchanged[after.seat] is not None and not (
                    after.phase is Phase.EXCHANGE_DRAW and after.to_act == after.seat):
                gave, got = tuple(sorted(before.hand - after.hand)), tuple(sorted(after.hand - before.hand))
                # From another machine: at most the rules' three cards each way, else nothing said.
                return (gave, got) if len(gave) == len(got) <= 3 else None
        return None
    return None


def hand_to_json(h: HandResult) -> dict[str, Any]:
    """A completed hand: the replay summary's fields (docs/game-record.md) and the score lines behind them."""
    return {
        "first_drafter": h.first_drafter,
        "bids": list(h.bids),
        "tricks": list(h.tricks),
        "points": list(h.points),
        "lines": [dataclasses.asdict(line) for line in h.lines],
        "scores_after": list(h.scores_after),
        "bags_after": list(h.bags_after),
    }


def public_observation(state: GameState) -> Observation:
    """What both players know: no hand, no drawn card, no discards (``seat`` 0 is only a side)."""
    return dataclasses.replace(observe(state, 0), hand=_NONE, drawn=None, seen_discards=_NONE)


def quick_advice(observation: Observation, legal: tuple[PlayerAction, ...]) -> PlayerAction:
    """The normal bot's choice: a fraction of a millisecond, from the seat's observation alone."""
    bot = NormalBot(0)
    bot.start(observation.seat, observation.rules)
    return bot.decide(observation, legal)


def _advice(facts: dict[str, Any], observation: Observation, legal: tuple[PlayerAction, ...]) -> None:
    """Enter's default in ``facts``, once per view: the hint's recommendation once it has come, else the normal
    bot's choice; a hint or a default is kept only for the seat's own decision."""
    if not legal:
        facts.pop("default", None)
        facts.pop("hint", None)
    elif facts.get("default") is None:
        hint = facts.get("hint")
        facts["default"] = hint.recommended if hint is not None else quick_advice(observation, legal)


def seat_view(state: GameState, seat: Optional[int], players: tuple[PlayerInfo, PlayerInfo], *,
              outcome: Optional[Outcome] = None, actions: int = 0, advise: bool = True, **facts: Any) -> SeatView:
    """A view from the state (where the game is held): ``seat``'s (0 or 1) or, with None, the public view.

    ``facts`` are the session facts (``SeatView``'s fields after ``actions``).  ``advise`` False: no Enter's
    default (a table's host sending a seat its update, which carries none).
    """
    obs = observe(state, seat) if seat is not None else public_observation(state)
    legal: tuple[PlayerAction, ...] = ()
    if seat is not None and outcome is None and state.to_act == seat:
        legal = legal_actions(state)  # the seat's own choices: its cards, nothing hidden
    if advise:
        _advice(facts, obs, legal)
    winners = state.hand.trick_winners if state.hand is not None else ()
    return SeatView(seat, players, obs, legal, state.history, winners, outcome, actions, **facts)


def seen_view(observation: Observation, seat: Optional[int], players: tuple[PlayerInfo, PlayerInfo], *,
              legal: tuple[PlayerAction, ...] = (), hands: tuple[HandResult, ...] = (),
              outcome: Optional[Outcome] = None, actions: int = 0, seen: Sequence[Observation] = (),
              **facts: Any) -> SeatView:
    """A view from what a seat was sent (where the game is not held: a seat at another's table): its latest
    ``observation``, ``legal`` actions and the completed ``hands``; ``seen``, the observations it was sent this
    hand, in order, tell its own last draft turn and exchange (the host never sends the shuffle).  ``seat``
    None: a watcher's public view, as bots among themselves are watched."""
    winners = tuple(trick_winner(t) for t in observation.tricks)
    if seat is None:
        facts.pop("hint", None)
        return SeatView(None, players, observation, (), hands, winners, outcome, actions, persons=(False, False),
                        **facts)
    if outcome is None and observation.phase is Phase.GAME_OVER:
        outcome = rules_outcome(observation.rules, hands)  # the rule book's end (section 8), 13 tricks included
        if outcome is None:
            a, b = observation.scores
            outcome = Outcome(Termination.TARGET, None if a == b else (0 if a > b else 1), observation.scores)
    if observation.hand_number > 0 and observation.phase not in (Phase.SHUFFLE, Phase.GAME_OVER):
        facts.update(last_draw=draw_news(seen), last_exchange=exchange_news(seen))
    _advice(facts, observation, legal)
    return SeatView(seat, players, observation, legal, hands, winners, outcome, actions,
                    persons=(seat == 0, seat == 1), **facts)
