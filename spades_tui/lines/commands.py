"""The commands typed at any prompt of line mode: hand, score, trick, tricks, bids, seen, hint, undo, review,
rules, help, say, quit.  Each answers from the seat's view (what it may know) in lines."""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol

from ..session.seat import Job, Seat
from ..session.text import minus_signs
from ..session.view import Phase, SeatView
from . import ask
from .narrate import who
from .words import Words, bid_words, spell_labels


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
HELP = ("Commands at any prompt: hand, score, trick (the trick on the table), tricks (this hand's), bids, seen "
        "(the cards you saw passed in the draft), hint, undo, review (after a hand), rules, help, say TEXT (at a "
        "table), quit (the game is saved).")
HELP_ANSWER = ("Answer with a choice's number, or the choice in words: a card by rank and suit letter (10h, qs) or "
               "in words (rank of suit), keep or pass, "
               "yes or no, bid 4, nil, ready, next. An empty line says the prompt again.")


class Commands:
    def __init__(self, player: Player) -> None:
        self.player = player

    @staticmethod
    def is_command(text: str) -> bool:
        name = text.strip().partition(" ")[0].lower()
        return name in NAMES or name == "exit"

    def run(self, text: str) -> bool:
        """Run ``text`` if it is a command (True), else leave it to the prompt (False)."""
        name, _, rest = text.partition(" ")
        name = name.lower()
        if name == "exit":
            name = "quit"
        if name not in NAMES or (rest and name not in ("say", "review", "hint")):
            return False
        view = self.player.seat.view()
        private = view.seat is not None
        say = self.player.say
        if name in ("hand", "seen", "hint") and not private:
            who_next = view.names[view.to_act] if view.to_act is not None else "the next player"
            say(f"No cards are said until {who_next} types ready.")
            return True
        getattr(self, f"_{name}")(view, rest)
        return True

    def _hand(self, view: SeatView, _: str) -> None:
        if not view.observation.hand:
            self.player.say("You hold no card now.")
            return
        self.player.say(ask.hand_line(view, self.player.words))

    def _score(self, view: SeatView, _: str) -> None:
        obs, w = view.observation, self.player.words
        order = (view.seat, 1 - view.seat) if view.seat is not None else (0, 1)
        score = ", ".join(f"{who(view, p)} {w.number(obs.scores[p])}" for p in order)
        bags = ", ".join(f"{who(view, p)} {obs.bags[p]}" for p in order)
        rules = view.rules
        line = f"Score: {score}. Bags: {bags}. Playing to {rules.target}."
        if view.in_hand:
            line += f" Hand {obs.hand_number}: " + "; ".join(
                f"{who(view, p)}: " + (f"bid {bid_words(obs.bids[p])}, won {obs.tricks_won[p]}"
                                       if obs.bids[p] is not None else "no bid yet") for p in order) + "."
        self.player.say(line)

    def _trick(self, view: SeatView, _: str) -> None:
        obs, w = view.observation, self.player.words
        if obs.phase is not Phase.PLAY and not obs.tricks:
            self.player.say("No card has been played in this hand.")
            return
        if obs.trick:
            pc = obs.trick[0]
            self.player.say(f"Trick {len(obs.tricks) + 1}: {who(view, pc.player)} led {w.card(pc.card)}.")
        elif obs.tricks:
            self.player.say("No card on the table. " + self._trick_line(view, len(obs.tricks) - 1))
        else:
            self.player.say("No card on the table: the first trick is yet to be led.")

    def _trick_line(self, view: SeatView, index: int) -> str:
        w = self.player.words
        t = view.observation.tricks[index]
        winner = view.trick_winners[index] if index < len(view.trick_winners) else None
        said = f"Trick {index + 1}: {who(view, t[0].player)} led {w.card(t[0].card)}, " \
               f"{who(view, t[1].player)} played {w.card(t[1].card)}"
        return said + (f"; {who(view, winner)} won it." if winner is not None else ".")

    def _tricks(self, view: SeatView, _: str) -> None:
        tricks = view.observation.tricks
        if not tricks:
            self.player.say("No trick has been won yet in this hand.")
        for i in range(len(tricks)):
            self.player.say(self._trick_line(view, i))

    def _bids(self, view: SeatView, _: str) -> None:
        obs = view.observation
        order = (view.seat, 1 - view.seat) if view.seat is not None else (0, 1)
        self.player.say("Bids: " + ", ".join(f"{who(view, p)} {bid_words(obs.bids[p])}" for p in order) + ".")

    def _seen(self, view: SeatView, _: str) -> None:
        seen = view.observation.seen_discards
        if not seen:
            self.player.say("You have seen no card go to the discard pile this hand.")
            return
        note = " Some may be back in play after a Double Nil exchange." if any(
            x is not None and x > 0 for x in view.observation.exchanged) else ""
        self.player.say(f"Cards you saw go to the discard pile: {self.player.words.cards(seen)}.{note}")

    def _hint(self, view: SeatView, _: str) -> None:
        player = self.player
        if not view.my_turn:
            player.say("A hint is for your own decision: it is not your turn.")
            return
        hint = view.hint
        job = player.hint_job
        if hint is None and job is not None:
            player.hint_job = None
            work = job.start()
            if work is not None:
                player.say("Working out the hint…")
                job.done(work())
            hint = player.seat.view().hint
        if hint is None:
            player.say(f"No hint here. Suggested: {self._suggested()}.")
            return
        said = [f"Hint: {hint.summary}."]
        for option in hint.options:
            detail = f", {option.detail.replace(' · ', ', ')}" if option.detail else ""
            said.append(f"{option.label}: {option.score}{detail}.")
        for line in said:
            player.say(self._spoken(line))

    def _spoken(self, text: str) -> str:
        """The hint's and the review's figures with the true minus, and "≈" as "about" when cards are spelt out
        (a screen reader says "almost equal to")."""
        text = minus_signs(text)
        if not self.player.words.spelled:
            return text
        return spell_labels(text.replace("≈ ", "about ").replace("≈", "about "))

    def _suggested(self) -> str:
        asked = self.player.asked
        if asked is None or asked.suggested is None:
            return "nothing"
        return asked.choices[asked.suggested].label

    def _undo(self, view: SeatView, _: str) -> None:
        if self.player.seat.take_back():
            self.player.say("Taken back: a practice game now.")
            self.player.said.clear()  # the story is told again from where the game now stands
            self.player.hands_told = 0
            self.player.asked = None
            self.player.publish()
        else:
            self.player.say("Nothing to take back: a take-back is for your own decision against a bot, in the "
                            "hand being played.")

    def _review(self, view: SeatView, _: str) -> None:
        from ..tui.reviewmodel import review_view  # in here: the review's words load with the first review

        if view.review is None:
            if view.phase is Phase.SHUFFLE and view.hands:
                self.player.say("The review is being worked out: ask again in a moment.")
            else:
                self.player.say("The review is of a hand that is over: ask after the hand.")
            return
        content = review_view(view)
        if content is None:
            return
        for line in (content.title, *content.totals, content.titles[0], *content.plays, content.titles[1],
                     *content.chances, "The bids.", *content.bids, "The draft.", *content.draft):
            if line:
                self.player.say(self._spoken(line.replace("[", "").replace("]", "")))
        for trick in content.tricks:
            self.player.say(self._spoken(trick.lines[0].replace("[", "").replace("]", "")))

    def _rules(self, view: SeatView, _: str) -> None:
        from ..tui.houserules import house_rules_lines, rules_title

        self.player.say(f"House rules: {rules_title(view.rules)}. Playing to {view.rules.target}.")
        for line in house_rules_lines(view.rules):
            if line:
                self.player.say(line.replace(" (F1: the rules and every option)", ""))

    def _help(self, view: SeatView, _: str) -> None:
        self.player.say(HELP)
        self.player.say(HELP_ANSWER)
        asked = self.player.asked
        if asked is not None:
            for line in asked.lines():
                self.player.say(line)

    def _say(self, view: SeatView, text: str) -> None:
        talk = self.player.talk
        if talk is None:
            self.player.say("There is nobody to talk to here: say is for a network table.")
        elif not text.strip():
            self.player.say("Say what? Type say and the words, such as: say good game.")
        else:
            talk(text)

    def _quit(self, view: SeatView, _: str) -> None:
        self.player.say("Goodbye: the game is saved." if view.outcome is None and self.player.lesson is None
                        and view.save_error is None else "Goodbye.")
        self.player.result = "quit"
        self.player.ended = True
