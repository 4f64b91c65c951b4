"""The server of many network tables (docs/table-protocol.md, "Meeting on a server" and "A server's limits"):
``tables.TableServer`` holds them in one process and sends each connection to its table (or to the list of
public tables), with a server's limits; ``pending`` keeps the tables not begun across restarts;
``tables_only`` is ``spades-tui serve --tables-only``.  It builds tables of the host's side (``table.host``)."""
