"""The day's challenge at the table server, against the field (the start screen's entry when a table server is set,
and a browser's on ``serve``; docs/serving.md, "The day's challenge"): a seat at the server's challenge table,
played as any seat at another's table (``NetworkTable.join``), its end the field's standings (``FieldEndScreen``).

Who the player is there is rated play's (``ratedplay.rated_server``): the settings' table server and a key in the
data folder at a terminal, the page's own server and a key in the visitor's own folder in a browser; registered
under the settings' name the first time, so the first challenge finished in a day is the player's entry.  A
refused registration (a name someone there holds) plays it as practice, and says so.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Optional

from ...i18n.language import N_, _, translated
from ...table.seat.seat_file import seat_path
from ...table.wire.protocol import table_name

if TYPE_CHECKING:
    from .network import NetworkTable
    from .ratedplay import RatedServer

TITLE = N_("The day's challenge")


def start(network: NetworkTable) -> None:
    from ..screens.table import TableWaitScreen
    from .ratedplay import rated_server

    app = network.app
    server = rated_server(network)
    if server is None:
        app.say(translated(network.NO_SERVER), "warning")
        return
    app.show(TableWaitScreen(translated(TITLE), _("Asking {server} for the day's challenge…").format(
        server=server.words)))
    app.run_worker(_start(network, server), exit_on_error=False)


async def _start(network: NetworkTable, server: RatedServer) -> None:
    from ...table.seat import rated as rc
    from ...table.seat.client import TableClient
    from .ratedplay import registered

    name = table_name(network.app.prefs.player_name, "Player")
    key: Optional[str] = None
    problem: Optional[str] = None
    try:
        name, key = await registered(server, network.app.prefs.player_name)
    except rc.RatedError as exc:
        problem = str(exc)
    client = TableClient(server.url, name=name, key=key, challenge=True,
                         seat_file=seat_path(server.data_dir, server.url, "challenge-" + secrets.token_hex(6)))
    words = _("The day's challenge at {server}, against everyone who plays it there: four hands against the server's "
              "expert, each scored against the field's on the same deals.").format(server=server.words)
    if problem is not None:
        words += " " + _("This is practice: you could not be registered at {server} ({problem}).").format(
            server=server.words, problem=problem)
    network.join(client, words)
