"""The commands typed at any prompt of line mode: hand, score, trick, tricks, bids, seen, hint, undo, review,
rules, help, say, quit.  Each answers from the seat's view (what it may know) in lines."""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol

from ..i18n.language import _, pgettext
from ..session.seat import Job, Seat
from ..session.text import minus_signs
from ..session.view import Phase, SeatView
from . import ask
from .narrate import who
from .words import Words, bid_words, folded, spell_labels


class Player(Protocol):
    """What the commands use of the line player (player.py), which holds them."""

    seat: Seat
    words: Words
    asked: Optional[ask.Question]
    hint_job: Optional[Job[Any]]
    said: dict[Optional[int], SeatView]
    hands_told: int
    lesson: Optional[Callable[[SeatView], str]]
    talk: Optional[Callable[[str], None]]
    result: str
    ended: bool

    def say(self, text: str) -> None: ...

    def publish(self) -> None: ...

NAMES = ("hand", "score", "trick", "tricks", "bids", "seen", "hint", "undo", "review", "rules", "help", "say",
         "quit")


def help_lines() -> tuple[str, str]:
    """The commands, then how to answer, in the player's language (naming its own command words)."""
    return (_("Commands at any prompt: hand, score, trick (the trick on the table), tricks (this hand's), bids, seen "
              "(the cards you saw passed in the draft), hint, undo, review (after a hand), rules, help, say TEXT (at a "
              "table), quit (the game is saved)."),
            _("Answer with a choice's number, or the choice in words: a card by rank and suit letter (10h, qs) or in "
              "words (rank of suit), keep or pass, yes or no, bid 4, nil, ready, next. An empty line says the prompt "
              "again."))


def local_names() -> dict[str, str]:
    """Each command's word in the player's language (a catalog's "command"), folded, to its English name: English
    always works too ("hjälp" and "help", "abi" and "help")."""
    words = {"hand": pgettext("command", "hand"), "score": pgettext("command", "score"),
             "trick": pgettext("command", "trick"), "tricks": pgettext("command", "tricks"),
             "bids": pgettext("command", "bids"), "seen": pgettext("command", "seen"),
             "hint": pgettext("command", "hint"), "undo": pgettext("command", "undo"),
             "review": pgettext("command", "review"), "rules": pgettext("command", "rules"),
             "help": pgettext("command", "help"), "say": pgettext("command", "say"),
             "quit": pgettext("command", "quit")}
    return {folded(word): name for name, word in words.items() if folded(word) not in NAMES}


def command_name(word: str) -> str:
    """The English name of the command ``word`` (typed in English or in the player's language), else ``word``."""
    word = word.lower()
    if word == "exit":
        return "quit"
    return word if word in NAMES else local_names().get(folded(word), word)


class Commands:
    def __init__(self, player: Player) -> None:
        self.player = player

    @staticmethod
    def is_command(text: str) -> bool:
        return command_name(text.strip().partition(" ")[0]) in NAMES

    def run(self, text: str) -> bool:
        """Run ``text`` if it is a command (True), else leave it to the prompt (False)."""
        word, _sep, rest = text.partition(" ")
        name = command_name(word)
        if name not in NAMES or (rest and name not in ("say", "review", "hint")):
            return False
        view = self.player.seat.view()
        private = view.seat is not None
        say = self.player.say
        if name in ("hand", "seen", "hint") and not private:
            if view.to_act is not None:
                say(_("No cards are said until {player} types ready.").format(player=view.names[view.to_act]))
            else:
                say(_("No cards are said until the next player types ready."))
            return True
        getattr(self, f"_{name}")(view, rest)
        return True

    def _hand(self, view: SeatView, rest: str) -> None:
        if not view.observation.hand:
            self.player.say(_("You hold no card now."))
            return
        self.player.say(ask.hand_line(view, self.player.words))

    def _score(self, view: SeatView, rest: str) -> None:
        obs, w = view.observation, self.player.words
        order = (view.seat, 1 - view.seat) if view.seat is not None else (0, 1)
        pair = pgettext("a player and a figure, in a list", "{player} {figure}")
        score = ", ".join(pair.format(player=who(view, p), figure=w.number(obs.scores[p])) for p in order)
        bags = ", ".join(pair.format(player=who(view, p), figure=obs.bags[p]) for p in order)
        line = _("Score: {scores}. Bags: {bags}. Playing to {target}.").format(scores=score, bags=bags,
                                                                              target=view.rules.target)
        if view.in_hand:
            bids = "; ".join(_("{player}: bid {bid}, won {tricks}").format(
                player=who(view, p), bid=bid_words(obs.bids[p]), tricks=obs.tricks_won[p]) if obs.bids[p] is not None
                else _("{player}: no bid yet").format(player=who(view, p)) for p in order)
            line += " " + _("Hand {number}: {bids}.").format(number=obs.hand_number, bids=bids)
        self.player.say(line)

    def _trick(self, view: SeatView, rest: str) -> None:
        obs, w = view.observation, self.player.words
        if obs.phase is not Phase.PLAY and not obs.tricks:
            self.player.say(_("No card has been played in this hand."))
            return
        if obs.trick:
            pc = obs.trick[0]
            self.player.say(_("Trick {number}: {player} led {card}.").format(
                number=len(obs.tricks) + 1, player=who(view, pc.player), card=w.card(pc.card)))
        elif obs.tricks:
            self.player.say(_("No card on the table. {trick}").format(
                trick=self._trick_line(view, len(obs.tricks) - 1)))
        else:
            self.player.say(_("No card on the table: the first trick is yet to be led."))

    def _trick_line(self, view: SeatView, index: int) -> str:
        w = self.player.words
        t = view.observation.tricks[index]
        winner = view.trick_winners[index] if index < len(view.trick_winners) else None
        said = dict(number=index + 1, leader=who(view, t[0].player), card=w.card(t[0].card),
                    follower=who(view, t[1].player), other=w.card(t[1].card))
        if winner is None:
            return _("Trick {number}: {leader} led {card}, {follower} played {other}.").format(**said)
        return _("Trick {number}: {leader} led {card}, {follower} played {other}; {winner} won it.").format(
            winner=who(view, winner), **said)

    def _tricks(self, view: SeatView, rest: str) -> None:
        tricks = view.observation.tricks
        if not tricks:
            self.player.say(_("No trick has been won yet in this hand."))
        for i in range(len(tricks)):
            self.player.say(self._trick_line(view, i))

    def _bids(self, view: SeatView, rest: str) -> None:
        obs = view.observation
        order = (view.seat, 1 - view.seat) if view.seat is not None else (0, 1)
        pair = pgettext("a player and a figure, in a list", "{player} {figure}")
        bids = ", ".join(pair.format(player=who(view, p), figure=bid_words(obs.bids[p])) for p in order)
        self.player.say(_("Bids: {bids}.").format(bids=bids))

    def _seen(self, view: SeatView, rest: str) -> None:
        seen = view.observation.seen_discards
        if not seen:
            self.player.say(_("You have seen no card go to the discard pile this hand."))
            return
        cards = self.player.words.cards(seen)
        if any(x is not None and x > 0 for x in view.observation.exchanged):
            self.player.say(_("Cards you saw go to the discard pile: {cards}. Some may be back in play after a Double "
                              "Nil exchange.").format(cards=cards))
        else:
            self.player.say(_("Cards you saw go to the discard pile: {cards}.").format(cards=cards))

    def _hint(self, view: SeatView, rest: str) -> None:
        player = self.player
        if not view.my_turn:
            player.say(_("A hint is for your own decision: it is not your turn."))
            return
        hint = view.hint
        job = player.hint_job
        if hint is None and job is not None:
            player.hint_job = None
            work = job.start()
            if work is not None:
                player.say(_("Working out the hint…"))
                job.done(work())
            hint = player.seat.view().hint
        if hint is None:
            player.say(_("No hint here. Suggested: {choice}.").format(choice=self._suggested()))
            return
        said = [_("Hint: {summary}.").format(summary=hint.summary)]
        for option in hint.options:
            if option.detail:
                said.append(_("{choice}: {score}, {detail}.").format(
                    choice=option.label, score=option.score, detail=option.detail.replace(" · ", ", ")))
            else:
                said.append(_("{choice}: {score}.").format(choice=option.label, score=option.score))
        for line in said:
            player.say(self._spoken(line))

    def _spoken(self, text: str) -> str:
        """The hint's and the review's figures with the true minus, and "≈" as "about" when cards are spelt out
        (a screen reader says "almost equal to")."""
        text = minus_signs(text)
        if not self.player.words.spelled:
            return text
        about = _("about") + " "
        return spell_labels(text.replace("≈ ", about).replace("≈", about))

    def _suggested(self) -> str:
        asked = self.player.asked
        if asked is None or asked.suggested is None:
            return pgettext("no choice suggested", "nothing")
        return asked.choices[asked.suggested].label

    def _undo(self, view: SeatView, rest: str) -> None:
        if self.player.seat.take_back():
            self.player.say(_("Taken back: a practice game now."))
            self.player.said.clear()  # the story is told again from where the game now stands
            self.player.hands_told = 0
            self.player.asked = None
            self.player.publish()
        else:
            self.player.say(_("Nothing to take back: a take-back is for your own decision against a bot, in the "
                              "hand being played."))

    def _review(self, view: SeatView, rest: str) -> None:
        from ..tui.reviewmodel import review_view  # in here: the review's words load with the first review

        if view.review is None:
            if view.phase is Phase.SHUFFLE and view.hands:
                self.player.say(_("The review is being worked out: ask again in a moment."))
            else:
                self.player.say(_("The review is of a hand that is over: ask after the hand."))
            return
        content = review_view(view)
        if content is None:
            return
        for line in (content.title, *content.totals, content.titles[0], *content.plays, content.titles[1],
                     *content.chances, _("The bids."), *content.bids, _("The draft."), *content.draft):
            if line:
                self.player.say(self._spoken(line.replace("[", "").replace("]", "")))
        for trick in content.tricks:
            self.player.say(self._spoken(trick.lines[0].replace("[", "").replace("]", "")))

    def _rules(self, view: SeatView, rest: str) -> None:
        from ..tui.houserules import house_rules_lines, rules_title

        self.player.say(_("House rules: {title}. Playing to {target}.").format(title=rules_title(view.rules),
                                                                               target=view.rules.target))
        # The full screen's last line points at F1, which line mode has not: its own words instead.
        pointer = _("Every other option as in the standard game (F1: the rules and every option).")
        for line in house_rules_lines(view.rules):
            if line == pointer:
                line = _("Every other option as in the standard game.")
            if line:
                self.player.say(line.replace(" (F1: the rules and every option)", ""))

    def _help(self, view: SeatView, rest: str) -> None:
        for line in help_lines():
            self.player.say(line)
        asked = self.player.asked
        if asked is not None:
            for line in asked.lines():
                self.player.say(line)

    def _say(self, view: SeatView, text: str) -> None:
        talk = self.player.talk
        if talk is None:
            self.player.say(_("There is nobody to talk to here: say is for a network table."))
        elif not text.strip():
            self.player.say(_("Say what? Type say and the words, such as: say good game."))
        else:
            talk(text)

    def _quit(self, view: SeatView, rest: str) -> None:
        self.player.say(_("Goodbye: the game is saved.") if view.outcome is None and self.player.lesson is None
                        and view.save_error is None else _("Goodbye."))
        self.player.result = "quit"
        self.player.ended = True
