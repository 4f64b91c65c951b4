"""Measurements for the closing note (not a test; run by hand, with nice).

    nice python benchmarks/tui_measure.py startup   # launch to first screen vs bare Textual (a pty)
    nice python benchmarks/tui_measure.py tmux [RUNS [BEFORE]]  # the issue's way: one tmux, a bare
        # App with a Static and a Footer, the start screen, --bot hard, --hotseat and a resumed game (--load)
        # interleaved, medians; BEFORE: another checkout (e.g. a worktree of main) measured in the same rounds
    nice python benchmarks/tui_measure.py cpu       # CPU time to first paint, same cases (busy machines)
    nice python benchmarks/tui_measure.py latency   # key press to repaint in tmux while a bot thinks
    nice python benchmarks/tui_measure.py resize    # tmux window resized 160x50 <-> 200x60: time to the new layout
    nice python benchmarks/tui_measure.py phases [ARGS...]  # where a first paint goes: Textual's steps, timed
    nice python benchmarks/tui_measure.py memory    # peak RSS over a whole game vs the bot
    nice python benchmarks/tui_measure.py enter     # Enter presses to end a hot-seat game to 100
"""

from __future__ import annotations

import asyncio
import os
import pty
import resource
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


BARE = (
    "from textual.app import App\n"
    "from textual.widgets import Static\n"
    "class Bare(App):\n"
    "    def compose(self):\n"
    "        yield Static('bare textual ready')\n"
    "Bare().run()\n"
)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time a running process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spawn_80x24(argv: list[str], env: dict[str, str]) -> tuple[int, int]:
    """``argv`` started on a new pty of 80x24: its pid and the pty's descriptor."""
    import fcntl
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # child
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def _first_paint(argv: list[str], marker: bytes, env: dict[str, str], cpu: bool = False) -> float:
    """Seconds from spawning ``argv`` on an 80x24 pty until ``marker`` is written to it (``cpu``: the CPU
    seconds the process used until then, which other work on the machine does not inflate)."""
    pid, fd = spawn_80x24(argv, env)
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
                elapsed = _cpu_seconds(pid) if cpu else time.perf_counter() - start
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


def startup_cpu(runs: int = 9) -> None:
    """CPU time to first paint on an 80x24 pty, interleaved (bare, start screen, --bot hard): on a busy
    machine wall time measures the neighbours; CPU time measures the work each start does."""
    home = tempfile.mkdtemp()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", XDG_DATA_HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, "config"), **_compiled(str(ROOT)))
    cases = {
        "bare Textual (Static + Footer)": ([sys.executable, "-c", BARE_FOOTER], b"bare textual ready"),
        "spades-tui (start screen)": ([sys.executable, "-m", "spades_tui"], b"Spades for two"),
        **{label: (argv, marker.encode()) for label, (argv, marker) in _game_cases(home).items()},
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for argv, marker in cases.values():  # warm-up, not counted
        _first_paint(argv, marker, env, cpu=True)
    for _ in range(runs):
        for label, (argv, marker) in cases.items():
            times[label].append(_first_paint(argv, marker, env, cpu=True))
    bare = statistics.median(times["bare Textual (Static + Footer)"])
    for label, found in times.items():
        med = statistics.median(found)
        print(f"{label:32} CPU to first paint: median {med * 1000:4.0f} ms (min {min(found) * 1000:.0f}, "
              f"max {max(found) * 1000:.0f}) over {len(found)} runs: {med / bare:.2f}x bare")


# The yardstick: a bare App with a Static and a Footer (issue 21).
BARE_FOOTER = (
    "from textual.app import App\n"
    "from textual.widgets import Footer, Static\n"
    "class Bare(App):\n"
    "    def compose(self):\n"
    "        yield Static('bare textual ready')\n"
    "        yield Footer()\n"
    "Bare().run()\n"
)


def _compiled(*checkouts: str) -> dict[str, str]:
    """Bytecode as an installed copy has it (pip compiles a wheel's modules at install), written before the
    runs.  Without it, where PYTHONDONTWRITEBYTECODE is set (as on the development machine), every start
    would compile this package from source (about 110 ms) while the bare app reads Textual's installed
    bytecode: a cost no user pays.  Returns the environment that lets Python read and keep it."""
    for checkout in checkouts:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(checkout) / "spades_tui")], check=True,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE=""), stdout=subprocess.DEVNULL)
    return {"PYTHONDONTWRITEBYTECODE": ""}


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def _tmux_first_paint(target: str, argv: list[str], marker: str, env: dict[str, str], quit_after: bool = True) -> float:
    """Seconds from (re)starting ``argv`` in the tmux pane ``target`` until ``marker`` is on its screen."""
    command = "exec env " + " ".join(shlex.quote(f"{k}={v}") for k, v in env.items()) + " " + shlex.join(argv)
    start = time.perf_counter()
    _tmux("respawn-pane", "-k", "-t", target, command)
    elapsed = float("nan")
    while time.perf_counter() < start + 30:
        if marker in _tmux("capture-pane", "-p", "-t", target):
            elapsed = time.perf_counter() - start
            break
        time.sleep(0.005)
    if not quit_after:
        return elapsed
    _tmux("send-keys", "-t", target, "C-q")
    time.sleep(0.5)  # let it quit (and its bots stop) before the next run starts
    return elapsed


def _resumable(home: str) -> str:
    """A game against the hard bot halfway through its first hand's play, saved in ``home``: ``--load`` resumes it."""
    from spades_tui.engine.record import PlayerInfo
    from spades_tui.engine.state import Phase
    from spades_tui.keep.storage import save_record
    from tests.support.pilot import record_until

    def halfway(state: object) -> bool:
        hand = getattr(state, "hand", None)
        return getattr(state, "phase", None) is Phase.PLAY and getattr(state, "to_act", None) == 0 and \
            hand is not None and len(hand.hands[0]) == 7

    path = os.path.join(home, "halfway.json")
    save_record(path, record_until(halfway, players=(PlayerInfo("You"), PlayerInfo("Bot (hard)", "bot:hard")),
                                   seed=3))
    return path


def _game_cases(home: str) -> dict[str, tuple[list[str], str]]:
    """The games' first tables, each against the bare app: --bot hard, --hotseat, a game resumed (--load)."""
    return {
        "spades-tui --bot hard": ([sys.executable, "-m", "spades_tui", "--bot", "hard"], "Spades to 500"),
        "spades-tui --hotseat": ([sys.executable, "-m", "spades_tui", "--hotseat"], "Spades to 500"),
        "spades-tui --load (resumed)": ([sys.executable, "-m", "spades_tui", "--load", _resumable(home)],
                                        "Spades to 500"),
    }


def startup_tmux(runs: int = 9, before: Optional[str] = None) -> None:
    """First paint in one tmux at 80x24, interleaved: bare, start screen, --bot hard, bare, ... ; medians.
    ``before``: another checkout of the project, measured in the same rounds (before and after a change)."""
    home = tempfile.mkdtemp()  # saved games and preferences: never the user's own
    env = {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "XDG_DATA_HOME": home,
           "XDG_CONFIG_HOME": os.path.join(home, "config"),
           **_compiled(str(ROOT), *([before] if before is not None else []))}
    name = f"spades-measure-{os.getpid()}"
    # Started in the scratch folder: "python -m" puts the working folder first on the path, which must not
    # be a checkout (PYTHONPATH chooses which one runs).
    _tmux("new-session", "-d", "-s", name, "-c", home, "-x", "80", "-y", "24", "sleep 600")
    _tmux("set-option", "-t", name, "remain-on-exit", "on")
    target = f"{name}:0.0"
    cases = {
        "bare Textual (Static + Footer)": ([sys.executable, "-c", BARE_FOOTER], "bare textual ready"),
        "spades-tui (start screen)": ([sys.executable, "-m", "spades_tui"], "Spades for two"),
        **_game_cases(home),
    }
    if before is not None:  # the same commands with the other checkout first on the path
        other = ["env", f"PYTHONPATH={before}"]
        cases["before: start screen"] = ([*other, sys.executable, "-m", "spades_tui"], "Spades for two")
        for label, (argv, marker) in _game_cases(home).items():
            cases["before: " + label.removeprefix("spades-tui ")] = ([*other, *argv], marker)
    try:
        rounds(target, cases, env, runs)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)


def rounds(target: str, cases: dict[str, tuple[list[str], str]], env: dict[str, str], runs: int) -> None:
    """Each case's first paint in the tmux pane ``target``, in interleaved rounds after a warm-up round; the
    medians printed against the first case's (the bare app)."""
    times: dict[str, list[float]] = {k: [] for k in cases}
    for argv, marker in cases.values():  # a warm-up round, not counted (the page cache, tmux)
        _tmux_first_paint(target, argv, marker, env)
    for _ in range(runs):
        for label, (argv, marker) in cases.items():
            times[label].append(_tmux_first_paint(target, argv, marker, env))
    bare = statistics.median(next(iter(times.values())))
    for label, found in times.items():
        med = statistics.median(found)
        print(f"{label:32} median {med * 1000:4.0f} ms (min {min(found) * 1000:.0f}, max {max(found) * 1000:.0f}) "
              f"over {len(found)} runs: {med / bare:.2f}x bare")


def _wait_screen(target: str, check: Callable[[str], bool], limit: float) -> Optional[str]:
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        text = _tmux("capture-pane", "-p", "-t", target)
        if check(text):
            return text
        time.sleep(0.002)
    return None


def latency_tmux(presses: int = 30) -> None:
    """Key press to repaint in tmux while a real bot thinks in its own process (the hard bot as an external
    program, 8 s a decision): F1 opens help and Esc closes it; only presses made and answered while the bot
    thinks count.  The time is from ``tmux send-keys`` to the change on tmux's screen."""
    home = tempfile.mkdtemp()
    env = {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "XDG_DATA_HOME": home,
           "XDG_CONFIG_HOME": os.path.join(home, "config"), **_compiled(str(ROOT))}
    bot = f"cmd:{shlex.quote(sys.executable)} -m spades_tui bot hard --budget 8"
    argv = [sys.executable, "-m", "spades_tui", "--bot", bot, "--seed", "3"]
    name = f"spades-latency-{os.getpid()}"
    # Started in the scratch folder: "python -m" puts the working folder first on the path, which must not
    # be a checkout (PYTHONPATH chooses which one runs).
    _tmux("new-session", "-d", "-s", name, "-c", home, "-x", "80", "-y", "24", "sleep 600")
    target = f"{name}:0.0"
    thinking = "is thinking"
    delays: list[float] = []
    answered: list[list[float]] = []  # pairs of presses left out: the bot answered between them
    try:
        _tmux_first_paint(target, argv, "Spades to 500", env, quit_after=False)
        while len(delays) < presses:
            # Enter (the default choice) until the bot is thinking.
            if _wait_screen(target, lambda t: thinking in t, 1.0) is None:
                _tmux("send-keys", "-t", target, "Enter")
                continue
            table = _tmux("capture-pane", "-p", "-t", target)  # the game as it was before the pair of presses
            pair: list[float] = []
            for key, shown in (("F1", True), ("F1", False)):
                t0 = time.perf_counter()
                _tmux("send-keys", "-t", target, key)
                text = _wait_screen(target, lambda t, shown=shown: ("Close help" in t) == shown, 5.0)
                elapsed = time.perf_counter() - t0
                time.sleep(0.1)  # the rest of the repaint, then: was the bot thinking all along?
                if thinking not in _tmux("capture-pane", "-p", "-t", target) and not shown:
                    break  # it answered meanwhile: the key may have waited for its move (or gone to a new screen)
                if text is None:
                    if shown:
                        break  # typed as the game screen changed: dropped on purpose (GameScreen.on_key)
                    raise SystemExit(f"no repaint 5 s after {key}:\n" + _tmux("capture-pane", "-p", "-t", target))
                pair.append(elapsed)
            else:
                # The table as before: the bot did not answer between the presses (its next decision can start
                # at once, so "thinking" alone does not tell; a press that met its move waited for that move).
                if _tmux("capture-pane", "-p", "-t", target) == table:
                    delays.extend(pair)
                else:
                    answered.append(pair)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)
    ordered = sorted(delays)
    print(f"key press to repaint in tmux while the bot thinks: median {statistics.median(delays) * 1000:.0f} ms, "
          f"90th percentile {ordered[int(len(ordered) * 0.9)] * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms "
          f"over {len(delays)} presses (F1 opening help and F1 closing it)")
    print(f"left out, the bot answering between the two presses: {len(answered)} pairs, ms:",
          " ".join(f"{a * 1000:.0f}/{b * 1000:.0f}" for a, b in answered))
    print("each press, ms:", " ".join(f"{d * 1000:.0f}" for d in delays))


def resize_tmux(rounds: int = 10) -> None:
    """A game's table (the hot-seat game's first decision, Double Nil, no bot) resized in tmux between 160x50 and
    200x60: the time from ``tmux resize-window`` until the footer's keys are drawn on the new last row."""
    home = tempfile.mkdtemp()
    env = {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "XDG_DATA_HOME": home,
           "XDG_CONFIG_HOME": os.path.join(home, "config"), **_compiled(str(ROOT))}
    argv = [sys.executable, "-m", "spades_tui", "--hotseat", "--seed", "3"]
    name = f"spades-resize-{os.getpid()}"
    _tmux("new-session", "-d", "-s", name, "-c", home, "-x", "160", "-y", "50", "sleep 600")
    target = f"{name}:0.0"
    delays: dict[str, list[float]] = {"200x60": [], "160x50": []}
    try:
        _tmux_first_paint(target, argv, "Spades to 500", env, quit_after=False)
        _tmux("send-keys", "-t", target, "Enter")  # past the hand-off to the first decision's table
        if _wait_screen(target, lambda t: "Double Nil" in t, 5.0) is None:
            raise SystemExit("no table:\n" + _tmux("capture-pane", "-p", "-t", target))
        for _ in range(rounds):
            for width, height in ((200, 60), (160, 50)):
                t0 = time.perf_counter()
                _tmux("resize-window", "-t", name, "-x", str(width), "-y", str(height))

                def laid_out(text: str, height: int = height) -> bool:
                    rows = text.split("\n")
                    return len(rows) >= height and "Help" in rows[height - 1] and "Spades to 500" in text

                if _wait_screen(target, laid_out, 5.0) is None:
                    raise SystemExit(f"no new layout at {width}x{height}")
                delays[f"{width}x{height}"].append(time.perf_counter() - t0)
                time.sleep(0.3)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)
    for size, found in delays.items():
        print(f"resize to {size}: median {statistics.median(found) * 1000:.0f} ms, max {max(found) * 1000:.0f} ms "
              f"over {len(found)} resizes; each, ms: " + " ".join(f"{d * 1000:.0f}" for d in found))


# Run in the game's process by ``phases``: wall-clock marks around Textual's own steps of a start, written out at the
# first paint (the app's _first_paint_done), then the process ends.
_PHASES = r"""
import functools, inspect, os, sys, time
T0 = time.perf_counter()
marks = []
def mark(what):
    marks.append((time.perf_counter() - T0, what))
from spades_tui.tui.app import quickstart
import gc
gc.disable()
quickstart.begin()  # as the command line's start_app does
import spades_tui.tui.app.app as appmod
mark("imported the app (Textual included)")
import textual.app as tapp, textual.css.stylesheet as tss, textual._compositor as tc, textual.widget as tw
def timed(cls, name):
    f = getattr(cls, name)
    @functools.wraps(f)
    def w(*a, **k):
        mark("> " + cls.__name__ + "." + name)
        try:
            return f(*a, **k)
        finally:
            mark("< " + cls.__name__ + "." + name)
    setattr(cls, name, w)
for cls, name in ((tss.Stylesheet, "parse"), (tss.Stylesheet, "update_nodes"), (tc.Compositor, "render_update")):
    timed(cls, name)
display = tapp.App._display
def shown(self, screen, renderable):
    if renderable is not None:
        mark("  that render " + ("is not shown (Textual's start-up batch)" if self._batch_count else "is shown"))
    return display(self, screen, renderable)
tapp.App._display = shown
mount = appmod.SpadesApp.on_mount
def on_mount(self):
    mark("> on_mount"); mount(self); mark("< on_mount")
appmod.SpadesApp.on_mount = on_mount
def done(self):
    mark("first paint done")
    with open(os.environ["PHASES_OUT"], "w") as out:
        for at, what in marks:
            out.write(f"{at * 1000:8.1f} ms  {what}\n")
    os._exit(0)
appmod.SpadesApp._first_paint_done = done
from spades_tui.cli import main
main(sys.argv[1:])
"""


def phases(args: Sequence[str]) -> None:
    """One start of ``spades-tui ARGS`` on an 80x24 pty, its steps timed (imports, the stylesheet's parses, the
    app's mount, each restyle, each render and whether it was shown: ``App._display`` writes only outside
    Textual's start-up batch); printed with the time each began and ended."""
    home = tempfile.mkdtemp()
    out = os.path.join(home, "phases.txt")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", XDG_DATA_HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, "config"), PHASES_OUT=out, **_compiled(str(ROOT)))
    _first_paint([sys.executable, "-c", _PHASES, *args], b"\x00never", env)  # ends when the process does
    print(Path(out).read_text() if os.path.exists(out) else "no first paint reached")


def memory(target: int = 500, max_hands: int = 20) -> None:
    """Enter alone against the placeholder bot rarely reaches 500 (bag penalties), so the run
    stops at game over or after ``max_hands`` hands, more than a usual 500-point game."""
    from spades_tui.engine.rules import Rules
    from spades_tui.engine.state import Phase
    from tests.support.pilot import game_state, make_app, settle

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
    from spades_tui.engine.rules import Rules
    from spades_tui.engine.state import Phase
    from tests.support.pilot import game_state, make_app, settle

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
    if what == "phases":
        phases(list((argv or sys.argv[1:])[1:]))
        return
    if what == "tmux":
        rest = list((argv or sys.argv[1:])[1:])
        startup_tmux(int(rest[0]) if rest else 9, rest[1] if len(rest) > 1 else None)
        return
    {"startup": startup, "cpu": startup_cpu, "latency": latency_tmux, "resize": resize_tmux, "memory": memory,
     "enter": enter_alone}[what]()


if __name__ == "__main__":
    main()
