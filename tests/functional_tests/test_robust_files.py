"""Robustness with bad files and hostile contents: mutated records through --load and resume,
unknown versions, a full or read-only save directory, an autosave path that is a directory,
player names that look like markup, and records that name an external program as their bot.
Always a clear message, never a traceback; the game goes on; no existing file is destroyed."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.keep import autosave as autosave_module
from spades_tui.keep import storage
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.app import launch as app_module
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import Resume
from tests.support.pilot import (
    HOTSEAT,
    check_frame,
    game_state,
    game_store,
    local_session,
    make_app,
    record_until,
    screen_text,
    settle,
    slot_file,
    state_of,
    store_of,
)

FUZZ_EXAMPLES = int(os.environ.get("SPADES_FUZZ_EXAMPLES", "60"))  # the soak sets more
MARKUP_NAMES = (PlayerInfo("[bold]Ada[/"), PlayerInfo("[/]x[red"))


def _good_text() -> str:
    return record_until(lambda s: s.phase is Phase.PLAY and s.hand_number == 1, seed=5).dumps()


GOOD = _good_text()


def _mutate(text: str, data: st.DataObject) -> str:
    kind = data.draw(st.sampled_from(["truncate", "flip", "insert", "delete", "json", "bignum"]))
    if kind == "bignum":  # json refuses integers of over 4300 digits with a plain ValueError
        digits = data.draw(st.integers(1, 6000))
        return text.replace('"version": 1', '"version": ' + "7" * digits, 1)
    if kind == "truncate":
        return text[: data.draw(st.integers(0, len(text)))]
    pos = data.draw(st.integers(0, len(text) - 1))
    if kind == "flip":
        return text[:pos] + data.draw(st.characters()) + text[pos + 1:]
    if kind == "insert":
        return text[:pos] + data.draw(st.text(max_size=8)) + text[pos:]
    if kind == "delete":
        return text[:pos] + text[pos + data.draw(st.integers(1, 40)):]
    doc = json.loads(text)
    key = data.draw(st.sampled_from(sorted(doc)))
    doc[key] = data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3)))
    return json.dumps(doc)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_load_is_a_clear_error_or_a_legal_game(tmp_path_factory: pytest.TempPathFactory,
                                                       data: st.DataObject) -> None:
    """The --load path of run_app: a clear one-line error (exit 2) or an app holding a legal game."""
    tmp = tmp_path_factory.mktemp("load")
    path = tmp / "game.json"
    text = _mutate(GOOD, data)
    raw = text.encode("utf-8", errors="surrogatepass")
    path.write_bytes(raw)
    started: list[SpadesApp] = []

    def fake_run(self: SpadesApp) -> int:
        started.append(self)
        return 0

    mp = pytest.MonkeyPatch()
    mp.setattr(SpadesApp, "run", fake_run)
    mp.setattr(app_module, "default_data_dir", lambda: tmp)
    mp.setattr(app_module, "terminal_problem", lambda *args: None)  # the test has no terminal
    errors: list[str] = []
    mp.setattr("sys.stderr", type("E", (), {"write": lambda self, s: errors.append(s), "flush": lambda self: None})())
    try:
        rc = app_module.run_app(LaunchOptions(load=str(path)))
    finally:
        mp.undo()
    if rc == 2:
        assert not started and "cannot load" in "".join(errors)
    else:
        assert rc == 0 and started and isinstance(started[0].start, Resume)
        replay(started[0].start.record)  # legal
    assert path.read_bytes() == raw  # never rewritten


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_autosave_is_resumed_or_set_aside(tmp_path_factory: pytest.TempPathFactory,
                                                  data: st.DataObject) -> None:
    """The resume path: a damaged autosave is kept under a new name with a message, or resumes legally."""
    tmp = tmp_path_factory.mktemp("resume")
    path = tmp / "autosave.json"
    text = _mutate(GOOD, data)
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    status = autosave_module.check_autosave(path)
    if status.record is not None:
        assert status.message is None and replay(status.record) == status.state
        assert path.exists()
    else:
        assert status.message and "Traceback" not in status.message
        kept = list(tmp.glob("autosave.corrupt-*.json"))
        assert len(kept) == 1 and kept[0].read_bytes() == text.encode("utf-8", errors="surrogatepass")


async def test_unknown_version_autosave_is_kept_and_the_start_screen_says_so(tmp_path: Path) -> None:
    doc = json.loads(GOOD)
    doc["version"] = 99
    (tmp_path / "autosave.json").write_text(json.dumps(doc), encoding="utf-8")
    app = make_app(tmp_path)  # no mode: the start screen
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        text = screen_text(app)
        assert "could not be read" in text and "Resume" not in text
    kept = list(tmp_path.glob("autosave.corrupt-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text(encoding="utf-8"))["version"] == 99


def _enospc(path: object, text: str) -> None:
    raise storage.StorageError(f"cannot write {path}: {os.strerror(errno.ENOSPC)}")


@pytest.mark.parametrize("how", ["enospc", "readonly"])
@pytest.mark.slow
async def test_full_or_read_only_disk_the_game_goes_on_and_says_so(tmp_path: Path, how: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    old = record_until(lambda s: s.phase is Phase.BIDDING, seed=6).dumps()
    (tmp_path / "autosave.json").write_text(old, encoding="utf-8")
    if how == "enospc":
        monkeypatch.setattr(storage, "atomic_write_text", _enospc)
    else:
        # Tests run as root, where chmod does not stop writes: refuse them as a read-only directory would.
        def readonly(*args: object, **kwargs: object) -> tuple[int, str]:
            raise PermissionError(errno.EROFS, os.strerror(errno.EROFS))

        monkeypatch.setattr("spades_tui.keep.storage.tempfile.mkstemp", readonly)
    app = make_app(tmp_path, hotseat=True, seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(6):
            await pilot.press("enter")
            await pilot.pause()
        assert game_store(app) is not None and len(store_of(app).record.actions) >= 3  # the game went on
        assert game_state(app) == replay(store_of(app).record)
        assert "AUTOSAVE OFF" in screen_text(app)
        check_frame(app, hotseat=True)
    # The old autosave moved into a slot of its own and the new game took the next: nothing was lost or
    # half written.
    assert slot_file(tmp_path, 1).read_text(encoding="utf-8") == old
    assert not (tmp_path / "autosave.json").exists() and not slot_file(tmp_path, 2).exists()
    assert not list((tmp_path / "games").glob(".game-*"))


@pytest.mark.slow
async def test_autosave_path_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "autosave.json").mkdir()
    (tmp_path / "autosave.json" / "precious.txt").write_text("keep me", encoding="utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        # Read as words: the notice wraps where the test's folder's length puts it (under xdist, a longer path).
        assert "is a directory" in " ".join(screen_text(app).split())
        await pilot.press("down", "down", "enter", "enter")  # learn, bot: a new hot-seat game
        await settle(pilot, app)
        assert game_state(app) is not None and state_of(app).phase is not Phase.SHUFFLE
    kept = [p for p in tmp_path.glob("autosave.corrupt-*") if p.is_dir()]
    assert len(kept) == 1 and (kept[0] / "precious.txt").read_text(encoding="utf-8") == "keep me"
    assert replay(storage.load_record(slot_file(tmp_path))) is not None


@pytest.mark.slow
async def test_names_that_look_like_markup_are_shown_literally(tmp_path: Path) -> None:
    """A '[' in a player name crashed every screen that showed it (Textual markup)."""
    record = GameRecord(Rules(), 0, MARKUP_NAMES)
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(4):
            await pilot.press("enter")
            await pilot.pause()
        assert "[/]x[red" in screen_text(app)
        await pilot.press("ctrl+q")
    again = make_app(tmp_path)  # the start screen offers to resume, naming both players
    async with again.run_test(size=(100, 32)) as pilot:
        await settle(pilot, again)
        assert "Resume hand " in screen_text(again) and "[bold]Ada[/" in screen_text(again)


async def test_a_message_with_brackets_is_shown_literally(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("down", "down", "down", "enter")  # learn, bot, hot-seat: Load a game record…
        await pilot.pause()
        app.screen.query_one("#path").value = str(tmp_path / "[/]x.json")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "[/]x.json" in text and "no such file" in text


async def test_a_record_cannot_start_the_program_it_names(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    record = GameRecord(Rules(), 0, (PlayerInfo("Ada"), PlayerInfo("Evil", f"bot:cmd:touch {marker}")))
    app = make_app(tmp_path, loaded=record)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        assert "may not start the program" in screen_text(app)
        assert app.session is not None and not local_session(app).bots
    assert not marker.exists()


def test_hotseat_record_fixture_is_plain() -> None:
    assert HOTSEAT[0].kind == "human"


@pytest.mark.parametrize("kind", ["bignum", "fifo", "devzero"])
def test_strange_files_are_clear_errors(tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A 5000-digit number crashed --load and the start screen with a ValueError traceback;
    a FIFO or /dev/zero given to --load hung or filled the memory."""
    path = tmp_path / "game.json"
    if kind == "bignum":
        path.write_text(GOOD.replace('"version": 1', '"version": ' + "9" * 5000, 1), encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    monkeypatch.setattr(SpadesApp, "run", lambda self: pytest.fail("the game started"))
    monkeypatch.setattr(app_module, "default_data_dir", lambda: tmp_path)
    assert app_module.run_app(LaunchOptions(load=str(path))) == 2
    assert "cannot load" in capsys.readouterr().err
    if kind != "devzero":  # the same file as the autosave: set aside with a message, no crash
        autosave = tmp_path / "autosave.json"
        os.replace(path, autosave)
        status = autosave_module.check_autosave(autosave)
        assert status.record is None and status.message and not autosave.exists()
