"""Run a built-in bot in a child process.

A pure-Python bot that thinks hard holds the GIL; in a thread it starves
Textual's event loop (measured: repaints delayed by up to ~1.8 s).  In its own
process it cannot.  ``ProcessBot`` is a ``Bot`` like any other: the host still
passes only the observation and the legal actions.

The child is a plain ``python -m spades_tui.bots.process`` talking pickles over
its stdin/stdout (multiprocessing cannot spawn while Textual has replaced
sys.stderr).  This module imports no Textual, so the child starts quickly.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from typing import IO, Any, Callable, Optional, Sequence

from ..engine.actions import PlayerAction
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..i18n.language import _, current, use
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
        failure = _("the bot could not start: {error}").format(error=f"{type(exc).__name__}: {exc}")
    while True:
        try:
            name, args, *language = pickle.load(reader)
        except (EOFError, OSError, pickle.UnpicklingError, KeyboardInterrupt):
            break
        if language and language[0] != current():
            use(language[0])  # the host's language, so that a hint's words are the player's
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
            send((False, _("the bot crashed: {error}").format(error=f"{type(exc).__name__}: {exc}")))


def hint_service(samples: Optional[int]) -> Any:
    """The hint service, built in the child: the host need not load it (nor the solver) to start it."""
    from .hints import HintService

    return HintService(samples)


class ProcessBot(Bot):
    """A bot living in a child process; ``factory`` must be picklable (a module-level callable).

    The child starts when first needed (``warm``, or the first call that waits for an answer), not when the
    bot is made: a game's first screen is drawn before a second Python starts beside it (issue 33). Messages
    that need no answer (``start``) wait for it."""

    name = "process"

    def __init__(self, factory: BotFactory) -> None:
        self._factory = factory
        self._process: Optional[subprocess.Popen[bytes]] = None
        self._queued: list[tuple[str, tuple[object, ...], str]] = []  # sent once the child is up
        self._lock = threading.Lock()  # the first call may come from a worker thread while the screen warms it
        self._pending = 0  # replies to start/finish not read yet: those calls do not wait
        self._closed = False

    def alive(self) -> bool:
        """False once its child has stopped or it was closed (a child not started yet starts when asked)."""
        process = self._process
        return not self._closed and (process is None or process.poll() is None)

    def warm(self) -> None:
        """Start the child now (once the first screen is drawn), so the first decision need not wait for it."""
        self._ensure()

    def _ensure(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._process is None:
                if self._closed:
                    raise BotError(_("the bot was closed"))
                env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
                try:
                    self._process = subprocess.Popen(
                        [sys.executable, "-m", "spades_tui.bots.process"],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL,
                        env=env,
                    )
                except OSError as exc:
                    raise BotError(_("the bot process could not start: {error}").format(error=exc)) from None
                self._write(self._process, self._factory)
                queued, self._queued = self._queued, []
                for message in queued:
                    self._write(self._process, message)
            return self._process

    @staticmethod
    def _write(process: subprocess.Popen[bytes], value: object) -> None:
        stdin = process.stdin
        assert stdin is not None
        try:
            pickle.dump(value, stdin)
            stdin.flush()
        except (OSError, ValueError, pickle.PicklingError) as exc:
            raise BotError(_("the bot process is gone: {error}").format(error=exc)) from None

    def _send(self, name: str, *args: object) -> None:
        self._write(self._ensure(), (name, args, current()))

    def _send_later(self, name: str, *args: object) -> None:
        """A message that needs no answer now: queued until the child is up, else sent."""
        with self._lock:
            if self._process is None:
                self._queued.append((name, args, current()))
                return
        self._send(name, *args)

    def _reply(self) -> Any:
        stdout = self._ensure().stdout
        assert stdout is not None
        try:
            ok, value = pickle.load(stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as exc:
            code = self._ensure().poll()
            why = str(exc) if str(exc) else _("no answer")
            raise BotError(_("the bot process stopped (exit code {code}): {error}").format(code=code, error=why)) \
                from None
        if not ok:
            raise BotError(str(value))
        return value

    def _drain(self) -> None:
        while self._pending:
            self._pending -= 1
            self._reply()

    def start(self, seat: int, rules: Rules) -> None:
        self._send_later("start", seat, rules)
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
        self._send_later("finish", scores, winner)
        self._pending += 1

    def close(self) -> None:
        with self._lock:
            process, self._queued, self._closed = self._process, [], True
        if process is None:  # never started: nothing to stop
            return
        try:
            self._send("close")
        except BotError:
            pass
        try:
            process.wait(0.2)
        except subprocess.TimeoutExpired:
            process.terminate()  # still thinking: it has nothing left to say
            try:
                process.wait(0.5)
            except subprocess.TimeoutExpired:
                process.kill()
        for stream in (process.stdin, process.stdout):
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
