"""What the first screen loads: the searchers, the solver, the hint service, Markdown, the palette's
commands and the help screen load only when first used (issue 21: first paint near a bare Textual app's).

Structural, not timed: each check runs a fresh interpreter and lists the modules it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Loaded later, when a game, a hint, a review, the palette or help needs them.
LATER = (
    "spades_tui.bots.hard", "spades_tui.bots.expert", "spades_tui.bots.sampling", "spades_tui.bots.hints",
    "spades_tui.bots.core", "spades_tui.bots.heuristic", "spades_tui.solver", "spades_tui.tui.commands",
    "spades_tui.tui.screens.help", "markdown_it", "rich.markdown", "pygments",
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
    return imported_by("import spades_tui.cli\nfrom spades_tui.tui.app import SpadesApp")


@pytest.mark.parametrize("name", LATER)
def test_the_start_screen_does_not_load(start_closure: set[str], name: str) -> None:
    assert not loaded(start_closure, name), f"{name} is imported before the first screen"


def test_the_check_sees_what_is_loaded(start_closure: set[str]) -> None:
    # The probe works: what the start screen does need is there.
    for name in ("spades_tui.tui.app", "spades_tui.session.session", "spades_tui.engine", "textual.app"):
        assert loaded(start_closure, name)


def test_what_waits_still_loads_when_asked() -> None:
    # The names the package exported eagerly before are there on first use (module __getattr__).
    modules = imported_by(
        "from spades_tui.bots import HardBot, EXPERT_BUDGET, NormalBot\n"
        "from spades_tui.session.view import Hint, HandReview\n"
        "assert HardBot.__module__ == 'spades_tui.bots.hard' and EXPERT_BUDGET > 0\n"
        "assert Hint.__name__ == 'Hint' and HandReview.__name__ == 'HandReview'\n"
    )
    assert loaded(modules, "spades_tui.bots.hard") and loaded(modules, "spades_tui.solver")


def test_an_unknown_name_is_still_an_error() -> None:
    import spades_tui.bots
    import spades_tui.session.view

    with pytest.raises(AttributeError):
        _ = spades_tui.bots.NoSuchBot  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        _ = spades_tui.session.view.NoSuchThing  # type: ignore[attr-defined]


def test_making_a_bot_loads_its_level() -> None:
    modules = imported_by("from spades_tui.bots import make_bot\nmake_bot('hard', 1)")
    assert loaded(modules, "spades_tui.bots.hard") and not loaded(modules, "spades_tui.bots.expert")
