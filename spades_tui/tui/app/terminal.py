"""What the terminal can do: refuse clearly where a full-screen game cannot run, and fall
back to plain ASCII where the terminal cannot show the suit symbols.

Textual draws the screen on standard error and reads keys from standard input.  When the
output encoding cannot encode ♠♥♦♣ (``PYTHONIOENCODING=ascii``, a Latin-1 terminal), the
locale says plain C/POSIX, or ``SPADES_TUI_ASCII=1`` asks for it, that stream is re-opened
as ASCII with an error handler that writes each other character as one ASCII character of
the same width: suits become letters (``10♥`` is shown ``10H``, the same text as
``Card.label(symbols=False)``), box-drawing lines become ``-``, ``|`` and ``+``, arrows ``<>^v``.
The layout is unchanged because every replacement is as wide as what it replaces.
``SPADES_TUI_ASCII=0`` forces the symbols.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Optional, TextIO

from ...i18n.language import _

ASCII_ENV = "SPADES_TUI_ASCII"
SUITS = "♠♥♦♣"
ERROR_HANDLER = "spades-tui-ascii"

_MAP = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "▶": ">", "◀": "<", "▲": "^", "▼": "v", "►": ">", "◄": "<",
    "←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": "<", "↵": "<",
    "—": "-", "–": "-", "−": "-", "‐": "-", "·": ".", "…": ".", "×": "x", "•": "*", "✓": "v", "✔": "v",
    "✗": "x", "✘": "x", "░": "#", "“": '"', "”": '"', "‘": "'", "’": "'", "\u00a0": " ", "▏": "|", "▕": "|",
}
_TRUE = ("1", "yes", "true", "on")
_FALSE = ("0", "no", "false", "off")


def ascii_char(ch: str) -> str:
    """One character as ASCII of the same display width."""
    if ch in _MAP:
        return _MAP[ch]
    if ord(ch) < 128:
        return ch
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        across = "HORIZONTAL" in name or "LEFT" in name or "RIGHT" in name
        down = "VERTICAL" in name or "UP" in name or "DOWN" in name
        if across and not down:
            return "-"
        if down and not across:
            return "|"
        return "+"
    if name.startswith(("UPPER", "LOWER", "FULL BLOCK", "LEFT", "RIGHT", "QUADRANT")) and "BLOCK" in name:
        return "#"  # scroll bar thumbs and such
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return ""  # zero width
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return "??"
    decomposed = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    return decomposed[:1] or "?"  # é -> e


def _handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(ascii_char(ch) for ch in exc.object[exc.start:exc.end]), exc.end


codecs.register_error(ERROR_HANDLER, _handler)


def to_ascii(text: str) -> str:
    return text.encode("ascii", ERROR_HANDLER).decode("ascii")


def can_encode(encoding: Optional[str], text: str = SUITS) -> bool:
    try:
        text.encode(encoding or "ascii")
    except (UnicodeError, LookupError):
        return False
    return True


def wants_ascii(env: Mapping[str, str], encoding: Optional[str]) -> bool:
    """ASCII if asked for, if the locale is plain C/POSIX, or if the output cannot encode the suits."""
    forced = env.get(ASCII_ENV, "").strip().lower()
    if forced in _TRUE:
        return True
    if forced in _FALSE:
        return False
    # Python itself writes UTF-8 under the C locale (PEP 538/540), so ask the locale, not Python.
    locale = next((env[k] for k in ("LC_ALL", "LC_CTYPE", "LANG") if env.get(k)), "")
    if locale in ("C", "POSIX"):
        return True
    return not can_encode(encoding)


def terminal_problem(stdin: Optional[TextIO], screen: Optional[TextIO], env: Mapping[str, str]) -> Optional[str]:
    """Why the full-screen game cannot run here, or None."""
    if stdin is None or screen is None or not _isatty(stdin) or not _isatty(screen):
        return _("the game needs an interactive terminal: its input and its standard error (where the screen is "
                 "drawn) must both be a terminal. For scripts, use 'spades-tui replay', 'spades-tui arena' or "
                 "'spades-tui bot'.")
    term = env.get("TERM", "")
    if term in ("dumb", "unknown"):
        return _("this terminal (TERM={term}) cannot show a full-screen game; run it in a terminal emulator such as "
                 "xterm, or set TERM to match yours (for example TERM=xterm-256color).").format(term=term)
    return None


def web_driver(env: Mapping[str, str]) -> bool:
    """True when Textual draws in a browser tab (textual-serve sets the driver): no terminal to check."""
    return "web_driver" in env.get("TEXTUAL_DRIVER", "")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


@contextmanager
def screen_output(env: Optional[Mapping[str, str]] = None) -> Iterator[bool]:
    """While the game runs, make the screen stream ASCII if the terminal needs it; yields whether it did."""
    env = os.environ if env is None else env
    original = sys.__stderr__
    if original is None or not wants_ascii(env, getattr(original, "encoding", None)):
        yield False
        return
    original.flush()
    wrapper = io.TextIOWrapper(original.buffer, encoding="ascii", errors=ERROR_HANDLER, write_through=True)
    setattr(sys, "__stderr__", wrapper)  # noqa: B010 (typeshed marks it final) Textual draws the screen here
    try:
        yield True
    finally:
        setattr(sys, "__stderr__", original)  # noqa: B010
        try:
            wrapper.flush()
            wrapper.detach()  # leave the real stream open
        except (OSError, ValueError):
            pass
