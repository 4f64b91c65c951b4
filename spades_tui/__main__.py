"""``python -m spades_tui``: the command line (spades_tui/cli/)."""

from .cli import main

raise SystemExit(main())
