"""Running tables: the listening socket, the invite, a headless host with a bot, a bot client."""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
import sys
from typing import Callable, Iterable, Optional, TextIO

from ..bots.levels import make_bot
from ..engine.text import encodable
from ..i18n.language import _, translated
from .host.table import TableHost
from .seat.client import TableClient
from .seat.link import TableError
from .wire import protocol as p
from .wire.guard import GuardedRunner, GuardedSite, Limits, quiet_failures

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def line_out(text: str, file: TextIO) -> None:
    """One line of a headless table (an event, a line said, the result) on ``file``: a stream that cannot
    encode a character (``PYTHONIOENCODING=ascii``) gets the ASCII minus for the true one and ``?`` for the
    rest, never a traceback."""
    try:
        print(text, file=file, flush=True)
    except UnicodeEncodeError:
        print(encodable(text, getattr(file, "encoding", None)), file=file, flush=True)


def host_warning(address: str) -> Optional[str]:
    if address in LOOPBACK or address.startswith("127."):  # 127.0.0.0/8 is this machine alone
        return None
    return _("spades-tui host: warning: listening on {address}: anyone who can reach this address and knows the code "
             "may sit down at the table. Use the default --host 127.0.0.1 (and an ssh tunnel) to keep it to this "
             "machine.").format(address=address)


def reachable(address: str) -> str:
    """The address to give the friend: a wildcard one (all interfaces) is this machine's name's address."""
    if address not in ("0.0.0.0", "::", ""):
        return address
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return address


def lan_address() -> Optional[str]:
    """This machine's address on its network (None: none but loopback): the one a route out would leave from.
    A UDP socket's connect only picks the route; no packet is sent (192.0.2.1 is a documentation address)."""
    found = ""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found = str(probe.getsockname()[0])
    except OSError:
        pass
    if not found or found.startswith("127.") or found == "0.0.0.0":
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


def invite(address: str, port: int, code: str, tls: bool) -> str:
    address = reachable(address)
    where = f"[{address}]" if ":" in address else address
    return f"spades-tui join {'wss://' if tls else ''}{where}:{port} {code}"


def tls_context(cert: Optional[str], key: Optional[str]) -> Optional[ssl.SSLContext]:
    if cert is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


class Listener:
    """A table's socket on ``address:port`` (port 0: a free one), in the running loop."""

    def __init__(self, host: TableHost, address: Optional[str], port: int, tls: Optional[ssl.SSLContext] = None,
                 limits: Optional[Limits] = None) -> None:
        # A resumed table listens where it did (address None, port 0: the saved place), so the friend's
        # 'join' finds it again; only when that port cannot be had does it take another (``moved``).
        saved = host.saved_place()
        self.fallback = saved is not None and not port
        if saved is not None:
            address = address or saved[0]
            port = port or (saved[1] if address == saved[0] else 0)
        self.host, self.address, self.port, self.tls = host, address or "127.0.0.1", port, tls
        self.limits = limits or Limits()
        self.runner: Optional[GuardedRunner] = None
        self.moved: Optional[str] = None  # why the saved port was not listened on again

    async def start(self) -> int:
        """Listen; the port listened on.  OSError if the address cannot be listened on.

        Half-sent requests time out, connections are capped (guard.py), and repeated failures (the accept
        loop out of descriptors) are said once a second, in a line."""
        quiet_failures("spades-tui host", loop=asyncio.get_running_loop())
        try:
            await self._start(self.port)
        except OSError as exc:
            if not self.fallback:
                raise
            self.moved = os.strerror(exc.errno) if exc.errno else str(exc)
            await self._start(0)
        self.host.listened(self.address, self.port, self.invite, self.watch_command)
        return self.port

    async def _start(self, port: int) -> None:
        self.runner = GuardedRunner(self.host.application(), self.limits, access_log=None, handle_signals=False,
                                    shutdown_timeout=1.0)
        await self.runner.setup()
        site = GuardedSite(self.runner, self.address, port, ssl_context=self.tls)
        # A table resumed after a kill -9 listens on its port again at once, though the old process's
        # connections still linger in TIME_WAIT (SO_REUSEADDR).
        site._reuse_address = True
        try:
            await site.start()
        except BaseException:
            await self.runner.cleanup()
            self.runner = None
            raise
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port

    @property
    def invite(self) -> str:
        return invite(self.address, self.port, self.host.code, self.tls is not None)

    @property
    def watch_command(self) -> str:
        """The command that watches this table: ``spades-tui watch ADDR:P WATCHCODE``."""
        line = invite(self.address, self.port, self.host.watch_code, self.tls is not None)
        return line.replace("spades-tui join", "spades-tui watch", 1)

    @property
    def watch_line(self) -> str:
        """The watch code beside the invite: ``To watch: spades-tui watch ADDR:P WATCHCODE``."""
        return _("To watch: {command}").format(command=self.watch_command)

    async def stop(self) -> None:
        """Stop listening, once the frames already made are out (the last hand's reveal and the end above all)."""
        await self.host.connections.drain()
        runner, self.runner = self.runner, None
        if runner is not None:
            await runner.cleanup()


async def headless_host(host: TableHost, address: Optional[str], port: int, tls: Optional[ssl.SSLContext] = None,
                        out: TextIO = sys.stdout, err: TextIO = sys.stderr,
                        notes: Callable[[Listener], Iterable[str]] = lambda _: ()) -> int:
    """``host --bot``: the invite on the first line, then the game; ends when it does.  ``notes``: lines said on
    ``err`` after the invite (where the address works)."""
    listener = Listener(host, address, port, tls)
    host.on_event = lambda line: line_out(line, err)
    host.on_said = lambda said: line_out(_("{player} says: {line}").format(player=said["name"], line=said["text"]), err)
    await listener.start()
    print(listener.invite, file=out, flush=True)
    print(listener.watch_line, file=out, flush=True)
    for note in notes(listener):
        line_out(note, err)
    if listener.moved is not None:
        moved = _("The table's port could not be had again ({problem}): the friend comes back with '{command}' (no "
                  "code: theirs is used).") if host.invite_taken is not None else \
            _("The table's port could not be had again ({problem}): the friend joins with this new invite (the same "
              "code).")
        print(moved.format(problem=listener.moved, command=p.way_back(listener.invite)), file=err, flush=True)
    try:
        await host.done.wait()
        session = host.game
        outcome = session.outcome if session is not None else None
        if outcome is not None:
            names = host.players()
            line_out(p.game_over_line(names[outcome.winner].name if outcome.winner is not None else None,
                                      outcome.scores), out)
    finally:
        await listener.stop()
        host.close()
    return 0


async def bot_client(client: TableClient, level: str, out: TextIO = sys.stdout, err: Optional[TextIO] = None) -> int:
    """``join --bot``: the built-in bot plays the seat; prints the result (and any shuffle warning).

    Warnings (a host frame dropped, a hand that did not verify or was never revealed), the table's events
    and the lines said go to ``err`` (standard error) as they come; the last line, on ``out``, says whether
    every hand's shuffle verified, and the status is 1 unless all did (0 when none was played: nothing to
    verify).  A dropped link is taken back by itself (``TableClient.keep``)."""
    warn = err if err is not None else sys.stderr
    changed = asyncio.Event()
    client.on_change = changed.set
    await client.connect()
    if client.create is not None and client.invite_lines() is not None:  # a table opened at a server: its invite
        print(client.invite_lines(), file=out, flush=True)
    listening = asyncio.ensure_future(client.keep())
    bot = make_bot(level, None)
    assert client.seat is not None and client.rules is not None
    bot.start(client.seat, client.rules)
    loop = asyncio.get_running_loop()
    asked = (-1, -1)  # (connection, record length) the bot answered
    told = events = chat = 0
    try:
        while not listening.done() or changed.is_set():
            waiter = asyncio.ensure_future(changed.wait())
            await asyncio.wait([listening, waiter], return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            changed.clear()
            lines, events = client.talk.events_since(events)
            for line in lines:
                line_out(line, warn)
            lines_said, chat = client.talk.chat_since(chat)
            for name, line in lines_said:
                line_out(_("{player} says: {line}").format(player=name, line=line), warn)
            notices, told = client.talk.notices_since(told)
            for notice in notices:
                line_out(notice, warn)
            if client.outcome is not None:
                break
            obs, legal = client.observation, client.legal
            # On a new connection the same position is answered again: an act sent as the link dropped
            # may never have arrived (a stale one the host refuses, changing nothing).
            if obs is not None and legal and client.link_up and (client.connections, client.at) != asked:
                asked = (client.connections, client.at)
                action = await loop.run_in_executor(None, bot.decide, obs, legal)
                await client.act(action)
    finally:
        bot.close()
        await client.stop()
        listening.cancel()
    notices, told = client.talk.notices_since(told)
    for notice in notices:
        line_out(notice, warn)
    if client.outcome is None:
        if client.taken:
            raise TableError(_("{reason}: this one stops (the other window plays on)").format(
                reason=translated(p.TAKEN)))
        raise TableError(_("the table went away before the game ended ({reason}); your seat is kept: run 'spades-tui "
                           "join' again to take it back").format(reason=client.closed_reason or _("closed")))
    names = client.players or ()
    winner = client.outcome.winner
    verified, said = client.shuffle_summary()
    line_out(f"{p.game_over_line(names[winner].name if winner is not None and names else None, client.outcome.scores)}"
             f" {said}", out)
    # A game over before its first hand was scored (a resignation, a claim) has no shuffle to verify: not a 1.
    return 0 if verified or client.played == 0 else 1


__all__ = ["Listener", "bot_client", "headless_host", "host_warning", "invite", "lan_address", "line_out", "p",
           "tls_context"]
