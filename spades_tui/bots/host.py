"""Run a built-in bot in a child process.

A pure-Python bot that thinks hard holds the GIL; in a thread it starves
Textual's event loop (measured: repaints delayed by up to ~1.8 s).  In its own
process it cannot.  ``ProcessBot`` is a ``Bot`` like any other: the host still
passes only the observation and the legal actions.

The child is a plain ``python -m spades_tui.bots.host`` talking pickles over
its stdin/stdout (multiprocessing cannot spawn while Textual has replaced
sys.stderr).  This module imports no Textual, so the child starts quickly.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from typing import IO, Any, Callable, Optional, Sequence

from ..engine.actions import PlayerAction
from ..engine.observation import Observation
from ..engine.rules import Rules
from .base import Bot, BotError

BotFactory = Callable[[], Any]  # a Bot, or another object served the same way (the hint service)


def _serve(reader: IO[bytes], writer: IO[bytes]) -> None:
    """The child's loop: build the bot from the first message, then answer one call at a time."""

    def send(value: object) -> None:
        pickle.dump(value, writer)
        writer.flush()

    bot: Optional[Any] = None
    failure = ""
    try:
        factory: BotFactory = pickle.load(reader)
        bot = factory()
    except Exception as exc:  # reported on the first call, as a forfeit
        failure = f"the bot could not start: {type(exc).__name__}: {exc}"
    while True:
        try:
            name, args = pickle.load(reader)
        except (EOFError, OSError, pickle.UnpicklingError, KeyboardInterrupt):
            break
        if name == "close":
            if bot is not None:
                bot.close()
            break
        try:
            if bot is None:
                raise BotError(failure)
            send((True, getattr(bot, name)(*args)))
        except BotError as exc:
            send((False, str(exc)))
        except Exception as exc:
            send((False, f"the bot crashed: {type(exc).__name__}: {exc}"))


def hint_service(samples: Optional[int]) -> Any:
    """The hint service, built in the child: the host need not load it (nor the solver) to start it."""
    from .hints import HintService

    return HintService(samples)


class ProcessBot(Bot):
    """A bot living in a child process; ``factory`` must be picklable (a module-level callable)."""

    name = "process"

    def __init__(self, factory: BotFactory) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        self._process = subprocess.Popen(
            [sys.executable, "-m", "spades_tui.bots.host"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self._pending = 0  # replies to start/finish not read yet: those calls do not wait
        self._send_raw(factory)

    def _send_raw(self, value: object) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            pickle.dump(value, stdin)
            stdin.flush()
        except (OSError, ValueError, pickle.PicklingError) as exc:
            raise BotError(f"the bot process is gone: {exc}") from None

    def _send(self, name: str, *args: object) -> None:
        self._send_raw((name, args))

    def _reply(self) -> Any:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            ok, value = pickle.load(stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as exc:
            code = self._process.poll()
            raise BotError(f"the bot process stopped (exit code {code}): {exc or 'no answer'}") from None
        if not ok:
            raise BotError(str(value))
        return value

    def _drain(self) -> None:
        while self._pending:
            self._pending -= 1
            self._reply()

    def start(self, seat: int, rules: Rules) -> None:
        self._send("start", seat, rules)
        self._pending += 1

    def call(self, name: str, *args: object) -> Any:
        """Any other method of the object in the child (the hint service's ``hint``), answered in order."""
        self._drain()
        self._send(name, *args)
        return self._reply()

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        self._drain()
        self._send("decide", observation, tuple(legal))
        action: PlayerAction = self._reply()
        return action

    def finish(self, scores: tuple[int, int], winner: Optional[int]) -> None:
        self._send("finish", scores, winner)
        self._pending += 1

    def close(self) -> None:
        try:
            self._send("close")
        except BotError:
            pass
        try:
            self._process.wait(0.2)
        except subprocess.TimeoutExpired:
            self._process.terminate()  # still thinking: it has nothing left to say
            try:
                self._process.wait(0.5)
            except subprocess.TimeoutExpired:
                self._process.kill()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


def _child_main() -> None:
    # Keep the real stdout for the protocol; anything a bot prints goes to stderr instead.
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    _serve(sys.stdin.buffer, protocol_out)


if __name__ == "__main__":
    _child_main()
