"""``spades-tui arena A B`` and ``spades-tui bot LEVEL`` (bot-protocol.md)."""

from __future__ import annotations

import json
import sys
from typing import IO, Optional, Sequence

from .arena import ArenaConfig, format_report, run_deals, summarise
from .bots import Bot, BotError, make_bot
from .bots.protocol import ProtocolError, dumps, observation_from_json, player_action_from_json
from .cli import CliError, _Parser
from .engine import Rules, RulesError


def _spec(text: str) -> str:
    if text.startswith("cmd:"):
        if not text[4:].strip():
            raise CliError("cmd: needs a program, e.g. 'cmd:python -m spades_tui bot easy'")
        return text
    try:
        make_bot(text, seed=0)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return text


def arena_main(argv: Sequence[str]) -> int:
    parser = _Parser(
        prog="spades-tui arena",
        description="Play bot A against bot B on duplicate deals (each deal twice, seats swapped) "
        "and print win rates, points and decision times.",
    )
    parser.add_argument("a", metavar="A", help="easy, normal, hard[:budget=S,iters=N] or 'cmd:PROGRAM ARGS'")
    parser.add_argument("b", metavar="B", help="the same choices as A")
    parser.add_argument("--games", type=int, default=20, help="games (or hands) to play, rounded up to even")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes (default 1)")
    parser.add_argument("--hands-only", action="store_true", help="play single duplicate hands, report the margin")
    parser.add_argument("--budget", type=float, help="thinking time of hard bots, seconds per decision")
    parser.add_argument("--timeout", type=float, default=10.0, help="time limit per answer of a cmd: bot (s)")
    parser.add_argument("--rules", metavar="KEY=VALUE[,...]", help="rule options, as for the game")
    try:
        ns = parser.parse_args(list(argv))
        a, b = _spec(ns.a), _spec(ns.b)
        if ns.games < 1:
            raise CliError("spades-tui arena: --games must be at least 1")
        if ns.jobs < 1:
            raise CliError("spades-tui arena: --jobs must be at least 1")
        if ns.budget is not None and ns.budget <= 0:
            raise CliError("spades-tui arena: --budget must be positive")
        if ns.timeout <= 0:
            raise CliError("spades-tui arena: --timeout must be positive")
        rules = Rules.parse_assignments(ns.rules) if ns.rules else Rules()
    except RulesError as exc:
        print(f"spades-tui arena: {exc}", file=sys.stderr)
        return 2
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
    deals = (ns.games + 1) // 2
    config = ArenaConfig(a, b, rules, ns.seed, ns.hands_only, ns.budget, ns.timeout)
    summary = summarise(run_deals(config, deals, ns.jobs))
    print(format_report(config, summary))
    return 0


def serve(level: str, budget: Optional[float], seed: Optional[int], stdin: IO[str], stdout: IO[str]) -> int:
    """Answer bot-protocol.md messages from ``stdin`` on ``stdout`` until the input closes."""
    bot: Optional[Bot] = None
    for number, line in enumerate(stdin, 1):
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise ProtocolError("a message must be a JSON object")
            kind = message.get("type")
            if kind == "hello":
                if bot is not None:
                    bot.close()
                bot = make_bot(level, seed=seed, budget=budget)
                bot.start(int(message.get("seat", 0)), Rules.from_json(message.get("rules", {})))
            elif kind == "act":
                obs = observation_from_json(message.get("observation"))
                raw = message.get("legal")
                if not isinstance(raw, list) or not raw:
                    raise ProtocolError("act needs a non-empty legal list")
                legal = [player_action_from_json(x) for x in raw]
                if bot is None:  # no hello: start from what the observation says
                    bot = make_bot(level, seed=seed, budget=budget)
                    bot.start(obs.seat, obs.rules)
                action = bot.decide(obs, legal)
                stdout.write(dumps({"action": action.to_json()}) + "\n")
                stdout.flush()
            elif kind == "result":
                if bot is not None:
                    bot.finish((0, 0), None)
            else:
                raise ProtocolError(f"unknown message type {kind!r}")
        except (json.JSONDecodeError, ProtocolError, RulesError, BotError, ValueError) as exc:
            print(f"spades-tui bot: line {number}: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:  # a bug must still end with one clear line, not a traceback
            print(f"spades-tui bot: line {number}: internal error: {exc!r}", file=sys.stderr)
            return 1
    if bot is not None:
        bot.close()
    return 0


def bot_main(argv: Sequence[str]) -> int:
    parser = _Parser(
        prog="spades-tui bot",
        description="Run a built-in bot as an external bot speaking bot-protocol.md on stdin/stdout.",
    )
    parser.add_argument("level", help="easy, normal or hard[:budget=S,iters=N]")
    parser.add_argument("--budget", type=float, help="thinking time of the hard bot, seconds per decision")
    parser.add_argument("--seed", type=int, help="seed of the bot's own random choices")
    try:
        ns = parser.parse_args(list(argv))
        if ns.level.startswith("cmd:"):
            raise CliError("spades-tui bot: LEVEL must be a built-in bot (easy, normal, hard)")
        _spec(ns.level)
    except CliError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        return serve(ns.level, ns.budget, ns.seed, sys.stdin, sys.stdout)
    except BrokenPipeError:
        return 0
