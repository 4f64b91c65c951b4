"""What both ends of a network table share on the wire (docs/table-protocol.md): the messages and limits
(``protocol``), the host's frames as a seat reads them (``frames``) and the shuffle both compute (``shuffle``)."""
