"""Line mode in a pseudo-terminal, typed at as a person types (one line after each prompt): a game against the easy
bot to its end, a hot-seat hand, the lesson, a game left by end of input and resumed from the numbered start.

Every line is checked for escape sequences (the hot-seat clear alone), box drawing and length; and, at each prompt,
the cards named since the hand began against the game's record as saved then (tests/support/hidden.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

from spades_tui.engine.record import replay
from spades_tui.keep.storage import load_record
from spades_tui.lines.player import CLEAR
from tests.support.cli import ROOT
from tests.support.hidden import hidden_cards
from tests.support.lines import cards_named, plain_problems
from tests.support.table import free_port
from tests.support.terminal import Game

# Every test here is marked slow (the program in a pseudo-terminal): left out of the quick check.
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


@pytest.mark.slow
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
        # Counted in the statistics as a full-screen game is, every hand and the result.
        from spades_tui.keep.stats import STATS_NAME, load_summary

        report = load_summary(tmp_path / "spades-tui" / STATS_NAME).summary
        assert report["hands"] > 0 and report["by_opponent"]["easy"]["played"] == 1
    finally:
        if game.pid > 0:
            game.kill()


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.usefixtures("fine_grain")
async def test_a_network_table_between_a_line_mode_host_and_a_full_screen_guest(tmp_path: Path) -> None:
    """``host --lines`` in a pseudo-terminal, typed at prompt by prompt, against a full-screen guest (the app with
    Pilot, Enter alone) to the game's end: the host's lines against its record, the guest's screen against its seat."""
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.table.seat.client import TableClient
    from spades_tui.table.seat.seat_file import seat_path
    from spades_tui.tui.app.app import SpadesApp
    from spades_tui.tui.app.startup import JoinTable
    from tests.support.pilot import cards_on_screen, screen_text

    host = Game(["host", "--lines", "--rules", "target=120", "--name", "Ada"], tmp_path / "host")
    try:
        assert host.wait_for(b"spades-tui join ")
        found = re.search(r"spades-tui join (127\.0\.0\.1:\d+) (\S+)", _text(host))
        assert found is not None
        url = f"ws://{found.group(1)}/table"
        data = tmp_path / "guest"
        client = TableClient(url, code=found.group(2), name="Cleo", seat_file=seat_path(data, url))
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=data, config_dir=tmp_path / "cfg",
                        start=JoinTable(client))
        answered = 0  # the host's output up to its last answer
        hand_text = ""
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(4000):
                await pilot.pause()
                text = _text(host, answered)
                if "Game over" in text:
                    break
                if PROMPT.search(text.encode()) and text.rstrip().splitlines()[-1].startswith(("Choices", "Sugg")):
                    hand_text = _since_hand_began(hand_text + text)
                    state = _record_state(tmp_path / "host")
                    leaked = cards_named(hand_text) & hidden_cards(state, 0)  # type: ignore[arg-type]
                    assert not leaked, (sorted(c.code for c in leaked), hand_text[-600:])
                    answered = host.mark()
                    host.send(b"1\r")
                if app.session is not None and "is over" not in screen_text(app):
                    state = _record_state(tmp_path / "host")
                    leaked = cards_on_screen(screen_text(app)) & hidden_cards(state, 1)  # type: ignore[arg-type]
                    assert not leaked, f"hidden cards on the guest's screen: {leaked}"
                await pilot.press("enter")
            else:
                raise AssertionError(f"the game did not end: {_text(host)[-500:]!r}")
        out = _text(host)
        assert "Cleo sat down" in out and "Game over" in out
        assert not plain_problems(out.replace("\r\n", "\n").split("\n"))
        assert host.wait_exit() == 0
    finally:
        if host.pid > 0:
            host.kill()


@pytest.mark.slow
def test_join_and_watch_in_lines_against_a_hosts_bot(tmp_path: Path) -> None:
    """``join --lines`` from a pipe (a script's answers wait for its turns) and ``watch --lines`` (the public view,
    to the game's end whatever its input) at a table whose host seat is the easy bot."""
    def env(name: str) -> dict[str, str]:
        return {"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / name),
                "XDG_CONFIG_HOME": str(tmp_path / name / "config"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}

    run = [sys.executable, "-m", "spades_tui"]
    host = subprocess.Popen([*run, "host", "--bot", "easy", "--rules", "quick"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env("host"), cwd=ROOT)
    try:
        assert host.stdout is not None
        invite = host.stdout.readline().decode().split()
        watch = host.stdout.readline().decode().split()
        watcher = subprocess.Popen([*run, *watch[3:], "--lines"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env("watch"), cwd=ROOT)
        guest = subprocess.run([*run, *invite[1:], "--lines"], input=b"say good luck\n" + b"1\n" * 900,
                               capture_output=True, env=env("guest"), cwd=ROOT, timeout=120)
        watched, _ = watcher.communicate(timeout=60)
        assert guest.returncode == 0 and watcher.returncode == 0, guest.stderr
        out, seen = guest.stdout.decode(), watched.decode()
        assert "The rules of this table: Quick" in out and "Guest says: good luck" in out, out[:600]
        assert re.search(r"Game over: .*\n(Shuffle verified for all \d+ hands\.)", out), \
            (out[-400:], guest.stderr.decode()[-2000:])
        assert "Watching: the public view, no hand." in seen and "Game over" in seen, seen[:300] + seen[-300:]
        assert "Your hand" not in seen and "Choices" not in seen
        assert "Not your turn" not in out  # from a pipe, every answer waited for its prompt
        # The watcher names cards only as they are played: each one it names, a line of the guest's says played.
        played = set().union(*(cards_named(line) for line in out.splitlines() if " led " in line or " played " in line))
        assert cards_named(seen) <= played, sorted(c.code for c in cards_named(seen) - played)
        assert not plain_problems(out.splitlines() + seen.splitlines())
        assert host.wait(60) == 0
    finally:
        for proc in (host,):
            if proc.poll() is None:
                proc.kill()


@pytest.mark.slow
def test_challenge_and_bad_command_lines(tmp_path: Path) -> None:
    """``challenge --lines`` opens the day's four hands against the expert (left at once, saved); bad arguments get
    one line and status 2, as every command's."""
    env = {"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    run = [sys.executable, "-m", "spades_tui"]
    done = subprocess.run([*run, "challenge", "2026-12-01", "--lines"], input=b"score\nquit\n", capture_output=True,
                          env=env, cwd=ROOT, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "Challenge 2026-12-01: four hands against the expert" in out and "Goodbye: the game is saved." in out
    assert not plain_problems(out.splitlines())
    both = subprocess.run([*run, "--lines", "--tui"], capture_output=True, env=env, cwd=ROOT, timeout=60)
    assert both.returncode == 2 and b"not allowed with argument" in both.stderr


@pytest.mark.slow
def test_ctrl_d_and_ctrl_c_save_and_leave(tmp_path: Path) -> None:
    for key, said, status in ((b"\x04", "End of input: the game is saved.", 0),
                              (b"\x03", "Interrupted: the game is saved.", 130)):
        game = Game(["--lines", "--bot", "easy", "--seed", "3"], tmp_path)
        try:
            _wait_prompt(game, 0)
            game.send(key)
            assert game.wait_exit() == status
            assert said in _text(game)
        finally:
            if game.pid > 0:
                game.kill()
    assert len(list((tmp_path / "spades-tui" / "games").glob("game-*.json"))) == 2


@pytest.mark.slow
def test_quick_play_in_lines_seats_a_stranger_and_end_of_input_leaves(tmp_path: Path) -> None:
    """``quick ADDR --lines``: registered and paired at a real ``serve --tables-only`` against a stranger (the easy
    bot by ``quick --bot``), the rated table's draft asked in lines; end of input leaves, the seat kept."""
    def spades(args: list[str], home: str, **kw: Any) -> subprocess.Popen[bytes]:
        env = {"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / home),
               "XDG_CONFIG_HOME": str(tmp_path / home / "config"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        return subprocess.Popen([sys.executable, "-m", "spades_tui", *args], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, **kw)

    port = free_port()
    address = f"127.0.0.1:{port}"
    server = spades(["serve", "--tables-only", "--port", str(port)], "server", stderr=subprocess.DEVNULL)
    stranger: Optional[subprocess.Popen[bytes]] = None
    try:
        assert server.stdout is not None and b"Tables are served on" in server.stdout.readline()
        stranger = spades(["quick", address, "--name", "Ada", "--bot", "easy"], "ada", stderr=subprocess.DEVNULL)
        me = spades(["quick", address, "--name", "Bo", "--lines"], "bo", stdin=subprocess.PIPE,
                    stderr=subprocess.PIPE)
        out, err = me.communicate(b"1\n" * 30, timeout=120)  # 30 answers, then end of input
        said = out.decode()
        assert me.returncode == 0, err.decode()[-600:]
        assert "The rules of this table: the standard rules" in said, said[:600]
        assert "Draft turn 1 of 13" in said and "Ada" in said
        assert "End of input" in said and "Not your turn" not in said, said[-400:]
        assert not plain_problems(said.splitlines())
        assert any((tmp_path / "bo" / "spades-tui" / "server-keys").iterdir())  # registered: the key is kept
    finally:
        for proc in (stranger, server):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
