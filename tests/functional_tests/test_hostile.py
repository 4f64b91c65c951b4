"""Hostile input through the game as a user meets it (issue 17): a table of hostile names through every
screen (Textual's pilot) and every text command, an external bot that misbehaves, and ``serve`` asked by
a page that is not its own.

Each test for one of the issue's ten findings says why it failed before the fix.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path
from typing import Any, Optional

import pytest
from textual.command import CommandList
from textual.widgets import Input, OptionList

from spades_tui.bots.base import BotError
from spades_tui.bots.external import MAX_LINE, ExternalBot
from spades_tui.bots.levels import make_bot
from spades_tui.engine.observation import observe
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase, new_game
from spades_tui.engine.text import clean_name
from spades_tui.keep.stats import STATS_NAME, open_stats, record_game
from spades_tui.keep.storage import save_record
from spades_tui.session.dealer import Dealer
from spades_tui.settings.preferences import Preferences
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.handoff import HandoffScreen
from spades_tui.tui.screens.review import ReviewScreen
from spades_tui.tui.screens.setup import SetupScreen
from spades_tui.tui.screens.stats import StatsScreen
from tests.support.cli import alive, run_spades
from tests.support.games import bid_one, played
from tests.support.hostile import HOSTILE_NAMES, one_quick, unsafe
from tests.support.pilot import (
    game_state,
    make_app,
    palette_open,
    record_until,
    screen_text,
    settle,
    slot_file,
    store_of,
)
from tests.support.table import free_port

PY = sys.executable
# What of each name must show literally: markup is text, never read.
LITERAL = {"close-tag": "[/]", "link": "[link=", "click": "[@click=", "brackets": "Bob [the builder"}


def check_screen(app: SpadesApp, kind: Optional[str] = None) -> str:
    """Nothing a terminal would obey is on screen; a markup name shows as written."""
    text = screen_text(app)
    bad = sorted({f"U+{ord(ch):04X}" for ch in text if ch != "\n" and unsafe(ch)})
    assert not bad, f"control characters on screen: {bad}"
    if kind in LITERAL:
        assert LITERAL[kind] in text, f"{LITERAL[kind]!r} not shown literally"
    return text


def check_output(*texts: str) -> None:
    for text in texts:
        bad = sorted({f"U+{ord(ch):04X}" for ch in text if ch != "\n" and unsafe(ch)})
        assert not bad, f"control characters in the output: {bad}"


def hostile_record(kind: str, stop: Any, *, hotseat: bool = False, rules: Optional[Rules] = None) -> GameRecord:
    """A record whose players carry the hostile name as written: PlayerInfo is not cleaned (reading a record is),
    so a record handed to the app this way tests the screens' own cleaning, the second line of defence."""
    raw = HOSTILE_NAMES[kind]
    players = (PlayerInfo(raw), PlayerInfo(raw + "2")) if hotseat else (PlayerInfo(raw),
                                                                         PlayerInfo("Bot (easy)", "bot:easy"))
    return record_until(stop, players=players, rules=rules, seed=12, policy=bid_one)


# ---------------------------------------------------------------- every text command


@pytest.fixture(scope="module")
def finished_game() -> GameRecord:
    return played(3, (PlayerInfo("x"), PlayerInfo("y")), "hostile")


@pytest.mark.parametrize("kind", one_quick(sorted(HOSTILE_NAMES)))  # two commands a kind: one kind in the quick check
@pytest.mark.slow
def test_findings_1_and_3_replay_and_analyse_print_no_escape_and_do_not_die(tmp_path: Path, kind: str,
                                                                          finished_game: GameRecord) -> None:
    """Before the fix ``replay`` and ``analyse`` printed the name raw (``^[]0;pwned^G^[[2J``, a ``\\n`` faking
    lines) and died with ``UnicodeEncodeError`` on a lone surrogate."""
    raw = HOSTILE_NAMES[kind]
    path = tmp_path / "game.json"
    data = finished_game.to_json()
    data["players"] = [{"name": raw}, {"name": raw}]
    data["result"] = {"forfeit": 1, "reason": "gone \x1b[2J away"}
    path.write_text(json.dumps(data), encoding="utf-8")  # json escapes it: the name arrives as written
    for args in (["replay", str(path)], ["analyse", str(path)], ["replay", str(path), "--json"],
                 ["analyse", str(path), "--json"]):
        result = run_spades(*args, timeout=120, PYTHONIOENCODING="utf-8")
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        check_output(result.stdout, result.stderr)
    text = run_spades("replay", str(path)).stdout
    assert f"Scores: {clean_name(raw, limit=40)} " in text
    plain = tmp_path / "plain.json"
    data["players"] = [{"name": "x"}, {"name": "x"}]
    plain.write_text(json.dumps(data), encoding="utf-8")
    # A newline in a name fakes no line: as many lines as with a plain name.
    assert len(text.splitlines()) == len(run_spades("replay", str(plain)).stdout.splitlines())


# A lone surrogate never reached the database: sqlite3 refuses to encode it (the game's statistics failed instead).
@pytest.mark.parametrize("kind", one_quick(sorted(set(HOSTILE_NAMES) - {"surrogate"})))
def test_finding_1_stats_prints_a_name_from_an_old_database_escaped(tmp_path: Path, kind: str,
                                                                  finished_game: GameRecord) -> None:
    """A database written before the fix holds the raw name: before it ``spades-tui stats`` printed it raw."""
    raw = HOSTILE_NAMES[kind]
    data = tmp_path / "data"
    (data / "spades-tui").mkdir(parents=True)
    conn, _ = open_stats(data / "spades-tui" / STATS_NAME)
    record = GameRecord(finished_game.rules, 0, (PlayerInfo(raw), PlayerInfo("Bob")), finished_game.actions,
                        (("game_id", "old"),))
    record_game(conn, record)
    conn.close()
    for args in (["stats"], ["stats", "--json"]):
        result = run_spades(*args, XDG_DATA_HOME=str(data), PYTHONIOENCODING="utf-8")
        assert result.returncode == 0, result.stderr
        check_output(result.stdout, result.stderr)
    assert "hot-seat, " in run_spades("stats", XDG_DATA_HOME=str(data)).stdout


# ---------------------------------------------------------------- every screen


TUI_NAMES = one_quick(sorted(HOSTILE_NAMES))  # each an app: one in the quick check, all in CI


def _select(app: SpadesApp, option_id: str) -> None:
    menu = app.screen.query_one(OptionList)
    menu.highlighted = next(i for i in range(menu.option_count) if menu.get_option_at_index(i).id == option_id)


@pytest.mark.parametrize("kind", TUI_NAMES)
@pytest.mark.slow
async def test_finding_2_start_screen_palette_and_statistics_show_a_hostile_name(tmp_path: Path, kind: str,
                                                                               finished_game: GameRecord) -> None:
    """Before the fix Ctrl+P on the start screen crashed (the resume entry was read as markup: ``MarkupError``),
    and so did Statistics with a hot-seat player named ``[/]``."""
    raw = HOSTILE_NAMES[kind]
    record = hostile_record(kind, lambda s: s.phase is Phase.BIDDING)
    path = slot_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")  # as a file from elsewhere: \ud800 escaped
    conn, _ = open_stats(tmp_path / STATS_NAME)
    stored = raw.replace("\ud800", "?")  # sqlite3 cannot store a lone surrogate at all
    record_game(conn, GameRecord(Rules(), 0, (PlayerInfo(stored), PlayerInfo(stored + "2")), finished_game.actions,
                                 (("game_id", "h"),)))
    conn.close()
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        check_screen(app, kind)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        assert palette_open(app)
        check_screen(app, kind)
        await pilot.press(*"resume")
        await app.workers.wait_for_complete()
        await settle(pilot, app)
        assert app.screen.query_one(CommandList).option_count >= 1
        check_screen(app)
        await pilot.press("escape")
        await settle(pilot, app)
        _select(app, "stats")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, StatsScreen)
        check_screen(app, kind)
        await pilot.press("escape")
        await settle(pilot, app)
        _select(app, "resume-0")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        check_screen(app)


@pytest.mark.parametrize("kind", TUI_NAMES)
@pytest.mark.slow
async def test_finding_2_hand_summary_review_and_game_over_show_a_hostile_name(tmp_path: Path, kind: str) -> None:
    """Before the fix the hand summary's table read the name as markup: ``MarkupError`` for ``[/]`` (a traceback,
    and the slot crashed again at every resume); game over the same."""
    summary = hostile_record(kind, lambda s: s.phase is Phase.SHUFFLE and bool(s.history))
    app = make_app(tmp_path / "a", loaded=summary)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        check_screen(app, kind)
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)
        check_screen(app)
    over = hostile_record(kind, lambda s: s.phase is Phase.GAME_OVER, rules=Rules(target=1))
    app = make_app(tmp_path / "b", loaded=over)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        state = game_state(app)
        assert state is not None and state.phase is Phase.GAME_OVER
        check_screen(app)  # (the name is cut to fit the table: shown literally on the summary above)


@pytest.mark.parametrize("kind", TUI_NAMES)
async def test_findings_1_2_hot_seat_hand_off_and_play_show_hostile_names(tmp_path: Path, kind: str) -> None:
    """The names of both players of a loaded hot-seat record, on the hand-off and the play screen."""
    record = hostile_record(kind, lambda s: s.phase is Phase.PLAY and s.hand is not None and len(s.hand.tricks) >= 2,
                            hotseat=True)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)
        check_screen(app, kind)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        check_screen(app)


@pytest.mark.parametrize("kind", TUI_NAMES)
@pytest.mark.slow
async def test_findings_2_5_a_hostile_name_and_a_huge_seed_in_the_new_game_form(tmp_path: Path, kind: str) -> None:
    """Before the fix a ``player_name = "[/]"`` in the preferences or typed in the form crashed the game at the
    hand summary, and a 5,000-digit seed ended it (``ValueError: Exceeds the limit (4300 digits)``)."""
    # Written to preferences.toml as TOML escapes (\u001B); TOML has no way to write a lone surrogate.
    app = make_app(tmp_path, prefs=Preferences(player_name=HOSTILE_NAMES[kind][:16].replace("\ud800", "?")))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        _select(app, "bot")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, SetupScreen)
        check_screen(app)
        name = app.screen.query_one("#name0", Input)
        name.value = HOSTILE_NAMES[kind]  # as a paste would put it there
        app.screen.query_one("#seed", Input).value = "9" * 5000
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, SetupScreen)  # refused, said plainly
        assert "The seed must be a whole number of at most" in check_screen(app)
        seed = app.screen.query_one("#seed", Input)
        seed.value = "7"
        seed.focus()
        await pilot.press("ctrl+s")  # Ctrl+S starts the game from any field (Enter there moves on: issue 37)
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen), check_screen(app)
        assert app.session is not None
        players = store_of(app).record.players
        assert players is not None and players[0].name == clean_name(HOSTILE_NAMES[kind], "Player 1")
        check_screen(app)


def test_finding_5_a_huge_seed_on_the_command_line_is_refused_without_echoing_it() -> None:
    """Before the fix ``--seed`` said "must be a whole number" and echoed all 5,000 digits."""
    for args in (["--seed"], ["arena", "easy", "easy", "--seed"], ["bot", "easy", "--seed"]):
        result = run_spades(*args, "9" * 5000)
        assert result.returncode == 2 and "at most 40 digits" in result.stderr and len(result.stderr) < 300


def test_smaller_a_load_error_names_the_file_once_and_serve_names_expert(tmp_path: Path) -> None:
    """Before the fix: ``cannot load X: X: not valid JSON``; ``serve --bot cmd:`` said "use easy, normal or hard"."""
    path = tmp_path / "bad.json"
    path.write_text("nope", encoding="utf-8")
    result = run_spades("--load", str(path), XDG_DATA_HOME=str(tmp_path))
    assert result.returncode == 2 and result.stderr.count(str(path)) == 1 and "not valid JSON" in result.stderr
    result = run_spades("serve", "--bot", "cmd:true")
    assert result.returncode == 2 and "easy, normal, hard or expert" in result.stderr


# ---------------------------------------------------------------- an external bot


def _bot_file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"cmd:{PY} {path}"


def _first_decision() -> tuple[Any, Any, int]:
    dealer, state = Dealer(1), new_game(Rules(), 0)
    while state.to_act is None:
        chance = dealer.chance_action(state)
        assert chance is not None
        state = reduce(state, chance)
    return observe(state, state.to_act), legal_actions(state), state.to_act


@pytest.mark.slow
def test_finding_7_a_bot_that_writes_no_newline_forfeits_with_bounded_memory(tmp_path: Path) -> None:
    """Before the fix ``for line in stream`` kept the endless line in memory (2.1 GB before a ulimit stopped it)
    and the bot forfeited only by its time limit, its line still growing."""
    bot = make_bot(_bot_file(tmp_path, """
        import sys
        sys.stdin.readline()
        while True:
            sys.stdout.write("x" * 65536)
    """), timeout=30)
    obs, legal, seat = _first_decision()
    tracemalloc.start()
    try:
        bot.start(seat, Rules())
        with pytest.raises(BotError, match=f"longer than {MAX_LINE} characters"):
            bot.decide(obs, legal)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        bot.close()
    assert peak < 16 * MAX_LINE  # a few copies of one bounded line, not what the bot wrote


def test_finding_7_error_output_without_a_newline_is_kept_as_a_short_tail(tmp_path: Path) -> None:
    """Before the fix the error-output reader held the whole endless line until it ended (here 40 MB)."""
    bot = make_bot(_bot_file(tmp_path, """
        import sys
        sys.stdin.readline()
        for _ in range(640):
            sys.stderr.write("e" * 65536)
        sys.stderr.flush()
        sys.exit(3)
    """), timeout=60)
    obs, legal, seat = _first_decision()
    tracemalloc.start()
    try:
        bot.start(seat, Rules())
        with pytest.raises(BotError, match="died") as info:
            bot.decide(obs, legal)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        bot.close()
    assert peak < 4 * 1024 * 1024 and "eee" in str(info.value) and len(str(info.value)) < 600


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the check reads /proc")
def test_finding_8_a_bots_children_end_with_it_even_in_a_session_of_their_own(tmp_path: Path) -> None:
    """Before the fix the bot shared the game's process group and ``close`` ended only the bot: its child and a
    ``setsid`` grandchild lived on after the game."""
    pids = tmp_path / "pids"
    bot = make_bot(_bot_file(tmp_path, f"""
        import os, subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        loner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
        with open({str(pids)!r}, "w") as fh:
            fh.write(f"{{child.pid}} {{loner.pid}}")
        for line in sys.stdin:
            pass
    """), timeout=30)
    assert isinstance(bot, ExternalBot)
    bot.start(0, Rules())
    deadline = time.monotonic() + 30
    while not (pids.exists() and len(pids.read_text().split()) == 2):
        assert time.monotonic() < deadline, "the bot never started its children"
        time.sleep(0.05)
    child, loner = (int(p) for p in pids.read_text().split())
    assert alive(child) and alive(loner)
    bot.close()
    deadline = time.monotonic() + 10
    while alive(child) or alive(loner):
        assert time.monotonic() < deadline, "the bot's children outlived it"
        time.sleep(0.05)


# ---------------------------------------------------------------- serve


@pytest.fixture
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The serve app on 127.0.0.1 in aiohttp's test server; each tab's game a real game process (--served)."""
    pytest.importorskip("textual_serve")
    from aiohttp.test_utils import TestClient, TestServer

    from spades_tui.cli.serve import game_command
    from spades_tui.cli.webserver import GameServer
    from spades_tui.settings.options import LaunchOptions

    port = free_port()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the tabs' games inherit them
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    server = GameServer(game_command(LaunchOptions()), host="127.0.0.1", port=port,
                        public_urls=["https://spades.example.org/"], max_games=1)
    client = TestClient(TestServer(await server._make_app(), host="127.0.0.1", port=port))
    await client.start_server()
    try:
        yield server, client, port
    finally:
        await client.close()


async def test_finding_9_a_dns_rebinding_request_is_refused(served: Any) -> None:
    """Before the fix ``Host: evil.example:PORT`` was served, and its page's websocket (``Origin:
    http://evil.example:PORT``, the same name) was accepted: the page played games and changed the settings."""
    server, client, port = served
    evil = {"Host": f"evil.example:{port}"}
    assert (await client.get("/", headers=evil)).status == 421
    ws = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    response = await client.get("/ws", headers={**ws, **evil, "Origin": f"http://evil.example:{port}"})
    assert response.status == 421 and server.games == {}
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "spades.example.org"):  # those it was started for
        assert (await client.get("/", headers={"Host": host})).status == 200, host
    assert (await client.get("/", headers={"Host": "127.0.0.1:1"})).status == 421  # another port is another site


async def test_finding_9_origin_is_compared_by_scheme_host_and_port(served: Any) -> None:
    """Before the fix only the host and port were compared: ``https://127.0.0.1:PORT`` passed as an Origin."""
    server, client, port = served
    ws = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    for origin in (f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}", "http://127.0.0.1",
                   "null", "http://elsewhere.example"):
        response = await client.get("/ws", headers={**ws, "Origin": origin})
        assert response.status == 403, origin
    assert server.games == {}


async def test_finding_9_games_are_capped_with_a_clear_page_and_no_directory_is_listed(served: Any) -> None:
    """Before the fix 30 websockets in 0.8 s made 30 game processes, and ``/static/`` listed its directory."""
    server, client, port = served
    assert (await client.get("/static/")).status in (403, 404)
    origin = {"Origin": f"http://127.0.0.1:{port}"}
    first = await client.ws_connect("/ws?width=6000&height=6000", headers=origin)
    try:
        deadline = time.monotonic() + 60
        while not server.games:
            assert time.monotonic() < deadline
            await first.receive(timeout=60)
        assert len(server.games) == 1
        process = next(iter(server.games))._process  # the tab's game process (webserver.py reads it too)
        page = await client.get("/")
        assert page.status == 503 and "The server is full" in await page.text()
        second = await client.get("/ws", headers={**origin, "Upgrade": "websocket", "Connection": "Upgrade",
                                                  "Sec-WebSocket-Version": "13",
                                                  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
        assert second.status == 503 and len(server.games) == 1
    finally:
        await first.close()
    deadline = time.monotonic() + 60
    while server.games:
        assert time.monotonic() < deadline, "the closed tab's game did not end"
        await asyncio.sleep(0.05)  # polling for the game process to end, bounded above
    if process is not None:
        await asyncio.wait_for(process.wait(), 60)  # reaped here, not by the garbage collector after the loop
    assert (await client.get("/")).status == 200


def test_finding_9_the_terminal_size_a_page_asks_for_is_clamped() -> None:
    """Before the fix ``?width=6000&height=6000`` gave a game process a 6000x6000 screen (425 MB, 110 MB sent)."""
    pytest.importorskip("textual_serve")
    from spades_tui.cli.webserver import MAX_COLUMNS, MAX_ROWS, clamp_size

    assert clamp_size("6000", "6000") == (MAX_COLUMNS, MAX_ROWS)
    assert clamp_size(6000, -5) == (MAX_COLUMNS, 1)
    assert clamp_size(None, "x") == (80, 24) and clamp_size(True, [1]) == (80, 24)
    assert clamp_size("9" * 5000, "100") == (MAX_COLUMNS, 100)
    assert clamp_size("120", "40") == (120, 40)


# ---------------------------------------------------------------- many saved games


@pytest.mark.slow
async def test_finding_10_many_saved_games_list_the_latest_and_the_rest_on_request(tmp_path: Path) -> None:
    """Before the fix the start screen and the palette listed every unfinished game (2,500 files: 5.6 s and
    6.1 s); now the eight most recent come first, the others behind one entry, and typing finds any."""
    from spades_tui.tui.screens.start import RESUME_SHOWN

    games = tmp_path / "games"
    games.mkdir()
    base = GameRecord(Rules(), 0)
    for n in range(1, 13):
        path = games / f"game-{n}.json"
        save_record(path, GameRecord(base.rules, 0, (PlayerInfo(f"P{n:02d}"), PlayerInfo("Bob"))))
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))  # game 12 the most recent
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        menu = app.screen.query_one(OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ids[:RESUME_SHOWN + 1] == [f"resume-{i}" for i in range(RESUME_SHOWN)] + ["more"]
        assert "More saved games (4)…" in check_screen(app) and "P12" in check_screen(app)
        assert "P01" not in check_screen(app)
        menu.highlighted = ids.index("more")
        await pilot.press("enter")
        await settle(pilot, app)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ids[:12] == [f"resume-{i}" for i in range(12)] and "more" not in ids
        assert menu.highlighted == RESUME_SHOWN and "P01" in check_screen(app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        listed = app.screen.query_one(CommandList)
        labels = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert sum("Resume" in label for label in labels) == RESUME_SHOWN
        await pilot.press(*"p01")
        await app.workers.wait_for_complete()
        await settle(pilot, app)
        found = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert any("P01" in label for label in found)
