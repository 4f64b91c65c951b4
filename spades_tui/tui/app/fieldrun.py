"""The day's challenge at the table server, against the field (the start screen's entry when a table server is set,
and a browser's on ``serve``; docs/serving.md, "The day's challenge"): a seat at the server's challenge table,
played as any seat at another's table (``NetworkTable.join``), its end the field's standings (``FieldEndScreen``).

In a terminal the player is registered at the server under the settings' name the first time (as quick play does),
so their first finished challenge of the day is their entry; a refused registration plays it as practice, said.  A
browser's tab has no key of its own (its process would keep it in the server's data folder, every visitor's), so
there it is practice, and the entry says so.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from ...table.seat.seat_file import seat_path
from ...table.wire.protocol import table_name

if TYPE_CHECKING:
    from .network import NetworkTable

TITLE = "The day's challenge"


def start(network: NetworkTable, served: bool) -> None:
    from ..screens.table import TableWaitScreen

    app = network.app
    url = network.server_url(served)
    if url is None or network.data_dir is None:
        app.say("No table server is set: give one in the settings (Table server, ADDR:PORT).", "warning")
        return
    where = "this server" if served else app.prefs.table_server
    app.show(TableWaitScreen(TITLE, f"Asking {where} for the day's challenge…"))
    app.run_worker(_start(network, url, where, served), exit_on_error=False)


async def _start(network: NetworkTable, url: str, where: str, served: bool) -> None:
    from ...table.seat import rated as rc
    from ...table.seat.client import TableClient

    app, data_dir = network.app, network.data_dir
    assert data_dir is not None
    name = table_name(app.prefs.player_name, "Player")
    key, note = None, " This is practice: a browser's tab plays it for nothing." if served else ""
    if not served:
        try:
            kept = await rc.register(data_dir, where, url, name)
            key, name = kept.key, kept.name
        except rc.RatedError as exc:
            note = f" This is practice: you could not be registered at {where} ({exc})."
    client = TableClient(url, name=name, key=key, challenge=True,
                         seat_file=seat_path(data_dir, url, "challenge-" + secrets.token_hex(6)))
    network.join(client, f"The day's challenge at {where}, against everyone who plays it there: four hands against "
                         f"the server's expert, each scored against the field's on the same deals.{note}")
