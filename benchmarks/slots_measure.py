"""The start screen and the palette with many saved games (issue 17, finding 10); not a test, run by hand:

    nice python benchmarks/slots_measure.py [FINISHED UNFINISHED]   # default 2000 500
    nice python benchmarks/slots_measure.py paint [FINISHED UNFINISHED]


Times, in Textual's pilot at 80x24 (median of 5 runs each): from the app's start to the start screen's
menu, and from Ctrl+P to the palette's list, in an empty data folder and in one with the slot files;
the first start with the files (it moves the finished games to games/finished/ and writes the index)
is reported apart.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual.command import CommandList, CommandPalette  # noqa: E402
from textual.widgets import OptionList  # noqa: E402

from spades_tui.bots.levels import make_bot  # noqa: E402
from spades_tui.engine.actions import PlayerAction  # noqa: E402
from spades_tui.engine.observation import observe  # noqa: E402
from spades_tui.engine.state import GameState, Phase  # noqa: E402
from spades_tui.keep.storage import save_record  # noqa: E402
from tests.support.pilot import VS_BOT, make_app, record_until  # noqa: E402


def fill(data: Path, finished: int, unfinished: int) -> None:
    games = data / "games"
    games.mkdir(parents=True, exist_ok=True)
    bots = [make_bot("easy", seed=1), make_bot("easy", seed=2)]  # whole games of the usual length (about 1,100 actions)

    def policy(state: GameState, legal: Sequence[PlayerAction]) -> PlayerAction:
        assert state.to_act is not None
        return bots[state.to_act].decide(observe(state, state.to_act), legal)

    done = record_until(lambda s: s.phase is Phase.GAME_OVER, players=VS_BOT, policy=policy, limit=20000)
    going = record_until(lambda s: s.phase is Phase.PLAY and len(s.history) >= 4, players=VS_BOT, policy=policy,
                         limit=20000)
    save_record(games / "game-1.json", done)
    save_record(games / "game-2.json", going)
    text_done, text_going = (games / "game-1.json").read_text(), (games / "game-2.json").read_text()
    for n in range(1, finished + unfinished + 1):
        (games / f"game-{n}.json").write_text(text_done if n <= finished else text_going)


async def once(data: Path) -> tuple[float, float]:
    app = make_app(data)
    start = time.perf_counter()
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.screen.query(OptionList):
            await pilot.pause()
        shown = time.perf_counter() - start
        start = time.perf_counter()
        await pilot.press("ctrl+p")
        while not (isinstance(app.screen, CommandPalette) and app.screen.query_one(CommandList).option_count):
            await pilot.pause()
        palette = time.perf_counter() - start
    return shown, palette


def median(data: Path, runs: int = 5) -> tuple[float, float]:
    times = [asyncio.run(once(data)) for _ in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def paint(finished: int, unfinished: int, runs: int = 9) -> None:
    """As a player sees it: ``spades-tui`` started in a pseudo-terminal until the start screen is drawn,
    an empty data folder and a full one taking turns (tui_measure's first paint); the full folder's
    first start (moving the finished games, writing the index) is done before, in this process."""
    import os

    from benchmarks.tui_measure import _first_paint
    from spades_tui.keep.slots import open_games

    home = Path(tempfile.mkdtemp(prefix="slots-paint-"))
    try:
        empty, full = home / "empty", home / "full"
        empty.mkdir()
        fill(full / "spades-tui", finished, unfinished)
        start = time.perf_counter()
        slots, _ = open_games(full / "spades-tui")
        slots.scan()
        print(f"first start's listing (moves, indexes): {time.perf_counter() - start:.1f} s")

        def env(data: Path) -> dict[str, str]:
            return dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", XDG_DATA_HOME=str(data),
                        XDG_CONFIG_HOME=str(data / "config"))

        argv = [sys.executable, "-m", "spades_tui"]
        a, b = [], []
        for _ in range(runs):
            a.append(_first_paint(argv, b"Spades for two", env(empty)))
            b.append(_first_paint(argv, b"Spades for two", env(full)))
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"first paint of the start screen, median of {runs}: empty {ma * 1000:.0f} ms, "
              f"{finished} finished + {unfinished} unfinished {mb * 1000:.0f} ms ({mb / ma:.2f}x)")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    if sys.argv[1:2] == ["paint"]:
        rest = sys.argv[2:]
        paint(*((int(rest[0]), int(rest[1])) if len(rest) > 1 else (2000, 500)))
        return
    finished, unfinished = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (2000, 500)
    home = Path(tempfile.mkdtemp(prefix="slots-measure-"))
    try:
        empty, full = home / "empty", home / "full"
        empty.mkdir()
        fill(full, finished, unfinished)
        asyncio.run(once(empty))  # imports and caches warm
        e_start, e_palette = median(empty)
        first = asyncio.run(once(full))
        f_start, f_palette = median(full)
        moved = len(list((full / "games" / "finished").glob("game-*.json")))
        print(f"empty folder:                      start screen {e_start:.3f} s, palette {e_palette:.3f} s")
        print(f"{finished} finished + {unfinished} unfinished, first start (moves, indexes): "
              f"start screen {first[0]:.3f} s, palette {first[1]:.3f} s; {moved} moved to games/finished/")
        print(f"the same, later starts:            start screen {f_start:.3f} s ({f_start / e_start:.2f}x), "
              f"palette {f_palette:.3f} s ({f_palette / e_palette:.2f}x)")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
