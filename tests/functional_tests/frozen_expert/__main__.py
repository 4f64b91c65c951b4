"""``python -m tests.functional_tests.frozen_expert [--budget S] [--seed N] [--iters N]``: the frozen
expert speaking docs/bot-protocol.md on stdin/stdout, one process, no pool (as the arena runs the expert)."""

from __future__ import annotations

import argparse
import sys
from typing import Optional

from spades_tui.bots import Bot
from spades_tui.bots.server import serve

from .expert import ExpertBot


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--budget", type=float, default=None)
    p.add_argument("--iters", type=int, default=None)
    p.add_argument("--seed", type=int, default=None)
    ns = p.parse_args(argv)

    def make(level: str, seed: Optional[int], budget: Optional[float]) -> Bot:
        b = ns.budget if ns.budget is not None else (None if ns.iters is not None else 1.0)
        return ExpertBot(seed if seed is not None else ns.seed, budget=b, iterations=ns.iters, workers=1)

    return serve("frozen-expert", None, ns.seed, sys.stdin, sys.stdout, factory=make)


if __name__ == "__main__":
    raise SystemExit(main())
