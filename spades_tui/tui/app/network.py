"""The life of a network table at this screen (docs/table-protocol.md): a table hosted here (opened, listening,
the invite, resumed), a seat at another's (joined, rejoined, a table of 'spades-tui serve'), until it closes.

``NetworkTable`` asks the app only what ``TableOwner`` says: it shows the wait screen and the start screen, tells the
player what happened, and hands the app the seat to play once there is one (``take_seat``: the host's own
seat with the slot its game is saved in, or a seat at another's table); it writes nothing of the app's.
aiohttp loads only at a table.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

from ...i18n.language import N_, _, ngettext, translated
from ...keep.storage import StorageError, atomic_write_text, private_dir
from ...table.seat.seat_file import SeatFile, load_seat, seat_path
from ...table.wire.protocol import table_name
from ...table.wire.visitors import TAB_ENV, TAB_HEADER
from ..screens.table import TableWaitScreen
from .tableways import SHUFFLE, TableWays

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...keep.slots import Slot
    from ...session.seat import Seat
    from ...session.view import GameRecord, SeatView
    from ...settings.options import LaunchOptions
    from ...settings.preferences import Preferences
    from ...table.host.host_seat import HostSeat
    from ...table.host.table import TableHost
    from ...table.run import Listener
    from ...table.seat.client import TableClient
    from ...table.seat.remote_seat import RemoteSeat
    from .saved import SavedGames

TITLE = N_("♠ A table for two ♠")  # in the player's language where shown (translated)


class TableOwner(Protocol):
    """What the table's life asks of the app."""

    options: LaunchOptions

    @property
    def saved_games(self) -> SavedGames: ...

    @property
    def session(self) -> Optional[Seat]: ...

    @property
    def prefs(self) -> Preferences: ...

    def take_seat(self, seat: Seat, slot: Optional[Slot] = None) -> None:
        """Play ``seat`` from now on (its game saved in ``slot``, which the app then holds and releases)."""
        ...

    @property
    def screen(self) -> Screen[object]: ...

    def say(self, text: str, severity: str = "information", timeout: Optional[float] = None) -> None: ...

    def show(self, screen: Screen[None]) -> None: ...

    def show_start(self, message: Optional[str] = None) -> None: ...

    def close_session(self) -> None: ...

    def publish(self) -> None: ...

    def seat_options(self) -> dict[str, Any]: ...

    def run_worker(self, work: Any, *, exit_on_error: bool = True) -> Any: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...

    def copy_to_clipboard(self, text: str) -> None: ...


class NetworkTable:
    TITLE = TITLE  # (for ratedplay's wait screens)
    NO_SERVER = N_("No table server is set: give one in the settings (Table server, ADDR:PORT).")  # (and fieldrun's)

    def __init__(self, app: TableOwner, data_dir: Optional[Path]) -> None:
        self.app = app
        self.data_dir = data_dir
        self.host: Optional[TableHost] = None  # the table this app hosts
        self.hosted: Optional[HostSeat] = None  # its host's seat, until the app plays it
        self.listener: Optional[Listener] = None
        self.remote: Optional[RemoteSeat] = None  # the seat this app has at another's table
        self.invite: Optional[str] = None
        self.wait_text = ""  # what the wait screen says once seated at a served table
        self._rules_told: Optional[RemoteSeat] = None  # the seat whose table's house rules were shown
        self._events_told = 0  # the hosted table's events already told
        self.ways = TableWays(self)  # how a table hosted here reaches a friend on another machine

    # ------------------------------------------------------------ a table hosted here

    def open(self, *, address: Optional[str] = None, port: int = 0, tls: Any = None, name: str = "Host",
             rules: Any = None, first: Optional[int] = None, resume: bool = False,
             record: Optional[GameRecord] = None, slot: Optional[Slot] = None) -> None:
        """Host a table here: the invite until the friend sits down, then the game on this screen."""
        app = self.app
        app.close_session()
        if resume and record is None:
            found = app.saved_games.table_game()
            if found is None:
                app.show_start(_("There is no unfinished table game to resume here."))
                return
            slot, record = found
        from ...table.host.host_seat import HostSeat
        from ...table.host.table import TableHost  # in here: aiohttp loads only at a table (test_start_imports.py)
        from ...table.run import Listener

        try:
            self.host = TableHost(rules=rules or app.prefs.rules, first=first, names=(name, "Guest"), record=record,
                                  slot=slot, slots=app.saved_games.slots, on_change=self.changed,
                                  session_options=app.seat_options())
            self.host.on_said = lambda _: self.changed()  # the panel shows the last line said
        except (StorageError, ValueError) as exc:
            if slot is not None:
                slot.release()
            app.show_start(_("That table game cannot be resumed: {problem}").format(problem=exc))
            return
        options = app.seat_options()
        self.hosted = HostSeat(self.host, show_hints=options["show_hints"], auto_review=options["auto_review"])
        self._events_told = 0
        self.listener = Listener(self.host, address, port, tls)  # resumed (address None, port 0): where it was
        wait = TableWaitScreen(translated(TITLE), _("Opening the table…"))
        app.show(wait)
        app.run_worker(self._listen(self.listener, wait), exit_on_error=False)

    async def _listen(self, listener: Listener, wait: TableWaitScreen) -> None:
        try:
            await listener.start()
        except OSError as exc:
            if self.listener is listener:
                why = os.strerror(exc.errno) if exc.errno else str(exc)
                self.listener = None
                self.app.show_start(_("The table cannot listen on {address} port {port}: {why}.").format(
                    address=listener.address, port=listener.port, why=why))
            return
        from ...table.wire.protocol import way_back

        table = listener.host
        guest = table.players()[table.remote].name
        sat = table.invite_taken is not None  # the friend sat down with the code once: it seats no one again
        if sat:
            wait.set_text(_("Waiting for {name} to come back to the table (their code is used; this, with no code, "
                            "takes them back to their seat):").format(name=guest)
                          + f"\n\n    {way_back(listener.invite)}")
        else:  # where the invite works, and the ways that reach a friend on another machine
            await self.ways.look_up()
            if self.listener is listener:
                self.ways.show(listener, wait)
        self.invite = listener.invite
        if listener.moved is not None:
            self.app.say(_("The table's port could not be had again ({why}).").format(why=listener.moved) + " " + (
                _("Tell {name} the new address: 'spades-tui join' there with no code takes them back to their seat "
                  "(it stays in the panel until they are back): {command}").format(
                    name=guest, command=way_back(listener.invite)) if sat else
                _("Give your friend the new invite (it stays in the panel until they are back): {invite}").format(
                    invite=listener.invite)), "warning", 60)
        self.changed()

    def changed(self) -> None:
        """The table moved on without this screen (the friend sat down, acted, dropped)."""
        table, app = self.host, self.app
        if table is None:
            return
        hosted = self.hosted
        if hosted is not None and table.game is not None:  # the game began: the app plays the host's seat
            self.hosted = None
            app.take_seat(hosted, hosted.take_slot())
        news, self._events_told = table.talk.seat_news_since(self._events_told)  # no scores: the screens show those
        for line in news:  # "NAME sat down", "NAME is back": only when they are
            app.say(line)
        if app.session is not None:
            app.publish()
        elif table.joined_name and isinstance(app.screen, TableWaitScreen):
            app.screen.set_text(_("{name} joined. Fixing the first hand's shuffle…").format(name=table.joined_name))

    # ------------------------------------------------------------ a seat at another's table

    def join(self, client: TableClient, waiting: Optional[str] = None) -> None:
        """Sit at another's table: its seat's view on this screen (``waiting``: what the screen says until then)."""
        from ...table.seat.remote_seat import RemoteSeat  # in here: as above

        self.app.close_session()
        tab = os.environ.get(TAB_ENV) if self.app.options.served else None
        if tab:  # a served tab's seat: the server counts its wrong codes against the browser's address
            client.headers[TAB_HEADER] = tab
        # A browser's seat names the page's address in its invite: the friend's terminal reaches the table there.
        remote = RemoteSeat(client, **self.app.seat_options(),
                            invite_at=self._page_where() if self.app.options.served else None)
        self.remote = remote
        client.on_change = lambda: self._remote_changed(remote)
        self.app.show(TableWaitScreen(translated(TITLE), waiting or _("Taking your seat at {address}…").format(
            address=client.url)))
        self.app.run_worker(self._sit(remote), exit_on_error=False)

    async def _sit(self, remote: RemoteSeat) -> None:
        from ...table.seat.link import TableError

        try:
            await remote.client.keep()  # it reconnects by itself while the game is not over
        except TableError as exc:
            if self.remote is remote:
                self.remote = None
                self.app.show_start(_("Cannot sit at the table: {problem}").format(problem=exc))

    def _remote_changed(self, remote: RemoteSeat) -> None:
        from ..houserules import table_rules_text  # in here: the start screen loads no game views

        if remote is not self.remote:
            return
        app, client = self.app, remote.client
        remote.changed()
        # The other seat sat down, left, is back: said as at a table hosted here (the panel says it too).
        news, remote.news_told = client.talk.seat_news_since(remote.news_told)
        for line in news:
            app.say(line)
        # The host's errors and every warning about it come as notices, already bounded by the client.
        for notice in remote.notices():
            loud = notice.startswith("WARNING")
            app.say(notice, "error" if loud else "warning", 30 if loud else 15)
        rules = client.rules if not client.challenge else None  # the day's challenge: its panel says its rules
        wait = app.screen if isinstance(app.screen, TableWaitScreen) else None
        # The owner of a table at a server waits there for the friend: its wait screen says the rules meanwhile.
        on_wait = (app.session is None and not remote.ready and client.welcomed.is_set() and wait is not None
                   and (client.create is not None or bool(self.wait_text)))
        if rules is not None and self._rules_told is not remote:
            # Seated: the table's house rules, before the first card: on the wait screen when it stays up, else as a
            # notice over the first screen (both, and the screen said them twice: issue 52).
            self._rules_told = remote
            if not on_wait:
                app.say(_("The rules of this table: {rules}").format(rules=table_rules_text(rules)), "information", 20)
        if app.session is None and remote.ready:
            app.take_seat(remote)
        elif app.session is None and client.welcomed.is_set() and wait is not None:
            wait.set_text(self._seated_text(client))  # a served table: the friend's link until they sit down
        elif app.session is None and wait is not None and client.seeking is not None:
            found = client.seeking  # quick play: how the search goes, until the server seats us
            wait.set_text(ngettext("Seeking a stranger of your strength (rated): {count} other player seeking now, "
                                   "{seconds} s so far.\n\nEsc stops seeking.",
                                   "Seeking a stranger of your strength (rated): {count} other players seeking now, "
                                   "{seconds} s so far.\n\nEsc stops seeking.", found.others).format(
                count=found.others, seconds=found.waited))
        if app.session is remote:
            self._say_link(remote)
            app.publish()
        elif not client.link_up and wait is not None and client.taken:
            wait.set_text(_("Your seat was taken from another window: that window plays it now."))
        elif not client.link_up and wait is not None:
            wait.set_text(self._gone_text(client))

    @staticmethod
    def _gone_text(client: TableClient) -> str:
        """The wait screen while the table is not there: why, whether it is tried again, and the seat kept."""
        retry = client.retry
        again = (_("Trying again in {seconds} s (try {attempt}), by itself.").format(seconds=f"{retry[1]:g}",
                                                                                     attempt=retry[0])
                 if retry is not None else
                 _("It stopped trying: {why}.").format(why=client.gave_up) if client.gave_up else "")
        gone = _("The table is not there now ({why}).").format(why=client.closed_reason or _("closed"))
        return (f"{gone} {again}\n\n" + _("Your seat is kept: Esc leaves, and 'spades-tui join' (or the start screen) "
                                            "takes you back to it later."))

    def _seated_text(self, client: TableClient) -> str:
        """The wait screen of a seat taken, the game not begun: for a table opened at a server, the invite to pass
        on (and that the table is public); then the table's rules, and the way out last."""
        from ..houserules import table_rules_text  # in here: as in _remote_changed

        invite = client.invite_lines() if client.create is not None else None  # a table opened at a server
        public = ("\n\n" + _("Your table is rated: the result counts in both players' ratings at this server; a "
                              "registered player sits down at it.") if client.table_rated else "") + (
            "\n\n" + _("Your table is public: it is listed in the server's lobby, where anyone may sit down at its "
                        "empty seat or watch it.") if client.public or client.table_rated else "")
        rules = ("\n\n" + _("The rules of this table: {rules}").format(rules=table_rules_text(client.rules))
                 if client.rules is not None else "")
        if not self.wait_text and not invite:
            return _("Seated. Waiting for the first hand's shuffle…") + rules
        lines = "\n".join(f"    {line}" for line in (invite or "").splitlines())
        told = self.wait_text or (_("Give your friend this invite (it is shown until they sit down; it works wherever "
                                    "that server can be reached):") + f"\n\n{lines}{public}")
        return f"{told}{rules}\n\n" + _("Esc leaves the table.")

    def _say_link(self, remote: RemoteSeat) -> None:
        """At the table: the link lost (or the seat taken from another window), and found again, said once each."""
        app, client = self.app, remote.client
        if not client.link_up and client.outcome is None and not remote.told_down:
            remote.told_down = True
            if client.taken:
                app.say(_("Your seat was taken from another window: that window plays it now, this one no longer "
                          "can."), "error", 30)
            else:
                app.say(_("Lost the table (the host stopped or the network dropped): trying again by itself. "
                          "Your seat is kept."), "error", 30)
        elif client.link_up and remote.told_down:
            remote.told_down = False
            app.say(_("Back at the table."))

    def rejoin(self, path: Path) -> None:
        """A seat kept from before (its file): sit at that table again."""
        from ...table.seat.client import TableClient

        seat = load_seat(path)
        if seat is None:
            self.app.show_start(_("That seat's file cannot be read."))
            return
        self.join(TableClient(seat.url, seat_file=path))

    def served_invite(self, served: bool) -> Optional[tuple[str, str, Path]]:
        """(the table's address, its code, this seat's file) when 'spades-tui serve' sent this tab to a table."""
        code = os.environ.get("SPADES_TUI_TABLE_CODE") if served else None
        tables = os.environ.get("SPADES_TUI_TABLES")
        if not code or not tables or self.data_dir is None:
            return None
        url = tables.replace("http", "ws", 1) + "/table"
        return url, code, seat_path(self.data_dir, f"{url}#{code}")

    def join_invited(self, invite: tuple[str, str, Path]) -> None:
        """The friend's link of a table in 'spades-tui serve': this tab sits down at it."""
        from ...table.seat.client import TableClient

        url, code, seat_file = invite
        self.join(TableClient(url, code=code, name=table_name(self.app.prefs.player_name, "Guest"),
                              seat_file=seat_file))

    def play_a_friend(self, served: bool) -> None:
        """The start screen's "Play a friend": a table hosted here, or one in 'spades-tui serve' (``served``)."""
        app = self.app
        if not served:
            self.open(name=table_name(app.prefs.player_name, "Host"))
            return
        from ..screens.choice import ChoiceScreen  # the table lives in the serve process: this tab sits at it

        def chosen(kind: Optional[str]) -> None:
            if kind is not None:
                app.run_worker(self.open_served(app.options.rules or app.prefs.rules, public=kind == "public"),
                               exit_on_error=False)

        app.push_screen(ChoiceScreen(_("Play a friend"), _("Who may sit down at your table?"), [
            ("private", _("A private table: whoever has its link")),
            ("public", _("A public table: also anyone who finds it on this server")),
        ]), chosen)

    async def open_served(self, rules: Any, public: bool = False) -> None:
        """A table in 'spades-tui serve' (the table lives in the serve process): this tab sits at it like the
        friend's, with the owner's seat kept in a file."""
        from ...table.seat.client import TableClient
        from ...table.seat.link import TableError, open_served_table

        base, key = os.environ.get("SPADES_TUI_TABLES"), os.environ.get("SPADES_TUI_TABLES_KEY")
        if not base or not key or self.data_dir is None:
            self.app.show_start(_("This server does not hold tables."))
            return
        # The wait screen at once: while the server answers, the start screen must not take a second Enter
        # (a quick second press opened a second table and left the first, its link already given).
        opening = TableWaitScreen(translated(TITLE), _("Opening the table…"))
        self.app.show(opening)
        try:
            url, code, token, watch = await open_served_table(
                base, key, table_name(self.app.prefs.player_name, "Host"), rules, tab=os.environ.get(TAB_ENV),
                public=public)
        except TableError as exc:
            if self.app.screen is opening:
                self.app.show_start(_("No table: {problem}").format(problem=exc))
            return
        path = seat_path(self.data_dir, f"{url}#owner-{code}")
        try:
            private_dir(path.parent)
            atomic_write_text(path, json.dumps(SeatFile(url, token, 0, ("", "")).to_json()))
        except (OSError, StorageError) as exc:
            self.app.show_start(_("No table: your seat cannot be kept ({problem})").format(problem=exc))
            return
        if self.app.screen is not opening:  # left with Esc while it opened: the seat is kept for the start list
            return
        page = os.environ.get("SPADES_TUI_PAGE", base)
        where = page.split("://", 1)[-1]
        watching = ("\n\n" + _("To watch it: the watch code {code} (\"Watch a table\" on this page), or from a "
                                "terminal:  {command}").format(code=watch, command=f"spades-tui watch {where} {watch}")
                    if watch else "")
        listed = ("\n\n" + _("This table is public: anyone on this server finds it in \"Find a table on this server\" "
                              "and may sit down at its empty seat or watch it.") if public else "")
        self.wait_text = (_("Give your friend this link (it is shown until they sit down):") +
                          f"\n\n    {page}/?table={code}\n\n" +
                          _("or, from a terminal:  {command}").format(command=f"spades-tui join {where} {code}") +
                          f"{watching}{listed}\n\n{translated(SHUFFLE)}")
        self.join(TableClient(url, seat_file=path))

    @staticmethod
    def _page_where() -> Optional[str]:
        """In a browser tab of 'spades-tui serve': the page's address (ADDR:PORT), which a terminal's 'join' and
        'watch' reach the tables at."""
        page = os.environ.get("SPADES_TUI_PAGE") or os.environ.get("SPADES_TUI_TABLES")
        return page.split("://", 1)[-1] if page else None

    # ------------------------------------------------------------ finding a table, watching one

    def server_url(self, served: bool) -> Optional[str]:
        """The table server's WebSocket URL: in a browser the page's own, else the settings' (None: not set)."""
        from ...table.seat.link import TableError, table_url

        if served:
            tables = os.environ.get("SPADES_TUI_TABLES")
            return tables.replace("http", "ws", 1) + "/table" if tables else None
        try:
            return table_url(self.app.prefs.table_server) if self.app.prefs.table_server else None
        except TableError:
            return None

    def find(self, served: bool) -> None:
        """The server's public tables, fresh as they change: Enter sits down at a waiting one, or watches."""
        from ...table.seat.finder import Lobby
        from ..screens.lobby import LobbyScreen

        url = self.server_url(served)
        if url is None:
            self.app.say(translated(self.NO_SERVER), "warning")
            return
        where = _("this server") if served else self.app.prefs.table_server
        screen = LobbyScreen(where)
        lobby = Lobby(url)
        lobby.on_change = lambda: self._listed(lobby, screen)

        def chosen(choice: Optional[tuple[str, str]]) -> None:
            self.app.run_worker(lobby.close(), exit_on_error=False)
            if choice is not None:
                self._sit_or_watch(url, *choice)

        self.app.push_screen(screen, chosen)
        self.app.run_worker(self._follow(lobby, screen), exit_on_error=False)
        from . import ratedplay  # in here: rated play loads with the first table (test_start_imports.py)

        self.app.run_worker(ratedplay.leaderboard(self, screen), exit_on_error=False)

    async def _follow(self, lobby: Any, screen: Any) -> None:
        from ...table.seat.finder import LobbyError

        try:
            await lobby.connect()
            self._listed(lobby, screen)
            await lobby.follow()
        except LobbyError as exc:
            screen.show([], _("No list: {problem}. Esc goes back.").format(problem=exc))
        finally:  # the app quit with the list up (this worker cancelled): its connection closed all the same
            await lobby.close()

    @staticmethod
    def _listed(lobby: Any, screen: Any) -> None:
        listed = lobby.tables or []
        rows = [(t.line(), ("rated" if t.rated else "join") if t.waiting else "watch", t.code or t.watch)
                for t in listed]
        if lobby.problem is not None and lobby.tables is not None:
            note = _("The list stopped coming ({problem}); Esc goes back.").format(problem=lobby.problem)
        elif rows:
            note = _("Enter on a table waiting for a player sits down at it; on a table in play, watches it.")
        else:
            note = _("No public table here now. Open one (Play a friend) and make it public, or Esc to go back.")
        screen.show(rows, note)

    def _sit_or_watch(self, url: str, kind: str, code: str) -> None:
        from ...table.seat.client import TableClient

        name = table_name(self.app.prefs.player_name, "Guest" if kind == "join" else "Watcher")
        if kind == "rated":  # a rated table's seat is a registered player's: sat at with this player's key
            from . import ratedplay

            ratedplay.sit_rated(self, code)
        elif kind == "join" and self.data_dir is not None:
            self.join(TableClient(url, code=code, name=name, seat_file=seat_path(self.data_dir, url, code)))
        elif kind == "watch":
            self.join(TableClient(url, watch=code, name=name))

    def quick(self) -> None:
        from . import ratedplay

        ratedplay.quick(self)

    def give_up(self, claim: bool) -> None:
        from . import ratedplay

        ratedplay.give_up(self, claim)

    def watch_code(self) -> None:
        """A browser's "Watch a table": a watch code typed in, watched at the page's server."""
        from ..screens.lobby import WatchCodeScreen

        url = self.server_url(True)
        if url is None:
            self.app.say(_("This server does not hold tables."), "warning")
            return
        self.app.push_screen(WatchCodeScreen(), lambda code: self._sit_or_watch(url, "watch", code) if code else None)

    # ------------------------------------------------------------ the invite

    def show_invite(self, seat_view: Optional[SeatView], first: str) -> None:
        """The table's invite and watch command in a window, each to copy (``first``: the one Enter copies)."""
        from ..invite import command_for, has_invite, invite_choices, invite_text, title
        from ..screens.choice import ChoiceScreen

        app = self.app
        if app.session is None or seat_view is None or not has_invite(seat_view):
            app.say(_("This game has no invite to show: only a seat at a network table that has its codes does."),
                    "warning")
            return

        def chosen(key: Optional[str]) -> None:
            command = command_for(seat_view, key or "")
            if command:
                app.copy_to_clipboard(command)
                app.say(_("Copied (where the terminal lets a program set its clipboard): {command}").format(
                    command=command), timeout=8)

        app.push_screen(ChoiceScreen(title(seat_view), invite_text(seat_view), invite_choices(seat_view, first),
                                     name="invite"), chosen)

    # ------------------------------------------------------------ the chat

    def chat(self) -> Optional[tuple[list[tuple[str, str]], bool]]:
        """The lines said at this screen's table and whether this screen may say one (a watcher may not)."""
        if self.host is not None:
            return [(str(m["name"]), str(m["text"])) for m in self.host.chat], True
        if self.remote is not None:
            return list(self.remote.client.talk.chat), not self.remote.client.watching
        return None

    def say_line(self, text: Optional[str]) -> None:
        """A line typed in the chat, to the table; a refusal said on the screen."""
        if not text:
            return
        if self.host is not None:
            problem = self.host.say(self.host.host_seat, text)
            if problem is not None:
                self.app.say(_("Not said: {problem}").format(problem=problem), "warning")
        elif self.remote is not None:
            self.app.run_worker(self._remote_say(self.remote, text), exit_on_error=False)

    async def _remote_say(self, remote: RemoteSeat, text: str) -> None:
        problem = await remote.client.say(text)
        if problem is not None:
            self.app.say(_("Not said: {problem}").format(problem=problem), "warning")

    # ------------------------------------------------------------ the end

    def close(self, session: Optional[Seat]) -> None:
        """Close the table hosted here (its slot released: by the app once it played the host's seat, else by
        the table) and the seat at another's (unless it is ``session``, closed by the app already)."""
        table, self.host, self.hosted = self.host, None, None
        listener, self.listener = self.listener, None
        if table is not None:
            table.close()  # once more when the app played its seat: closing a closed table does nothing
        if listener is not None:
            self.app.run_worker(listener.stop(), exit_on_error=False)
        remote, self.remote = self.remote, None
        if remote is not None and remote is not session:
            remote.close_all()

    async def stop(self) -> None:
        """The app ends: the friend's connection closes (they see the table gone, the game saved)."""
        listener, self.listener = self.listener, None
        if listener is not None:
            await listener.stop()
