"""Running the real command (``python -m spades_tui``) from tests, one way for all of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

from spades_tui.engine.record import GameRecord
from spades_tui.keep.storage import load_record
from tests.support.wait import BOUND

ROOT = Path(__file__).resolve().parents[2]


def cli_env(**extra: str) -> dict[str, str]:
    """This environment, with the source tree importable and ``extra`` set."""
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def run_spades(
    *args: str, timeout: float = BOUND, input: Optional[str] = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run ``spades-tui ARGS`` to completion; ``env`` adds variables (e.g. XDG_DATA_HOME).  ``timeout`` is
    a bound (tests/support/wait.py): only a stalled command reaches it."""
    return subprocess.run(
        [sys.executable, "-m", "spades_tui", *args],
        cwd=ROOT,
        env=cli_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
    )


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, ended but not yet reaped, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def saved(path: Path) -> Optional[GameRecord]:
    """The game record at ``path``, or None while it is missing or not yet a whole record."""
    try:
        return load_record(path)
    except Exception:
        return None
