"""A built-in bot served over docs/bot-protocol.md: JSON lines in, JSON lines out."""

from __future__ import annotations

import json
import sys
from typing import IO, Callable, Optional

from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..i18n.language import _
from .base import Bot, BotError
from .levels import make_bot
from .protocol import ProtocolError, dumps, observation_from_json, player_action_from_json

BotFactory = Callable[[str, Optional[int], Optional[float]], Bot]


def _make(level: str, seed: Optional[int], budget: Optional[float]) -> Bot:
    return make_bot(level, seed=seed, budget=budget)


def serve(level: str, budget: Optional[float], seed: Optional[int], stdin: IO[str], stdout: IO[str],
          factory: BotFactory = _make) -> int:
    """Answer docs/bot-protocol.md messages from ``stdin`` on ``stdout`` until the input closes.

    ``factory(level, seed, budget)`` makes the bot (a measuring script serves a bot of its own)."""
    holder: list[Optional[Bot]] = [None]
    try:
        return _serve(level, budget, seed, stdin, stdout, holder, factory)
    finally:
        if holder[0] is not None:
            holder[0].close()  # an expert's worker processes end with it


def _serve(level: str, budget: Optional[float], seed: Optional[int], stdin: IO[str], stdout: IO[str],
           holder: list[Optional[Bot]], factory: BotFactory) -> int:
    bot: Optional[Bot] = None
    for number, line in enumerate(stdin, 1):
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise ProtocolError(_("a message must be a JSON object"))
            kind = message.get("type")
            if kind == "hello":
                if bot is not None:
                    bot.close()
                bot = holder[0] = factory(level, seed, budget)
                bot.start(int(message.get("seat", 0)), Rules.from_json(message.get("rules", {})))
            elif kind == "act":
                obs = observation_from_json(message.get("observation"))
                raw = message.get("legal")
                if not isinstance(raw, list) or not raw:
                    raise ProtocolError(_("act needs a non-empty legal list"))
                legal = [player_action_from_json(x) for x in raw]
                if bot is None:  # no hello: start from what the observation says
                    bot = holder[0] = factory(level, seed, budget)
                    bot.start(obs.seat, obs.rules)
                action = bot.decide(obs, legal)
                stdout.write(dumps({"action": action.to_json()}) + "\n")
                stdout.flush()
            elif kind == "result":
                if bot is not None:
                    bot.finish((0, 0), None)
            else:
                raise ProtocolError(_("unknown message type {kind}").format(kind=repr(kind)))
        except (json.JSONDecodeError, ProtocolError, RulesError, BotError, ValueError) as exc:
            print(_("spades-tui bot: line {number}: {error}").format(number=number, error=exc), file=sys.stderr)
            return 2
        except Exception as exc:  # a bug must still end with one clear line, not a traceback
            print(_("spades-tui bot: line {number}: internal error: {error}").format(number=number, error=repr(exc)),
                  file=sys.stderr)
            return 1
    return 0
