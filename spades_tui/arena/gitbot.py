"""Bots of an earlier commit: ``git:COMMIT:SPEC`` plays ``SPEC`` as that commit built it.

The commit's ``spades_tui`` package is extracted from the repository this package was
loaded from (``git archive``) into a temporary folder, and the bot runs as an external
bot (``python -m spades_tui bot SPEC`` with that folder first on ``PYTHONPATH``) speaking
docs/bot-protocol.md, so a new bot can be measured against an old one without a copy of the
old one kept in the tree.  An expert from a commit solves alone (``workers=1``) unless the
spec says otherwise, as the arena's own expert does.
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Optional

from ..i18n.language import _

Made = Optional[tuple[str, dict[str, str]]]  # the spec to make and its environment; None: the spec as it is

PREFIX = "git:"
PACKAGE = "spades_tui"
GIT_TIMEOUT = 60.0  # seconds for one git command: an archive of the package takes well under one


class GitBotError(ValueError):
    """A ``git:`` spec that cannot be built (bad form, no repository, unknown commit)."""


def parse_git_spec(spec: str) -> Optional[tuple[str, str]]:
    """``git:COMMIT:SPEC`` as ``(COMMIT, SPEC)``; None for any other spec."""
    if not spec.startswith(PREFIX):
        return None
    commit, sep, bot = spec[len(PREFIX):].partition(":")
    commit, bot = commit.strip(), bot.strip()
    if not sep or not commit or not bot:
        raise GitBotError(_("{spec}: expected git:COMMIT:BOT, e.g. git:fcb870a:expert").format(spec=repr(spec)))
    if bot.startswith("cmd:") or bot.startswith(PREFIX):
        raise GitBotError(_("{spec}: BOT must be a built-in bot of that commit (easy, normal, hard, expert)").format(
            spec=repr(spec)))
    if not all(ch.isalnum() or ch in "._-/~^" for ch in commit) or commit.startswith("-"):
        raise GitBotError(_("{spec}: {commit} is not a commit name").format(spec=repr(spec), commit=repr(commit)))
    return commit, bot


def repository() -> Path:
    """The git work tree holding this package."""
    here = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, timeout=GIT_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitBotError(_("git could not be run ({reason})").format(reason=exc)) from None
    if out.returncode != 0:
        raise GitBotError(_("{folder} is not in a git repository, so a git: bot cannot be built").format(folder=here))
    return Path(out.stdout.strip())


def extract(commit: str, into: Path, repo: Optional[Path] = None) -> str:
    """Extract the commit's package into ``into``; return the commit's full hash."""
    repo = repository() if repo is None else repo
    git = ["git", "-C", str(repo)]
    try:
        full = subprocess.run([*git, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                              capture_output=True, text=True, timeout=GIT_TIMEOUT, stdin=subprocess.DEVNULL)
        if full.returncode != 0:
            raise GitBotError(_("commit {commit} is not in the repository at {folder} (a shallow clone? fetch the "
                                "history: git fetch --unshallow)").format(commit=repr(commit), folder=repo))
        archive = subprocess.run([*git, "archive", "--format=tar", full.stdout.strip(), PACKAGE],
                                 capture_output=True, timeout=GIT_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitBotError(_("git could not be run ({reason})").format(reason=exc)) from None
    if archive.returncode != 0:
        tail = archive.stderr.decode("utf-8", "replace").strip()[-300:]
        raise GitBotError(_("commit {commit} has no {package} package to build ({reason})").format(
            commit=repr(commit), package=PACKAGE, reason=tail))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")  # "data": no links out, no absolute paths
    return full.stdout.strip()


class GitBots:
    """The ``git:`` bots of one match: each commit extracted once, all removed on ``close``."""

    def __init__(self) -> None:
        self.root: Optional[Path] = None
        self.trees: dict[str, Path] = {}

    def __enter__(self) -> GitBots:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        root, self.root, self.trees = self.root, None, {}
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)

    def tree(self, commit: str) -> Path:
        """A folder holding the commit's package (extracted on first use)."""
        got = self.trees.get(commit)
        if got is None:
            if self.root is None:
                self.root = Path(tempfile.mkdtemp(prefix="spades-git-bots-"))
            got = self.root / f"c{len(self.trees)}"
            got.mkdir()
            extract(commit, got)
            self.trees[commit] = got
        return got

    def resolve(self, spec: str, budget: Optional[float] = None) -> tuple[str, Optional[dict[str, str]]]:
        """The spec to make and the environment to run it in: a ``git:`` spec as an external bot,
        any other spec as it is (environment None)."""
        parsed = parse_git_spec(spec)
        if parsed is None:
            return spec, None
        commit, bot = parsed
        tree = self.tree(commit)
        level, _sep, options = bot.partition(":")
        if level == "expert" and "workers=" not in options:
            bot = f"{level}:{options + ',' if options else ''}workers=1"
        command = f"{shlex.quote(sys.executable)} -m {PACKAGE} bot {shlex.quote(bot)}"
        if budget is not None:
            command += f" --budget {budget:g}"
        env = {**os.environ, "PYTHONPATH": str(tree)}
        return f"cmd:{command}", env

    def made(self, a: str, b: str, budget: Optional[float] = None) -> tuple[Made, Made]:
        """``ArenaConfig.made`` for sides ``a`` and ``b``: what a ``git:`` side is made from."""

        def one(spec: str) -> Made:
            got, env = self.resolve(spec, budget)
            return None if env is None else (got, env)

        return one(a), one(b)
