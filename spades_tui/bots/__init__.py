"""Bots: they decide from an observation only (docs/bot-protocol.md).

``make_bot(spec)`` builds one from a spec: ``easy``, ``normal``, ``hard``, ``expert``
(options after a colon: ``hard:budget=0.2``, ``hard:iters=50``, ``expert:workers=1``) or
``cmd:PROGRAM ARGS`` for an external program speaking the protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .._lazy import exports, lazy_exports

if TYPE_CHECKING:
    from .base import Bot, BotError
    from .expert import DEFAULT_BUDGET as EXPERT_BUDGET
    from .expert import ExpertBot
    from .external import DEFAULT_TIMEOUT, ExternalBot
    from .hard import DEFAULT_BUDGET, HardBot
    from .heuristic import EasyBot, NormalBot

# The searching bots (and the solver under them) load only when a bot is made, not when the
# interface starts: the start screen (which reads LEVELS) and a child process for the easy bot
# need none of them.
__getattr__ = lazy_exports(__name__, {
    **exports(base=("Bot", "BotError"), external=("DEFAULT_TIMEOUT", "ExternalBot"),
              hard=("DEFAULT_BUDGET", "HardBot"), expert=("ExpertBot",), heuristic=("EasyBot", "NormalBot")),
    "EXPERT_BUDGET": "expert:DEFAULT_BUDGET",  # the expert's DEFAULT_BUDGET, under the name this package gives it
})


LEVELS = ("easy", "normal", "hard", "expert")
SEARCHERS = ("hard", "expert")  # the levels that take budget= and iters=


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """Split ``hard:budget=0.2,iters=100`` into the level and its numeric options."""
    level, _, rest = spec.partition(":")
    options: dict[str, float] = {}
    for part in rest.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or key.strip() not in ("budget", "iters", "workers"):
            raise ValueError(
                f"unknown bot option {part!r} in {spec!r} (known: budget=SECONDS, iters=N, workers=N)"
            )
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"bot option {key.strip()} must be a number, not {value!r}") from None
        if number <= 0:
            raise ValueError(f"bot option {key.strip()} must be positive, not {value!r}")
        options[key.strip()] = number
    return level, options


def make_bot(
    spec: str,
    seed: Optional[int] = None,
    budget: Optional[float] = None,
    iterations: Optional[int] = None,
    timeout: Optional[float] = None,
    cwd: Optional[str] = None,
    env: Optional[dict[str, str]] = None,
    workers: Optional[int] = None,
) -> Bot:
    """A bot from a spec: ``easy``, ``normal``, ``hard[:budget=S,iters=N]``,
    ``expert[:budget=S,iters=N,workers=N]`` or ``cmd:PROGRAM ARGS``.

    ``budget`` (seconds per decision) and ``iterations`` apply to the hard and
    expert bots and are overridden by options in the spec; ``workers`` is the
    expert's process pool (default: every core; 1: no pool); ``timeout`` limits
    each answer of an external bot (default ``DEFAULT_TIMEOUT``).  Raises ``ValueError`` for an unknown spec.
    """
    if spec.startswith("cmd:"):
        from .external import DEFAULT_TIMEOUT, ExternalBot

        command = spec[4:].strip()
        if not command:
            raise ValueError("cmd: needs a program to run, e.g. cmd:python -m spades_tui bot easy")
        return ExternalBot(command, timeout=DEFAULT_TIMEOUT if timeout is None else timeout, cwd=cwd, env=env)
    level, options = parse_spec(spec)
    from .heuristic import EasyBot, NormalBot

    if level == "easy" and not options:
        return EasyBot(seed)
    if level == "normal" and not options:
        return NormalBot(seed)
    if level in SEARCHERS:
        if "workers" in options and level != "expert":
            raise ValueError(f"bot {level} takes no workers= option (only expert has a process pool)")
        b = options.get("budget", budget)
        it = options.get("iters", iterations)
        if "iters" in options and "budget" not in options:
            b = None  # a pure iteration budget: deterministic
        cap = int(it) if it is not None else None
        if level == "hard":
            from .hard import DEFAULT_BUDGET, HardBot

            return HardBot(seed, budget=b if (b is not None or it is not None) else DEFAULT_BUDGET, iterations=cap)
        from .expert import DEFAULT_BUDGET as EXPERT_BUDGET
        from .expert import ExpertBot

        w = options.get("workers", workers)
        return ExpertBot(seed, budget=b if (b is not None or it is not None) else EXPERT_BUDGET, iterations=cap,
                         workers=int(w) if w is not None else None)
    if level in LEVELS:
        raise ValueError(f"bot {level} takes no options (only hard and expert have budget= and iters=)")
    raise ValueError(f"unknown bot {spec!r}: expected easy, normal, hard, expert or cmd:PROGRAM")


__all__ = [
    "DEFAULT_BUDGET", "DEFAULT_TIMEOUT", "EXPERT_BUDGET", "LEVELS", "SEARCHERS", "Bot", "BotError", "EasyBot",
    "ExpertBot", "ExternalBot", "HardBot", "NormalBot", "make_bot", "parse_spec",
]
