"""The command line in the player's language (docs/languages.md): every command's ``--help``, argparse's own words
("usage: ", "options", its errors) and the commands' messages come from the catalog; ``--lang`` with an unknown
language is a clear message and exit status 2.  Run in-process (``main``): the language is the process's."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
from pathlib import Path

import pytest

from spades_tui.cli import COMMANDS, argparse_words, build_parser, main
from spades_tui.i18n import language as i18n
from tests.support.cli import run_spades

COMPLETE = ("sv", "et")

# English words an untranslated help or message would show: function words and the interface's own words.  Never
# a word of Swedish or Estonian ("in" is Swedish, "on" Estonian: left out).
ENGLISH = {"the", "and", "or", "of", "to", "with", "for", "is", "your", "this", "show", "usage", "options",
           "commands", "positional", "arguments", "message", "exit", "default", "games", "hands", "seconds",
           "seed", "level", "file", "name", "address", "table", "record", "run", "print", "without", "only",
           "each", "every", "when", "which", "choose", "invalid", "required", "error", "expected", "unrecognized"}

# Not words: commands and options typed as they are ('spades-tui join', --lang; a quote opens after no letter, so
# "program's" is no quote), the rules' option names (ten_for_200), paths and URLs.
NOT_WORDS = re.compile(r"(?<!\w)'[^']{1,60}'(?!\w)|--?[\w-]+|\S*[/_]\S*|\S+@\S+")


def english_words(text: str) -> set[str]:
    """The words of ``ENGLISH`` in ``text``, once what is typed as it is has been taken out."""
    return {word for word in re.findall(r"[^\W\d_]+", NOT_WORDS.sub(" ", text)) if word in ENGLISH}


@pytest.fixture(autouse=True)
def own_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No settings file of the machine's decides the language; the environment asks for none."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in i18n.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)


def said(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``spades-tui ARGS`` run in-process: its exit status, standard output and standard error."""
    try:
        status = main(list(args))
    except SystemExit as stop:  # --help: argparse prints it and exits
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_english_is_what_the_check_finds() -> None:
    # The check itself: the English help is full of the words it looks for, the path in a help is not one.
    parser, _ = build_parser()
    assert {"the", "options", "usage", "show", "default"} <= english_words(parser.format_help())
    assert english_words("/home/you/games/game-N.json, 'spades-tui join' --name, ten_for_200, par'i") == set()


@pytest.mark.parametrize("language", COMPLETE)
def test_the_help_speaks_the_language(capsys: pytest.CaptureFixture[str], language: str) -> None:
    status, out, err = said(capsys, "--lang", language, "--help")
    assert status == 0 and err == ""
    assert english_words(out) == set(), out
    assert "usage:" not in out and "Two-player" not in out
    for name in COMMANDS:  # each command listed, by its own name
        assert re.search(rf"^\s+{name}\s", out, re.MULTILINE), name


@pytest.mark.parametrize("language", COMPLETE)
@pytest.mark.parametrize("command", [name for name in COMMANDS if name != "serve"])  # serve's own: issue 56's 56h
def test_every_command_s_help_speaks_the_language(capsys: pytest.CaptureFixture[str], language: str,
                                                  command: str) -> None:
    status, out, err = said(capsys, command, "--help", "--lang", language)  # --lang after the command too
    assert status == 0 and err == ""
    assert english_words(out) == set(), out
    assert "%(" not in out and "%%" not in out  # argparse %-formats a help: a translation keeps it formattable


@pytest.mark.parametrize(("language", "args", "needle"), [
    ("sv", ["replay"], "spades-tui replay: följande argument krävs: FIL"),
    ("et", ["replay"], "spades-tui replay: järgmised argumendid on nõutud: FAIL"),
    ("sv", ["host", "--first", "never"], "argument --first: ogiltigt val: 'never' (välj bland 'host', 'guest')"),
    ("et", ["--bot-pause", "x"], "argument --bot-pause: peab olema sekundite arv, mitte 'x'"),
    ("sv", ["--hotseat", "--bot", "easy"], "argument --bot: inte tillåtet tillsammans med argumentet --hotseat"),
    ("sv", ["replay", "a.json", "--frobnicate"], "spades-tui replay: okända argument: --frobnicate"),
    ("et", ["arena", "easy", "normal", "--games", "0"], "spades-tui arena: --games peab olema vähemalt 1"),
])
def test_a_bad_argument_is_said_in_the_language(capsys: pytest.CaptureFixture[str], language: str,
                                                args: list[str], needle: str) -> None:
    status, out, err = said(capsys, "--lang", language, *args)
    assert status == 2 and out == ""
    assert needle in err, err
    assert english_words(err) == set(), err


def test_english_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = said(capsys, "--lang", "en", "replay")
    assert status == 2 and "spades-tui replay: the following arguments are required: FILE" in err


def test_an_unknown_language_is_a_clear_message_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = said(capsys, "--lang", "xx", "--help")
    assert status == 2 and out == ""
    assert err.strip() == "spades-tui: --lang: unknown language 'xx': use one of auto, en, sv, et"
    status, out, err = said(capsys, "replay", "--lang")
    assert status == 2 and err.strip() == "spades-tui: --lang needs a language: auto, en, sv, et"


def test_an_unknown_language_is_said_in_the_system_s(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # No language of its own: the message in the one the game would speak without it (the settings', the system's).
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    status, _, err = said(capsys, "--lang=klingon")
    assert status == 2
    assert err.strip() == "spades-tui: --lang: okänt språk 'klingon': använd ett av auto, en, sv, et"
    monkeypatch.setenv("LANG", "et_EE.UTF-8")
    status, _, err = said(capsys, "replay", "--lang")
    assert status == 2 and err.strip() == "spades-tui: --lang vajab keelt: auto, en, sv, et"


@pytest.mark.parametrize("language", COMPLETE)
def test_a_command_s_words_follow_the_language(capsys: pytest.CaptureFixture[str], language: str) -> None:
    # A result printed (stats with no games yet), its words in the language and its numbers as the language writes
    # them (a decimal comma); --json is data and never changes.
    status, out, _ = said(capsys, "--lang", language, "stats")
    assert status == 0
    assert english_words(out) == set(), out
    assert "0,00" in out and "0.00" not in out
    status, json_out, _ = said(capsys, "--lang", language, "stats", "--json")
    assert status == 0 and said(capsys, "--lang", "en", "stats", "--json")[1] == json_out


def test_every_message_of_argparse_is_in_the_catalog_or_never_said() -> None:
    # A Python whose argparse says something new fails here rather than speak English to a player.
    said_by_argparse = {call.args[0].value for call in ast.walk(ast.parse(inspect.getsource(argparse)))
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                        and call.func.id in ("_", "ngettext") and call.args and isinstance(call.args[0], ast.Constant)}
    known = {*argparse_words.MESSAGES, *argparse_words.COUNTED, *argparse_words.UNSAID}
    assert said_by_argparse - known == set()


def test_the_system_s_language_speaks_in_a_real_process(tmp_path: Path) -> None:
    # LANG=sv_SE.UTF-8 and no setting: `spades-tui --help` in Swedish (docs/languages.md, "Choosing").
    result = run_spades("--help", LC_ALL="", LC_MESSAGES="", LANG="sv_SE.UTF-8", XDG_CONFIG_HOME=str(tmp_path))
    assert result.returncode == 0
    assert result.stdout.startswith("användning: spades-tui")
    assert english_words(result.stdout) == set()
