"""Text from outside becomes display text here, and only here.

Names come from the new-game form, the preferences file, game records, the statistics database,
an external bot and (soon) another machine; a bot's words and a file's contents reach error
messages.  All of it is hostile until cleaned: an escape sequence in a name would set the
terminal's title or clear the screen, a ``\\n`` would fake lines of output, a lone surrogate
cannot be encoded for the terminal at all.  Two functions, pure (the engine's rules apply):

- ``clean_name`` where a name ENTERS: escape sequences and control or format characters removed,
  lone surrogates replaced, whitespace runs made one space, the length bounded.  What comes out
  is a name a person could have typed.
- ``printable`` where outside text is SHOWN in plain output (``replay``, ``analyse``, ``stats``,
  error lines): every character that a terminal would act on instead of print is written as a
  visible escape (``\\x1b``, ``\\n``, ``\\ud800``), so nothing is lost and nothing is obeyed.

Markup is the interface's business: it shows these strings with Rich ``Text`` (never parsed).

And how a number and a moment are written for a person, one way everywhere (docs/commands.md, "Numbers and
dates in the output"): a negative number with the true minus sign (``num``; machine output, JSON, records and the bot
protocol keep ASCII ``-``), a moment as ``today 21:11``, ``yesterday 21:11`` or ``2026-12-01 21:12``
(``when_words``; the clock is read by the caller, so these stay pure).
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from typing import Optional

from ..i18n.language import _, pgettext

MAX_NAME = 16  # characters: what the new-game form and the settings allow
MAX_RECORD_NAME = 40  # a record's name may be longer (a cmd: bot's command): still bounded

# Whole escape sequences, so their parameters (the ``]0;pwned`` of a title change) go with them:
# CSI (ESC [ ... final), OSC/DCS/SOS/PM/APC strings (up to BEL or ESC \), and two-character escapes.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
)
_SPACE = re.compile(r"\s+")
# Kept although they are format characters: they join emoji and scripts, and move nothing.
_JOINERS = frozenset("\u200c\u200d")


def _unsafe(ch: str) -> bool:
    """Whether a terminal would act on ``ch`` (or could not print it) rather than show it."""
    if ch in _JOINERS:
        return False
    # Cc controls (C0, DEL, C1), Cf format characters (bidirectional overrides, invisible
    # marks), Cs lone surrogates, Zl/Zp line and paragraph separators, Cn unassigned.
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Cn")


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (which UTF-8 cannot encode) replaced by U+FFFD."""
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text) if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def without_controls(text: str) -> str:
    """``text`` with escape sequences, control and format characters removed and lone surrogates replaced, and
    nothing else changed (a form's field as it is typed: its spaces are the typist's business until it is read)."""
    if text.isascii() and text.isprintable():
        return text
    text = _ESCAPES.sub("", without_surrogates(text))
    return "".join(" " if ch in "\t\n\r" else ch for ch in text if ch in "\t\n\r" or not _unsafe(ch))


def clean_name(text: object, default: str = "", limit: int = MAX_NAME) -> str:
    """A name fit to keep and show: no escape sequence, no control or format character, no lone
    surrogate, whitespace runs as one space, at most ``limit`` characters; ``default`` if nothing
    is left (or ``text`` is not a string)."""
    if not isinstance(text, str):
        return default
    if text.isascii() and text.isprintable() and len(text) <= limit and "  " not in text and text.strip() == text:
        return text or default  # the usual name, at once: the start screen cleans hundreds (index entries)
    text = without_surrogates(text)
    text = _ESCAPES.sub("", text)
    # Whitespace first (a newline or a tab becomes a space), then what is left that would act.
    text = _SPACE.sub(" ", text)
    text = "".join(ch for ch in text if not _unsafe(ch))
    text = unicodedata.normalize("NFC", text)
    text = _SPACE.sub(" ", text).strip()
    if len(text) > limit:
        text = text[:limit].rstrip()
    return text or default


def is_clean_name(text: str, limit: int = MAX_NAME) -> bool:
    return clean_name(text, limit=limit) == text and bool(text)


MAX_PLAYER_NAME = 24  # characters: a registered player's name on a server (docs/table-protocol.md, "Rated play")
# Invisible in any name a person reads: zero-width space, the joiners kept by ``clean_name``, the word joiner and
# the byte-order mark.  A name's identity drops them, so "Ada" and "A\u200bda" are one name.
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))


def player_name(text: object) -> str:
    """A name to register on a server: cleaned as every name is (``clean_name``), without zero-width characters,
    at most ``MAX_PLAYER_NAME`` characters; "" if nothing is left."""
    if not isinstance(text, str):
        return ""
    return clean_name(clean_name(text, limit=4 * MAX_PLAYER_NAME).translate(_ZERO_WIDTH), limit=MAX_PLAYER_NAME)


def name_key(name: str) -> str:
    """What makes two names one on a server: cleaned, compatibility-normalised and case-folded, so that
    ``Ada``, ``ADA``, ``ada`` and ``Ada`` with a zero-width space are the same name."""
    return unicodedata.normalize("NFKC", player_name(name)).casefold().translate(_ZERO_WIDTH)


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if ch == "\r":
        return "\\r"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: object, *, newlines: bool = False, limit: int | None = None) -> str:
    """``text`` safe for a terminal: every character it would act on written as a visible escape.

    ``newlines`` keeps ``\\n`` as a line break (for text whose lines the program made itself);
    ``limit`` bounds the length (an ellipsis says the rest was cut).
    """
    text = str(text)
    out = "".join(
        ch if not _unsafe(ch) or (newlines and ch == "\n") else _escape(ch)
        for ch in text
    ) if any(_unsafe(ch) for ch in text) else text
    if limit is not None and len(out) > limit:
        out = out[: max(0, limit - 1)] + "…"
    return out


def speaker(name: str) -> str:
    """A name as a sentence uses it: a player called "You" is the grammatical "you" (so never "You's" or
    "You won" mid-sentence); any other name as written."""
    return "you" if name.strip().lower() == "you" else name


def winner_words(name: str) -> str:
    """Who won, in a sentence: ``Ada wins``, but ``You win`` for a player called "You" (the default name
    against a bot), never "You wins"."""
    return _("You win") if speaker(name) == "you" else _("{name} wins").format(name=name)


def plural(n: int, word: str) -> str:
    """``1 hand``, ``2 hands``: a count and its English noun, agreeing (English only: a message in the player's
    language counts with ``ngettext``, docs/languages.md)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ------------------------------------------------------------------ numbers and moments, for a person

MINUS = "\u2212"  # the true minus sign, as wide as "+" (the ASCII screen writes it as "-")


def num(n: int) -> str:
    """A number as a person reads it, on a screen or in a command's text: ``−40`` with the true minus sign."""
    return str(n).replace("-", MINUS)


def num_text(text: str) -> str:
    """A number already written, its minus made the true one."""
    return text.replace("-", MINUS)


def decimal(x: float, places: int) -> str:
    """A figure with decimals as every number is written for a person: ``−120.5`` with the true minus sign, and
    the decimal sign of the player's language (``−120,5`` in Swedish and Estonian)."""
    return num_text(f"{x:.{places}f}").replace(".", pgettext("decimal sign", "."))


def signed(n: int) -> str:
    """Points as a person reads them: ``+12``, ``−200``, ``+0``."""
    return f"{n:+}".replace("-", MINUS)


def score_words(a: int, b: int) -> str:
    """Two scores in a line of text, the first player's first: ``40 to −58``."""
    return _("{first} to {second}").format(first=num(a), second=num(b))


def over_par_words(difference: int) -> str:
    """A result against the par (the daily challenge): ``+34 over par``, ``12 under par``, ``level with par``."""
    if difference == 0:
        return _("level with par")
    if difference > 0:
        return _("{points} over par").format(points=signed(difference))
    return _("{points} under par").format(points=num(-difference))


def signed_or_zero(n: int) -> str:
    """A margin in a sentence (the review, ``analyse``): ``+68``, ``−41``, and ``0`` with no sign."""
    return signed(n) if n else "0"


def encodable(text: str, encoding: Optional[str]) -> str:
    """``text`` as a stream in ``encoding`` can write it: the ASCII minus for the true one, ``?`` for any other
    character it cannot encode (a Latin-1 terminal, ``PYTHONIOENCODING=ascii``)."""
    encoding = encoding or "ascii"
    return text.replace(MINUS, "-").encode(encoding, "replace").decode(encoding)


_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")


def minus_signs(text: str) -> str:
    """A text's negative numbers with the true minus sign (``-100 expected`` reads ``−100 expected``); a
    hyphen between words or digits (``2026-12-01``, ``40-58``) is left as it is."""
    return _NEGATIVE.sub(MINUS, text)


def when_words(then: float, now: float, tz: Optional[datetime.tzinfo] = None) -> str:
    """A moment (seconds since the epoch) as every screen and command writes it, in local time (``tz``:
    another zone): ``today 21:11``, ``yesterday 21:11``, else ``2026-12-01 21:12``. ``now`` is the
    caller's clock, so this never reads one; a moment after ``now`` (another machine's clock) has its date."""
    at = datetime.datetime.fromtimestamp(then, tz)
    today = datetime.datetime.fromtimestamp(now, tz).date()
    clock = f"{at:%H:%M}"
    if at.date() == today:
        return _("today {time}").format(time=clock)
    if at.date() == today - datetime.timedelta(days=1):
        return _("yesterday {time}").format(time=clock)
    # The date as the player's language writes it: 2026-12-05 in English and Swedish, 5.12.2026 in Estonian.
    return _("{year}-{month:02d}-{day:02d} {time}").format(year=at.year, month=at.month, day=at.day, time=clock)


def last_played(then: float, now: float, tz: Optional[datetime.tzinfo] = None) -> str:
    """``last played today 21:11``: a saved game's or a table seat's line ends so (``then`` 0 or less: never
    played, ``not played yet``)."""
    if then <= 0:
        return _("not played yet")
    return _("last played {when}").format(when=when_words(then, now, tz))
