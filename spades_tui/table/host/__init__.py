"""A network table's host's side (docs/table-protocol.md): one table's game, its shuffle ledger, its connections,
what each seat is sent, its chat, and the host's own seat as the interface plays it.  Never imports a seat's side
(``table.seat``): what both ends share is in ``table.wire``."""
