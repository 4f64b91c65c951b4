"""Network tables (docs/table-protocol.md): a host that holds the game and a client for each remote seat.

No Textual here.  ``host.TableHost`` serves one table over a WebSocket (aiohttp), its parts by job in
``ledger`` (the shuffle's commit, nonces and reveal), ``serving`` and ``sockets`` (its connections and
watchers), ``updates`` (what each seat is sent) and ``talk`` (the chat and events); ``hosted.HostSeat`` is
the host's own seat as the interface plays it.  ``client.TableClient`` is one seat at a table, with ``link``
(its connection and reconnecting), ``ledger`` (its shuffle check), ``talk`` and ``seatkeep`` (its seat file
and statistics); ``shuffle`` is the commit-and-reveal shuffle both sides compute; ``run`` starts them from
the command line (a headless host with a bot, a bot client).
"""
