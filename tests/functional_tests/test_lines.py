"""Line mode in a pseudo-terminal, typed at as a person types (one line after each prompt): a game against the easy
bot to its end, a hot-seat hand, the lesson, a game left by end of input and resumed from the numbered start.

Every line is checked for escape sequences (the hot-seat clear alone), box drawing and length; and, at each prompt,
the cards named since the hand began against the game's record as saved then (tests/support/hidden.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from spades_tui.engine.record import replay
from spades_tui.keep.storage import load_record
from spades_tui.lines.player import CLEAR
from tests.support.cli import ROOT
from tests.support.hidden import hidden_cards
from tests.support.lines import cards_named, plain_problems
from tests.support.terminal import Game

pytestmark = pytest.mark.slow

PROMPT = re.compile(rb"(Choices[^\n]*\n|type ready when only you can see the screen\.\r?\n|Game over[^\n]*\n)")


def _text(game: Game, since: int = 0) -> str:
    return bytes(game.output[since:]).decode("utf-8", "replace")


def _record_state(home: Path) -> object:
    files = sorted((home / "spades-tui" / "games").glob("game-*.json"))
    assert files, "no saved game"
    return replay(load_record(str(files[-1])))


def _next_prompt(game: Game, since: int) -> Optional[str]:
    """The output from ``since`` up to the prompt that ends it (None: the game ended first)."""
    assert game.wait_for(b"\n", since=since)
    ok = game.wait_for(b"Choices", since=since) or game.wait_for(b"type ready", since=since)
    return _text(game, since) if ok else None


def _wait_prompt(game: Game, since: int) -> str:
    import time

    from tests.support.wait import BOUND

    end = time.monotonic() + BOUND
    while time.monotonic() < end:
        text = _text(game, since)
        if PROMPT.search(text.encode()):
            return text
        time.sleep(0.02)
    raise AssertionError(f"no prompt after {_text(game, since)[-500:]!r}")


def _since_hand_began(text: str) -> str:
    """The part of ``text`` after the last hand began: the cards of a hand scored are no secret any more."""
    starts = [m.end() for m in re.finditer(r"Hand \d+\. [^\n]*first\.", text)]
    return text[starts[-1]:] if starts else text


def test_a_game_against_the_easy_bot_to_game_over(tmp_path: Path) -> None:
    game = Game(["--lines", "--bot", "easy", "--seed", "21", "--rules", "quick"], tmp_path)
    try:
        since = 0
        hand_text = ""
        kinds_bad: set[str] = set()
        for _ in range(900):
            text = _wait_prompt(game, since)
            hand_text = _since_hand_began(hand_text + text)
            if "Game over" in text:
                break
            state = _record_state(tmp_path)
            leaked = cards_named(hand_text) & hidden_cards(state, 0)  # type: ignore[arg-type]
            assert not leaked, (sorted(c.code for c in leaked), hand_text[-800:])
            kind = text.strip().splitlines()[-2][:12] if len(text.strip().splitlines()) > 1 else ""
            since = game.mark()
            if kind not in kinds_bad:  # once for each kind of question: nonsense first, said why, asked again
                kinds_bad.add(kind)
                game.send(b"no such thing\r")
                said = _wait_prompt(game, since)
                assert "Choices" in said and ("Not a" in said or "There is no" in said), said
                since = game.mark()
            game.send(b"1\r")
        else:
            raise AssertionError("the game did not end")
        assert game.wait_exit() == 0
        lines = _text(game).replace("\r\n", "\n").split("\n")
        assert not plain_problems(lines)
        assert CLEAR not in _text(game)  # against a bot nothing is ever cleared
        assert any(line.startswith("Hand 1 scored.") for line in lines)
    finally:
        if game.pid > 0:
            game.kill()


def test_a_hot_seat_hand_hands_the_keyboard_over_with_ready(tmp_path: Path) -> None:
    game = Game(["--lines", "--hotseat", "--seed", "9"], tmp_path)
    try:
        since = 0
        handoffs = 0
        for _ in range(400):
            text = _wait_prompt(game, since)
            screen = _text(game).rsplit(CLEAR, 1)[-1]  # what the screen holds since the last clear
            state = _record_state(tmp_path)
            if text.rstrip().endswith("type ready when only you can see the screen."):
                handoffs += 1
                # Nobody's hand on the screen: nothing hidden from either player.
                leaked = cards_named(screen) & (hidden_cards(state, 0) | hidden_cards(state, 1))  # type: ignore[arg-type]
                assert not leaked, (sorted(c.code for c in leaked), screen)
                since = game.mark()
                game.send(b"hand\r")
                assert "No cards are said until" in _wait_prompt_line(game, since)
                since = game.mark()
                game.send(b"ready\r")
                continue
            me = state.to_act  # type: ignore[attr-defined]
            leaked = cards_named(screen) & hidden_cards(state, me)  # type: ignore[arg-type]
            assert not leaked, (sorted(c.code for c in leaked), screen)
            if "Hand 1 is over" in text:
                break
            since = game.mark()
            game.send(b"1\r")
        else:
            raise AssertionError("the hand did not end")
        assert handoffs > 20
        out = _text(game)
        assert out.count(CLEAR) >= 2 * handoffs
        assert not plain_problems(out.replace("\r\n", "\n").split("\n"))
        game.send(b"quit\r")
        assert game.wait_exit() == 0
    finally:
        if game.pid > 0:
            game.kill()


def _wait_prompt_line(game: Game, since: int) -> str:
    assert game.wait_for(b"\n", since=since) and game.wait_for(b"ready", since=since + 1)
    return _text(game, since)


def test_the_lesson_by_the_numbers(tmp_path: Path) -> None:
    game = Game(["learn", "--lines"], tmp_path)
    try:
        since = 0
        for _ in range(200):
            text = _wait_prompt(game, since)
            since = game.mark()
            if "The lesson is over" in text:
                game.send(b"zz\r")
                assert "Not a choice" in _wait_prompt(game, since)
                since = game.mark()
                game.send(b"3\r")
                break
            game.send(b"1\r")
        else:
            raise AssertionError("the lesson did not end")
        assert game.wait_exit() == 0
        out = _text(game)
        assert "Lesson: " in out and "Hand 1 scored." in out
        assert "←→" not in out and "Enter" not in out  # the full screen's keys are not line mode's
        assert not plain_problems(out.replace("\r\n", "\n").split("\n"))
    finally:
        if game.pid > 0:
            game.kill()


def test_end_of_input_saves_and_the_numbered_start_resumes(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    first = subprocess.run([sys.executable, "-m", "spades_tui", "--lines", "--bot", "easy", "--seed", "4"],
                           input=b"1\n1\n1\n", capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.decode().rstrip().endswith("End of input: the game is saved.")
    again = subprocess.run([sys.executable, "-m", "spades_tui", "--lines"], input=b"1\nscore\nquit\n",
                           capture_output=True, env=env, cwd=ROOT, timeout=120)
    out = again.stdout.decode()
    assert again.returncode == 0, again.stderr
    assert "Choices: 1) Resume You 0 against Bot (easy) 0, hand 1" in out
    assert "Score: You 0, Bot (easy) 0." in out and "Goodbye: the game is saved." in out
    # The interface setting makes line mode the default; --tui would force the full screen.
    (tmp_path / "config" / "spades-tui").mkdir(parents=True)
    (tmp_path / "config" / "spades-tui" / "preferences.toml").write_text('interface = "lines"\nwords = true\n')
    third = subprocess.run([sys.executable, "-m", "spades_tui", "--bot", "easy", "--seed", "4"], input=b"1\n1\n",
                           capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert third.returncode == 0 and "the top card is" in third.stdout.decode()
    assert re.search(r"the top card is (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of ",
                     third.stdout.decode())
