"""The pure game engine: immutable state, actions, reducer, observations, records.

No Textual, no I/O, no randomness: chance arrives as ``Shuffle`` and ``ExchangeDraw`` actions made by
``spades_tui.session.dealer``.  Import each name from its module (``from spades_tui.engine.rules import
Rules``): the start screen needs the rules and the cards, not the reducer or the records.
"""
