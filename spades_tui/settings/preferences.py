"""The player's preferences: a small TOML file in the user config directory.

Read with ``tomllib``; written by hand (a flat table and ``[rules]``: no TOML writer
needed) and atomically.  A bad file never stops the game: each bad field falls back to
its default, and ``load`` returns one message saying which and why.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Optional

from ..bots.levels import LEVELS, level_name
from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..engine.text import MAX_NAME, clean_name
from ..i18n.language import AUTO, LANGUAGES, _
from ..keep.autosave import APP_NAME
from ..keep.storage import StorageError, atomic_write_text, private_dir, read_text

PREFERENCES_NAME = "preferences.toml"
DEFAULT_THEME = "textual-dark"
DEFAULT_NAME = "You"  # the name against a bot until the player gives one: "you" in every sentence about them
MAX_PAUSE = 10.0  # seconds, as --bot-pause allows
MAX_BYTES = 256 * 1024  # the file the settings screen writes is under 1 KiB


def default_config_dir() -> Path:
    """The user config directory (platformdirs: honours XDG_CONFIG_HOME)."""
    import platformdirs  # imported here so plain commands need not load it

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


@dataclass(frozen=True)
class Preferences:
    """Every default is the game's behaviour without a preferences file."""

    theme: str = DEFAULT_THEME  # one of Textual's themes
    four_colour: bool = False  # spades, hearts, diamonds and clubs each their own colour
    hints: bool = False  # the hint panel is shown from the start (as --hints)
    review: bool = False  # the review opens after each hand (as --review)
    bot_pause: float = 0.6  # seconds a finished trick stays before the bot leads (as --bot-pause)
    forced_play: bool = True  # a card that is the only legal one plays itself after a short pause
    bot_level: str = "normal"  # the new-game form's bot level
    player_name: str = DEFAULT_NAME  # the new-game form's name against the bot
    rules: Rules = field(default_factory=Rules)  # the new-game form's rule options
    table_server: str = ""  # a 'spades-tui serve' (ADDR:PORT, or wss://ADDR:PORT): the start screen finds tables there
    interface: str = "tui"  # "lines": line mode by default (as --lines; --tui forces the full screen)
    words: bool = False  # line mode spells cards out, "ten of hearts" (as --words)
    language: str = AUTO  # "auto" (from LC_ALL, LC_MESSAGES, LANG) or a code of LANGUAGES (as --lang)


INTERFACES = ("tui", "lines")  # the full screen, or line mode (docs/playing.md, "Line mode")
MAX_SERVER = 200
SERVER_SHAPE = re.compile(r"^(wss?://)?[A-Za-z0-9.\-]{1,190}:[0-9]{1,5}$|^(wss?://)?\[[0-9A-Fa-f:.]{2,60}\]:[0-9]{1,5}$")


def game_names(name: str, level: str) -> tuple[str, str]:
    """The two names of a new game against the bot at ``level`` in the player's language: the default name is their
    "You" ("Du"), the bot "Bot (easy)" with its level's word ("Bot (lätt)").  A record keeps them as they were."""
    return (_("You") if name == DEFAULT_NAME else name), _("Bot ({level})").format(level=level_name(level))


def server_problem(value: str) -> Optional[str]:
    """Why ``value`` is not a table server's address (the empty string, none, is one), or None."""
    if value and (len(value) > MAX_SERVER or not SERVER_SHAPE.match(value)):
        return _("must be ADDR:PORT (or wss://ADDR:PORT), such as tables.example.org:7000, or empty")
    return None


def _check(name: str, value: Any, themes: Optional[Collection[str]]) -> Optional[str]:
    """Why ``value`` is not a valid ``name``, or None."""
    if name in ("four_colour", "hints", "review", "forced_play", "words"):
        return None if isinstance(value, bool) else _("must be true or false")
    if name == "bot_pause":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return None if ok and 0 <= value <= MAX_PAUSE else _("must be a number of seconds from 0 to {most}").format(
            most=f"{MAX_PAUSE:g}")
    if not isinstance(value, str):
        return _("must be a quoted string")
    if name == "theme" and themes is not None and value not in themes:
        return _("unknown theme {theme}: the settings screen lists the themes").format(theme=repr(value))
    if name == "bot_level" and value not in LEVELS:
        return _one_of(LEVELS)
    if name == "player_name" and not 0 < len(clean_name(value, limit=MAX_NAME + 1)) <= MAX_NAME:
        return _("must be 1 to {most} printable characters").format(most=MAX_NAME)
    if name == "table_server":
        return server_problem(value)
    if name == "interface" and value not in INTERFACES:
        return _one_of(INTERFACES)
    if name == "language" and value != AUTO and value not in LANGUAGES:
        return _one_of((AUTO, *LANGUAGES))
    return None


def _one_of(values: Collection[str]) -> str:
    return _("must be one of {values}").format(values=", ".join(values))


def _rules(data: Any, problems: list[str]) -> Rules:
    """The rule options in ``data``; each bad one is its default, said in ``problems``."""
    if not isinstance(data, Mapping):
        problems.append(_("rules (must be a table: [rules])"))
        return Rules()
    good: dict[str, Any] = {}
    for key, value in data.items():
        if key not in Rules.names():
            problems.append(_("{setting} (unknown rule option)").format(setting=f"rules.{key}"))
            continue
        try:
            Rules(**{key: value})  # each option alone, so one bad option loses only itself
        except (RulesError, TypeError) as exc:
            problems.append(_("{setting} ({problem})").format(setting=f"rules.{key}", problem=exc))
            continue
        good[key] = value
    try:
        return Rules(**good)
    except RulesError as exc:  # no combination is refused today; if one ever is, the defaults
        problems.append(_("{setting} ({problem})").format(setting="rules", problem=exc))
        return Rules()


def parse(text: str, themes: Optional[Collection[str]] = None) -> tuple[Preferences, list[str]]:
    """The preferences in ``text`` and what was wrong with it (the bad fields have their defaults).

    ``themes`` are the theme names to accept (None accepts any string). Raises ``tomllib.TOMLDecodeError``,
    also for arrays nested too deeply (tomllib recurses once per level and runs out of stack).
    """
    import tomllib  # in here: a start with no settings file need not load the TOML reader (issue 33)

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(_("arrays or tables nested too deeply")) from None
    problems: list[str] = []
    values: dict[str, Any] = {}
    known = {f.name for f in fields(Preferences)}
    for key, value in data.items():
        if key not in known:
            problems.append(_("{setting} (unknown setting)").format(setting=key))
        elif key == "rules":
            values[key] = _rules(value, problems)
        else:
            why = _check(key, value, themes)
            if why is None:
                # A name is cleaned as it enters (engine/text.py): no escape sequence, no control character.
                values[key] = (float(value) if key == "bot_pause" else clean_name(value) if key == "player_name"
                               else value)
            else:
                problems.append(_("{setting} ({problem})").format(setting=key, problem=why))
    return Preferences(**values), problems


def user_preferences() -> Preferences:
    """The user's saved preferences (the defaults where there are none), for the commands that only read them: a
    problem in the file is the full-screen game's to say (the settings screen), not a command's."""
    return load(default_config_dir() / PREFERENCES_NAME)[0]


def load(path: Path, themes: Optional[Collection[str]] = None) -> tuple[Preferences, Optional[str]]:
    """The preferences saved at ``path`` and one message if anything in it was ignored.

    No file is no problem: the defaults.  Never raises for what the file holds.
    """
    if not path.exists():
        return Preferences(), None
    if path.is_dir():
        return Preferences(), _("Settings not read: {path} is a directory; the defaults are used.").format(path=path)
    import tomllib  # only where there is a file to read (issue 33: the first paint)

    try:
        text = read_text(path, MAX_BYTES, _("a preferences file"))
        prefs, problems = parse(text, themes)
    except StorageError as exc:
        return Preferences(), _("Settings not read ({problem}); the defaults are used.").format(problem=exc)
    except tomllib.TOMLDecodeError as exc:
        said = _("Settings not read: {path} is not valid TOML ({problem}); the defaults are used.")
        return Preferences(), said.format(path=path, problem=exc)
    if not problems:
        return prefs, None
    return prefs, _("Settings in {path}: ignored {problems}. Their defaults are used.").format(
        path=path, problems="; ".join(problems))


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)  # finite: checked before saving
    return _toml_string(str(value))


def dumps(prefs: Preferences) -> str:
    lines = ["# spades-tui preferences, written by its settings screen (F2). Any setting left out has its default.",
             ""]
    for f in fields(prefs):
        if f.name != "rules":
            lines.append(f"{f.name} = {_toml_value(getattr(prefs, f.name))}")
    lines += ["", "# The new-game form's rule options (assets/rules.md section 9).", "[rules]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in prefs.rules.to_json().items()]
    return "\n".join(lines) + "\n"


def save(path: Path, prefs: Preferences) -> None:
    """Write ``prefs`` to ``path`` atomically (its directory made if needed); raise ``StorageError``."""
    try:
        private_dir(path.parent)
    except OSError as exc:
        raise StorageError(_("cannot write {path}: {problem}").format(path=path, problem=exc.strerror or exc)) from None
    atomic_write_text(path, dumps(prefs))
