"""Network tables (docs/table-protocol.md), by side; no Textual here.

- ``host/``: the host's side.  ``table.TableHost`` holds one table's game and answers its WebSocket (aiohttp);
  it owns its parts: ``ledger`` (the shuffle's secrets, nonces and keys), ``connections`` (the sockets of its
  seats and watchers), ``talk`` (the chat and events); ``updates`` is what each seat is sent, and
  ``host_seat.HostSeat`` the host's own seat as the interface plays it.
- ``seat/``: a seat's side, the client.  ``client.TableClient`` is one seat at a table; it owns ``link`` (its
  connection and reconnecting), ``ledger`` (its shuffle check), ``talk`` (its chat, events, notices) and
  ``keeping`` (its seat file, ``seat_file``, and statistics); ``remote_seat.RemoteSeat`` is the seat the
  interface plays; ``finder`` reads a server's list of public tables.
- ``wire/``: what both ends share on the wire: ``protocol`` (messages and limits), ``frames`` (the host's
  frames as a seat reads them), ``shuffle`` (the commit-and-reveal shuffle both compute).
- The server of many tables (``lobby``, ``pending``, ``server``, ``served``), what keeps a listening table up
  (``guard``) and the host's sockets (``sockets``); ``run`` starts either side from the command line (a
  headless host with a bot, a bot client).

The two sides never import each other (an import-linter contract): only the wire is shared.
"""
