"""A seat's view: everything one seat may know now, and nothing else, as one value.

The interface draws from a ``SeatView`` only (an import-linter contract keeps the engine's
rules and the whole state out of ``spades_tui.tui``), so a screen cannot show what its seat may
not know, and the same screens can be drawn on a machine that never holds the whole game (a
network table's client).  ``seat_view(state, seat, ...)`` builds it from the state, on the
session side; ``seat`` None is the **public view** (a hot-seat hand-off, a spectator): it holds
no card of any hand, only what both players know (cards played to tricks are public).

``to_json``/``from_json`` give its wire form.  The hint and the review stay out of it: each
side computes them from what it may know (its own observation; a hand once it is revealed).

This module is also the interface's vocabulary: the value types a screen needs (cards,
actions, rules, records) are re-exported here, so ``spades_tui.tui`` never imports the engine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..bots.heuristic import NormalBot
from ..bots.protocol import ProtocolError, observation_from_json, player_action_from_json
from ..engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, Play, PlayerAction
from ..engine.cards import Card, Suit
from ..engine.errors import RulesError
from ..engine.observation import Observation, observe
from ..engine.outcome import Outcome
from ..engine.record import HUMAN, GameRecord, PlayerInfo, SeatKind, is_served_table, is_table_game
from ..engine.reducer import legal_actions
from ..engine.rules import PRESETS, Preset, Rules
from ..engine.state import BidValue, GameState, HandResult, Phase, PlayedCard, ScoreLine
from ..engine.text import MAX_RECORD_NAME, clean_name, printable
from ..keep.meta import CHALLENGE_HANDS

if TYPE_CHECKING:
    from ..bots.hints import Hint
    from ..keep.challenges import Result  # a challenge's only: not loaded before a game's first screen
    from ..solver.analysis import HandReview

__all__ = [
    "Bid", "BidValue", "Card", "DeclareDoubleNil", "Draft", "Exchange", "GameRecord", "HandResult",
    "Observation", "Outcome", "Phase", "Play", "PlayedCard", "PlayerAction", "PlayerInfo", "PRESETS", "Preset",
    "Rules", "RulesError", "ScoreLine", "SeatKind", "SeatView", "Suit", "is_served_table", "is_table_game",
    "public_observation", "seat_view",
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
    connected: tuple[bool, bool] = (True, True)  # a remote seat may drop (network tables)
    save_error: Optional[str] = None
    practice: int = 0  # take-backs so far: a practice game, whose future the player may know
    can_take_back: bool = False
    show_hints: bool = False  # the hint panel is on
    auto_review: bool = False  # open the review whenever a hand ends
    table: str = ""  # a network table's lines for the panel: who joined or dropped, the shuffle checks
    shuffle: str = ""  # a network table's shuffle check of every hand so far, in one sentence (said at the end)
    # A network table's invite ("spades-tui join ADDR:P CODE") and watch command ("spades-tui watch ADDR:P
    # WATCHCODE"), for a seat that has the table's codes (its host, a seat welcomed with them); never a watcher's.
    invite: str = ""
    watch_invite: str = ""
    # The seat the invite's code sat down, once it did (None: that seat is still empty, or there is no invite):
    # the code seats one player once, so from then on only the watch code lets anyone else in.
    invite_taken: Optional[int] = None
    watcher: bool = False  # a watcher at a network table: the public view, and leaving leaves the table
    # The last lines said at a network table, (name, text) as the host cleaned them, for the wide panel.
    said: tuple[tuple[str, str], ...] = ()
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
        return {
            "seat": self.seat,
            "players": [p.to_json() for p in self.players],
            "observation": self.observation.to_json(),
            "legal": [a.to_json() for a in self.legal],
            "hands": [hand_to_json(h) for h in self.hands],
            "trick_winners": list(self.trick_winners),
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "actions": self.actions,
            "persons": list(self.persons),
            "vs_bot": self.vs_bot,
            "bot_thinking": self.bot_thinking,
            "connected": list(self.connected),
            "save_error": self.save_error,
            "practice": self.practice,
            "can_take_back": self.can_take_back,
            "show_hints": self.show_hints,
            "auto_review": self.auto_review,
            "table": self.table,
            "shuffle": self.shuffle,
            "said": [list(line) for line in self.said],
            "invite": self.invite,
            "watch_invite": self.watch_invite,
            "invite_taken": self.invite_taken,
            "watcher": self.watcher,
            "default": self.default.to_json() if self.default is not None else None,
            "last_draw": (None if self.last_draw is None else
                          [self.last_draw[0].code, self.last_draw[1].code if self.last_draw[1] is not None else None,
                           self.last_draw[2]]),
            "last_exchange": (None if self.last_exchange is None else
                              [[c.code for c in self.last_exchange[0]], [c.code for c in self.last_exchange[1]]]),
        }

    @classmethod
    def from_json(cls, data: Any) -> SeatView:
        """The view back from its wire form; ``ProtocolError`` (a ValueError) if it is not one."""
        if not isinstance(data, dict):
            raise ProtocolError("a view must be an object")
        try:
            seat = data["seat"]
            if seat not in (0, 1, None) or type(seat) is bool:
                raise ProtocolError(f"bad seat {seat!r}")
            players = data["players"]
            if not isinstance(players, list) or len(players) != 2:
                raise ProtocolError("players must list two players")
            # Names from another machine are hostile until cleaned, as a record's (engine/text.py).
            infos = tuple(PlayerInfo(clean_name(p["name"], f"Player {i + 1}", MAX_RECORD_NAME),
                                     clean_name(p.get("kind", HUMAN), HUMAN, MAX_RECORD_NAME))
                          for i, p in enumerate(players))
            outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") is not None else None
            default = data.get("default")
            return cls(
                seat=seat,
                players=(infos[0], infos[1]),
                observation=observation_from_json(data["observation"]),
                legal=tuple(player_action_from_json(a) for a in data["legal"]),
                hands=tuple(hand_from_json(h) for h in data["hands"]),
                trick_winners=tuple(int(w) for w in data["trick_winners"]),
                outcome=outcome,
                actions=int(data["actions"]),
                persons=_bools(data.get("persons", [True, True])),
                vs_bot=bool(data.get("vs_bot", False)),
                bot_thinking=bool(data.get("bot_thinking", False)),
                connected=_bools(data.get("connected", [True, True])),
                save_error=None if data.get("save_error") is None else printable(data["save_error"], limit=300),
                practice=int(data.get("practice", 0)),
                can_take_back=bool(data.get("can_take_back", False)),
                show_hints=bool(data.get("show_hints", False)),
                auto_review=bool(data.get("auto_review", False)),
                table=str(data.get("table", ""))[:500],
                shuffle=printable(str(data.get("shuffle", "")), limit=500),
                invite=printable(str(data.get("invite", "")), limit=300),
                watch_invite=printable(str(data.get("watch_invite", "")), limit=300),
                invite_taken=_seat_or_none(data.get("invite_taken")),
                watcher=bool(data.get("watcher", False)),
                said=_said(data.get("said", [])),
                default=player_action_from_json(default) if default is not None else None,
                last_draw=_last_draw(data.get("last_draw")),
                last_exchange=_last_exchange(data.get("last_exchange")),
            )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            if isinstance(exc, ProtocolError):
                raise
            raise ProtocolError(f"bad view: {exc!r}") from None


SAID_KEPT = 8  # the lines said a view carries: the panel shows the last few


def _said(value: Any) -> tuple[tuple[str, str], ...]:
    """The lines said, from a view's wire form: at most ``SAID_KEPT``, each cleaned and bounded."""
    if not isinstance(value, list):
        raise ProtocolError("said must be a list")
    return tuple((printable(str(name), limit=MAX_RECORD_NAME), printable(str(text), limit=300))
                 for name, text in value[-SAID_KEPT:])


def _last_draw(value: Any) -> Optional[tuple[Card, Optional[Card], str]]:
    if value is None:
        return None
    top, second, take = value
    if take not in ("first", "second"):
        raise ProtocolError(f"bad take {take!r}")
    return (Card.parse(top), Card.parse(second) if second is not None else None, take)


def _last_exchange(value: Any) -> Optional[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    if value is None:
        return None
    gave, got = value
    if len(gave) > 3 or len(got) != len(gave):
        raise ProtocolError("an exchange gives and gets back at most 3 cards, as many each way")
    return (tuple(Card.parse(c) for c in gave), tuple(Card.parse(c) for c in got))


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


def _bools(value: Any) -> tuple[bool, bool]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError("expected a pair")
    return (bool(value[0]), bool(value[1]))


def _seat_or_none(value: Any) -> Optional[int]:
    if value is None:
        return None
    if value not in (0, 1) or type(value) is bool:
        raise ProtocolError(f"bad seat {value!r}")
    return int(value)


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


def hand_from_json(data: Any) -> HandResult:
    def pair(key: str) -> tuple[int, int]:
        v = data[key]
        return (int(v[0]), int(v[1]))

    def bid(v: Any) -> BidValue:
        return "double_nil" if v == "double_nil" else int(v)

    lines = tuple(ScoreLine(**{k: int(v) for k, v in line.items()}) for line in data["lines"])
    return HandResult(int(data["first_drafter"]), (bid(data["bids"][0]), bid(data["bids"][1])), pair("tricks"),
                      (lines[0], lines[1]), pair("scores_after"), pair("bags_after"))


def public_observation(state: GameState) -> Observation:
    """What both players know: no hand, no drawn card, no discards (``seat`` 0 is only a side)."""
    return dataclasses.replace(observe(state, 0), hand=_NONE, drawn=None, seen_discards=_NONE)


def quick_advice(observation: Observation, legal: tuple[PlayerAction, ...]) -> PlayerAction:
    """The normal bot's choice: a fraction of a millisecond, from the seat's observation alone."""
    bot = NormalBot(0)
    bot.start(observation.seat, observation.rules)
    return bot.decide(observation, legal)


def seat_view(state: GameState, seat: Optional[int], players: tuple[PlayerInfo, PlayerInfo], *,
              outcome: Optional[Outcome] = None, actions: int = 0, **facts: Any) -> SeatView:
    """The one builder of views: ``seat``'s (0 or 1) or, with None, the public view.

    ``facts`` are the session facts (``SeatView``'s fields after ``actions``).  Enter's default is
    the hint's recommendation, else the normal bot's choice; a hint or a default is kept only for
    the seat's own decision.
    """
    obs = observe(state, seat) if seat is not None else public_observation(state)
    legal: tuple[PlayerAction, ...] = ()
    if seat is not None and outcome is None and state.to_act == seat:
        legal = legal_actions(state)  # the seat's own choices: its cards, nothing hidden
    if not legal:
        facts.pop("default", None)
        facts.pop("hint", None)
    elif facts.get("default") is None:
        hint = facts.get("hint")
        facts["default"] = hint.recommended if hint is not None else quick_advice(obs, legal)
    winners = state.hand.trick_winners if state.hand is not None else ()
    return SeatView(seat, players, obs, legal, state.history, winners, outcome, actions, **facts)
