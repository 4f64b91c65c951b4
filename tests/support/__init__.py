"""What the tests share, and nothing else (no tests here; docs/development.md says more).

- ``wait``: the one way to wait (``until``, ``until_async``, ``Deadline``) under one bound, ``BOUND``;
- ``pilot``: the app driven by Textual's Pilot (``make_app``, ``screen_text``, ``check_frame``, ``until``);
- ``terminal``: the real program in a pseudo-terminal (``Game``);
- ``table``: a network table in this process and the hidden-card check of every frame; ``serve``:
  ``spades-tui serve`` in a process of its own and the browser; ``cli``: the real command, its processes
  and files; ``slots``: a slot held by another process;
- ``games``: whole games played once; ``checking``: the bot's-eye check; ``hidden``: the hidden-card
  oracle; ``views``: a seat's view of a whole state; ``positions``: precise positions and random endgames;
  ``reference_rules``, ``records``: an independent reading of the rules and the JSON records it reads;
  ``hostile``: hostile text; ``table_attack``: the commitment attack of protocol 1.
"""
