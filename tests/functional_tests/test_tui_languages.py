"""Every screen in Swedish and in Estonian (docs/languages.md): a snapshot of each at 80x24 and, over what it draws,
the layout rules of test_tui_layout.py (no sentence cut with "…"; on the game screens each region inside the main
area, none over another, the hand and the choices whole) and no English word of the interface.  The game screens are
checked at 200x60 too.

The Swedish pictures are in the light theme, the Estonian ones in the dark: every screen is also seen in the light
theme this way (it was a set of English pictures of its own), at no extra cost to CI.

Regenerate after a deliberate change with ``python -m pytest tests/functional_tests/test_tui_languages.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

import dataclasses
import functools
import gettext
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.i18n import language as i18n
from spades_tui.session import session as session_module
from spades_tui.settings.options import LaunchOptions
from spades_tui.settings.preferences import save as save_preferences
from spades_tui.table.seat.client import TableClient
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import JoinTable
from tests.support.named import URL, WHERE
from tests.support.pilot import prefs_file, until

from .test_tui_layout import LAYOUT_SCREENS, cut_sentences, layout_problems, lines_of
from .test_tui_snapshots import (  # noqa: F401 (two autouse fixtures: a still cursor, a quick challenge expert)
    FIRST_HOUR,
    LIGHT,
    RATED,
    RATED_SCREENS,
    SCREENS,
    _lesson_app,
    _lesson_at,
    _quick_challenge,
    _still_cursor,
    workers_done,
)
from .test_tui_table_snapshots import (  # noqa: F401 (two fixtures: the codes fixed, a server at a fixed name)
    RULES,
    WAYS,
    _app_at_server,
    _choose,
    _fixed_codes,
    _join_unreachable,
    _lobby_filled,
    flat,
    host_app,
    host_port,
    served,
)

pytestmark = pytest.mark.usefixtures("forced_card_waits")  # the screen as it comes up

LANGUAGES = ("sv", "et")
# Words of the English interface that are no word of Swedish or Estonian ("on" is Estonian, "in", "pass" and "is"
# Swedish, so not these): one of them on a screen in either language is a message never put through the catalog.
# In any case but "you": a player named "You" (a test's name, as typed) is no word of the interface.
ENGLISH = re.compile(r"\b(?:(?i:the|your|and|with|press|tricks?|bids?|points|score|quit|help|settings|cancel|save|"
                     r"back|cards|won|lost|draft|rules|next|opponent|review|hints?|new|load|take|keep|play|lead|"
                     r"made|bags|of|to|are|from|this|that|not)|you)\b")
# A few screens more than SCREENS: the first hour's (saved games, a long game's end, the challenge's first words).
EXTRA = {name: FIRST_HOUR[name] for name in ("start_saved_games", "game_over_long", "challenge_intro", "load_found")}
ALL_SCREENS = {**{n: s for n, s in SCREENS.items() if "four_colour" not in n}, **EXTRA}
LESSON_STEPS = ("draft-first", "bid", "end")


@functools.cache
def meant_ellipses(language: str) -> tuple[re.Pattern[str], ...]:
    """How a translation ends where the English ends with "…" ("Load a game record…", an entry that opens a form;
    "More saved games (2)…"; "thinking…"): an ellipsis by meaning, not a line cut.  Each its last words up to the
    ellipsis, a placeholder standing for any text."""
    with i18n.catalog_path(language).open("rb") as f:
        catalog: dict[Any, str] = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    endings = set()
    for key, text in catalog.items():
        if (key if isinstance(key, str) else key[0]).endswith("…") and text.endswith("…"):
            tail = text[-16:]
            parts = re.split(r"\{\w*\}", tail)
            endings.add("".join([re.escape(parts[0]), *(".+?" + re.escape(p) for p in parts[1:])]) + "$")
    return tuple(re.compile(e) for e in endings)


def cut(lines: list[str]) -> list[str]:
    """The lines with an ellipsis that is not one of the language's by meaning."""
    meant = meant_ellipses(i18n.current())
    bad = []
    for line in cut_sentences(lines):
        ends = [m.end() for m in re.finditer("…", line)]
        if any(not any(rx.search(line[:end]) for rx in meant) for end in ends):
            bad.append(line)
    return bad


def problems(app: Any, name: str, size: tuple[int, int]) -> list[str]:
    lines = lines_of(app)
    found = [p for p in layout_problems(app, name, size) if not p.startswith("cut: ")] if name in LAYOUT_SCREENS else []
    found += [f"cut: {line!r}" for line in cut(lines[:-1])]  # the footer's keys are not sentences
    found += [f"English {m.group(0)!r}: {line.strip()!r}" for line in lines for m in ENGLISH.finditer(line)]
    return found


def checked(name: str, keys: list[str], size: tuple[int, int], seen: list[str]) -> Callable[[Any], Any]:
    """Presses ``keys`` once the screen is up, then checks what it draws (before the picture is taken)."""
    async def run_before(pilot: Any) -> None:
        await workers_done(pilot)
        for key in keys:
            await pilot.press(key)
        await workers_done(pilot)
        await pilot.pause()
        seen.extend(problems(pilot.app, name, size))

    return run_before


def _in(language: str, tmp_path: Path) -> None:
    i18n.use(language)  # the autouse fixture in tests/conftest.py puts English back
    if language == "sv":
        save_preferences(prefs_file(tmp_path), LIGHT)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ALL_SCREENS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_in_the_language(snap_compare: Any, tmp_path: Path, language: str, name: str) -> None:
    _in(language, tmp_path)
    factory, keys = ALL_SCREENS[name]
    seen: list[str] = []
    assert snap_compare(factory(tmp_path), terminal_size=(80, 24), run_before=checked(name, keys, (80, 24), seen))
    assert not seen, "\n".join([f"{name} in {language}:", *seen])


@pytest.mark.slow
@pytest.mark.parametrize("name", LAYOUT_SCREENS)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_game_screens_at_200x60(tmp_path: Path, language: str, name: str) -> None:
    _in(language, tmp_path)
    factory, keys = SCREENS[name]
    app = factory(tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        seen: list[str] = []
        await checked(name, keys, (200, 60), seen)(pilot)
        assert not seen, "\n".join([f"{name} in {language} at 200x60:", *seen, *lines_of(app)])


@pytest.mark.slow
@pytest.mark.parametrize("step", LESSON_STEPS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lesson_in_the_language(snap_compare: Any, tmp_path: Path, language: str, step: str) -> None:
    _in(language, tmp_path)
    seen: list[str] = []

    async def run_before(pilot: Any) -> None:
        await _lesson_at(step)(pilot)
        seen.extend(problems(pilot.app, "lesson", (80, 24)))

    assert snap_compare(_lesson_app(tmp_path), terminal_size=(80, 24), run_before=run_before)
    assert not seen, "\n".join([f"the lesson's {step} in {language}:", *seen])


# A table hosted here (test_tui_table_snapshots.py): its invite, and each way to another machine under it.
TABLE_VIEWS: dict[str, list[str]] = {"invite": [], **{way: keys for way, (keys, _) in WAYS.items()}}
LANGUAGE_PORTS = 100  # past the English pictures' fixed ports: workers run both at once


@pytest.mark.slow
@pytest.mark.parametrize("view", list(TABLE_VIEWS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_hosted_here_in_the_language(snap_compare: Any, tmp_path: Path, language: str, view: str) -> None:
    i18n.use(language)
    keys = TABLE_VIEWS[view]
    shown = i18n._(WAYS[view][1]) if view in WAYS else "spades-tui join"  # a command is no message: as it is
    port = host_port(LANGUAGE_PORTS + LANGUAGES.index(language) * len(TABLE_VIEWS) + list(TABLE_VIEWS).index(view))
    seen: list[str] = []

    async def run_before(pilot: Any) -> None:
        await until(pilot, lambda: "spades-tui join" in flat(pilot.app), "the table's invite")
        await pilot.press(*keys)
        await until(pilot, lambda: shown in flat(pilot.app), f"the view {view}")
        await pilot.pause()
        seen.extend(problems(pilot.app, view, (80, 24)))

    assert snap_compare(host_app(tmp_path, port), terminal_size=(80, 24), run_before=run_before)
    assert not seen, "\n".join([f"the table's {view} in {language}:", *seen])


def _public_table(tmp_path: Path, server: Any) -> Any:
    client = TableClient(URL, name="Ada", seat_file=tmp_path / "seat.json", create=(RULES, 0), public=True)
    return SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                     start=JoinTable(client))


def _guest_of_ada(tmp_path: Path, server: Any) -> Any:
    ada = server.call(server.seat(TableClient(URL, name="Ada", seat_file=tmp_path / "ada.json",
                                              create=(Rules(), 0))))
    client = TableClient(URL, code=ada.invite[0], name="Bo", seat_file=tmp_path / "bo.json")
    return SpadesApp(LaunchOptions(bot_pause=0), data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                     start=JoinTable(client))


# At a table server (test_tui_table_snapshots.py): a public table's invite, a server not reached, a guest waiting
# for the person at the other seat.  Each: how to make the app, and words of its screen (in the language) to wait for.
SERVED_VIEWS: dict[str, tuple[Callable[[Path, Any], Any], Callable[[], str]]] = {
    "public_wait": (_public_table, lambda: i18n._("The rules of this table: {rules}").split("{")[0].strip()),
    "unreachable": (lambda p, s: _join_unreachable(p)(),
                    lambda: i18n._("nothing is listening there (is the table or the server still open, and the port "
                                   "right?)")[:20]),
    "guest_waits": (_guest_of_ada, lambda: i18n._("Waiting for {player} at the other machine.").format(player="Ada")),
}


@pytest.mark.slow
@pytest.mark.parametrize("view", list(SERVED_VIEWS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_at_a_server_in_the_language(snap_compare: Any, tmp_path: Path, served: Any,  # noqa: F811
                                             language: str, view: str) -> None:
    i18n.use(language)
    factory, words = SERVED_VIEWS[view]
    app, shown = factory(tmp_path, served), " ".join(words().split())
    seen: list[str] = []

    async def run_before(pilot: Any) -> None:
        await until(pilot, lambda: shown in flat(pilot.app), f"the view {view}")
        await pilot.pause()
        seen.extend(problems(pilot.app, view, (80, 24)))

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
    assert not seen, "\n".join([f"{view} in {language}:", *seen])


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RATED_SCREENS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rated_table_in_the_language(snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       language: str, name: str) -> None:
    """test_tui_snapshots.py's rated table, its facts as a client in the language gives them."""
    _in(language, tmp_path)
    facts = dataclasses.replace(RATED, lines="\n".join(
        [i18n._("Rated game"), i18n._("{player} disconnected").format(player="Bot (easy)")]))
    real = session_module.Session.view
    monkeypatch.setattr(session_module.Session, "view",
                        lambda self, seat=-1: dataclasses.replace(real(self, seat), table_facts=facts))
    factory, keys = RATED_SCREENS[name]
    seen: list[str] = []
    assert snap_compare(factory(tmp_path), terminal_size=(80, 24), run_before=checked(name, keys, (80, 24), seen))
    assert not seen, "\n".join([f"{name} in {language}:", *seen])


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_in_the_language(snap_compare: Any, tmp_path: Path, served: Any, language: str) -> None:  # noqa: F811
    """"Find a table" at a server: the public tables and the leaderboard, your row marked (test_tui_table_snapshots)."""
    i18n.use(language)
    served.call(_lobby_filled(served, tmp_path, tmp_path / "data"))
    mark = i18n._("← you")
    seen: list[str] = []

    async def run_before(pilot: Any) -> None:
        await _choose(pilot, "find")
        await until(pilot, lambda: "Bo 0 – 0 Cy" in flat(pilot.app) and mark in flat(pilot.app), "the lobby")
        await pilot.pause()
        seen.extend(problems(pilot.app, "lobby", (80, 24)))

    assert snap_compare(_app_at_server(tmp_path), terminal_size=(80, 24), run_before=run_before)
    assert not seen, "\n".join([f"the lobby in {language}:", *seen])


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_moved_to_the_server_in_the_language(snap_compare: Any, tmp_path: Path, served: Any,  # noqa: F811
                                                     language: str) -> None:
    i18n.use(language)
    port = host_port(LANGUAGE_PORTS + 20 + LANGUAGES.index(language))
    seen: list[str] = []

    async def run_before(pilot: Any) -> None:
        await until(pilot, lambda: "spades-tui join" in flat(pilot.app), "the table's invite")
        await pilot.press("down", "enter")  # past "this network", the settings' server
        await until(pilot, lambda: f"spades-tui join {WHERE}" in flat(pilot.app), "the table at the server")
        await pilot.pause()
        seen.extend(problems(pilot.app, "moved", (80, 24)))

    assert snap_compare(host_app(tmp_path, port, WHERE), terminal_size=(80, 24), run_before=run_before)
    assert not seen, "\n".join([f"the table moved in {language}:", *seen])
