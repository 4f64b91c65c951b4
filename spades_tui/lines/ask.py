"""The decision a seat's view asks for, as numbered choices, and what a typed answer chooses.

``question(view, words)`` gives the ``Question`` of this moment: what is asked, the legal choices only, numbered
from 1 (the first always legal, so a script answering 1 always plays on), and the suggested one.  ``Question.pick``
reads what the player typed: a choice's number or the choice itself in words (a card, keep, pass, nil, bid 4...),
or why it is not one.  Pure: no input, no output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional, Union

from ..i18n.language import _, ngettext, pgettext
from ..session.view import Bid, Card, DeclareDoubleNil, Draft, Exchange, Phase, Play, PlayerAction, SeatView, Suit
from .words import Words, bid_words, folded, parse_card, sort_cards, suit_name

# What a choice does when it is not a game action: the summary's, the hot-seat hand-off's, the lesson's end.
NEXT, REVIEW, AGAIN, READY, REAL, LEAVE = "next", "review", "again", "ready", "real", "leave"


@dataclass(frozen=True)
class Choice:
    label: str
    action: Optional[PlayerAction] = None
    command: str = ""
    typed: tuple[str, ...] = ()  # words that choose it (besides its number and its label), English and the player's
    short: str = ""  # the label in the suggestion, where the label is long ("Pass", not "Pass and take ...")


@dataclass(frozen=True)
class Question:
    key: tuple[object, ...]  # the decision's identity: asked once, said again on an empty line
    kind: str  # double_nil, draft, exchange, bid, play, summary, handoff, lesson_end
    text: str
    choices: tuple[Choice, ...]
    suggested: Optional[int] = None  # index into choices
    view: Optional[SeatView] = None

    def lines(self) -> list[str]:
        """What is asked, then ``Choices: 1) ... 2) ...`` (continued on further lines past 200 characters)."""
        if self.kind == "handoff":
            return [self.text]
        items = [f"{i}) {c.label}" for i, c in enumerate(self.choices, 1)]
        items[-1] += "."
        out, line = [], _("Choices:")
        for item in items:
            if len(line) + 1 + len(item) > 200:
                out.append(line)
                line = _("Choices, continued:")
            line += " " + item
        if self.suggested is not None:
            chosen = self.choices[self.suggested]
            suggested = _("Suggested: {choice}.").format(choice=chosen.short or chosen.label)
            if len(line) + 1 + len(suggested) > 200:
                out.append(line)
                line = suggested
            else:
                line += " " + suggested
        return [self.text, *out, line]

    def pick(self, typed: str, words: Words) -> Union[Choice, str]:
        """The choice ``typed`` names, or one line saying why it names none and what would do."""
        text = " ".join(typed.strip().lower().split())
        n = len(self.choices)
        if text.isdigit():
            number = int(text)
            if 1 <= number <= n:
                return self.choices[number - 1]
            return _("There is no choice {number}: type a number from 1 to {count}, or help.").format(
                number=number, count=n)
        said = folded(text)
        for choice in self.choices:
            if text in choice.typed or said in (folded(t) for t in (*choice.typed, choice.label)):
                return choice
        if self.kind == "play":
            return self._card(text, words)
        if self.kind == "bid":
            return self._bid(text)
        if self.kind == "exchange":
            return self._exchange(text, words)
        if self.kind == "draft":
            card = parse_card(text)
            drawn = self.view.observation.drawn if self.view is not None else None
            if card is not None and card == drawn:
                return self.choices[0]
            if card is not None:
                return _("{card} is not the top card: type keep or pass, or a number from 1 to {count}.").format(
                    card=words.card(card), count=n)
        return _("Not a choice here: type a number from 1 to {count}, or help.").format(count=n)

    def _card(self, text: str, words: Words) -> Union[Choice, str]:
        card = parse_card(text)
        if card is None:
            return _("Not a card or a choice: type a number from 1 to {count}, a card such as 10h, or help.").format(
                count=len(self.choices))
        for choice in self.choices:
            if isinstance(choice.action, Play) and choice.action.card == card:
                return choice
        assert self.view is not None
        return refusal(self.view, card, words)

    def _bid(self, text: str) -> Union[Choice, str]:
        bid, double = (re.escape(folded(w)) for w in (pgettext("typed answer", "bid"),
                                                       pgettext("typed answer", "double")))
        found = re.fullmatch(rf"(?:(?:bid|{bid}) )?(nil|\d+)", folded(text))
        if found is None:
            if "double" in text or double in folded(text):
                return _("Double Nil is declared before your first draft turn, not bid now. Type bid 4, nil, or a "
                         "number.")
            return _("Not a bid: type bid 4 (four tricks), nil, or a choice's number from 1 to {count}.").format(
                count=len(self.choices))
        tricks = 0 if found.group(1) == "nil" else int(found.group(1))
        for choice in self.choices:
            if isinstance(choice.action, Bid) and choice.action.tricks == tricks:
                return choice
        return _("You may not bid {bid} here: the bids are {lowest} to {highest}.").format(
            bid=bid_words(tricks), lowest=self.choices[0].label, highest=self.choices[-1].label.split()[0])

    def _exchange(self, text: str, words: Words) -> Union[Choice, str]:
        assert self.view is not None
        seat = self.view.observation.seat
        hand = self.view.observation.hand
        cards: list[Card] = []
        for chunk in re.split(r",|\band\b", text):
            if not chunk.strip():
                continue
            one = parse_card(chunk)
            found = [one] if one is not None else [parse_card(t) for t in chunk.split()]
            if any(c is None for c in found):
                return _("Not cards: type up to three of your cards to give back, such as ks 10h, or keep, or a "
                         "number.")
            cards += [c for c in found if c is not None]
        missing = [c for c in cards if c not in hand]
        if missing:
            return _("You do not hold {cards}: give back cards of your hand, or type keep.").format(
                cards=words.cards(missing))
        if len(set(cards)) > 3:
            return _("At most three cards may be given back.")
        action = Exchange(seat, tuple(sorted(set(cards))))
        if action not in self.view.legal:
            return _("That exchange is not allowed here: type up to three of your cards, or keep.")
        return Choice(exchange_words(action, words), action)


def trick_words(n: int) -> str:
    return _("Nil") if n == 0 else ngettext("{count} trick", "{count} tricks", n).format(count=n)


def exchange_words(action: Exchange, words: Words) -> str:
    if action.discard:
        return _("Give back {cards}").format(cards=words.cards(action.discard))
    return _("Keep all")


def answers(*english: str) -> tuple[str, ...]:
    """What a player may type for a choice: ``english`` (which always works), then each word in the player's
    language (a catalog's "typed answer"), folded: "behåll" for keep, "võta" for take."""
    local = {"keep": pgettext("typed answer", "keep"), "take": pgettext("typed answer", "take"),
             "pass": pgettext("typed answer", "pass"), "yes": pgettext("typed answer", "yes"),
             "no": pgettext("typed answer", "no"), "double nil": pgettext("typed answer", "double nil"),
             "next": pgettext("typed answer", "next"), "review": pgettext("typed answer", "review"),
             "again": pgettext("typed answer", "again"), "ready": pgettext("typed answer", "ready"),
             "real": pgettext("typed answer", "real"), "leave": pgettext("typed answer", "leave"),
             "none": pgettext("typed answer", "none")}
    own = tuple(folded(local[w]) for w in english if w in local and folded(local[w]) != w)
    return english + own


def refusal(view: SeatView, card: Card, words: Words) -> str:
    """Why ``card`` may not be played now, in one line."""
    obs = view.observation
    said = words.card(card)
    if card not in obs.hand:
        return _("You do not hold {card}. {hand}").format(card=said, hand=hand_line(view, words))
    if obs.trick:
        led = obs.trick[0].card.suit
        if card.suit is not led and any(c.suit is led for c in obs.hand):
            return _("{card} may not be played: you must follow {suit}.").format(card=said, suit=suit_name(led))
    if card.suit is Suit.SPADES and not obs.spades_broken:
        return _("{card} may not be led: spades are not broken yet, and you hold another suit.").format(card=said)
    return _("{card} may not be played now.").format(card=said)


def hand_line(view: SeatView, words: Words) -> str:
    return _("Your hand: {hand}.").format(hand=words.hand(view.observation.hand))


def _suggested(view: SeatView, choices: tuple[Choice, ...]) -> Optional[int]:
    wanted = view.default
    for i, c in enumerate(choices):
        a = c.action
        if a == wanted or (isinstance(a, Exchange) and isinstance(wanted, Exchange)
                           and set(a.discard) == set(wanted.discard)):
            return i
    return None


Asked = tuple[str, str, tuple[Choice, ...]]  # a decision's kind, what is asked, its choices


def question(view: SeatView, words: Words) -> Optional[Question]:
    """The seat's decision now, or None when it has none."""
    obs = view.observation
    key = (view.actions, view.seat, obs.phase.value)
    if view.outcome is not None:
        return None
    if view.phase is Phase.SHUFFLE and view.hands:
        return _summary(view, key)
    asking = _ASKING.get(obs.phase)
    if not view.my_turn or asking is None:
        return None
    found = asking(view, words)
    if found is None:
        return None
    kind, text, choices = found
    return Question(key, kind, text, choices, _suggested(view, choices), view)


def _double_nil(view: SeatView, words: Words) -> Optional[Asked]:
    obs, seat = view.observation, view.observation.seat
    choices = (Choice(_("No"), DeclareDoubleNil(seat, False), typed=answers("no", "n", "no double nil")),
               Choice(_("Yes, Double Nil"), DeclareDoubleNil(seat, True), short=_("Yes"),
                      typed=answers("yes", "y", "double nil", "double", "declare")))
    return ("double_nil", _("Hand {number}, your first draft turn: declare Double Nil before seeing any card? Double "
                            "Nil wins {points} if you win no trick, and loses as much if you win one.").format(
                                number=obs.hand_number, points=obs.rules.double_nil_points), choices)


def _draft(view: SeatView, words: Words) -> Optional[Asked]:
    obs, seat = view.observation, view.observation.seat
    if obs.drawn is None:
        return None
    top = words.card(obs.drawn)
    turn = sum(1 for d in obs.draft_log if d.player == seat) + 1
    # The card is said once, in the question: the choices say what is done with it (heard, not read).
    choices = (Choice(_("Keep"), Draft(seat, "first"),
                      typed=answers("keep", "take", "k", "first", f"keep {top.lower()}")),
               Choice(_("Pass and take the next card"), Draft(seat, "second"),
                      typed=answers("pass", "p", "second", "next", f"pass {top.lower()}"), short=_("Pass")))
    return "draft", _("Draft turn {turn} of 13: the top card is {card}.").format(turn=turn, card=top), choices


def _exchange(view: SeatView, words: Words) -> Optional[Asked]:
    seat = view.observation.seat
    offered = [Exchange(seat, ())]
    if isinstance(view.default, Exchange) and view.default.discard:
        offered.append(view.default)
    choices = tuple(Choice(exchange_words(a, words), a,
                           typed=answers("keep", "keep all", "none") if not a.discard else ()) for a in offered)
    return ("exchange", _("Double Nil exchange: give back up to three cards for cards drawn from the discard pile. "
                          "Type the cards, such as ks 10h, or a choice."), choices)


def _bid(view: SeatView, words: Words) -> Optional[Asked]:
    obs, seat = view.observation, view.observation.seat
    bids = sorted(a.tricks for a in view.legal if isinstance(a, Bid))
    # "2 tricks", not "2": heard, "3) 2" is two numbers in a row, and a choice's number is not the bid.
    bid = folded(pgettext("typed answer", "bid"))
    choices = tuple(Choice(trick_words(n), Bid(seat, n),
                           typed=(f"bid {n}", f"{n} tricks", f"{n} trick", f"{bid} {n}")
                           + (("nil", "bid nil", f"{bid} nil") if n == 0 else ()))
                    for n in bids)
    spades = [c for c in obs.hand if c.suit is Suit.SPADES]
    n = len(spades)
    if spades:
        held = ngettext("Your bid (you hold {count} spade, the top {card}).",
                        "Your bid (you hold {count} spades, the top {card}).", n).format(
                            count=n, card=words.card(max(spades)))
    else:
        held = ngettext("Your bid (you hold {count} spade).", "Your bid (you hold {count} spades).", n).format(count=n)
    other = obs.bids[obs.opponent]
    if other is not None:
        held += " " + _("{player} bid {bid}.").format(player=view.names[obs.opponent], bid=bid_words(other))
    return "bid", held, choices


def _play(view: SeatView, words: Words) -> Optional[Asked]:
    obs, seat = view.observation, view.observation.seat
    legal = sort_cards(a.card for a in view.legal if isinstance(a, Play))
    choices = tuple(Choice(words.card(c), Play(seat, c)) for c in legal)
    number = len(obs.tricks) + 1
    if obs.trick:
        led = obs.trick[0].card
        must = (_("You must follow {suit}.") if all(c.suit is led.suit for c in legal) else
                _("You hold no {suit}: play any card.")).format(suit=suit_name(led.suit))
        return "play", _("Trick {number}, {player} led {card}.").format(
            number=number, player=view.names[obs.trick[0].player], card=words.card(led)) + " " + must, choices
    said = _("Trick {number}, your lead.").format(number=number)
    if not (obs.spades_broken or view.rules.spades_any_time or all(c.suit is Suit.SPADES for c in legal)):
        said += " " + _("Spades are not broken yet.")
    return "play", said, choices


_ASKING: dict[Phase, Callable[[SeatView, Words], Optional[Asked]]] = {
    Phase.DOUBLE_NIL: _double_nil, Phase.DRAFT: _draft, Phase.EXCHANGE: _exchange, Phase.BIDDING: _bid,
    Phase.PLAY: _play,
}


def _summary(view: SeatView, key: tuple[object, ...]) -> Question:
    choices = [Choice(_("Next hand"), command=NEXT, typed=answers("next", "n", "next hand", "deal"))]
    choices.append(Choice(_("Review this hand"), command=REVIEW, typed=answers("review", "r")))
    if view.vs_bot:
        choices.append(Choice(_("Play this hand again, as practice"), command=AGAIN,
                              typed=answers("again", "replay")))
    return Question(key, "summary", _("Hand {number} is over.").format(number=len(view.hands)), tuple(choices), 0,
                    view)


def handoff(view: SeatView) -> Question:
    """Hot-seat: the keyboard passes to the player to act; nothing of theirs is said before ``ready``."""
    to_act = view.to_act if view.to_act is not None else 0
    name = view.names[to_act]
    return Question(("handoff", view.actions, to_act), "handoff",
                    _("Pass the keyboard to {player}. {player}, type ready when only you can see the screen.").format(
                        player=name),
                    (Choice(_("Ready: I am {player}").format(player=name), command=READY,
                            typed=answers("ready", "r")),), 0, view)


def lesson_end(view: SeatView) -> Question:
    return Question(("lesson_end", view.actions), "lesson_end", _("The lesson is over: well played!"),
                    (Choice(_("Play a real game against the bot"), command=REAL, typed=answers("real", "play")),
                     Choice(_("The lesson again"), command=AGAIN, typed=answers("again", "lesson")),
                     Choice(_("Leave"), command=LEAVE, typed=answers("leave", "back"))), 0, view)


def challenge_end(view: SeatView, words: Words) -> Question:
    """The daily challenge's four hands are scored: the margin against the expert's par (said once it is known)."""
    from ..session.text import over_par_words

    challenge = view.challenge
    assert challenge is not None
    margins = ", ".join(_("hand {number} {points}").format(number=i, points=words.signed(m))
                        for i, m in enumerate(challenge.mine, 1))
    over = challenge.over_par
    total = words.signed(challenge.result)
    if over is None:
        text = _("Challenge {code}: your margins {margins}; in all {total}, the par is being worked out; it is said "
                 "here when it comes.").format(code=challenge.code, margins=margins, total=total)
    else:
        text = _("Challenge {code}: your margins {margins}; in all {total}, par {par}: {result}.").format(
            code=challenge.code, margins=margins, total=total, par=words.signed(sum(challenge.par or ())),
            result=over_par_words(over))
    if challenge.problem:
        text += f" {challenge.problem}"
    return Question(("challenge_end", view.actions, over), "challenge_end", text,
                    (Choice(_("Leave"), command=LEAVE, typed=answers("leave", "quit")),
                     Choice(_("Review the last hand"), command=REVIEW, typed=answers("review", "r"))), 0, view)
