"""Bad command lines and environments: a clear message or a working fallback, never a traceback.

The game runs for real in a pseudo-terminal (see tests/support/terminal.py) under TERM=dumb,
NO_COLOR, a C locale, an ASCII output encoding and SPADES_TUI_ASCII=1; where the terminal
cannot show ♠♥♦♣ every character drawn is ASCII and cards read 10H, QS...
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from spades_tui.engine.cards import CARDS
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.tui.app.terminal import ascii_char, terminal_problem, to_ascii, wants_ascii
from tests.support.cli import run_spades
from tests.support.terminal import Game

# Every test here is marked slow (the program in a pseudo-terminal): left out of the quick check.

CARD_ASCII = re.compile(rb"(?<![A-Za-z0-9])(10|[2-9JQKA])[SHDC](?![A-Za-z0-9])")


def _run(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return run_spades(*args, XDG_DATA_HOME=str(tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["--frobnicate"], ["--rules", "target=abc"], ["--rules", "nonsense"], ["--rules", "bag_limit=-3"],
    ["--seed", "x"], ["--seed", "1e3"], ["--seed"], ["--load"], ["--hotseat", "--bot", "easy"],
    ["--bot", "cmd:"], ["replay"], ["replay", "/nonexistent.json"], ["arena"], ["bot", "genius"],
])
def test_bad_command_lines_are_one_clear_line(tmp_path: Path, args: list[str]) -> None:
    result = _run(*args, tmp_path=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.strip()
    assert result.stdout == ""


@pytest.mark.slow
def test_not_a_terminal_is_a_clear_error_not_a_hang(tmp_path: Path) -> None:
    """Without a terminal the game used to draw escape codes into the pipe and wait forever."""
    result = _run("--hotseat", tmp_path=tmp_path)
    assert result.returncode == 2
    assert "needs an interactive terminal" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "spades-tui").exists()  # nothing started, nothing touched


@pytest.mark.slow
def test_terminal_problem() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    tty = Tty()
    assert terminal_problem(tty, tty, {"TERM": "xterm"}) is None  # type: ignore[arg-type]
    assert "TERM=dumb" in (terminal_problem(tty, tty, {"TERM": "dumb"}) or "")  # type: ignore[arg-type]
    assert terminal_problem(None, tty, {}) is not None  # type: ignore[arg-type]


@pytest.mark.slow
def test_ascii_fallback_keeps_every_width() -> None:
    import unicodedata

    for card in CARDS:
        assert to_ascii(card.label()) == card.label(symbols=False)
    for code in range(0x2500, 0x25A0):  # box drawing and blocks: the frame of every screen
        ch = chr(code)
        assert len(ascii_char(ch)) == 1 and ascii_char(ch).isascii(), unicodedata.name(ch, hex(code))
    for ch in "▶—–−·…×⏎←→↑↓":
        assert len(ascii_char(ch)) == 1
    assert to_ascii("中") == "??"  # two cells wide


@pytest.mark.slow
@pytest.mark.parametrize(("env", "encoding", "expected"), [
    ({}, "utf-8", False),
    ({}, "ascii", True),
    ({}, "latin-1", True),
    ({"LANG": "C"}, "utf-8", True),
    ({"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"}, "utf-8", True),
    ({"LC_ALL": "C.UTF-8"}, "utf-8", False),
    ({"SPADES_TUI_ASCII": "1"}, "utf-8", True),
    ({"SPADES_TUI_ASCII": "0", "LANG": "C"}, "ascii", False),
])
def test_wants_ascii(env: dict[str, str], encoding: str, expected: bool) -> None:
    assert wants_ascii(env, encoding) is expected


def _play_until_cards(game: Game) -> bytes:
    """Through the hand-off to the first card of the stock, each key sent once the screen it is for is up."""
    assert game.wait_for(b"Pass to"), game.output[-2000:]
    # Show my cards: the first drafter is asked about Double Nil first.
    assert game.press(b"\r", then=b"Declare Double Nil"), game.output[-2000:]
    assert game.press(b"\r", then=b"of the stock is"), game.output[-2000:]  # no: draft normally
    game.send(b"\x11")  # Ctrl+Q
    assert game.wait_exit() == 0
    return bytes(game.output)


@pytest.mark.slow
@pytest.mark.parametrize("env", [
    {"PYTHONIOENCODING": "ascii"},
    {"PYTHONIOENCODING": "latin-1"},
    {"LANG": "C", "LC_ALL": "C"},
    {"SPADES_TUI_ASCII": "1"},
])
def test_a_terminal_that_cannot_show_suits_gets_ascii_everywhere(tmp_path: Path, env: dict[str, str]) -> None:
    out = _play_until_cards(Game(["--hotseat", "--seed", "5"], tmp_path, env))
    assert out.isascii(), sorted({chr(b) for b in out if b > 127})
    assert b"\\u" not in out and b"\\x" not in out  # no escaped characters in place of the symbols
    assert CARD_ASCII.search(out), "no card shown as ASCII"


@pytest.mark.slow
def test_utf8_terminal_keeps_the_symbols(tmp_path: Path) -> None:
    out = _play_until_cards(Game(["--hotseat", "--seed", "5"], tmp_path))
    text = out.decode("utf-8")
    assert any(s in text for s in "♠♥♦♣")


@pytest.mark.slow
def test_four_colour_deck_keeps_no_color_and_ascii(tmp_path: Path) -> None:
    # Game puts the preferences under tmp_path/config (XDG_CONFIG_HOME).
    save_preferences(tmp_path / "config" / "spades-tui" / PREFERENCES_NAME, Preferences(four_colour=True))
    out = _play_until_cards(Game(["--hotseat", "--seed", "5"], tmp_path, {"NO_COLOR": "1"}))
    assert b"38;2;" not in out and b"48;2;" not in out
    shades = {int(n) for n in re.findall(rb"[34]8;5;(\d+)", out)}
    assert shades and all(n >= 232 for n in shades), sorted(shades)
    out = _play_until_cards(Game(["--hotseat", "--seed", "5"], tmp_path, {"SPADES_TUI_ASCII": "1"}))
    assert out.isascii() and CARD_ASCII.search(out)


@pytest.mark.slow
def test_no_color_and_term_dumb(tmp_path: Path) -> None:
    out = _play_until_cards(Game(["--hotseat", "--seed", "5"], tmp_path, {"NO_COLOR": "1"}))
    # Textual draws NO_COLOR in shades of grey: only the 256-colour grey ramp (232-255), no RGB.
    assert b"38;2;" not in out and b"48;2;" not in out
    shades = {int(n) for n in re.findall(rb"[34]8;5;(\d+)", out)}
    assert shades and all(n >= 232 for n in shades), sorted(shades)
    game = Game(["--hotseat"], tmp_path, {"TERM": "dumb"})
    assert game.wait_exit() == 2
    assert b"TERM=dumb" in game.output and b"Traceback" not in game.output
