"""Line mode at a network table (docs/table-protocol.md): ``host --lines`` opens a table here and plays its host's
seat, ``join ... --lines`` sits at another's, ``watch ... --lines`` watches one.  The seat is the same one the full
screen plays (``HostSeat``, ``RemoteSeat``), so line mode says only what its view holds; the table's own lines
(who sat down, dropped, came back; warnings about the shuffle) are said as they come.

It runs in an asyncio loop (aiohttp's): the seat is touched on the loop's thread only (``LinePlayer.run_async``).
aiohttp loads only here, when a table is opened.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import TYPE_CHECKING, Any, Optional

from ..i18n.language import _, pgettext
from .player import Changed, LinePlayer, Typed
from .words import folded

if TYPE_CHECKING:
    from ..table.seat.client import TableClient
    from .launch import Lines

SEAT_OPTIONS: dict[str, Any] = dict(auto_review=False, hints=True, show_hints=False, hint_samples=None)


def _shape(template: str) -> re.Pattern[str]:
    """A message as a pattern: its placeholders match anything."""
    return re.compile("".join(".*?" if part.startswith("{") else re.escape(part)
                              for part in re.split(r"(\{\w+\})", template)) + "$")


def said_by_line_mode(line: str) -> bool:
    """Whether a line of the table's (a hand scored, the game over) is one line mode says in its own words: in
    English by its words, in another language by the table's messages (table/wire/protocol.py) translated."""
    if "scored:" in line or line.startswith("Game over"):
        return True
    return any(_shape(template).match(line) for template in (
        _("Hand {number} scored: {points} (score {first} to {second})."),
        _("Game over: You win, {first} to {second}."), _("Game over: a draw, {first} to {second}."),
        _("Game over: {player} wins, {first} to {second}.")))


async def _wait(lines: Lines, ready: Any, kept: list[Typed], keeping: Optional[asyncio.Future[Any]] = None,
                watcher: bool = False) -> Optional[str]:
    """Until ``ready()``: the table's lines said as they come.  None when ready; else why not ("quit", "eof", or
    the table's error).  From a pipe, what is typed meanwhile is ``kept`` for the game, in order (the end of input
    too): a script's answers are for the prompts to come."""
    loop = asyncio.get_running_loop()
    while not ready():
        if keeping is not None and keeping.done():
            exc = keeping.exception()
            return str(exc) if exc is not None else _("the table went away")
        event = await loop.run_in_executor(None, lines.events.get)
        if not isinstance(event, Typed):
            continue
        text = (event.text or "").strip().lower()
        if text in ("quit", "exit") or folded(text) == folded(pgettext("command", "quit")):
            return "quit"
        if not lines.interactive or (event.text is None and watcher):
            kept.append(event)
        elif event.text is None:
            return "eof"
        elif text:
            lines.say(_("The game has not begun: waiting for the other player. Type quit to leave."))
    return None


class _Unheld:
    """A watcher's seat whose view is never held at a hand's summary: the full screen keeps a summary up a few
    seconds for the eye, while a log of lines says every hand as it is played (two bots play a hand in less)."""

    def __init__(self, remote: Any) -> None:
        self.remote = remote

    def view(self) -> Any:
        found = self.remote.live_view()  # None before the first frame: the seat's own view says so
        return found if found is not None else self.remote.view()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.remote, name)


async def host_table(lines: Lines, options: dict[str, Any], record: Any = None, slot: Any = None) -> int:
    """``host --lines``: the invite, then the host's seat played in lines once the friend sits down."""
    from ..table.host.host_seat import HostSeat
    from ..table.host.table import TableHost
    from ..table.run import Listener

    events = lines.events
    lines.open_slots()
    host = TableHost(rules=options["rules"], first=options["first"], names=(options["name"], "Guest"),
                     record=record, slot=slot, slots=lines.slots, on_change=lambda: events.put(Changed()),
                     session_options=SEAT_OPTIONS)
    host.on_said = lambda _: events.put(Changed())
    told = 0

    def news() -> list[str]:
        nonlocal told
        new = [line for line in host.events[told:] if not said_by_line_mode(line)]
        told = len(host.events)
        return new

    listener = Listener(host, options["address"], options["port"], options["tls"])
    try:
        try:
            await listener.start()
        except OSError as exc:
            why = os.strerror(exc.errno) if exc.errno else str(exc)
            lines.say(_("The table cannot listen on {address} port {port}: {reason}.").format(
                address=listener.address, port=listener.port, reason=why))
            return 2
        if host.invite_taken is not None:  # a table resumed: the friend's code is used, their seat kept
            from ..table.wire.protocol import way_back

            guest = host.players()[host.remote].name
            lines.say(_("Waiting for {player} to come back to the table; this, with no code, takes them back to "
                        "their seat: {invite}").format(player=guest, invite=way_back(listener.invite)))
        else:
            lines.say(_("Give your friend this invite: {invite}").format(invite=listener.invite))
            lines.say(_("Waiting for your friend to sit down. Type quit to leave."))
        lines.say(listener.watch_line)
        asyncio.get_running_loop().call_soon(events.put, Changed())
        kept: list[Typed] = []
        left = await _wait(lines, lambda: host.game is not None, kept)
        for line in news():
            lines.say(line)
        if left is not None:
            lines.say(_("You left the table.") if left in ("quit", "eof") else left)
            return 0
        hosted = HostSeat(host, show_hints=False, auto_review=False)
        lines.slot = hosted.take_slot()  # released when line mode ends

        def talk(text: str) -> None:
            problem = host.say(host.host_seat, text)
            if problem is not None:
                lines.say(_("Not said: {reason}").format(reason=problem))

        player = LinePlayer(hosted, lines.out, words=lines.words, events=events, recorder=lines.recorder,
                            news=news, talk=talk, interactive=lines.interactive)
        player.typed_ahead.extend(kept)
        lines.say(_("Type help for the commands; say TEXT talks to the table."))
        await player.run_async()
        return 0
    finally:
        await listener.stop()  # once the last frames (the reveal, the end) are out
        host.close()


async def join_table(lines: Lines, client: TableClient) -> int:
    """``join --lines`` (and ``watch --lines``): the seat at another's table played (or watched) in lines."""
    from ..table.seat.link import TableError
    from ..table.seat.remote_seat import RemoteSeat
    from ..tui.houserules import table_rules_text

    events = lines.events
    remote = RemoteSeat(client, **SEAT_OPTIONS)
    state = {"rules": False, "down": False}

    def changed() -> None:
        remote.changed()
        events.put(Changed())

    def news() -> list[str]:
        said, remote.news_told = client.talk.seat_news_since(remote.news_told)
        said += remote.notices()
        if client.rules is not None and not state["rules"]:
            state["rules"] = True
            said.append(_("The rules of this table: {rules}").format(rules=table_rules_text(client.rules)))
        if not client.link_up and client.outcome is None and not state["down"]:
            state["down"] = True
            said.append(_("Your seat was taken from another window: this one stops.") if client.taken else
                        _("Lost the table (the host stopped or the network dropped): trying again by itself. Your "
                          "seat is kept."))
        elif client.link_up and state["down"]:
            state["down"] = False
            said.append(_("Back at the table."))
        return said

    saying: set[asyncio.Future[None]] = set()

    def talk(text: str) -> None:
        async def say() -> None:
            problem = await client.say(text)
            if problem is not None:
                lines.say(_("Not said: {reason}").format(reason=problem))

        sent = asyncio.ensure_future(say())
        saying.add(sent)  # kept until done: a task nobody holds may be collected half-way
        sent.add_done_callback(saying.discard)

    client.on_change = changed
    keeping = asyncio.ensure_future(client.keep())
    try:
        watcher = client.watch_code is not None
        lines.say((_("Watching the table at {address}…") if watcher else _("Taking your seat at {address}…")).format(
            address=client.url))
        kept: list[Typed] = []
        why = await _wait(lines, lambda: remote.ready, kept, keeping, watcher)
        for line in news():
            lines.say(line)
        if why is not None:
            lines.say(_("You left the table.") if why in ("quit", "eof") else
                      _("Cannot sit at the table: {reason}").format(reason=why))
            return 0 if why in ("quit", "eof") else 1
        if client.watching:
            lines.say(_("Watching: the public view, no hand. Type quit to leave."))
        seat: Any = _Unheld(remote) if client.watching else remote
        player = LinePlayer(seat, lines.out, words=lines.words, events=events, recorder=lines.recorder,
                            news=news, talk=None if client.watching else talk, watching=client.watching,
                            interactive=lines.interactive,
                            over_heard=remote.end_heard)
        player.typed_ahead.extend(kept)
        await player.run_async()
        if client.standings is not None:  # the day's challenge at a server: where you stand among the field
            from ..tui.fieldmodel import standings_words

            for line in standings_words(client.standings, client.url.removeprefix("ws://").removesuffix("/table")):
                lines.say(line)
        return 0
    except TableError as exc:
        lines.say(_("Cannot sit at the table: {reason}").format(reason=exc))
        return 1
    finally:
        await client.stop()
        keeping.cancel()
