"""The ways a table hosted here reaches a friend on another machine (issue 52; the words are tui/reach.py).

The wait screen says where its invite works and lists the ways: listen on this network (the table's socket moved
to this machine's network address, with the warning), back to this computer only, a table server (the settings'
one, or one typed in: the table is opened there instead and this screen sits at it, as 'host --server' does), and
how an ssh tunnel or a table server of one's own is set up.  ``NetworkTable`` owns the table; this asks it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

from ...i18n.language import N_, _, translated
from ..reach import is_loopback, lan_warning, serve_text, tunnel_text, ways, where_it_works
from ..screens.table import ServerAddressScreen, TableWaitScreen

if TYPE_CHECKING:
    from ...settings.preferences import Preferences
    from ...table.host.table import TableHost
    from ...table.run import Listener
    from ...table.seat.client import TableClient


class WaysApp(Protocol):
    """What the ways ask of the app (a part of ``network.TableOwner``)."""

    @property
    def prefs(self) -> Preferences: ...

    @property
    def screen(self) -> Any: ...

    def say(self, text: str, severity: str = "information", timeout: Optional[float] = None) -> None: ...

    def run_worker(self, work: Any, *, exit_on_error: bool = True) -> Any: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...


class WaysOwner(Protocol):
    """What the ways ask of the table's life (``network.NetworkTable``)."""

    @property
    def app(self) -> WaysApp: ...

    data_dir: Optional[Path]
    host: Optional[TableHost]
    listener: Optional[Listener]
    invite: Optional[str]

    def close(self, session: Any) -> None: ...

    def join(self, client: TableClient) -> None: ...

# In the player's language where shown (translated).
SHUFFLE = N_("The shuffle is one neither of you can choose: each hand is committed to before it is dealt, and "
             "revealed after it.")
SHUFFLE_SHORT = N_("Neither of you can choose the shuffle.")


def lan_address() -> Optional[str]:
    """This machine's network address (tests replace it with a loopback one: nothing leaves loopback there)."""
    from ...table.run import lan_address as found

    return found()


class TableWays:
    def __init__(self, network: WaysOwner) -> None:
        self.network = network
        self.lan: Optional[str] = None  # this machine's address on its network, once looked up

    async def look_up(self) -> None:
        """The network address, off the interface's thread (a name's lookup may wait on DNS)."""
        self.lan = await asyncio.get_running_loop().run_in_executor(None, lan_address)

    def shared(self, listener: Listener) -> bool:
        """Others reach the table: it listens on this machine's network address, or on one given that is not
        loopback (0.0.0.0: every address of this machine)."""
        return listener.address == self.lan or not is_loopback(listener.address)

    def text(self, listener: Listener) -> str:
        """The wait screen's words for a new table, nobody seated yet."""
        from ...table.run import reachable

        shared = self.shared(listener)
        address = reachable(listener.address)  # 0.0.0.0 said as the address the invite names
        warning = f"\n\n{lan_warning(address)}" if shared else ""
        invite = f"    {listener.invite}\n    {listener.watch_line}"
        return (f"{where_it_works(address, shared)}{warning}\n\n{invite}\n\n{translated(SHUFFLE_SHORT)} "
                + _("For a friend on another machine, choose how they reach you (Enter; F1 tells more). Esc leaves the "
                    "table."))

    def choices(self, listener: Listener) -> list[tuple[str, str]]:
        return ways(self.shared(listener), self.lan, self.network.app.prefs.table_server)

    def show(self, listener: Listener, wait: TableWaitScreen) -> None:
        wait.set_text(self.text(listener), self.choices(listener))

    def chosen(self, key: str) -> None:
        """A way chosen on the wait screen."""
        network, app = self.network, self.network.app
        listener = network.listener
        if listener is None or network.host is None or network.host.joined_name:
            return  # the friend sat down meanwhile: the table is theirs now
        if key in ("lan", "loopback"):
            address = self.lan if key == "lan" else "127.0.0.1"
            if address is not None:
                app.run_worker(self.listen_at(listener, address), exit_on_error=False)
        elif key == "server":
            self.open_at(app.prefs.table_server)
        elif key == "server-other":
            app.push_screen(ServerAddressScreen(), lambda typed: self.open_at(typed) if typed else None)
        elif key in ("tunnel", "serve"):
            from ..screens.choice import TableChoiceScreen

            tunnel = tunnel_text(listener.port, network.host.code, listener.address)
            title, words = ((_("A tunnel with ssh"), tunnel) if key == "tunnel"
                            else (_("A table server both of you reach"), serve_text()))
            shown = TableChoiceScreen(title, words, [("close", _("Back to the invite"))])
            shown.add_class("commands")  # wider: each command on one line at 80 columns, to be copied as it is
            app.push_screen(shown)

    async def listen_at(self, listener: Listener, address: str) -> None:
        """The table's socket moved to ``address`` (the same port when it is free there); the code stays."""
        from ...table.run import Listener

        network, app = self.network, self.network.app
        host = network.host
        if host is None or network.listener is not listener:
            return
        await listener.stop()
        moved = Listener(host, address, listener.port, listener.tls)
        problem = ""
        for candidate in (moved, Listener(host, address, 0, listener.tls)):
            try:
                await candidate.start()
            except OSError as exc:
                problem = os.strerror(exc.errno) if exc.errno else str(exc)
                continue
            network.listener, network.invite = candidate, candidate.invite
            break
        else:
            await listener.start()  # back where it was: it listened there a moment ago
            app.say(_("The table cannot listen on {address}: {why}. It stays on {where}.").format(
                address=address, why=problem, where=listener.address), "warning", 15)
        if isinstance(app.screen, TableWaitScreen) and network.listener is not None:
            self.show(network.listener, app.screen)

    def open_at(self, address: str) -> None:
        """The table opened at the table server ``address`` instead: the socket here closes, and this screen sits
        at the new table as its first seat (its invite shown until the friend sits down)."""
        import secrets

        from ...table.seat.client import TableClient
        from ...table.seat.link import TableError, table_url
        from ...table.seat.seat_file import seat_path

        network, app = self.network, self.network.app
        host = network.host
        if host is None or network.data_dir is None:
            return
        try:
            url = table_url(address)
        except TableError as exc:
            app.push_screen(ServerAddressScreen(_("{problem}. Type it again (ADDR:PORT), or Esc:").format(problem=exc)),
                            lambda typed: self.open_at(typed) if typed else None)
            return
        rules, first, name = host.rules, host.first, host.names[0]
        network.close(None)
        path = seat_path(network.data_dir, url, "new-" + secrets.token_hex(6))  # its code comes with the welcome
        network.join(TableClient(url, name=name, seat_file=path, create=(rules, first)))
