"""Helpers shared by the TUI tests (no tests here)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import pytest
import textual._wait
from textual.app import App
from textual.command import Command, CommandList, CommandPalette
from textual.pilot import Pilot

from spades_tui.engine.actions import PlayerAction
from spades_tui.engine.cards import CARDS, Card
from spades_tui.engine.record import GameRecord, PlayerInfo
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.session.session import Session
from spades_tui.session.store import GameStore
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import PREFERENCES_NAME, Preferences
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import AS_ASKED, Resume
from tests.support.hidden import hidden_cards
from tests.support.wait import BOUND, until_async

HOTSEAT = (PlayerInfo("Ada"), PlayerInfo("Bob"))
VS_BOT = (PlayerInfo("Ada"), PlayerInfo("Bot (easy)", "bot:easy"))


def screen_text(app: App[Any]) -> str:
    """The plain text of every cell now on screen."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def cards_on_screen(text: str) -> set[Card]:
    return {c for c in CARDS if c.label() in text}


def local_session(app: SpadesApp) -> Session:
    """The app's game here (not a seat at a network table), whose whole state the tests may read."""
    session = app.session
    assert isinstance(session, Session), session
    return session


def game_state(app: SpadesApp) -> Optional[GameState]:
    """The whole state of the app's game: the tests' oracle (the app itself only ever has a seat's view)."""
    return local_session(app).state if app.session is not None else None


def game_store(app: SpadesApp) -> Optional[GameStore]:
    return local_session(app).store if app.session is not None else None


def state_of(app: SpadesApp) -> GameState:
    """The whole state of the game the app plays here, which has begun."""
    return local_session(app).state


def store_of(app: SpadesApp) -> GameStore:
    """The store of the game the app plays here, which has begun."""
    return local_session(app).store


def palette_open(app: App[Any]) -> bool:
    """The command palette is open (as ``CommandPalette.is_open``, for an app of any return type)."""
    return isinstance(app.screen, CommandPalette)


def viewer(app: SpadesApp) -> Optional[int]:
    """Whose view the screen shows (None: the public view, as at a hot-seat hand-off)."""
    return app.seat_view.seat if app.seat_view is not None else None


def check_frame(app: SpadesApp, hotseat: bool) -> None:
    """No hidden card on screen; in hot-seat nobody's cards show but the player to act's."""
    state = game_state(app)
    assert state is not None
    seat = viewer(app)
    if hotseat and seat is not None and state.to_act is not None and state.phase is not Phase.SHUFFLE:
        assert seat == state.to_act, "hot-seat shows a hand while the other player is to act"
    if not hotseat:
        assert app.session is not None and seat == local_session(app).person  # against a bot: always the person's view
    shown = cards_on_screen(screen_text(app))
    leaked = shown & hidden_cards(state, seat)
    assert not leaked, f"hidden cards on screen: {sorted(c.label() for c in leaked)}"


def bot_thinking(app: SpadesApp) -> bool:
    """A bot's decision is under way, as the app's view of its seat says (``app.seat_view``)."""
    view = app.seat_view
    return view is not None and view.bot_thinking


def forfeit(app: SpadesApp) -> Optional[str]:
    """The forfeit in words, once the game ended so, as the app's view of its seat says."""
    view = app.seat_view
    return view.forfeit if view is not None else None


def vs_bot(app: SpadesApp) -> bool:
    """One person against a bot, as the app's view of its seat says."""
    view = app.seat_view
    return view is not None and view.vs_bot


async def settle(pilot: Pilot[int], app: SpadesApp) -> None:
    """Wait until the bot (if any) has answered and the screen is idle."""
    for _ in range(200):
        await pilot.pause()
        if not bot_thinking(app) and not app.jobs.held:  # held: a bot's decision waiting for the first paint
            break
    await app.workers.wait_for_complete()
    await pilot.pause()


async def until(pilot: Pilot[Any], ready: Callable[[], bool], what: str, bound: float = BOUND) -> None:
    """Let the app run until ``ready()`` holds: the screen a test's next key is meant for is up.

    A key pressed while a screen is being replaced goes to the one before, or is dropped on purpose
    (``GameScreen.on_key``: a key typed before the screen came up was meant for another), so a test
    waits for the screen it expects before each key.  Each pause waits for the app to be idle; the bound
    (``tests.support.wait``) is a failure message, and only a stall reaches it."""
    def detail() -> str:
        return f"screens {pilot.app.screen_stack!r}:\n{screen_text(pilot.app)}"

    await until_async(ready, what, bound, pause=pilot.pause, detail=detail)
    await pilot.pause()  # its mount and resume handled: the keys that follow are its own


# Pilot waits for the app to be idle after every key and pause: sleeps of SLEEP_GRANULARITY (20 ms) until one
# passes with under SLEEP_IDLE of process time.  A finer grain keeps that logic (process time against wall
# time) and takes a few milliseconds where it took tens: a game by Enter waits a third as long.
FINE_GRAIN = 0.003


def set_fine_grain(monkeypatch: pytest.MonkeyPatch, grain: float = FINE_GRAIN) -> None:
    """Pilot's idle wait at a finer grain (see FINE_GRAIN), for this test alone (the ``fine_grain`` fixture)."""
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", grain)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", grain / 20)


async def close_palette(pilot: Pilot[Any]) -> None:
    """Esc, and the command palette is gone."""
    await pilot.press("escape")
    await until(pilot, lambda: not palette_open(pilot.app), "the palette closed")


def hold_forced_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forced card (the only legal one) waits an hour before it plays itself, for this test alone (the
    ``forced_card_waits`` fixture): a picture or a layout is of a screen as it comes up, and must not depend on how
    fast the machine drew it (under pytest-xdist the pause often ran out first).  The setting stays on."""
    from spades_tui.tui.screens import game as game_screen_module

    monkeypatch.setattr(game_screen_module, "FORCED_PAUSE", 3600.0)


def make_app(tmp_path: Path, *, hotseat: bool = False, bot: Optional[str] = None, seed: int = 4,
             rules: Optional[Rules] = None, loaded: Optional[GameRecord] = None, hints: bool = False,
             show_hints: Optional[bool] = False, prefs: Optional[Preferences] = None) -> SpadesApp:
    """Hints are off unless asked for (then with a fixed sample count, so they repeat exactly);
    ``show_hints=None`` leaves the hint panel to the preferences.

    The preferences live in ``config_dir(tmp_path)`` (``prefs`` saved there first), never the user's own.
    """
    options = LaunchOptions(hotseat=hotseat, bot=bot, seed=seed, rules=rules, bot_pause=0, hints=hints,
                            show_hints=show_hints, hint_samples=6 if hints else None)
    if prefs is not None:
        save_preferences(prefs_file(tmp_path), prefs)
    start = AS_ASKED if loaded is None else Resume(loaded)
    return SpadesApp(options, data_dir=tmp_path, start=start, config_dir=config_dir(tmp_path))


def config_dir(tmp_path: Path) -> Path:
    return tmp_path / "config"


def prefs_file(tmp_path: Path) -> Path:
    """Where the app of ``make_app(tmp_path)`` keeps its preferences."""
    return config_dir(tmp_path) / PREFERENCES_NAME


def slot_file(data_dir: Path, number: int = 1) -> Path:
    """Where the app with ``data_dir`` saves its ``number``-th game (keep.slots)."""
    return data_dir / "games" / f"game-{number}.json"


Policy = Callable[[GameState, Sequence[PlayerAction]], PlayerAction]


def first_legal(state: GameState, legal: Sequence[PlayerAction]) -> PlayerAction:
    return legal[0]


@cache
def record_until(stop: Callable[[GameState], bool], *, players: tuple[PlayerInfo, PlayerInfo] = HOTSEAT,
                 rules: Optional[Rules] = None, seed: int = 4, first: int = 0,
                 policy: Policy = first_legal, limit: int = 5000) -> GameRecord:
    """A record played by ``policy`` until ``stop(state)`` holds.

    Played once per process for the same arguments (a snapshot at two sizes, a test and its neighbours): a
    record is immutable, and ``stop`` and ``policy`` must be functions of the state alone."""
    store = GameStore(GameRecord(rules or Rules(), first, players), seed=seed)
    for _ in range(limit):
        if stop(store.state):
            return store.record
        store.dispatch(store.chance_due() or policy(store.state, store.legal()))
    raise AssertionError("stop condition never reached")


async def palette(pilot: Pilot[int], typed: str = "") -> list[str]:
    """Open the palette, type ``typed``; the commands it lists, best first."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert palette_open(pilot.app)
    if typed:
        await pilot.press(*["space" if c == " " else c for c in typed])
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    found = pilot.app.screen.query_one(CommandList)
    options = [found.get_option_at_index(i) for i in range(found.option_count)]
    return [str(option.hit.text) for option in options if isinstance(option, Command)]
