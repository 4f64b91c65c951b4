"""Network tables (docs/table-protocol.md): a host that holds the game and a client for each remote seat.

No Textual here.  ``host.TableHost`` serves one table over a WebSocket (aiohttp); ``client.TableClient``
is one seat at it; ``shuffle`` is the commit-and-reveal shuffle both sides compute; ``run`` starts
them from the command line (a headless host with a bot, a bot client).
"""
