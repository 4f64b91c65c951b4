"""A frozen copy of the expert bot as it was before issue 20 (main at 8056355), for measuring.

The new expert is measured against this one: ``spades-tui arena expert
'cmd:python -m tests.functional_tests.frozen_expert' --hands-only`` (run from the
repository root).  The modules are the bots' own of that commit (core, heuristic,
hard, sampling, expert) with their imports made absolute; the engine and the solver
are shared with the package.  Not part of the game: nothing in spades_tui imports it.
"""
