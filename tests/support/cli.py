"""Running the real command (``python -m spades_tui``) from tests, one way for all of them."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence

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


def loaded_by(code: str, roots: Sequence[str] = ("textual", "rich"), **env: str) -> list[str]:
    """The modules under ``roots`` (top-level package names) loaded once ``code`` has run in a fresh interpreter from
    the source tree (``env`` added to its environment); the code must succeed."""
    probe = f"{code}\nimport sys as _s\nprint(sorted(m for m in _s.modules if m.split('.')[0] in {tuple(roots)!r}))\n"
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=cli_env(**env), capture_output=True,
                            text=True, timeout=BOUND)
    assert result.returncode == 0, result.stderr
    loaded = ast.literal_eval(result.stdout.splitlines()[-1])
    assert isinstance(loaded, list)
    return [str(m) for m in loaded]


def output_loading_no_interface(*args: str, **env: str) -> str:
    """What ``spades-tui ARGS`` prints, run in a fresh interpreter that must load neither Textual nor Rich (a
    command without a screen starts fast, and runs where there is no terminal); it must succeed."""
    code = ("import contextlib, io, sys\nfrom spades_tui.cli import main\nout = io.StringIO()\n"
            f"with contextlib.redirect_stdout(out):\n    rc = main({list(args)!r})\n"
            "assert rc == 0, (rc, out.getvalue())\nsys.stderr.write(out.getvalue())\n")
    probe = f"{code}print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n"
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=cli_env(**env), capture_output=True,
                            text=True, timeout=BOUND)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "[]\n", f"{args} loaded {result.stdout}"
    return result.stderr


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
