"""What every command shares: the parser that raises instead of exiting, argument types."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from typing import TYPE_CHECKING, Callable, TypeVar

from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..engine.text import decimal, encodable, printable
from ..i18n.language import N_, _, pgettext, translated
from ..settings.options import parse_seed
from ..tui.app import quickstart
from . import argparse_words

argparse_words.install()  # argparse's own words ("usage: ", its errors) in the player's language

if TYPE_CHECKING:  # the records load when a command reads one: a fast start
    from ..engine.record import GameRecord
    from ..settings.options import LaunchOptions


class CliError(Exception):
    """A bad command line; printed as one clear line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so ``main`` decides."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message}")


BOT_LEVELS = ("easy", "normal", "hard", "expert")


def bot_spec(text: str) -> str:
    if text in BOT_LEVELS or (text.startswith("cmd:") and text[4:].strip()):
        return text
    raise argparse.ArgumentTypeError(_("must be easy, normal, hard, expert or cmd:PROGRAM, not {text}").format(
        text=repr(text)))


def seed(text: str) -> int:
    try:
        return parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole(text: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` given on the command line (``ArgumentTypeError`` otherwise)."""
    try:
        value = int(text[:12])
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a whole number, not {text}").format(text=repr(text[:20]))) from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(_("must be {low} to {high}, not {text}").format(
            low=low, high=high, text=repr(text[:20])))
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("must be a number of seconds, not {text}").format(text=repr(text))) from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(_("must be between 0 and 10 seconds, not {text}").format(text=repr(text)))
    return value


RULES_METAVAR = N_("PRESET[,KEY=VALUE...]")  # said with rules_metavar()


def rules_metavar() -> str:
    """``--rules``' metavar in the player's language (its words are the help's: a preset, KEY=VALUE)."""
    return translated(RULES_METAVAR)


def rules_help() -> str:
    """The ``--rules`` help: the presets, then the options (docs/rules.md section 9)."""
    from ..engine.rules import PRESETS, Rules

    return _("house rules: a preset ({presets}; default {default}) and/or options KEY=VALUE, e.g. "
             "tournament,target=300; options: {options}").format(
        presets=", ".join(PRESETS), default=next(iter(PRESETS)), options=", ".join(Rules.names()))


def rules(text: str) -> Rules:
    try:
        return Rules.parse_assignments(text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def decimal_words(x: float, places: int) -> str:
    """A decimal number as the player's language writes it: the true minus, and its decimal sign (a comma in
    Swedish and Estonian, docs/languages.md)."""
    return decimal(x, places).replace(".", pgettext("decimal sign", "."))


def grouped_words(n: float) -> str:
    """A large whole number with its thousands grouped as the player's language groups them (12,345 in English)."""
    return f"{n:,.0f}".replace(",", pgettext("thousands separator", ","))


T = TypeVar("T")


class Exit(Exception):
    """Stop a command with this status; its message is already on standard error."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def record_file_help() -> str:
    """The FILE argument's help for a command that reads a game record: what it is and where the saved games are."""
    from ..keep.autosave import default_data_dir

    games = default_data_dir() / "games"
    return _("a game record (JSON). Your saved games are records: {games}/game-N.json while in play, "
             "{games}/finished/ once over (docs/files.md)").format(games=games)


def read_record(path: str, command: str, judge: Callable[[GameRecord], T]) -> tuple[GameRecord, T]:
    """A record read and put through ``judge`` (a replay, an analysis), with the exit statuses of
    docs/game-record.md: 2 and a clear line for an unreadable record, 1 and ``action N: why`` for an illegal
    action; raised as ``Exit`` once said."""
    from ..engine.errors import RecordError
    from ..engine.record import ReplayError
    from ..keep.storage import StorageError, load_record

    try:
        record = load_record(path)
    except (StorageError, RecordError) as exc:
        print(f"{command}: {printable(exc)}", file=sys.stderr)
        raise Exit(2) from None
    try:
        return record, judge(record)
    except ReplayError as exc:
        print(printable(exc), file=sys.stderr)
        raise Exit(1) from None


def player_names(record: GameRecord) -> list[str]:
    """The names to print: cleaned when the record was read, and made printable again here, so that
    plain output never carries a character a terminal would obey."""
    return ([printable(p.name) for p in record.players] if record.players
            else [_("Player {number}").format(number=seat) for seat in (0, 1)])


def print_or_quiet(text: str) -> int:
    """Print ``text``; if the reader went away (``| head``), stop quietly with status 1.

    Standard output that cannot encode a character (a Latin-1 terminal, ``PYTHONIOENCODING=ascii``) gets
    the ASCII minus for the true one and ``?`` for anything else it cannot write: never a traceback."""
    try:
        try:
            print(text)
        except UnicodeEncodeError:
            print(encodable(text, sys.stdout.encoding))
        sys.stdout.flush()
    except BrokenPipeError:
        # Keep Python from printing a traceback when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def start_game(options: LaunchOptions, ns: argparse.Namespace, **start: object) -> int:
    """The game in line mode (``--lines``, or the ``interface`` setting, unless ``--tui``), else the full screen."""
    from ..lines.launch import run_lines, wants_lines

    # A browser tab's game ('spades-tui serve') is always the full screen, whatever the settings say.
    if not options.served and wants_lines(getattr(ns, "lines", None)):
        return run_lines(options, words=getattr(ns, "words", None), color=getattr(ns, "color", False),
                         **start)  # type: ignore[arg-type]
    return start_app(options, **start)


def lines_wanted(ns: argparse.Namespace, prefs: object = None) -> bool:
    from ..lines.launch import wants_lines

    return wants_lines(getattr(ns, "lines", None), prefs)  # type: ignore[arg-type]


def play_table(client: object, ns: argparse.Namespace) -> int:
    """A seat at a table (``join``, ``host --server``, ``watch``) in lines or on the full screen."""
    if lines_wanted(ns):
        import functools

        from ..lines.launch import run_lines_table
        from ..lines.table import join_table

        table = functools.partial(join_table, client=client)  # type: ignore[arg-type]
        return run_lines_table(table, words=getattr(ns, "words", None), color=getattr(ns, "color", False))
    from ..tui.app.launch import run_table_app  # Textual loads only here
    from ..tui.app.startup import JoinTable

    return run_table_app(JoinTable(client))  # type: ignore[arg-type]


def start_app(options: LaunchOptions, **start: object) -> int:
    """The app run with ``options`` (and ``run_app``'s keywords: the lesson, a challenge), its start made cheaper.

    The start allocates much and frees little: collecting garbage before the first screen is drawn was about a
    fifth of the work until then (issue 33), and dataclasses compiling methods not yet called about a tenth
    (tui/app/quickstart.py). Both wait for the first paint: the app turns them back once it is drawn."""
    gc.disable()
    quickstart.begin()
    try:
        app = importlib.import_module("spades_tui.tui.app.launch")  # Textual loads only here
        run_app: Callable[..., int] = app.run_app
        return run_app(options, **start)
    finally:
        quickstart.end()
        gc.enable()
