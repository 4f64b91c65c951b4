"""A plain (non-editable) ``pip install .`` carries the assets the game reads."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import ROOT

ASSETS = ("spades.tcss", "rules.md", "guide.md", "serve/app_index.html")


def _installed_copy() -> importlib.metadata.Distribution:
    try:
        dist = importlib.metadata.distribution("spades-tui")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("spades-tui is not installed in this environment (CI installs it)")
    location = Path(str(dist.locate_file(""))).resolve()
    if location == ROOT or (location / "pyproject.toml").exists():
        pytest.skip("an editable install reads the source tree's assets")
    return dist


def test_the_installed_package_lists_its_assets() -> None:
    files = {str(f) for f in _installed_copy().files or ()}
    for name in ASSETS:
        assert f"spades_tui/assets/{name}" in files


def test_the_installed_package_finds_its_assets_outside_the_source_tree(tmp_path: Path) -> None:
    _installed_copy()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = (
        "import spades_tui, spades_tui.tui.app.resources as r; "
        "print(spades_tui.__file__); print(r.read_asset('rules.md')[:40])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    module_file, first_line = result.stdout.splitlines()[:2]
    assert not Path(module_file).resolve().is_relative_to(ROOT / "spades_tui")  # the installed copy
    assert first_line.startswith("# Two-player Spades")
