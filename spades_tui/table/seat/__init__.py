"""A network table's seat's side, the client (docs/table-protocol.md): one seat's connection, its reading of the
host's frames, its shuffle check, its chat and notices, its seat file, the seat the interface plays, and a
server's list of public tables as a client reads it.  Never imports the host's side (``table.host``)."""
