"""An external bot: a program speaking bot-protocol.md on stdin/stdout.

Every read has a time limit (a reader thread feeds a queue), so a silent or hung
program costs at most ``timeout`` seconds and then forfeits with ``BotError``;
garbage, illegal actions and a dead process forfeit at once.  Nothing here can
hang or crash the host.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
from collections import deque
from typing import IO, Any, Optional, Sequence

from ..engine import Exchange, Observation, PlayerAction, Rules
from . import protocol
from .base import Bot, BotError

DEFAULT_TIMEOUT = 10.0
_EOF = object()


def _pump(stream: IO[str], sink: queue.Queue[object]) -> None:
    try:
        for line in stream:
            sink.put(line)
    except (OSError, ValueError):
        pass
    sink.put(_EOF)


def _tail(stream: IO[str], lines: deque[str]) -> None:
    try:
        for line in stream:
            lines.append(line.rstrip("\n")[:300])
    except (OSError, ValueError):
        pass


class ExternalBot(Bot):
    def __init__(
        self,
        command: str,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: Optional[str] = None,
        env: Optional[dict[str, str]] = None,
    ) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"cannot parse the bot command {command!r}: {exc}") from None
        if not self.argv:
            raise ValueError("cmd: needs a program to run")
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self.cwd = cwd
        self.env = env
        self.proc: Optional[subprocess.Popen[str]] = None
        self.lines: queue.Queue[object] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=5)
        self.stderr_thread: Optional[threading.Thread] = None
        self.seat = 0

    # ------------------------------------------------------------ process

    def _launch(self) -> subprocess.Popen[str]:
        if self.proc is not None:
            return self.proc
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                env=self.env if self.env is not None else dict(os.environ),
            )
        except OSError as exc:
            raise BotError(f"external bot {self.command!r} could not be started: {exc.strerror or exc}") from None
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_pump, args=(proc.stdout, self.lines), daemon=True).start()
        self.stderr_thread = threading.Thread(target=_tail, args=(proc.stderr, self.stderr_tail), daemon=True)
        self.stderr_thread.start()
        self.proc = proc
        return proc

    def _died(self) -> BotError:
        code: Optional[int] = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None and self.stderr_thread is not None:
            self.stderr_thread.join(timeout=1.0)  # its last words, once the pipe drains
        how = f"exit status {code}" if code is not None else "its output closed"
        tail = f"; its last error output: {self.stderr_tail[-1]!r}" if self.stderr_tail else ""
        return BotError(f"external bot {self.command!r} died ({how}) before answering{tail}")

    def _send(self, line: str) -> None:
        proc = self._launch()
        if proc.stdin is None:
            raise self._died()
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None

    def _receive(self) -> str:
        try:
            item = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise BotError(
                f"external bot {self.command!r} did not answer within {self.timeout:g} s (time limit)"
            ) from None
        if item is _EOF:
            raise self._died()
        assert isinstance(item, str)
        return item

    # ------------------------------------------------------------ Bot

    def start(self, seat: int, rules: Rules) -> None:
        self.seat = seat
        self._send(protocol.hello(seat, rules))

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        self._send(protocol.act(observation, legal))
        line = self._receive()
        shown = line.strip()[:200]
        try:
            message: Any = json.loads(line)
        except json.JSONDecodeError:
            raise BotError(f"external bot {self.command!r} answered garbage (not JSON): {shown!r}") from None
        if not isinstance(message, dict) or "action" not in message:
            raise BotError(f"external bot {self.command!r} answered garbage (no \"action\" object): {shown!r}")
        try:
            action = protocol.player_action_from_json(message["action"])
        except protocol.ProtocolError as exc:
            raise BotError(f"external bot {self.command!r} answered a malformed action ({exc}): {shown!r}") from None
        if isinstance(action, Exchange):  # the order of the discards does not matter
            action = Exchange(action.player, tuple(sorted(action.discard)))
        if action not in legal:
            raise BotError(f"external bot {self.command!r} answered an illegal action: {shown!r}")
        for a in legal:
            if a == action:
                return a
        return action

    def finish(self, scores: tuple[int, int], winner: Optional[int]) -> None:
        try:
            self._send(protocol.result(scores, winner))
        except BotError:
            pass  # the game is over; a bot that left early changes nothing

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        self.proc = None
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            try:
                proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                pass
