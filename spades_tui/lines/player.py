"""A seat played in lines: events said as they happen, the decision asked with numbered choices, the player's
answer or command read, until the game ends or the input does.

``LinePlayer(seat, out, ...)`` plays any ``session.seat.Seat`` (a game here, a lesson, a challenge).  Input comes
as ``Typed`` lines on one queue with the results of the seat's jobs (a bot's decision, a review), so that one
thread alone touches the seat.  A hint is worked out only when asked for.
"""

from __future__ import annotations

import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any, Callable, Optional, TextIO, Union

from ..engine.text import encodable
from ..i18n.language import _
from ..session.seat import Job, Seat
from ..session.text import printable
from ..session.view import Phase, SeatView
from . import ask
from .commands import Commands
from .narrate import events
from .words import SYMBOLS, Words, in_colour

MAX_LINE = 200
# The hot-seat hand-off's clear: the screen, then the terminal's scrollback (docs/playing.md, "Line mode").  The
# only escape sequence line mode ever writes.
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


@dataclass(frozen=True)
class Typed:
    text: Optional[str]  # None: the end of input


@dataclass(frozen=True)
class Done:
    job: Job[Any]
    result: Any


@dataclass(frozen=True)
class Changed:
    """The seat changed by itself (a network table's frame): say what happened."""


Event = Union[Typed, Done, Changed]


def read_lines(stream: IO[bytes], events: queue.Queue[Event]) -> None:
    """Each line typed, decoded as UTF-8 (a bad byte becomes U+FFFD), onto ``events``; then the end of input.

    From the file descriptor itself where there is one: a thread blocked in a buffered stdin would hold its lock
    when the program ends, and Python aborts then."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        fd = -1
    pending = b""
    try:
        while True:
            chunk = os.read(fd, 4096) if fd >= 0 else stream.readline()
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                events.put(Typed(raw[:4096].decode("utf-8", "replace").rstrip("\r")))
            pending = pending[-65536:]  # a line without end is bounded
    except (OSError, ValueError):
        pass
    if pending:
        events.put(Typed(pending[:4096].decode("utf-8", "replace").rstrip("\r")))
    events.put(Typed(None))


def wrap(text: str, width: int = MAX_LINE) -> list[str]:
    """One line of at most ``width`` characters, or several cut at words."""
    out = []
    while len(text) > width:
        cut = text.rfind(" ", 0, width + 1)
        cut = cut if cut > 0 else width
        out.append(text[:cut])
        text = text[cut:].lstrip()
    return out + [text]


class Output:
    """Line mode's standard output: each line cleaned (nothing a terminal obeys), at most 200 characters, and
    written even where the output cannot encode a character."""

    def __init__(self, out: TextIO, color: bool = False) -> None:
        self.out = out
        self.color = color  # --color: red suits red, after the line was cleaned and cut

    def say(self, text: str) -> None:
        for line in printable(text, newlines=True).split("\n"):
            for part in wrap(line):
                self.write((in_colour(part) if self.color else part) + "\n")

    def write(self, text: str) -> None:
        try:
            self.out.write(text)
        except UnicodeEncodeError:  # an ASCII or Latin-1 output: the ASCII minus, "?" for what it cannot write
            self.out.write(encodable(text, getattr(self.out, "encoding", None)))
        self.out.flush()


class LinePlayer:
    """``hotseat``: two persons share the keyboard (the hand-off with ``ready``).  ``lesson``: a function from a view
    to the lesson's words for it.  ``run`` returns what the player chose at the end: "quit", or the lesson's end
    choices."""

    def __init__(self, seat: Seat, out: TextIO, *, words: Words = SYMBOLS, hotseat: bool = False,
                 lesson: Optional[Callable[[SeatView], str]] = None, chose: Optional[Callable[..., None]] = None,
                 clear: str = CLEAR, events: Optional[queue.Queue[Event]] = None,
                 recorder: Optional[Callable[[], Any]] = None, news: Optional[Callable[[], list[str]]] = None,
                 talk: Optional[Callable[[str], None]] = None, watching: bool = False,
                 interactive: bool = True, over_heard: Optional[Callable[[], bool]] = None) -> None:
        self.seat = seat
        self.output = Output(out, words.color)
        self.say = self.output.say
        self._write = self.output.write
        self.words = words
        self.hotseat = hotseat
        self.lesson = lesson
        self.lesson_chose = chose
        self.clear = clear
        self.events: queue.Queue[Event] = events if events is not None else queue.Queue()
        self.recorder = recorder
        self.news = news  # a table's own lines (who sat down, dropped, came back; the host's warnings)
        # At a table the seat's view shows the game over from the last update, before the host's 'over' frame
        # (which follows the last hand's reveal): the end is said once that has come, with the shuffle checked.
        self.over_heard = over_heard if over_heard is not None else (lambda: True)
        self.talk = talk  # a line said at a table
        self.watching = watching  # a watcher at a table: events only, no decision
        self.interactive = interactive  # a person at a terminal (not a pipe): an answer out of turn is refused
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="lines-job")
        self.said: dict[Optional[int], SeatView] = {}  # the last view narrated, of each seat (None: public)
        self.hand_said: dict[Optional[int], tuple[int, frozenset[object]]] = {}
        self.asked: Optional[ask.Question] = None
        self.hint_job: Optional[Job[Any]] = None
        self.lesson_said = ""
        self.result = "quit"
        self.ended = False
        self.bots = 0  # bot decisions under way
        self.hands_told = 0  # the hands whose score was said (once, whichever view said it)
        self.typed_ahead: list[Typed] = []
        self.commands = Commands(self)

    # ------------------------------------------------------------ the loop

    def start_input(self, stream: IO[bytes]) -> None:
        threading.Thread(target=read_lines, args=(stream, self.events), daemon=True).start()

    def run(self) -> str:
        """Play until the game ends, the player leaves or the input ends; what they chose at the end."""
        try:
            self.publish()
            while not self.ended and self.handle(self._next()):
                pass
        finally:
            self.pool.shutdown(wait=False, cancel_futures=True)
        return self.result

    async def run_async(self) -> str:
        """``run`` in a running asyncio loop (a network table's seat): the seat is touched on the loop's thread
        only, while a thread of its own waits for the next event."""
        import asyncio

        loop = asyncio.get_running_loop()
        waiter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lines-wait")
        try:
            self.publish()
            while not self.ended and self.handle(await loop.run_in_executor(waiter, self._next)):
                pass
        finally:
            self.events.put(Changed())  # the waiting thread let go
            waiter.shutdown(wait=False)
            self.pool.shutdown(wait=False, cancel_futures=True)
        return self.result

    def handle(self, event: Event) -> bool:
        """One event: False when the input has ended."""
        if isinstance(event, Done):
            if event.job.kind == "bot":
                self.bots -= 1
            event.job.done(event.result)
            self.publish()
        elif isinstance(event, Changed):
            self.publish()
        elif event.text is None:
            if self.watching:
                return True  # a watcher has nothing to answer: the log goes on to the game's end (quit leaves)
            self.say(_("End of input: the game is saved.") if self._saving() else _("End of input."))
            self.result = "eof"
            return False
        else:
            self.typed(event.text)
        return True

    def _next(self) -> Event:
        """The next event.  What was typed waits while a bot decides, so that lines typed ahead (a script, a
        pipe) answer the prompts in order, each once the game has come to it; from a pipe an answer also waits
        for the player's own turn (at a table the other player is a person: a script cannot know how long).  At
        a terminal, an answer typed out of turn is refused instead (a person would not want it kept)."""
        while True:
            if self.typed_ahead and not self.bots and not self._held(self.typed_ahead[0]):
                return self.typed_ahead.pop(0)
            event = self.events.get()
            if isinstance(event, Typed) and (self.bots or self.typed_ahead or self._held(event)):
                self.typed_ahead.append(event)
                continue
            return event

    def _held(self, event: Typed) -> bool:
        """An answer from a pipe while no decision is asked (the other player's turn, a hand being dealt, the game's
        end not yet told): it waits for the next question.  (Released once the end was heard, the answers piped
        ahead were each refused as "Not your turn" before the end itself was said, and then the end of input.)
        Runs on the waiting thread: it reads only the player's own fields, never the seat's view."""
        if self.interactive or self.asked is not None or event.text is None or self.ended:
            return False
        return not self.commands.is_command(event.text)

    def _saving(self) -> bool:
        view = self.seat.view()
        return view.save_error is None and self.lesson is None and view.outcome is None

    def publish(self) -> None:
        """Say what happened, ask the decision now if it is new, and start the seat's jobs."""
        for line in self.news() if self.news is not None else ():
            self.say(line)
        view = self.seat.view()
        if view.outcome is not None and not self.over_heard():
            return  # said once the host's end has come (the next change), so the shuffle line is whole
        persons = view.persons
        if self.hotseat and view.seat is None and all(persons) and view.to_act is not None and view.outcome is None:
            self._handoff(view)
        else:
            told = self._narrate(view, say=False)
            if view.outcome is not None:
                for line in told:
                    self.say(line)
                self._stats()
                self.ended = True
                return
            question = None if self.watching else ask.question(view, self.words)
            if self.lesson is not None and view.phase is Phase.SHUFFLE and view.hands:
                question = ask.lesson_end(view)
            elif view.challenge is not None and view.challenge.over:
                question = ask.challenge_end(view, self.words)
            new = question is not None and (self.asked is None or question.key != self.asked.key)
            if new and question is not None and question.kind == "play" and told and view.observation.trick \
                    and len(view.observation.trick) == 1 and told[-1] in question.text:
                told = told[:-1]  # heard, "Bob led 9♦." then "Trick 6, Bob led 9♦." says the lead twice running
            for line in told:
                self.say(line)
            if question is not None and (self.asked is None or question.key != self.asked.key):
                self._lesson_words(view)
                self._hand(view, question)
                self.asked = question
                for line in question.lines():
                    self.say(line)
            elif question is None:
                self.asked = None
        self._stats()
        self._jobs()

    def _stats(self) -> None:
        if self.recorder is not None:
            problem = self.seat.record_stats(self.recorder)  # writes only when a hand or the game has ended
            if problem is not None:
                self.say(problem)

    def _hand(self, view: SeatView, question: ask.Question) -> None:
        """The hand, said before a decision when it is new to the player: whole before the bidding and an exchange,
        and in the play only when it gained a card (an exchange) or was not said yet this hand.  Not before each
        draft turn ("You kept 9♦" says what changed) nor each trick (the choices list the cards to play)."""
        if view.seat is None or not view.observation.hand:
            return
        hand = frozenset(view.observation.hand)
        last = self.hand_said.get(view.seat)
        key = (view.observation.hand_number, hand)
        if question.kind in ("bid", "exchange"):
            due = last is None or last[1] != hand
        elif question.kind == "play":
            due = last is None or last[0] != key[0] or bool(hand - last[1])
        else:
            due = False
        if due:
            self.hand_said[view.seat] = key
            self.say(ask.hand_line(view, self.words))

    def _narrate(self, view: SeatView, say: bool = True) -> list[str]:
        """What happened since this seat's last view: said, or (``say`` False) given back to be said."""
        before = self.said.get(view.seat)
        told = events(before, view, self.words, self.hands_told)
        self.said[view.seat] = view
        self.hands_told = max(self.hands_told, len(view.hands))
        if say:
            for line in told:
                self.say(line)
        return told

    def _lesson_words(self, view: SeatView) -> None:
        if self.lesson is None:
            return
        words = for_lines(self.lesson(view))
        if words and words != self.lesson_said:
            self.lesson_said = words
            for paragraph in words.split("\n\n"):
                self.say(_("Lesson: {text}").format(text=" ".join(paragraph.split())))

    def _handoff(self, view: SeatView) -> None:
        """Hot-seat: the screen and its scrollback cleared, what both may know said, then ``ready`` asked for."""
        question = ask.handoff(view)
        if self.asked is not None and self.asked.key == question.key:
            return
        self._write(self.clear)
        self._narrate(view)  # the public view: no card of any hand
        self.asked = question
        for line in question.lines():
            self.say(line)

    def _jobs(self) -> None:
        for job in self.seat.jobs():
            if job.kind == "hint":
                self.hint_job = job  # worked out when the player asks for it
                continue
            work = job.start()
            if work is not None:
                self.bots += job.kind == "bot"
                self.pool.submit(self._work, job, work)

    def _work(self, job: Job[Any], work: Callable[[], Any]) -> None:
        self.events.put(Done(job, work()))

    # ------------------------------------------------------------ what the player typed

    def typed(self, text: str) -> None:
        clean = " ".join(text.split())
        if not clean:
            self.repeat()
            return
        if self.commands.run(clean):
            return
        question = self.asked
        if question is None:
            view = self.seat.view()
            if view.to_act is not None:
                self.say(_("Not your turn: {player} is playing. Type help for the commands.").format(
                    player=view.names[view.to_act]))
            else:
                self.say(_("Not your turn: the other player is playing. Type help for the commands."))
            return
        picked = question.pick(clean, self.words)
        if isinstance(picked, str):
            self.say(picked)
            self.repeat()
            return
        self.choose(question, picked)

    def repeat(self) -> None:
        """The prompt again (an empty line, a bad answer)."""
        if self.asked is None:
            view = self.seat.view()
            if view.to_act is not None:
                self.say(_("Waiting for {player}.").format(player=view.names[view.to_act]))
            return
        for line in self.asked.lines():
            self.say(line)

    def choose(self, question: ask.Question, choice: ask.Choice) -> None:
        seat = self.seat
        if choice.action is not None:
            view = question.view
            if self.lesson_chose is not None and view is not None:
                self.lesson_chose(view, choice.action)
            error = seat.act(choice.action)
            if error is not None:
                self.say(_("Not allowed: {reason}").format(reason=error))
                self.repeat()
                return
        elif choice.command == ask.READY:
            seat.reveal()
            self._write(self.clear)
            view = seat.view()
            self.say(_("{player}: your turn.").format(player=view.names[view.seat] if view.seat is not None else ""))
        elif choice.command == ask.NEXT:
            seat.next_hand()
        elif choice.command == ask.REVIEW:
            self.commands.run("review")
            return
        elif choice.command == ask.AGAIN and question.kind == "summary":
            if not seat.replay_hand():
                self.say(_("This hand cannot be played again here."))
                return
            self.say(_("The same hand again, as practice."))
            self.said.clear()
            self.hands_told = len(seat.view().hands)
            self.hand_said.clear()
        elif choice.command in (ask.AGAIN, ask.REAL, ask.LEAVE):
            self.result = choice.command
            self.ended = True
            return
        self.publish()


def for_lines(text: str) -> str:
    """The lesson's words, which were written for the full screen's keys, for typed lines: the key paragraphs left
    out, Enter the suggested choice."""
    kept = []
    for paragraph in text.split("\n\n"):
        if paragraph.lstrip().startswith("Keys:") or "←→" in paragraph or "Esc " in paragraph:
            continue
        kept.append(paragraph.replace("(Enter)", _("(the suggested choice)")).replace(
            "Enter", _("the suggested choice")))
    return "\n\n".join(kept)
