"""Measurements for the closing note (not a test; run by hand, with nice).

    nice python tests/functional_tests/tui_measure.py startup   # launch to first screen vs bare Textual
    nice python tests/functional_tests/tui_measure.py latency   # key-to-repaint while a bot thinks
    nice python tests/functional_tests/tui_measure.py memory    # peak RSS over a whole game vs the bot
    nice python tests/functional_tests/tui_measure.py enter     # Enter presses to end a hot-seat game to 100
"""

from __future__ import annotations

import asyncio
import os
import pty
import resource
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from spades_tui.bots import Bot  # noqa: E402
from spades_tui.engine import Observation, PlayerAction  # noqa: E402

BARE = (
    "from textual.app import App\n"
    "from textual.widgets import Static\n"
    "class Bare(App):\n"
    "    def compose(self):\n"
    "        yield Static('bare textual ready')\n"
    "Bare().run()\n"
)


def _first_paint(argv: list[str], marker: bytes, env: dict[str, str]) -> float:
    """Seconds from spawning ``argv`` on an 80x24 pty until ``marker`` is written to it."""
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.execvpe(argv[0], argv, env)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    seen = b""
    elapsed = float("nan")
    deadline = start + 30
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen += chunk
            if marker in seen:
                elapsed = time.perf_counter() - start
                break
    os.write(fd, b"\x11")  # ctrl+q
    time.sleep(0.3)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    return elapsed


def startup(runs: int = 7) -> None:
    home = tempfile.mkdtemp()  # saved games and preferences: never the user's own
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", XDG_DATA_HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, "config"))
    game = [_first_paint([sys.executable, "-m", "spades_tui"], b"Spades for two", env) for _ in range(runs)]
    bare = [_first_paint([sys.executable, "-c", BARE], b"bare textual ready", env) for _ in range(runs)]
    print(f"spades-tui start screen: median {statistics.median(game) * 1000:.0f} ms "
          f"(min {min(game) * 1000:.0f}, max {max(game) * 1000:.0f}) over {runs} runs")
    print(f"bare Textual app:        median {statistics.median(bare) * 1000:.0f} ms "
          f"(min {min(bare) * 1000:.0f}, max {max(bare) * 1000:.0f}) over {runs} runs")


def latency(presses: int = 20, in_thread: bool = False) -> None:
    from spades_tui.bots.host import ProcessBot
    from spades_tui.engine import Rules
    from spades_tui.session import session as session_module
    from tests.functional_tests.test_tui_support import make_app, screen_text

    # By its importable name (not __main__.Thinker) so the child process can unpickle it.
    from tests.functional_tests.tui_measure import Thinker as thinker

    if in_thread:
        session_module.create_bot = lambda spec, seed=None: thinker()  # type: ignore[assignment]
    else:
        session_module.create_bot = lambda spec, seed=None: ProcessBot(thinker)  # type: ignore[assignment]

    async def run() -> list[float]:
        app = make_app(Path(tempfile.mkdtemp()), bot="easy", seed=3, rules=Rules())
        delays: list[float] = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            # Make the bot the one to act: press Enter until it is thinking.
            for _ in range(50):
                if app.bot_thinking:
                    break
                await pilot.press("enter")
            assert app.bot_thinking and not app.forfeit, app.forfeit
            for i in range(presses):
                if not app.bot_thinking:
                    break
                key, marker, want = ("f1", "Close help", True) if i % 2 == 0 else ("escape", "Close help", False)
                t0 = time.perf_counter()
                app.post_message(_key(key))
                while (marker in screen_text(app)) != want:
                    await asyncio.sleep(0.001)
                delays.append(time.perf_counter() - t0)
            app.exit()
        return delays

    delays = asyncio.run(run())
    where = "in a thread" if in_thread else "in a child process (as the game runs built-in bots)"
    print(f"bot {where}: key-press-to-repaint while it thinks: max {max(delays) * 1000:.0f} ms, "
          f"median {statistics.median(delays) * 1000:.0f} ms over {len(delays)} presses")


THINK_S = 4.0


class Thinker(Bot):
    """A pure-Python CPU-bound bot (worst case for the GIL); module level so a child process can build it."""

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        end = time.perf_counter() + THINK_S
        n = 0
        while time.perf_counter() < end:
            n += sum(i * i for i in range(200))
        return legal[0]


def _key(key: str) -> object:
    from textual import events

    return events.Key(key, None)


def memory(target: int = 500, max_hands: int = 20) -> None:
    """Enter alone against the placeholder bot rarely reaches 500 (bag penalties), so the run
    stops at game over or after ``max_hands`` hands, more than a usual 500-point game."""
    from spades_tui.engine import Phase, Rules
    from tests.functional_tests.test_tui_support import game_state, make_app, settle

    async def run() -> tuple[int, int]:
        app = make_app(Path(tempfile.mkdtemp()), bot="easy", seed=7, rules=Rules(target=target))
        presses = 0
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            while game_state(app) is not None and game_state(app).phase is not Phase.GAME_OVER and (
                len(game_state(app).history) < max_hands
            ):
                await pilot.press("enter")
                await settle(pilot, app)
                presses += 1
            hands = len(game_state(app).history) if game_state(app) else 0
        return presses, hands

    presses, hands = asyncio.run(run())
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"game vs bot (target {target}, at most {max_hands} hands): {hands} hands, {presses} key presses, "
          f"peak RSS {peak_kib / 1024:.1f} MiB")


def enter_alone(target: int = 100, seeds: Sequence[int] = (1, 2, 3)) -> None:
    """How many Enter presses a hot-seat game to ``target`` takes when Enter alone plays it."""
    from spades_tui.engine import Phase, Rules
    from tests.functional_tests.test_tui_support import game_state, make_app, settle

    async def run(seed: int) -> tuple[int, int, tuple[int, int]]:
        app = make_app(Path(tempfile.mkdtemp()), hotseat=True, seed=seed, rules=Rules(target=target))
        presses = 0
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, app)
            while game_state(app) is not None and game_state(app).phase is not Phase.GAME_OVER and presses < 5000:
                await pilot.press("enter")
                presses += 1
            assert game_state(app) is not None
            return presses, len(game_state(app).history), game_state(app).scores

    for seed in seeds:
        presses, hands, scores = asyncio.run(run(seed))
        print(f"hot-seat, Enter alone, target {target}, seed {seed}: game over after {presses} presses, "
              f"{hands} hands, scores {scores[0]}-{scores[1]}")


def main(argv: Optional[Sequence[str]] = None) -> None:
    what = (argv or sys.argv[1:] or ["startup"])[0]
    if what == "latency-thread":
        latency(in_thread=True)
        return
    {"startup": startup, "latency": latency, "memory": memory, "enter": enter_alone}[what]()


if __name__ == "__main__":
    main()
