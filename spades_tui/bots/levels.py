"""The bot levels, and a bot made from a spec: ``easy``, ``normal``, ``hard``, ``expert`` (options after a
colon: ``hard:budget=0.2``, ``hard:iters=50``, ``expert:workers=1``) or ``cmd:PROGRAM ARGS`` for an external
program speaking the protocol (docs/bot-protocol.md).

``make_bot`` imports the level it makes inside the function: the start screen (which reads ``LEVELS``) and a
child process for the easy bot load neither the searchers nor the solver under them
(tests/unit_tests/test_start_imports.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..i18n.language import _, pgettext
from .choices import EXPERT_CHOICES

if TYPE_CHECKING:
    from .base import Bot

LEVELS = ("easy", "normal", "hard", "expert")
SEARCHERS = ("hard", "expert")  # the levels that take budget= and iters=


def level_name(level: str) -> str:
    """A level of ``LEVELS`` as a player reads it, in their language (a choice on the settings and new-game screens:
    ``hard`` is ``svår`` in Swedish); the level itself (``--bot hard``, the preferences file, a record) is never
    translated.  Anything else (a ``cmd:`` bot) as it is."""
    if level == "easy":
        return pgettext("bot level", "easy")
    if level == "normal":
        return pgettext("bot level", "normal")
    if level == "hard":
        return pgettext("bot level", "hard")
    if level == "expert":
        return pgettext("bot level", "expert")
    return level




def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """Split ``hard:budget=0.2,iters=100`` into the level and its numeric options."""
    level, options, _choices = split_spec(spec)
    return level, options


def split_spec(spec: str) -> tuple[str, dict[str, float], dict[str, str]]:
    """Split ``expert:budget=0.2,bid=dd`` into the level, its numeric options and its expert choices."""
    level, _colon, rest = spec.partition(":")
    options: dict[str, float] = {}
    choices: dict[str, str] = {}
    for part in rest.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if eq and key in EXPERT_CHOICES:
            one_of = ", ".join(EXPERT_CHOICES[key])
            if level != "expert":
                raise ValueError(_("bot option {key} is an expert's, one of {choices}").format(key=key, choices=one_of))
            if value not in EXPERT_CHOICES[key]:
                raise ValueError(_("expert option {key} must be one of {choices}, not {value}").format(
                    key=key, choices=one_of, value=repr(value)))
            choices[key] = value
            continue
        if not eq or key not in ("budget", "iters", "workers"):
            known = "budget=SECONDS, iters=N, workers=N; expert: " + ", ".join(
                f"{k}={'|'.join(v)}" for k, v in EXPERT_CHOICES.items())
            raise ValueError(_("unknown bot option {option} in {spec} (known: {known})").format(
                option=repr(part), spec=repr(spec), known=known))
        try:
            number = float(value)
        except ValueError:
            raise ValueError(_("bot option {key} must be a number, not {value}").format(key=key, value=repr(value))) \
                from None
        if number <= 0:
            raise ValueError(_("bot option {key} must be positive, not {value}").format(key=key, value=repr(value)))
        options[key] = number
    return level, options, choices


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
    ``expert[:budget=S,iters=N,workers=N,CHOICE=VALUE]`` (``EXPERT_CHOICES``) or ``cmd:PROGRAM ARGS``.

    ``budget`` (seconds per decision) and ``iterations`` apply to the hard and
    expert bots and are overridden by options in the spec; ``workers`` is the
    expert's process pool (default: every core; 1: no pool); ``timeout`` limits
    each answer of an external bot (default ``DEFAULT_TIMEOUT``).  Raises ``ValueError`` for an unknown spec.
    """
    if spec.startswith("cmd:"):
        from .external import DEFAULT_TIMEOUT, ExternalBot

        command = spec[4:].strip()
        if not command:
            raise ValueError(_("cmd: needs a program to run, e.g. {example}").format(
                example="cmd:python -m spades_tui bot easy"))
        return ExternalBot(command, timeout=DEFAULT_TIMEOUT if timeout is None else timeout, cwd=cwd, env=env)
    level, options, choices = split_spec(spec)
    from .heuristic import EasyBot, NormalBot

    if level == "easy" and not options:
        return EasyBot(seed)
    if level == "normal" and not options:
        return NormalBot(seed)
    if level in SEARCHERS:
        if "workers" in options and level != "expert":
            raise ValueError(_("bot {level} takes no workers= option (only expert has a process pool)").format(
                level=level))
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
                         workers=int(w) if w is not None else None, choices=choices)
    if level in LEVELS:
        raise ValueError(_("bot {level} takes no options (only hard and expert have budget= and iters=)").format(
            level=level))
    raise ValueError(_("unknown bot {spec}: expected easy, normal, hard, expert or cmd:PROGRAM").format(
        spec=repr(spec)))
