"""Bots: they decide from an observation only (docs/bot-protocol.md).

``levels.make_bot(spec)`` builds one from a spec; ``base.Bot`` is what every bot is.
"""
