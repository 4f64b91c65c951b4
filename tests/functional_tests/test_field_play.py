"""The day's challenge at a real server, against the field (docs/serving.md, "The day's challenge"): three
registered bots play today's challenge at a ``serve --tables-only`` with ``--challenge-workers 1``; the standings'
matchpoints are the spec's rule worked here from their records' margins; the stocks are the same for all three
and not the local challenge's of the date; no frame a seat gets names a card before it may know it; a second
entry the same day is practice; a server killed with SIGKILL and started again keeps the standings."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.actions import Shuffle
from spades_tui.engine.record import parse_record, replay
from spades_tui.engine.state import new_game
from spades_tui.session.challenge import ChallengeCode, utc_today
from spades_tui.session.dealer import Dealer
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.table.seat import rated as rc
from tests.functional_tests.test_rated_play import _slot_actions
from tests.support.rated import ask
from tests.support.table import Recorder, check_frames, free_port, play_with_bot
from tests.support.wait import BOUND, until_async

ROOT = Path(__file__).resolve().parents[2]
ITERS = "4"  # the server's expert thinks little: the test is of the field, not of the expert
PLAYERS = (("Ada", "easy"), ("Bob", "normal"), ("Cleo", "easy"))


def spades(args: list[str], home: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home / "config"))
    return subprocess.Popen([sys.executable, "-m", "spades_tui", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def start_server(home: Path, port: int) -> subprocess.Popen[str]:
    server = spades(["serve", "--tables-only", "--port", str(port), "--challenge-workers", "1",
                     "--challenge-iters", ITERS], home)
    assert server.stdout is not None
    said = [server.stdout.readline() for _ in range(1)]
    while said[-1] and "Tables are served on" not in said[-1] and len(said) < 20:  # what it set up again first
        said.append(server.stdout.readline())
    assert "Tables are served on" in said[-1], "".join(said) + (server.stderr.read() if server.stderr else "")
    server.said = said  # type: ignore[attr-defined]
    return server


def by_the_rule(field: list[tuple[int, ...]]) -> list[float]:
    """The spec's rule, worked here: on each hand 2 for each other entry's margin beaten, 1 for each tied, out of
    2 for each other entry; the mean of the four hands' percentages."""
    scores = []
    for i, mine in enumerate(field):
        per_hand = [sum(2 if mine[h] > o[h] else 1 if mine[h] == o[h] else 0 for j, o in enumerate(field) if j != i)
                    / (2 * (len(field) - 1)) * 100 for h in range(4)]
        scores.append(sum(per_hand) / 4)
    return scores


def stocks(record_json: dict[str, Any]) -> list[tuple[str, ...]]:
    record = parse_record(record_json)
    return [tuple(c.code for c in a.stock) for a in record.actions if isinstance(a, Shuffle)]


async def play(port: int, home: Path, name: str, level: str) -> tuple[Recorder, dict[str, Any]]:
    data = home / "spades-tui"
    where, url = f"127.0.0.1:{port}", f"ws://127.0.0.1:{port}/table"
    kept = rc.kept_key(data, where)
    assert kept is not None
    client = Recorder(url, name=name, seat_file=home / "seat.json", key=kept.key, challenge=True)
    assert await play_with_bot(client, level) == 0  # every hand's shuffle verified: the server's committed deals
    over = next(frame for frame in client.frames if frame["type"] == "over")
    return client, over["record"]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
async def test_three_players_play_the_days_challenge_against_the_field(tmp_path: Path) -> None:
    port = free_port()
    where, url = f"127.0.0.1:{port}", f"ws://127.0.0.1:{port}/table"
    server = start_server(tmp_path / "server", port)
    try:
        for name, _ in PLAYERS:  # three registrations: the most one address may make in an hour
            await rc.register(tmp_path / name / "spades-tui", where, url, name)
        played = await asyncio.gather(*(play(port, tmp_path / name, name, level) for name, level in PLAYERS))
        records = [record for _, record in played]
        for (client, record), (name, _) in zip(played, PLAYERS, strict=True):
            assert client.seat is not None
            check_frames(client.frames, client.seat, record)  # nothing named before it may be known
            mine = client.standings
            assert mine is not None and mine.you is not None and not mine.practice and mine.you.name == name
        # The same four stocks for all three, and not the local challenge's of the date.
        assert stocks(records[0]) == stocks(records[1]) == stocks(records[2]) and len(stocks(records[0])) == 4
        local = ChallengeCode(utc_today())
        shuffle = Dealer(local.deal_seed).chance_action(new_game(local.rules, local.first))
        assert isinstance(shuffle, Shuffle) and tuple(c.code for c in shuffle.stock) != stocks(records[0])[0]
        # With one worker and three players (and the par) at once, experts waited their turn and were told so.
        assert any(f["type"] == "queued" and f["waiting"] for client, _ in played for f in client.frames)

        keys = {name: rc.kept_key(tmp_path / name / "spades-tui", where) for name, _ in PLAYERS}
        ada_key = keys["Ada"]
        assert ada_key is not None

        async def standings() -> dict[str, Any]:
            return await ask(port, {"type": "standings", "key": ada_key.key})

        table: dict[str, Any] = {}

        async def look() -> None:
            table.clear()
            table.update(await standings())

        await look()  # the par is computed in the same pool, as one more table: it may come last
        await until_async(lambda: table["par"], "the par computed", 2 * BOUND, pause=look)
        margins = {}
        for (client, record), (name, _) in zip(played, PLAYERS, strict=True):
            seat = client.seat
            assert seat is not None
            margins[name] = tuple(h.points[seat] - h.points[1 - seat] for h in replay(parse_record(record)).history)
        par = next(e for e in table["entries"] if e["par"])
        field = [margins[name] for name, _ in PLAYERS] + [tuple(par["hands"])]
        expected = dict(zip([name for name, _ in PLAYERS] + ["Par"], by_the_rule(field), strict=True))
        assert {e["name"]: tuple(e["hands"]) for e in table["entries"]} == {**margins, "Par": tuple(par["hands"])}
        assert {e["name"]: e["percent"] for e in table["entries"]} == pytest.approx(expected, abs=0.01)
        assert [e["name"] for e in table["entries"] if e["you"]] == ["Ada"]

        # A second play the same day (the command, headless) is practice: the standings do not change.
        again = spades(["challenge", "--server", where, "--bot", "easy", "--json"], tmp_path / "Ada")
        out, err = again.communicate(timeout=2 * BOUND)
        assert again.returncode == 0, err
        second = json.loads(out)
        assert second["practice"] is True and second["you"]["name"] == "Ada (practice)"
        assert await standings() == table

        # Killed with SIGKILL and started again: the same standings.
        server.send_signal(signal.SIGKILL)
        server.wait()
        server = start_server(tmp_path / "server", port)
        assert await standings() == table
        listed = spades(["challenge", "--server", where, "--standings", "--json"], tmp_path / "Bob")
        out, err = listed.communicate(timeout=BOUND)
        assert listed.returncode == 0, err
        assert {e["name"]: e["percent"] for e in json.loads(out)["entries"]} == pytest.approx(expected, abs=0.01)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
async def test_a_challenge_the_server_is_killed_in_goes_on_and_its_entry_is_kept(tmp_path: Path) -> None:
    """The command's first play at a server registers the player (the settings' name), and a server killed with
    SIGKILL mid-challenge sets it up again: the player's client comes back by itself, and the entry is kept."""
    port = free_port()
    where = f"127.0.0.1:{port}"
    home = tmp_path / "server"
    server = start_server(home, port)
    player = None
    try:
        # No key yet: the command registers Dee under her settings' name the first time, as quick does.
        save_preferences(tmp_path / "Dee" / "config" / "spades-tui" / PREFERENCES_NAME, Preferences(player_name="Dee"))
        assert rc.kept_key(tmp_path / "Dee" / "spades-tui", where) is None
        player = spades(["challenge", "--server", where, "--bot", "easy", "--json"], tmp_path / "Dee")
        await until_async(lambda: _slot_actions(home, "challenge-games") >= 60, "the challenge got going", BOUND)
        server.send_signal(signal.SIGKILL)
        server.wait()
        server = start_server(home, port)  # the challenge is set up again; the player's client comes back by itself
        assert any("Dee goes on" in line for line in server.said)  # type: ignore[attr-defined]
        out, err = await asyncio.to_thread(player.communicate, timeout=2 * BOUND)
        assert player.returncode == 0, err  # every hand's deal checked, the one dealt before the kill too
        assert "Back at the table." in err
        result = json.loads(out)
        assert result["practice"] is False and result["you"]["name"] == "Dee" and result["verified"] is True
        table = await ask(port, {"type": "standings", "key": rc.kept_key(tmp_path / "Dee" / "spades-tui", where).key})  # type: ignore[union-attr]
        assert [e["name"] for e in table["entries"] if not e["par"]] == ["Dee"]
    finally:
        for process in (server, player):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
