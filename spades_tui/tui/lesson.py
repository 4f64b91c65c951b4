"""The lesson's words (``spades-tui learn``, issue 39): which step of the hand a seat's view is, and what the
lesson says there.  Pure: no Textual, no file (the app reads ``assets/lesson.md`` and hands its text here).

``LessonText.parse`` reads the asset: its front matter (the stock, who drafts first, the bot's seed) and one
``## step-id`` section per step.  A ``Lesson`` follows one lesson's hand: ``words(seat_view)`` gives the text
shown beside the table for that view; ``chose`` notes a choice other than the suggestion (the next words say
what it changes), ``refused_key`` and ``refused_card`` an illegal key or card (explained, never just refused).
Each step is fixed the first time its decision is seen, so the same view always reads the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Collection, Mapping, Optional

from ..i18n.language import N_, _, ngettext, pgettext, translated
from ..session.view import Bid, Card, DeclareDoubleNil, Draft, Exchange, Phase, Play, PlayerAction, SeatView, Suit
from .news import took_words
from .notation import bid_text, signed

# The parts of the game the lesson must show, each by the step that shows it (the end lists those missed, in the
# player's language).
PARTS: tuple[tuple[str, str], ...] = (
    ("draft-keep", N_("keeping the top card")), ("draft-pass", N_("passing it")),
    ("draft-seen", N_("seeing the card you passed")),
    ("double-nil", N_("what Double Nil and its exchange are")), ("draft-last", N_("the 13th draft turn")),
    ("bid", N_("bidding")), ("lead", N_("leading")), ("follow", N_("following suit")),
    ("trump", N_("trumping with a spade when void")), ("spades-broken", N_("spades breaking")),
    ("trick-won", N_("winning a trick")), ("trick-lost", N_("losing a trick")), ("end-bag", N_("a bag")),
)
# Every step the lesson says, each a ``## id`` section of assets/lesson.md (a test checks both ways).
STEPS: tuple[str, ...] = (
    "draft-first", "bot-picks", "draft-seen", "draft-keep", "draft-pass", "draft", "double-nil", "draft-last",
    "why-spade", "why-high", "why-low", "why-keep-low", "bid", "bid-first",
    "lead", "lead-broken", "lead-again", "follow", "follow-again", "trump", "void", "play",
    "trick-won", "trick-lost", "spades-broken", "hand-over",
    "end", "end-made", "end-bag", "end-set", "end-nil", "end-bot", "end-missed", "end-keys",
    "other-keep", "other-pass", "other-bid", "other-play",
    "refused-key", "refused-follow", "refused-spade-lead", "refused-card", "refused",
)
_HEADING = re.compile(r"^## +([a-z0-9-]+) *$", re.MULTILINE)
_FIELD = re.compile(r"\{([a-z_]+)\}")


class _Blanks(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""  # a name the moment has no value for reads as nothing, never a KeyError


@dataclass(frozen=True)
class LessonText:
    """The lesson's asset: its front matter's fields and its steps' texts by id."""

    fields: Mapping[str, str]
    steps: Mapping[str, str]

    @classmethod
    def parse(cls, text: str) -> LessonText:
        fields: dict[str, str] = {}
        body = text
        if text.startswith("---\n"):
            head, _sep, body = text[4:].partition("\n---\n")
            for line in head.splitlines():
                if line.strip() and not line.lstrip().startswith("#") and ":" in line:
                    key, _sep, value = line.partition(":")
                    fields[key.strip()] = value.strip()
        steps: dict[str, str] = {}
        found = list(_HEADING.finditer(body))
        for i, match in enumerate(found):
            end = found[i + 1].start() if i + 1 < len(found) else len(body)
            steps[match.group(1)] = body[match.end():end].strip()
        return cls(fields, steps)

    def say(self, step: str, values: Mapping[str, str]) -> str:
        """The step's text with the moment's values in its braces; a missing step reads as nothing."""
        return _FIELD.sub(lambda m: _Blanks(values)[m.group(1)], self.steps.get(step, ""))


# Each suit's name as the lesson's texts put it in their braces ({led}, {led_one}): ("hearts", "heart").
SUIT_WORDS: dict[Suit, tuple[str, str]] = {
    Suit.SPADES: (N_("spades"), N_("spade")), Suit.HEARTS: (N_("hearts"), N_("heart")),
    Suit.DIAMONDS: (N_("diamonds"), N_("diamond")), Suit.CLUBS: (N_("clubs"), N_("club")),
}
# What a hand short of a suit means for the bid (``hand_advice``): none of it, or one card of it.
SHORT_SUIT: dict[Suit, tuple[str, str]] = {
    Suit.HEARTS: (N_("No hearts: you trump them at once."), N_("One heart ({card}): then you trump hearts.")),
    Suit.DIAMONDS: (N_("No diamonds: you trump them at once."),
                    N_("One diamond ({card}): then you trump diamonds.")),
    Suit.CLUBS: (N_("No clubs: you trump them at once."), N_("One club ({card}): then you trump clubs.")),
}


def _suit_words(suit: Suit) -> tuple[str, str]:
    """("hearts", "heart"), in the player's language."""
    plural, one = SUIT_WORDS[suit]
    return translated(plural), translated(one)


@dataclass
class Lesson:
    """One lesson's hand, as the learner goes: the steps shown, what they chose, what was refused."""

    text: LessonText
    shown: list[str] = field(default_factory=list)  # step ids shown, in order (parts and notes)
    _steps: dict[tuple[int, str], tuple[str, ...]] = field(default_factory=dict)  # (actions, phase): its steps
    _note: tuple[int, str] = (-1, "")  # (actions, text): what the learner's last other choice changed
    _refusal: tuple[int, str] = (-1, "")  # (actions, text): why the last key or card was refused
    _tricks_seen: int = 0
    _broken_seen: bool = False
    _last: str = ""  # the words of the learner's last decision, kept while the bot plays
    _pending: list[str] = field(default_factory=list)  # what happened since the learner's last decision

    def _show(self, *steps: str) -> None:
        for step in steps:
            if step not in self.shown:
                self.shown.append(step)

    # ------------------------------------------------------------ the words of a moment

    def words(self, seat_view: SeatView) -> str:
        """What the lesson says beside the table for ``seat_view``."""
        if seat_view.phase is Phase.SHUFFLE and seat_view.hands:
            if not seat_view.trick_held:
                return self._refusal_first(seat_view, self.end_words(seat_view))
            # The 13th trick still on the table: the last decision's words ("You lead ... play Q♠") would read
            # as a card still to play.
            self._pending = []
            return self._refusal_first(seat_view, self.text.say("hand-over", self._winner(seat_view)))
        for step in self._events(seat_view):
            if step not in self._pending:
                self._pending.append(step)
        values = self._values(seat_view)
        if not seat_view.my_turn:
            # The bot's turn: what just happened, else the learner's last words (nothing new to read); a key
            # refused meanwhile is said above them, never just ignored.
            said = "\n\n".join(self.text.say(s, values) for s in self._pending) or self._last
            return self._refusal_first(seat_view, said)
        key = (seat_view.actions, seat_view.phase.value)
        if key not in self._steps:  # fixed when first seen: the same decision always reads the same
            self._steps[key] = (*self._pending, *self._decision(seat_view))
            self._pending = []
        steps = self._steps[key]
        self._show(*steps)
        parts = [self.text.say(s, values) for s in steps]
        note_at, note = self._note
        if note and note_at < seat_view.actions:
            parts.insert(0, note)
        refused_at, refusal = self._refusal
        if refusal and refused_at == seat_view.actions:
            parts.insert(0, refusal)
        self._last = "\n\n".join(p for p in parts if p)
        return self._last

    def _refusal_first(self, seat_view: SeatView, words: str) -> str:
        """``words`` with the refusal of a key or card at this very moment above them."""
        refused_at, refusal = self._refusal
        return "\n\n".join(p for p in (refusal if refused_at == seat_view.actions else "", words) if p)

    @staticmethod
    def _winner(seat_view: SeatView) -> dict[str, str]:
        winners = seat_view.trick_winners
        if not winners:
            return {"who": ""}
        return {"who": _("You") if winners[-1] == seat_view.seat else seat_view.names[winners[-1]]}

    def _events(self, seat_view: SeatView) -> tuple[str, ...]:
        """What just happened, said once: the learner's first trick won and lost, spades broken."""
        obs = seat_view.observation
        found: list[str] = []
        winners = seat_view.trick_winners
        for winner in winners[self._tricks_seen:]:
            step = "trick-won" if winner == seat_view.seat else "trick-lost"
            if step not in self.shown and step not in found:
                found.append(step)
        self._tricks_seen = max(self._tricks_seen, len(winners))
        if obs.spades_broken and not self._broken_seen:
            self._broken_seen = True
            found.append("spades-broken")
        return tuple(found)

    def _decision(self, seat_view: SeatView) -> tuple[str, ...]:
        """The step of the learner's decision now (none while the bot plays)."""
        obs, phase = seat_view.observation, seat_view.phase
        if phase is Phase.DRAFT:
            turn = sum(1 for d in obs.draft_log if d.player == obs.seat) + 1
            step = self._draft_step(seat_view, turn)
            # What the table shows of the bot's draft, once it has drafted; Double Nil and its exchange before the
            # last turn, as the draft ends (the lesson's game asks no Double Nil: session/lesson.py).
            if any(d.player != obs.seat for d in obs.draft_log) and "bot-picks" not in self.shown:
                return ("bot-picks", step)
            return ("double-nil", step) if turn == 12 else (step,)
        if phase is Phase.BIDDING:
            return ("bid-first",) if obs.bids[obs.opponent] is None else ("bid",)
        if phase is Phase.PLAY:
            return (self._play_step(seat_view),)
        return ()

    def _draft_step(self, seat_view: SeatView, turn: int) -> str:
        default = seat_view.default
        if turn in (1, 13):
            return "draft-first" if turn == 1 else "draft-last"
        last = seat_view.last_draw
        if last is not None and last[2] == "second" and "draft-seen" not in self.shown:
            return "draft-seen"
        step = "draft-keep" if isinstance(default, Draft) and default.take == "first" else "draft-pass"
        return step if step not in self.shown else "draft"

    def _play_step(self, seat_view: SeatView) -> str:
        obs, default = seat_view.observation, seat_view.default
        card = default.card if isinstance(default, Play) else None
        if not obs.trick:
            if "lead" not in self.shown:
                return "lead"
            if obs.spades_broken and "lead-broken" not in self.shown and any(
                    c.suit is Suit.SPADES for c in obs.hand):
                return "lead-broken"
            return "lead-again"
        led = obs.trick[0].card.suit
        if any(c.suit is led for c in obs.hand):
            return "follow" if "follow" not in self.shown else "follow-again"
        if card is not None and card.suit is Suit.SPADES:
            return "trump" if "trump" not in self.shown else "play"
        return "void" if "void" not in self.shown else "play"

    def _values(self, seat_view: SeatView) -> dict[str, str]:
        obs, default = seat_view.observation, seat_view.default
        took = [d.take for d in obs.draft_log if d.player == obs.opponent]
        values = {"bot": seat_view.names[obs.opponent], "suggest": action_words(default, obs.drawn),
                  "turn": str(sum(1 for d in obs.draft_log if d.player == obs.seat) + 1),
                  "bot_took": took_words(took)}
        if obs.drawn is not None:
            values["top"] = obs.drawn.label()
            values["why"] = self.text.say(self._why(obs.drawn, default), {})
        last = seat_view.last_draw
        if last is not None and last[2] == "second":
            values["passed"] = last[0].label()
        if obs.trick:
            values["led"], values["led_one"] = _suit_words(obs.trick[0].card.suit)
        if isinstance(default, Bid):
            values["bid"] = bid_text(default.tricks)
            values["advice"] = hand_advice(obs.hand, default.tricks)
            values["bot_bid"] = bid_text(obs.bids[obs.opponent]) if obs.bids[obs.opponent] is not None else ""
        return values

    @staticmethod
    def _why(card: Card, default: Optional[PlayerAction]) -> str:
        keep = isinstance(default, Draft) and default.take == "first"
        if card.suit is Suit.SPADES and keep:
            return "why-spade"
        high = card.rank >= 11  # J, Q, K, A
        if keep:
            return "why-high" if high else "why-keep-low"
        return "why-low"

    # ------------------------------------------------------------ the learner's other choices, and refusals

    def chose(self, seat_view: SeatView, action: PlayerAction) -> None:
        """The learner chose ``action`` at ``seat_view``: if it is not the suggestion, say what it changes."""
        default = seat_view.default
        if default is None or action == default or (isinstance(action, Exchange) and isinstance(default, Exchange)
                                                    and set(action.discard) == set(default.discard)):
            self._note = (-1, "")
            return
        obs = seat_view.observation
        values = {"suggest": action_words(default, obs.drawn), "chosen": action_words(action, obs.drawn)}
        step = "other-play"
        if isinstance(action, Draft):
            step = "other-keep" if action.take == "first" else "other-pass"
            values["card"] = obs.drawn.label() if obs.drawn is not None else ""
        elif isinstance(action, Bid):
            step = "other-bid"
            values["chosen"], values["suggest"] = bid_text(action.tricks), action_words(default, None)
        elif isinstance(action, Play):
            values["card"] = action.card.label()
        self._show(step)
        self._note = (seat_view.actions, self.text.say(step, values))

    def refused_key(self, seat_view: SeatView, key: str) -> None:
        """A key that does nothing on this screen: what the keys here do."""
        self._show("refused-key")
        self._refusal = (seat_view.actions, self.text.say("refused-key", {"key": key}))

    def refused_card(self, seat_view: SeatView, card: Card) -> None:
        """A card that may not be played now: why not."""
        obs = seat_view.observation
        values = {"card": card.label()}
        step = "refused-card"
        if obs.phase is Phase.PLAY and obs.trick:
            led = obs.trick[0].card.suit
            if card.suit is not led and any(c.suit is led for c in obs.hand):
                step, values["led"] = "refused-follow", _suit_words(led)[0]
        elif obs.phase is Phase.PLAY and card.suit is Suit.SPADES and not obs.spades_broken:
            step = "refused-spade-lead"
        self._show(step)
        self._refusal = (seat_view.actions, self.text.say(step, values))

    def refused(self, seat_view: SeatView, reason: str) -> None:
        """A choice the game refused (it should not happen: the screens offer only legal ones)."""
        self._show("refused")
        self._refusal = (seat_view.actions, self.text.say("refused", {"reason": reason}))

    # ------------------------------------------------------------ the end

    def end_words(self, seat_view: SeatView) -> str:
        """The hand's score explained line by line, what did not come up, and what comes next."""
        h = seat_view.hands[-1]
        me = seat_view.seat if seat_view.seat is not None else 0
        bot = 1 - me
        bid, won, line = h.bids[me], h.tricks[me], h.lines[me]
        steps = ["end"]
        values = {"bid": bid_text(bid), "won": str(won),
                  "won_tricks": ngettext("{count} trick", "{count} tricks", won).format(count=won),
                  "nil_name": _("Double Nil") if bid == "double_nil" else _("Nil"), "bot": seat_view.names[bot],
                  "bot_bid": bid_text(h.bids[bot]), "bot_won": str(h.tricks[bot]),
                  "bot_points": signed(h.points[bot]), "nil": signed(line.nil)}
        if bid == "double_nil" or bid == 0:
            steps.append("end-nil")
        elif line.contract >= 0:
            steps.append("end-made")
            values["contract"] = str(line.contract)
            if line.overtricks:
                steps.append("end-bag")
                values["over"] = str(line.overtricks)
        else:
            steps.append("end-set")
            values["contract_lost"] = str(-line.contract)
        steps.append("end-bot")
        self._show(*steps)
        missed = [translated(words) for step, words in PARTS if step not in self.shown]
        if missed:
            values["missed"] = ", ".join(missed)
            steps.append("end-missed")
        steps.append("end-keys")
        return "\n\n".join(t for t in (self.text.say(s, values) for s in steps) if t)

    def missed(self) -> list[str]:
        """The parts of the game that have not come up (yet)."""
        return [step for step, _words in PARTS if step not in self.shown]


def hand_advice(hand: Collection[Card], bid: int) -> str:
    """What the hand shown holds for the bid, from its own cards (issue 52: "count your aces and kings" read over a
    hand with one ace and no king): its spades, its aces and kings, its short suits, and the count suggested."""
    spades = sorted((c for c in hand if c.suit is Suit.SPADES), reverse=True)
    parts: list[str] = []
    if spades:
        n = len(spades)
        if n >= 5:
            said = ngettext("{count} spade ({card} high): trump; with this many, low ones win late too.",
                            "{count} spades ({card} high): trump; with this many, low ones win late too.", n)
        else:
            said = ngettext("{count} spade ({card} high): trump, the high ones win.",
                            "{count} spades ({card} high): trump, the high ones win.", n)
        parts.append(said.format(count=n, card=spades[0].label()))
    else:
        parts.append(_("No spade: the bot's trumps will take your long suits."))
    parts.append(_high_cards(hand))
    for suit in Suit:  # a suit you are (nearly) out of: its tricks are your spades'
        held = [c for c in hand if c.suit is suit]
        if suit is not Suit.SPADES and len(held) <= 1 and spades:
            none, one = SHORT_SUIT[suit]
            parts.append(translated(none) if not held else translated(one).format(card=held[0].label()))
    parts.append(ngettext("About {bid} trick in all.", "About {bid} tricks in all.", bid).format(bid=bid_text(bid)))
    return " ".join(parts)


def _high_cards(hand: Collection[Card]) -> str:
    """The aces and kings outside spades, and the tricks they win."""
    high = [c for c in sorted(hand, reverse=True) if c.suit is not Suit.SPADES and c.rank >= 13]
    aces = [c.label() for c in high if c.rank == 14]
    kings = [c.label() for c in high if c.rank == 13]
    if not aces and not kings:
        return _("No ace or king outside spades.")
    said = " ".join(aces + kings)
    if kings:
        return _("{cards}: aces win its suit's first trick, a king once the ace is gone.").format(cards=said)
    if len(aces) == 1:
        return _("{cards}: an ace wins its suit's first trick.").format(cards=said)
    return _("{cards}: aces win its suit's first trick.").format(cards=said)


def action_words(action: Optional[PlayerAction], drawn: Optional[Card]) -> str:
    """A choice in a player's words: "keep 4♠", "pass 6♣ and take the next card", "bid 8", "play Q♥"."""
    if isinstance(action, Draft):
        if drawn is None:
            return _("keep the top card") if action.take == "first" else \
                _("pass the top card and take the next card")
        said = _("keep {card}") if action.take == "first" else _("pass {card} and take the next card")
        return said.format(card=drawn.label())
    if isinstance(action, DeclareDoubleNil):
        return _("declare Double Nil") if action.declare else _("no Double Nil")
    if isinstance(action, Bid):
        return pgettext("a choice", "bid {bid}").format(bid=bid_text(action.tricks))
    if isinstance(action, Play):
        return _("play {card}").format(card=action.card.label())
    if isinstance(action, Exchange):
        if not action.discard:
            return _("keep every card")
        return _("exchange {cards}").format(cards=" ".join(c.label() for c in action.discard))
    return ""
