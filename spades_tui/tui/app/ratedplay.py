"""Rated play from the app (docs/serving.md, "Rated play"): who this player is at a server (a key, registered under
the settings' name the first time), a stranger sought, a rated table sat at from the lobby, the leaderboard under
the lobby's tables, and resign or claim at a rated table.

At a terminal the server is the settings' table server, and the key lives in the data folder, one file per
address.  In a browser tab of ``spades-tui serve`` the server is the page's own, and the key lives in the
visitor's own data folder (table/wire/visitors.py: a folder per browser, by its cookie) under the name
``SERVED``, as a terminal's lives in its own: the tab's game runs on the server, so nothing leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

from ...i18n.language import _, translated
from ...table.seat.seat_file import seat_path
from ...table.wire.protocol import table_name
from ..screens.table import TableWaitScreen

UNNAMED = "Player"  # the name of a player who never chose one
UNNAMED_TRIES = 3  # numbered names tried when "Player" is taken: each a question to the server, so a few

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...settings.options import LaunchOptions
    from ...settings.preferences import Preferences
    from ...table.seat.client import TableClient
    from ...table.seat.remote_seat import RemoteSeat


class _App(Protocol):
    """What rated play asks of the app (network.TableOwner's part)."""

    options: LaunchOptions

    @property
    def prefs(self) -> Preferences: ...

    def say(self, text: str, severity: str = "information", timeout: Optional[float] = None) -> None: ...

    def show(self, screen: Screen[None]) -> None: ...

    def show_start(self, message: Optional[str] = None) -> None: ...

    def run_worker(self, work: Any, *, exit_on_error: bool = True) -> Any: ...


class NetworkTable(Protocol):
    """What rated play asks of the network table (network.NetworkTable's part)."""

    TITLE: str
    NO_SERVER: str
    data_dir: Optional[Path]
    remote: Optional[RemoteSeat]

    @property
    def app(self) -> _App: ...

    def server_url(self, served: bool) -> Optional[str]: ...

    def join(self, client: TableClient, waiting: Optional[str] = None) -> None: ...

SERVED = "this-server"  # a browser visitor's key file for the page's own server (one server per visitor folder)
LEADERS_SHOWN = 10  # rows of the leaderboard under the lobby's tables ('spades-tui players' lists all)


@dataclass(frozen=True)
class RatedServer:
    """Where rated play goes from this app: the server's URL, the address its key is kept under, and its words."""

    url: str
    address: str
    words: str
    data_dir: Path


def rated_server(net: NetworkTable) -> Optional[RatedServer]:
    """The page's own server in a browser, else the settings' table server; None when there is none (or no data
    folder to keep a key in)."""
    served = net.app.options.served
    url = net.server_url(served)
    if url is None or net.data_dir is None:
        return None
    if served:
        return RatedServer(url, SERVED, _("this server"), net.data_dir)
    return RatedServer(url, net.app.prefs.table_server, net.app.prefs.table_server, net.data_dir)


def name_taken(exc: Exception) -> bool:
    """The server refused a name someone there holds: its reason as sent (English, keep/players.py ``TAKEN``) or as
    the client shows it, in the player's language."""
    from ...keep.players import TAKEN

    return "taken" in str(exc) or translated(TAKEN) in str(exc)


async def registered(server: RatedServer, preferred: str) -> tuple[str, str]:
    """This player's (name, key) at ``server``, registered under ``preferred`` (the settings' name) the first time;
    ``RatedError`` if that cannot be (the last refusal)."""
    import secrets

    from ...table.seat import rated as rc

    wanted = table_name(preferred, UNNAMED)
    # A player who never chose a name (every browser visitor at first) is not sent back for "Player" being taken:
    # a free "Player 1234" is found for them, which the settings' name replaces by 'rename' later.
    names = [wanted] if wanted != UNNAMED else [UNNAMED, *(f"{UNNAMED} {secrets.randbelow(9000) + 1000}"
                                                           for _try in range(UNNAMED_TRIES))]
    for name in names:
        try:
            kept = await rc.register(server.data_dir, server.address, server.url, name)
        except rc.RatedError as exc:
            if name_taken(exc) and name != names[-1]:
                continue
            raise
        return kept.name, kept.key
    raise rc.RatedError("no name to register under")


async def _key(net: NetworkTable, server: RatedServer, stranger: bool) -> Optional[tuple[str, str]]:
    """This player's (name, key) at ``server``, registered under the settings' name the first time; None once the
    start screen says why a stranger cannot be played (``stranger``), or the rated table sat at."""
    from ...table.seat import rated as rc

    try:
        return await registered(server, net.app.prefs.player_name)
    except rc.RatedError as exc:
        said = (_("Cannot play a stranger at {server}: {problem}.") if stranger else
                _("Cannot sit at that rated table at {server}: {problem}.")).format(server=server.words, problem=exc)
        hint = " " + _("Choose another name in the settings (Your name).") if name_taken(exc) else ""
        net.app.show_start(said + hint)
        return None


def quick(net: NetworkTable) -> None:
    """Play a stranger, rated: registered first if this player has no key there, then seeking until seated."""
    server = rated_server(net)
    if server is None:
        net.app.say(translated(net.NO_SERVER), "warning")
        return
    net.app.show(TableWaitScreen(translated(net.TITLE), _("Asking {server} who you are there…").format(
        server=server.words)))
    net.app.run_worker(_quick(net, server), exit_on_error=False)


async def _quick(net: NetworkTable, server: RatedServer) -> None:
    import secrets

    from ...table.seat.client import TableClient

    found = await _key(net, server, stranger=True)
    if found is None:
        return
    name, key = found
    client = TableClient(server.url, name=name, key=key, quick=True,
                         seat_file=seat_path(server.data_dir, server.url, "quick-" + secrets.token_hex(6)))
    net.join(client, _("Seeking a stranger of your strength at {server} (rated), as {name}…").format(
        server=server.words, name=name) + "\n\n" + _("Esc stops seeking."))


def sit_rated(net: NetworkTable, code: str) -> None:
    """Sit down at a rated table from the lobby: with this player's key (registered first if need be)."""
    server = rated_server(net)
    if server is not None:
        net.app.run_worker(_sit_rated(net, server, code), exit_on_error=False)


async def _sit_rated(net: NetworkTable, server: RatedServer, code: str) -> None:
    from ...table.seat.client import TableClient

    found = await _key(net, server, stranger=False)
    if found is not None:
        client: TableClient = TableClient(server.url, code=code, name=found[0], key=found[1],
                                          seat_file=seat_path(server.data_dir, server.url, code))
        net.join(client)


async def leaderboard(net: NetworkTable, screen: Any) -> None:
    """The server's leaderboard beside its tables, this player's own row marked (with their key for it)."""
    from ...table.seat import rated as rc

    server = rated_server(net)
    if server is None:
        return
    try:
        kept = rc.kept_key(server.data_dir, server.address)
        lines, you = await rc.players(server.url, kept.key if kept is not None else None)
    except rc.RatedError as exc:
        screen.show_players(_("No leaderboard: {problem}").format(problem=exc), [])
        return
    title = (_("The best players here (provisional ratings, marked ?, are not listed)") if lines else
             _("No player here has a firm rating yet (about fifteen rated games make one)."))
    rows = rc.board_rows(lines[:LEADERS_SHOWN], you, dated=False)
    if you is not None and all(line.id != you.id for line in lines[:LEADERS_SHOWN]):
        mine = next((n for n, line in enumerate(lines, 1) if line.id == you.id), None)
        rows[-1] = you.row(mine, you, dated=False)  # your own row, with your place, under the best
    screen.show_players(title, rows)


def give_up(net: NetworkTable, claim: bool) -> None:
    """At a rated table: resign, or claim the game (the game menu's); the host's refusal comes as a notice."""
    if net.remote is not None:
        net.app.run_worker(_give_up(net, net.remote.client, claim), exit_on_error=False)


async def _give_up(net: NetworkTable, client: TableClient, claim: bool) -> None:
    if not await (client.claim() if claim else client.resign()):
        net.app.say(_("Not connected: nothing was sent. Try again once the table is back."), "warning")
