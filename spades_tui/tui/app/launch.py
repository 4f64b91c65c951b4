"""The game's start from the command line: the terminal checked (or a browser tab's driver), a record to load
read with a clear error, then the app run until it ends."""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Optional, Union

from ...i18n.language import _
from ...keep.autosave import default_data_dir
from ...session.text import printable
from ...settings.options import LaunchOptions
from ...settings.preferences import default_config_dir
from ...table.wire.visitors import VISITOR_ENV, visitor_data_dir
from .app import SpadesApp
from .startup import AS_ASKED, Challenge, HostTable, JoinTable, Learn, Resume
from .terminal import screen_output, terminal_problem, web_driver

if TYPE_CHECKING:
    from ...session.view import GameRecord


def run_table_app(start: Union[HostTable, JoinTable]) -> int:
    """``spades-tui host``, ``join`` and ``watch`` in this terminal: a table opened here, or a seat taken."""
    problem = terminal_problem(sys.stdin, sys.__stderr__, os.environ)
    if problem is not None:
        print(f"spades-tui: {problem}", file=sys.stderr)
        return 2
    app = SpadesApp(LaunchOptions(), data_dir=default_data_dir(), config_dir=default_config_dir(), start=start)
    with screen_output():
        result = app.run()
    return result if isinstance(result, int) else 0


def without_path(exc: Exception, path: str) -> str:
    """A file's error without its path, for a line that names the file already (``cannot load X: X: ...``): the
    error's own words for that (``StorageError.reason``), else its message less the path that starts it."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str) and reason:
        return reason
    message = str(exc)
    if message.startswith(f"{path}: "):
        return message[len(path) + 2:]
    return message if message.startswith(f"{path} ") else message.replace(f" {path}", "")


def game_folders(options: LaunchOptions, data_dir: Path, config_dir: Path,
                 environ: Mapping[str, str]) -> Optional[tuple[Path, Path]]:
    """The data and config folders of this game: the user's own, or in a browser tab of 'spades-tui serve' its
    visitor's alone (its games, seats, statistics and settings: table/wire/visitors.py); None when the server named
    no proper visitor."""
    visitor = environ.get(VISITOR_ENV) if options.served else None
    if visitor is None:
        return data_dir, config_dir
    found = visitor_data_dir(data_dir, visitor)
    return (found, found) if found is not None else None


def run_app(options: LaunchOptions, *, learn: bool = False, challenge: Optional[str] = None) -> int:
    """The game; ``learn``: ``spades-tui learn``, the lesson first (its end offers a real game); ``challenge``:
    ``spades-tui challenge``, that challenge's code (checked by the command)."""
    if options.served:
        # Checked again here, not only by 'spades-tui serve': the page must never choose a program or a file.
        refused = options.served_refusal()
        if refused is not None:
            print(f"spades-tui: {refused}", file=sys.stderr)
            return 2
    loaded: Optional[GameRecord] = None
    if options.load is not None:
        from ...keep.storage import LOAD_ERRORS, load_game

        try:
            loaded, _state = load_game(options.load)
        except LOAD_ERRORS as exc:
            print("spades-tui: " + _("cannot load {path}: {problem}").format(
                path=printable(options.load), problem=printable(without_path(exc, options.load))), file=sys.stderr)
            return 2
    web = web_driver(os.environ)  # a browser tab (spades-tui serve): no terminal to check, and it shows ♠♥♦♣
    problem = None if web else terminal_problem(sys.stdin, sys.__stderr__, os.environ)
    if problem is not None:
        print(f"spades-tui: {problem}", file=sys.stderr)
        return 2
    folders = game_folders(options, default_data_dir(), default_config_dir(), os.environ)
    if folders is None:
        print("spades-tui: " + _("the server gave this game no proper visitor"), file=sys.stderr)
        return 2
    data_dir, config_dir = folders
    app = SpadesApp(options, data_dir=data_dir, config_dir=config_dir,
                    start=Learn() if learn else Challenge(challenge) if challenge is not None
                    else AS_ASKED if loaded is None else Resume(loaded))
    with nullcontext(False) if web else screen_output() as ascii_screen:  # ASCII where the terminal needs it
        app.ascii_screen = ascii_screen
        result = app.run()
    return result if isinstance(result, int) else 0

