"""Line mode's start (``--lines``): what the command line asked for (a game against a bot, hot-seat, a record
resumed, the lesson, a challenge) or, with nothing asked, the start's choices as a numbered list; then the game
played in lines until it ends, the player quits or the input ends.  Saved after every move in a slot of its own,
counted in the statistics, exactly as the full screen's games are."""

from __future__ import annotations

import queue
import sys
import time
from pathlib import Path
from typing import IO, Any, Callable, Coroutine, Optional, TextIO

from ..i18n.language import _, pgettext
from ..keep.autosave import default_data_dir
from ..keep.storage import LOAD_ERRORS, StorageError, load_game
from ..session.text import last_played, printable
from ..settings.options import LaunchOptions
from ..settings.preferences import PREFERENCES_NAME, Preferences, default_config_dir, user_preferences
from ..settings.preferences import load as load_preferences
from .player import Event, LinePlayer, Output, Typed, read_lines
from .words import Words, folded


class Lines:
    """One run of line mode: the folders, the input, the slot of the game in play."""

    def __init__(self, options: LaunchOptions, *, words: Optional[bool] = None, color: bool = False,
                 data_dir: Optional[Path] = None, config_dir: Optional[Path] = None, out: TextIO = sys.stdout) -> None:
        self.options = options
        self.data_dir = data_dir if data_dir is not None else default_data_dir()
        self.prefs, problem = load_preferences((config_dir or default_config_dir()) / PREFERENCES_NAME)
        self.words = Words(self.prefs.words if words is None else words, color)
        self.out = out
        self.output = Output(out, color)
        self.events: queue.Queue[Event] = queue.Queue()
        self.stats: Any = None
        self.slots: Any = None
        self.slot: Any = None
        self.problem = problem
        self.interactive = True  # the input is a terminal (set by ``run``): see LinePlayer

    # ------------------------------------------------------------ output and input

    def say(self, text: str) -> None:
        self.output.say(text)

    def read(self) -> Optional[str]:
        event = self.events.get()
        while not isinstance(event, Typed):
            event = self.events.get()
        return event.text

    # ------------------------------------------------------------ the saved games

    def open_slots(self) -> None:
        from ..keep.slots import open_games

        if self.slots is None:
            try:
                self.slots, notes = open_games(self.data_dir)
            except OSError as exc:
                notes = [_("The saved games cannot be opened ({reason}); this game is not saved.").format(reason=exc)]
            for note in notes:
                self.say(note)

    def claim(self, slot: Any = None) -> tuple[Optional[Path], Optional[str]]:
        self.release()
        self.open_slots()
        if slot is None and self.slots is not None:
            try:
                slot = self.slots.claim_new()
            except StorageError as exc:
                return None, _("Autosave failed: {reason}").format(reason=exc)
        self.slot = slot
        return (slot.path if slot is not None else None), None

    def release(self) -> None:
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()

    def recorder(self) -> Any:
        if self.stats is None:
            from ..keep.stats import STATS_NAME, StatsRecorder

            self.stats = StatsRecorder(self.data_dir / STATS_NAME)
        return self.stats

    # ------------------------------------------------------------ the run

    def run(self, stdin: IO[bytes], *, learn: bool = False, challenge: Optional[str] = None) -> int:
        return self._session(stdin, lambda: self._run(learn, challenge))

    def run_table(self, stdin: IO[bytes], table: Callable[[Lines], Coroutine[Any, Any, int]]) -> int:
        """A network table in lines (``table``: lines/table.py's ``host_table`` or ``join_table``, bound)."""
        import asyncio

        return self._session(stdin, lambda: asyncio.run(table(self)))

    def _session(self, stdin: IO[bytes], body: Callable[[], int]) -> int:
        """``body`` with the input read in a thread of its own; the slot and the statistics let go at the end."""
        import threading

        self.interactive = stdin.isatty()
        threading.Thread(target=read_lines, args=(stdin, self.events), daemon=True).start()
        if self.problem:
            self.say(self.problem)
        try:
            return body()
        except KeyboardInterrupt:
            self.say(_("Interrupted: the game is saved."))
            return 130
        finally:
            self.release()
            if self.stats is not None:
                self.stats.close()

    def _run(self, learn: bool, challenge: Optional[str]) -> int:
        opts = self.options
        if learn:
            return self.lesson()
        if challenge is not None:
            return self.challenge(challenge)
        if opts.load is not None:
            try:
                record, _problems = load_game(opts.load)
            except LOAD_ERRORS as exc:
                print(_("spades-tui: cannot load {file}: {reason}").format(file=printable(opts.load),
                                                                          reason=printable(exc)), file=sys.stderr)
                return 2
            return self.play(record)
        rules = opts.rules or self.prefs.rules
        if opts.hotseat:
            return self.new(rules, (_("Player 1"), _("Player 2")), None)
        if opts.bot is not None:
            return self.new(rules, (self.prefs.player_name, f"Bot ({opts.bot})"), opts.bot)
        return self.menu()

    def new(self, rules: Any, names: tuple[str, str], bot: Optional[str]) -> int:
        from ..session.session import new_record

        return self.play(new_record(rules, None, names, bot=bot, seed=self.options.seed))

    def play(self, record: Any, slot: Any = None) -> int:
        """Play ``record`` (saved in ``slot``, or a new one) to its end or until the player leaves."""
        from ..keep.meta import RecordMeta
        from ..session.session import Session

        path, problem = self.claim(slot)
        opts = self.options
        options: dict[str, Any] = dict(seed=opts.seed, autosave=path, hints=opts.hints,
                                       auto_review=False, hint_samples=opts.hint_samples)
        try:
            if RecordMeta.of(record).challenge is not None:
                from ..keep.challenges import CHALLENGES_NAME
                from ..session.challenge import ChallengeSession

                seat: Any = ChallengeSession(record, book=self.data_dir / CHALLENGES_NAME, **options)
            else:
                seat = Session(record, allowed_cmd=opts.bot, **options)
        except BaseException:
            self.release()
            raise
        if problem is not None:
            seat.note_save_problem(problem)
            self.say(_("{problem}. The game goes on without autosave.").format(problem=problem))
        hotseat = bool(getattr(seat, "hotseat", False))
        player = LinePlayer(seat, self.out, words=self.words, hotseat=hotseat, events=self.events,
                            recorder=self.recorder, interactive=self.interactive)
        if hotseat:
            self.say(_("Hot-seat: the keyboard passes between you; each player's cards are said only after they "
                       "type ready, and the screen is cleared then."))
        self.say(_("Type help for the commands; an empty line says the prompt again."))
        try:
            player.run()
        finally:
            seat.close_all()
        return 0

    def lesson(self) -> int:
        from ..session.lesson import LessonDeal, LessonError, LessonSession
        from ..tui.app.resources import read_document  # no Textual in it: the assets' folder
        from ..tui.lesson import Lesson, LessonText

        text = LessonText.parse(read_document("lesson.md"))  # in the player's language
        fields = text.fields
        try:
            deal = LessonDeal.parse(fields.get("stock", ""), fields.get("first", ""), fields.get("seed", ""))
        except LessonError as exc:
            print(_("spades-tui learn: the lesson cannot start: {reason}").format(reason=exc), file=sys.stderr)
            return 2
        while True:
            lesson = Lesson(text)
            seat = LessonSession(deal)
            player = LinePlayer(seat, self.out, words=self.words, lesson=lesson.words, chose=lesson.chose,
                                events=self.events, interactive=self.interactive)
            self.say(_("Learn to play: one guided hand against the easy bot. Type help for the commands."))
            try:
                result = player.run()
            finally:
                seat.close_all()
            if result == "again":
                continue
            if result == "real":
                return self.new(self.prefs.rules, (self.prefs.player_name, f"Bot ({self.prefs.bot_level})"),
                                self.prefs.bot_level)
            return 0

    def challenge(self, code_text: str) -> int:
        from ..session.challenge import ChallengeCode, challenge_record
        from ..tui.app.saved import SavedGames  # no Textual in it: the saved games, as the full screen finds them

        code = ChallengeCode.parse(code_text)
        found = SavedGames(self.data_dir).challenge_game(str(code))
        if found is not None:
            self.say(_("Challenge {code}: your game goes on where you left it.").format(code=code))
            return self.play(found[1], found[0])
        self.say(_("Challenge {code}: four hands against the expert, scored against its par.").format(code=code))
        return self.play(challenge_record(code, (self.prefs.player_name, "Bot (expert)")))

    # ------------------------------------------------------------ the start's choices

    def menu(self) -> int:
        """The start's choices as a numbered list: each unfinished saved game, a new game, the lesson, quit."""
        from ..session.view import is_served_table, is_table_game

        self.open_slots()
        games: list[Any] = []
        if self.slots is not None:
            found = self.slots.scan()
            for message in found.messages:
                self.say(message)
            games = [g for g in found.games if not g.finished and not is_table_game(g.players)
                     and not is_served_table(g.players)]
        now = time.time()
        choices: list[tuple[str, Any]] = []
        for g in games:
            s = g.summary
            names = g.names
            said = dict(player=printable(names[0], limit=40), score=s.scores[0], other=printable(names[1], limit=40),
                        other_score=s.scores[1], number=s.hand_number, when=last_played(g.last_played, now))
            choices.append((_("Resume {player} {score} against {other} {other_score}, hand {number}, {when} (open in "
                              "another window)").format(**said) if g.held_elsewhere else
                            _("Resume {player} {score} against {other} {other_score}, hand {number}, {when}").format(
                                **said), g))
        level = self.prefs.bot_level
        choices += [(_("New game against the bot ({level})").format(level=level), "bot"),
                    (_("New hot-seat game"), "hotseat"), (_("Learn to play"), "learn"),
                    (_("Today's challenge"), "challenge"), (_("Quit"), "quit")]
        quit_words = ("quit", "exit", folded(pgettext("command", "quit")))
        while True:
            self.say(_("Spades, in lines. What would you like to do?"))
            self.say(_("Choices:") + " " + " ".join(f"{i}) {label}" for i, (label, _v) in enumerate(choices, 1)))
            typed = self.read()
            if typed is None:
                return 0
            typed = typed.strip().lower()
            if not typed:
                continue
            if folded(typed) in quit_words:
                return 0
            named = [value for label, value in choices if folded(label) == folded(typed)]  # "Quit", "Avsluta"
            if named:
                chosen = named[0]
                break
            if not typed.isdigit() or not 1 <= int(typed) <= len(choices):
                self.say(_("Type a number from 1 to {count}.").format(count=len(choices)))
                continue
            chosen = choices[int(typed) - 1][1]
            break
        return self._chosen(chosen)

    def _chosen(self, chosen: Any) -> int:
        if chosen == "quit":
            return 0
        if chosen == "learn":
            return self.lesson()
        if chosen == "challenge":
            from ..session.challenge import ChallengeCode

            return self.challenge(str(ChallengeCode.today()))
        rules = self.options.rules or self.prefs.rules
        if chosen == "hotseat":
            return self.new(rules, (_("Player 1"), _("Player 2")), None)
        if chosen == "bot":
            level = self.prefs.bot_level
            return self.new(rules, (self.prefs.player_name, f"Bot ({level})"), level)
        try:
            slot, record = self.slots.open_game(chosen.path)
        except StorageError as exc:
            self.say(_("That game cannot be opened: {reason}").format(reason=exc))
            return self.menu()
        return self.play(record, slot)


def run_lines(options: LaunchOptions, *, words: Optional[bool] = None, color: bool = False, learn: bool = False,
              challenge: Optional[str] = None) -> int:
    """``spades-tui --lines`` and the commands' ``--lines``: standard input and output only."""
    if options.served:
        print(_("spades-tui: a browser's game is the full screen; --lines is for a terminal or a pipe"),
              file=sys.stderr)
        return 2
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="strict", line_buffering=True)
    return Lines(options, words=words, color=color).run(sys.stdin.buffer, learn=learn, challenge=challenge)


def run_lines_table(table: Callable[[Lines], Coroutine[Any, Any, int]], *, words: Optional[bool] = None,
                    color: bool = False) -> int:
    """``host``, ``join`` and ``watch`` with ``--lines``: the table's seat in lines on standard input and output."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="strict", line_buffering=True)
    return Lines(LaunchOptions(), words=words, color=color).run_table(sys.stdin.buffer, table)


def wants_lines(asked: Optional[bool], prefs: Optional[Preferences] = None) -> bool:
    """``--lines`` (True), ``--tui`` (False), else the ``interface`` setting."""
    if asked is not None:
        return asked
    if prefs is None:
        prefs = user_preferences()
    return prefs.interface == "lines"
