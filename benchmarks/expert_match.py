"""``python -m benchmarks.expert_match A B --games N --seed S [--budget S] --out FILE``:
``spades-tui arena A B --hands-only`` whose report is rewritten to ``FILE`` after every deal.

For the long matches of issue 30 on a shared machine: a match stopped before its end still
leaves the report of the deals it finished (the first line says how many).  Bots as the arena
takes them, ``git:COMMIT:BOT`` included.  A measuring script, not a test.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Optional, Sequence

from spades_tui.arena.gitbot import GitBots
from spades_tui.arena.match import run_deals
from spades_tui.arena.stats import ArenaConfig, DealResult, format_report, summarise


def write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    os.chmod(tmp, 0o644)  # a report for whoever reads the notes, not a secret
    os.replace(tmp, path)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=float, default=None)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    ns = p.parse_args(argv)
    deals = (ns.games + 1) // 2
    command = (f"expert_match {ns.a} {ns.b} --games {ns.games} --seed {ns.seed}"
               + (f" --budget {ns.budget:g}" if ns.budget is not None else ""))
    with GitBots() as git:
        made = git.made(ns.a, ns.b, ns.budget)
        config = ArenaConfig(ns.a, ns.b, hands_only=True, seed=ns.seed, budget=ns.budget, made=made)
        done: list[DealResult] = []
        for result in run_deals(config, deals, ns.jobs):
            done.append(result)
            head = f"{command}\n{len(done)} of {deals} deals done" + (" (partial)" if len(done) < deals else "")
            write(ns.out, head + "\n" + format_report(config, summarise(done)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
