"""What the first screen loads: the searchers, the solver, the hint service, Markdown, the palette's
commands, the help screen and the network tables (aiohttp) load only when first used (issue 21: first paint
near a bare Textual app's);
so do the records, the reducer, the session, the view models and the game's screens (the start screen
lists the saved games once its menu is drawn), and the other commands' modules.

Structural, not timed: each check runs a fresh interpreter and lists the modules it imported.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Loaded later, when a game, a hint, a review, the palette or help needs them.
LATER = (
    "spades_tui.bots.hard", "spades_tui.bots.expert", "spades_tui.bots.sampling", "spades_tui.bots.hints",
    "spades_tui.bots.core", "spades_tui.bots.heuristic", "spades_tui.solver", "spades_tui.tui.app.commands",
    "spades_tui.tui.screens.help", "spades_tui.tui.app.guide", "markdown_it", "rich.markdown", "pygments",
    "spades_tui.engine.reducer", "spades_tui.engine.record", "spades_tui.engine.observation",
    "spades_tui.session.session", "spades_tui.keep.slots", "spades_tui.keep.gamelist", "spades_tui.keep.stats",
    "spades_tui.session.view",
    "spades_tui.tui.viewmodels", "spades_tui.tui.gameview", "spades_tui.tui.news", "spades_tui.tui.notation",
    "spades_tui.tui.panelmodel", "spades_tui.tui.reviewmodel", "spades_tui.tui.startlist",
    "spades_tui.tui.screens.game", "spades_tui.tui.screens.setup",
    "spades_tui.tui.widgets.cards", "spades_tui.cli.bench", "spades_tui.cli.analyse", "spades_tui.cli.host",
    "spades_tui.bots.external", "spades_tui.table.seat.client", "spades_tui.table.host.table", "aiohttp",
    # The TOML reader waits for a settings file; secrets and hashlib (OpenSSL) for a table or a served tab.
    "tomllib", "secrets", "hashlib",
)


def imported_by(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


@pytest.fixture(scope="module")
def start_closure() -> set[str]:
    """What ``spades-tui`` loads before its first screen: the command line, then the app."""
    return imported_by("import spades_tui.cli\nspades_tui.cli.build_parser([])\n"
                       "from spades_tui.tui.app.app import SpadesApp\n"
                       "from spades_tui.tui.screens.start import StartScreen")


@pytest.mark.parametrize("name", LATER)
def test_the_start_screen_does_not_load(start_closure: set[str], name: str) -> None:
    assert not loaded(start_closure, name), f"{name} is imported before the first screen"


def test_the_check_sees_what_is_loaded(start_closure: set[str]) -> None:
    # The probe works: what the start screen does need is there.
    for name in ("spades_tui.tui.app.app", "spades_tui.tui.screens.start", "spades_tui.settings.preferences",
                 "spades_tui.engine.rules", "textual.app"):
        assert loaded(start_closure, name)


def test_what_waits_still_loads_when_asked() -> None:
    # The modules the start screen leaves out are there on first import.
    modules = imported_by(
        "from spades_tui.bots.hard import HardBot\nfrom spades_tui.bots.expert import DEFAULT_BUDGET as EXPERT_BUDGET\n"
        "from spades_tui.bots.hints import Hint\nfrom spades_tui.solver.analysis import HandReview\n"
        "assert HardBot.__module__ == 'spades_tui.bots.hard' and EXPERT_BUDGET > 0\n"
        "assert Hint.__name__ == 'Hint' and HandReview.__name__ == 'HandReview'\n"
    )
    assert loaded(modules, "spades_tui.bots.hard") and loaded(modules, "spades_tui.solver")


def test_making_a_bot_loads_its_level() -> None:
    modules = imported_by("from spades_tui.bots.levels import make_bot\nmake_bot('hard', 1)")
    assert loaded(modules, "spades_tui.bots.hard") and not loaded(modules, "spades_tui.bots.expert")


# The packages whose modules are imported one by one (``from spades_tui.engine.rules import Rules``): the command
# line's package holds the command dispatcher (its ``main`` is the installed script), the top one the version.
WITH_CODE = {"spades_tui", "spades_tui.cli"}


def test_packages_are_plain() -> None:
    """One way to keep the start fast: direct submodule imports, no package that re-exports or loads lazily."""
    root = ROOT / "spades_tui"
    for init in sorted(root.rglob("__init__.py")):
        package = ".".join(init.relative_to(ROOT).parent.parts)
        if package in WITH_CODE:
            continue
        body = ast.parse(init.read_text(encoding="utf-8")).body
        docstring = [node for node in body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)]
        assert body == docstring, f"{package}/__init__.py holds more than its docstring"


def test_a_command_loads_only_its_own_module() -> None:
    modules = imported_by("import spades_tui.cli\nspades_tui.cli.build_parser(['replay', 'x.json'])")
    assert loaded(modules, "spades_tui.cli.replay") and not loaded(modules, "spades_tui.cli.arena")
    every = imported_by("import spades_tui.cli\nspades_tui.cli.build_parser()")
    assert all(loaded(every, f"spades_tui.cli.{name}") for name in ("replay", "analyse", "arena", "host", "join"))


# A game's first screen (issue 33): loaded when first used, not before that screen is drawn.
GAME_LATER = (
    "spades_tui.solver", "spades_tui.keep.stats", "sqlite3", "spades_tui.bots.hints", "spades_tui.bots.hard",
    "spades_tui.bots.expert", "spades_tui.bots.sampling", "spades_tui.tui.screens.help", "spades_tui.tui.app.guide",
    "markdown_it",
    "rich.markdown", "spades_tui.table.seat.client", "aiohttp",
    "spades_tui.session.challenge", "spades_tui.keep.challenges",  # a daily challenge's, not every game's
)

FIRST_PAINT = """
import asyncio, gc, json, sys, tempfile
from pathlib import Path
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.screens.game import GameScreen

found = {}
drawn = SpadesApp._first_paint_done
renders = []
render_view = GameScreen.render_view

def counted_render(self):
    if self.seat_view is not None and "modules" not in found:
        renders.append(type(self).__name__)
    render_view(self)

GameScreen.render_view = counted_render
from textual.widgets import Footer
footer_recompose = Footer.recompose
recomposed = []

async def counted_recompose(self):
    if "modules" not in found:
        recomposed.append(type(self.screen).__name__)
    await footer_recompose(self)

Footer.recompose = counted_recompose

def first_paint_done(self):
    session = self.session
    bots = getattr(session, "bots", {})
    found.update(modules=sorted(sys.modules), gc_off=not gc.isenabled(), screen=type(self.screen).__name__,
                 bot_to_act=session is not None and session.bot_thinking,
                 bot_started=any(b._process is not None for b in bots.values()), renders=list(renders),
                 footer_recomposed=list(recomposed))
    drawn(self)
    found.update(gc_after=gc.isenabled(), bot_warm=all(b._process is not None for b in bots.values()))

SpadesApp._first_paint_done = first_paint_done
home = Path(tempfile.mkdtemp())
app = SpadesApp(LaunchOptions(**json.loads(sys.argv[1])), data_dir=home, config_dir=home / "config")
gc.disable()  # as the command line does (cli/play.py)

async def main():
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            if "gc_after" in found:
                break
            await pilot.pause(0.01)

asyncio.run(main())
app.close_session()
print(json.dumps(found))
"""


# Seed 1 cuts for the person to draft first, seed 2 for the bot.
@pytest.mark.parametrize("options", [{"hotseat": True}, {"bot": "hard", "seed": 1}, {"bot": "hard", "seed": 2}],
                         ids=["hotseat", "bot-person-first", "bot-bot-first"])
@pytest.mark.slow
def test_a_game_draws_its_first_table_before_loading_the_rest(options: dict[str, object]) -> None:
    out = subprocess.run([sys.executable, "-c", FIRST_PAINT, json.dumps(options)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    found = json.loads(out.splitlines()[-1])
    modules = set(found["modules"])
    assert found["screen"] in ("HandoffScreen", "DraftScreen")  # the game's first screen, drawn
    assert loaded(modules, "spades_tui.session.session") and loaded(modules, "spades_tui.tui.screens.game")
    for name in GAME_LATER:
        assert not loaded(modules, name), f"{name} is imported before the game's first screen is drawn"
    # No garbage collection until then, and from then on; the bot's process starts after it unless it acts first.
    assert found["gc_off"] and found["gc_after"]
    # The bot's first decision waits for the first screen too, though the bot acts first (seed 2): it came back and
    # redrew the table before anything was on the screen.
    assert not found["bot_to_act"] and not found["bot_started"], "the bot started before the first screen"
    assert found["bot_warm"]
    # The table drawn once before its first paint: a new screen is told the terminal's size twice as it comes up,
    # and each drawing restyled and laid it out again.
    if found["screen"] == "DraftScreen":
        assert found["renders"] == ["DraftScreen"], found["renders"]
    # The footer's keys composed once, as the screen settles them (the focus shadows "left" of "left,up,k"):
    # Textual's footer composed empty, then again on the screen's first bindings signal, then once more.
    assert found["footer_recomposed"] == [], found["footer_recomposed"]


def test_the_command_line_turns_the_collector_off_for_the_start_only() -> None:
    probe = ("import gc, sys\nimport spades_tui.tui.app.launch as launch\n"
             "launch.run_app = lambda options: print(gc.isenabled()) or 0\n"
             "from spades_tui.cli import main\nmain([])\nprint(gc.isenabled())\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True).stdout.split()
    assert out == ["False", "True"]


def test_the_play_screens_plurals_load_without_the_solver() -> None:
    # A game resumed in play draws "2 tricks" under the table (viewmodels.play_view) before anything is solved.
    modules = imported_by("from spades_tui.solver.words import tricks_words\nassert tricks_words(2) == '2 tricks'")
    for name in ("spades_tui.solver.solver", "spades_tui.solver.judgement", "spades_tui.solver._points"):
        assert not loaded(modules, name), f"{name} loads with the play screen's words"


def test_every_kind_of_game_view_has_its_screen() -> None:
    """The game screens are imported by name, one at a time (tui/app/gamescreens.py): each kind names a real one."""
    from spades_tui.tui.app.gamescreens import _SCREENS
    from spades_tui.tui.gameview import Kind
    from spades_tui.tui.screens.game import GameScreen

    assert set(_SCREENS) == {kind.name for kind in Kind}
    from importlib import import_module

    for module, name in _SCREENS.values():
        screen = getattr(import_module(f"spades_tui.tui.screens.{module}"), name)
        assert issubclass(screen, GameScreen) and screen is not GameScreen
