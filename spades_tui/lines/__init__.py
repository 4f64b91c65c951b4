"""Line mode (``--lines``, docs/playing.md "Line mode"): the whole game as a conversation on standard input and
output, for screen readers, braille displays, slow links and scripts.

Built on a seat's view like every other front end (``session.view.SeatView``): it never holds the whole game, so
it cannot say a card its seat may not know.  No Textual anywhere in it (an import-linter contract): it starts fast
over a slow link and runs in a pipe.  ``words`` writes cards and hands, ``narrate`` turns two views into the
events between them, ``ask`` the decision's numbered choices and what the player typed, ``player`` runs a seat,
``launch`` starts what the command line asked for.
"""
