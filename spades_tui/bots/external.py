"""An external bot: a program speaking docs/bot-protocol.md on stdin/stdout.

Every read has a time limit (a reader thread feeds a queue), so a silent or hung
program costs at most ``timeout`` seconds and then forfeits with ``BotError``;
garbage, illegal actions and a dead process forfeit at once.  Every read has a size
limit too (``MAX_LINE``; its error output is kept only as a short tail), so a program
that writes without a newline cannot fill the host's memory.  It runs in a session of
its own, and its whole process group, with any descendant found when it is closed, is
killed at the end: nothing it started outlives the game.  Nothing here can hang or
crash the host.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections import deque
from typing import IO, Any, Optional, Sequence

from ..engine.actions import Exchange, PlayerAction
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..i18n.language import _, pgettext
from . import protocol
from .base import Bot, BotError

DEFAULT_TIMEOUT = 10.0
MAX_LINE = 256 * 1024  # characters: an answer is about 50; the longest legal list a few KiB
TAIL_CHARS = 300  # what is kept of each line of the bot's error output
_EOF = object()
_TOO_LONG = object()


def _pump(stream: IO[str], sink: queue.Queue[object]) -> None:
    """Lines of the bot's output into ``sink``; a line over ``MAX_LINE`` ends the reading (``_TOO_LONG``)."""
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)  # bounded: a bot that never writes a newline costs MAX_LINE
            if not line:
                break
            if len(line) > MAX_LINE:
                sink.put(_TOO_LONG)
                return  # the bot forfeits; what else it writes is never read (it is killed at close)
            sink.put(line)
    except (OSError, ValueError):
        pass
    sink.put(_EOF)


def _tail(stream: IO[str], lines: deque[str]) -> None:
    """The last lines of the bot's error output, each cut to ``TAIL_CHARS``; read in bounded pieces and
    the rest of a long line dropped, so its memory is bounded however the bot writes."""
    try:
        partial = ""  # the start of a line whose end has not come yet
        while True:
            chunk = stream.readline(4096)
            if not chunk:
                break
            if len(partial) < TAIL_CHARS:
                partial += chunk[: TAIL_CHARS - len(partial) + 1]
            if chunk.endswith("\n"):
                lines.append(partial.rstrip("\n")[:TAIL_CHARS])
                partial = ""
        if partial:
            lines.append(partial[:TAIL_CHARS])
    except (OSError, ValueError):
        pass


def _descendants(pid: int) -> list[tuple[int, str]]:
    """Every process under ``pid`` now, with its start time (Linux ``/proc``; elsewhere none): the ones
    that left the bot's process group (``setsid``) are killed by their number, once checked to be the same
    process (the start time), so a number used again by then is never touched."""
    children: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        stat = _proc_stat(int(entry))
        if stat is not None:
            children.setdefault(stat[0], []).append(int(entry))
            started[int(entry)] = stat[1]
    found: list[tuple[int, str]] = []
    todo = list(children.get(pid, []))
    while todo and len(found) < 10000:
        child = todo.pop()
        found.append((child, started[child]))
        todo.extend(children.get(child, []))
    return found


def _proc_stat(pid: int) -> Optional[tuple[int, str]]:
    """(parent pid, start time) of a process from ``/proc/PID/stat``, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read(4096).decode("ascii", "replace")
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()  # after the command name, which may hold spaces
    try:
        return int(fields[1]), fields[19]
    except (IndexError, ValueError):
        return None


def _kill_all(pgid: Optional[int], others: Sequence[tuple[int, str]]) -> None:
    if pgid is not None and hasattr(os, "killpg"):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass  # nothing left in the group
    for pid, started in others:
        stat = _proc_stat(pid)
        if stat is not None and stat[1] == started:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
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
            raise ValueError(_("cannot parse the bot command {command}: {error}").format(command=repr(command),
                                                                                          error=exc)) from None
        if not self.argv:
            raise ValueError(_("cmd: needs a program to run"))
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
                # A session (and process group) of its own: its children are killed with it at close,
                # and a Ctrl+C in the terminal reaches the game, which ends the bot itself.
                start_new_session=hasattr(os, "setsid"),
            )
        except OSError as exc:
            raise BotError(_("external bot {command} could not be started: {error}").format(
                command=repr(self.command), error=exc.strerror or exc)) from None
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
        if self.stderr_tail:
            text = (_("external bot {command} died (exit status {code}) before answering; its last error output: "
                      "{output}") if code is not None else
                    _("external bot {command} died (its output closed) before answering; its last error output: "
                      "{output}"))
        else:
            text = (_("external bot {command} died (exit status {code}) before answering") if code is not None else
                    _("external bot {command} died (its output closed) before answering"))
        output = repr(self.stderr_tail[-1]) if self.stderr_tail else ""
        return BotError(text.format(command=repr(self.command), code=code, output=output))

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
            seconds = f"{self.timeout:g}".replace(".", pgettext("decimal separator", "."))
            raise BotError(_("external bot {command} did not answer within {seconds} s (time limit)").format(
                command=repr(self.command), seconds=seconds)) from None
        if item is _EOF:
            raise self._died()
        if item is _TOO_LONG:
            raise BotError(_("external bot {command} answered a line longer than {limit} characters").format(
                command=repr(self.command), limit=MAX_LINE))
        assert isinstance(item, str)
        return item

    # ------------------------------------------------------------ Bot

    def start(self, seat: int, rules: Rules) -> None:
        self.seat = seat
        self._send(protocol.hello(seat, rules))

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        self._send(protocol.act(observation, legal))
        line = self._receive()
        shown = repr(line.strip()[:200])
        command = repr(self.command)
        try:
            message: Any = json.loads(line)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError; [[[[... nests too deep
            raise BotError(_("external bot {command} answered garbage (not JSON): {line}").format(
                command=command, line=shown)) from None
        if not isinstance(message, dict) or "action" not in message:
            raise BotError(_("external bot {command} answered garbage (no \"action\" object): {line}").format(
                command=command, line=shown))
        try:
            action = protocol.player_action_from_json(message["action"])
        except protocol.ProtocolError as exc:
            raise BotError(_("external bot {command} answered a malformed action ({error}): {line}").format(
                command=command, error=exc, line=shown)) from None
        if isinstance(action, Exchange):  # the order of the discards does not matter
            action = Exchange(action.player, tuple(sorted(action.discard)))
        if action not in legal:
            raise BotError(_("external bot {command} answered an illegal action: {line}").format(
                command=command, line=shown))
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
        others = _descendants(proc.pid)  # before it exits: its children are then still found under it
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
        # Its group is its session's (start_new_session): the program's number is the group's.
        _kill_all(proc.pid if hasattr(os, "setsid") else None, others + _descendants(proc.pid))
