"""Another process holding a game slot, for the tests of two copies of the game at once.

The holder takes the lock and says so on its stdout, then waits on its stdin (no sleeps):
closing its stdin lets it go, and killing it shows that the OS drops the lock.
"""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from tests.support.cli import ROOT, cli_env

# ``claim``: what a second copy of the game does; ``flock``: a bare OS lock on the lock file, as any
# other program might take it; ``new``: a second copy starting a new game.
HOLDER = """
import fcntl, sys
from pathlib import Path
from spades_tui.keep.slots import SlotDirectory
how, root, path = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
slots = SlotDirectory(root)
if how == "claim":
    slot = slots.claim(path)
elif how == "new":
    slot = slots.claim_new()
else:
    fh = open(path.with_suffix(".lock"), "a")
    fcntl.flock(fh, fcntl.LOCK_EX)
    slot = None
print("held", slot.path if slot else path, flush=True)
sys.stdin.readline()
"""


class Holder:
    """A child process that holds a slot until ``let_go()`` or ``kill()``."""

    def __init__(self, root: Path, path: Optional[Path] = None, how: str = "claim") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, how, str(root), str(path or root / "none.json")],
            cwd=ROOT, env=cli_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split(maxsplit=1)
        assert line and line[0] == "held", "the holder could not take the slot"
        self.path = Path(line[1].strip())
        self.pid = self.proc.pid

    def let_go(self) -> None:
        """Close its stdin: it releases the slot and exits."""
        self._close()

    def kill(self) -> None:
        """SIGKILL: the OS drops its lock."""
        self.proc.kill()
        self._close()

    def _close(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()
        self.proc.wait(30)


@contextmanager
def held_by_another_process(root: Path, path: Optional[Path] = None, how: str = "claim") -> Iterator[Holder]:
    holder = Holder(root, path, how)
    try:
        yield holder
    finally:
        holder.let_go()
