"""How much of a first paint is Textual's own: a bare Textual app that composes the same widget tree as the
game's first screen (the same types by name, ids, classes, DEFAULT_CSS, the app's stylesheet and the text each
widget drew), with no game behind it, measured against the bare app and the game (issue 33). Not a test.

    python benchmarks/tui_mimic.py write DIR             # the mimics of the start screen and of --bot hard's table
    nice python benchmarks/tui_mimic.py tmux DIR [RUNS]  # wall time to first paint in one tmux, interleaved
    nice python benchmarks/tui_mimic.py instructions DIR # callgrind's instruction count to first paint (valgrind)

``instructions`` counts what each start executes until its first paint and exits there; other work on the
machine does not change it (unlike a wall time), so it tells two starts apart that the wall time cannot.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONTAINERS = ("Vertical", "Horizontal", "VerticalScroll", "Center")
# Exit at the first paint: the game's own hook (its jobs' release), the mimic's and the bare app's after refresh.
EXIT_AT_PAINT = """
import os, sys
if sys.argv[1:2] == ["bare"]:
    from textual.app import App
    from textual.widgets import Footer, Static
    class Bare(App):
        def compose(self):
            yield Static("bare textual ready")
            yield Footer()
        def on_mount(self):
            self.call_after_refresh(lambda: os._exit(0))
    Bare().run()
elif sys.argv[1:2] == ["mimic"]:
    os.environ["MIMIC_EXIT"] = "1"
    sys.argv = sys.argv[2:]
    exec(compile(open(sys.argv[0]).read(), sys.argv[0], "exec"), {"__name__": "__main__"})
else:
    import gc
    from spades_tui.tui.app import quickstart
    gc.disable()  # as cli/common.py start_app does before the app's modules load (it does it again: no harm)
    quickstart.begin()
    from spades_tui.tui.app import app as appmod
    done = appmod.SpadesApp._first_paint_done
    def exit_after(self):
        done(self)
        os._exit(0)
    appmod.SpadesApp._first_paint_done = exit_after
    from spades_tui.cli import main
    sys.argv = ["spades-tui", *sys.argv[1:]]
    main()
"""


def _node(widget: Any) -> dict[str, Any]:
    from textual.widgets import OptionList

    from spades_tui.tui.widgets.footer import GameFooter

    name = type(widget).__name__
    if isinstance(widget, GameFooter):
        return {"type": "FOOTER"}
    text = ""
    if name not in CONTAINERS and widget._render_cache is not None:
        text = "\n".join(strip.text.rstrip() for strip in widget._render_cache.lines)
    options = [str(o.prompt) for o in widget.options] if isinstance(widget, OptionList) else None
    return {"type": name, "id": widget.id, "classes": sorted(widget.classes), "display": bool(widget.display),
            "css": type(widget).__dict__.get("DEFAULT_CSS", ""), "text": text, "options": options,
            "children": [_node(child) for child in widget.children]}


async def _dump(which: str) -> dict[str, Any]:
    from spades_tui.settings.options import LaunchOptions
    from spades_tui.tui.app.app import SpadesApp
    from spades_tui.tui.screens.game import GameScreen
    from tests.support.pilot import until

    home = Path(tempfile.mkdtemp())
    options = LaunchOptions(hints=False, bot="hard") if which == "game" else LaunchOptions(hints=False)
    app = SpadesApp(options, data_dir=home / "data", config_dir=home / "config")
    async with app.run_test(size=(80, 24)) as pilot:
        if which == "game":
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game's table")
        for _ in range(3):
            await pilot.pause()
        screen = app.screen
        return {"screen": type(screen).__name__, "screen_css": type(screen).__dict__.get("DEFAULT_CSS", ""),
                "children": [_node(child) for child in screen.children],
                "bindings": [(b.key, b.description) for (_, b, _e, _t) in screen.active_bindings.values() if b.show],
                "painted": "\n".join(strip.text for strip in screen._compositor.render_strips())}


def _source(tree: dict[str, Any]) -> str:
    """A bare Textual app composing ``tree`` (argv[1]: its stylesheet)."""
    kinds: dict[str, tuple[str, str]] = {}

    def collect(node: dict[str, Any]) -> None:
        if node["type"] not in ("FOOTER", "Static", "OptionList", *CONTAINERS):
            kinds[node["type"]] = ("Vertical" if node["children"] else "Static", node["css"])
        for child in node.get("children", []):
            collect(child)

    for child in tree["children"]:
        collect(child)
    lines = ["import os, sys", "from textual.app import App", "from textual.binding import Binding",
             "from textual.screen import Screen",
             "from textual.containers import Center, Horizontal, Vertical, VerticalScroll",
             "from textual.widgets import Footer, OptionList, Static", ""]
    for name, (base, css) in kinds.items():
        lines += [f"class {name}({base}):", f"    DEFAULT_CSS = {css!r}", ""]

    def emit(node: dict[str, Any], pad: str) -> None:
        if node["type"] == "FOOTER":
            lines.append(f"{pad}yield Footer(compact=True)")
            return
        kw = "".join(f", {k}={node[k]!r}" for k in ("id",) if node[k]) + (
            f", classes={' '.join(node['classes'])!r}" if node["classes"] else "")
        if node["children"]:
            lines.append(f"{pad}with {node['type']}({kw.lstrip(', ')}) as w:")
            lines.append(f"{pad}    w.display = {node['display']}")
            for child in node["children"]:
                emit(child, pad + "    ")
            return
        if node["options"] is not None:
            lines.append(f"{pad}w = OptionList(*{node['options']!r}{kw})")
        else:
            lines.append(f"{pad}w = {node['type']}({node['text']!r}, markup=False{kw})")
        lines.extend([f"{pad}w.display = {node['display']}", f"{pad}yield w"])

    binds = ", ".join(f"Binding({k!r}, 'app.nothing', {d!r})" for k, d in tree["bindings"])
    lines += [f"class {tree['screen']}(Screen):", f"    DEFAULT_CSS = {tree['screen_css']!r}",
              f"    BINDINGS = [{binds}]", "    def on_mount(self):",
              "        if os.environ.get('MIMIC_EXIT'):", "            self.call_after_refresh(lambda: os._exit(0))",
              "    def compose(self):"]
    for child in tree["children"]:
        emit(child, "        ")
    lines += ["class Mimic(App):", "    CSS_PATH = sys.argv[1]", "    def action_nothing(self):", "        pass",
              "    def on_mount(self):", f"        self.push_screen({tree['screen']}())", "", "Mimic().run()"]
    return "\n".join(lines) + "\n"


def _one_static(tree: dict[str, Any]) -> str:
    """The same screen's text as one Static: Textual's floor for drawing it."""
    return ("import os, sys\nfrom textual.app import App\nfrom textual.screen import Screen\n"
            "from textual.widgets import Static\n"
            "class One(Screen):\n    def on_mount(self):\n        if os.environ.get('MIMIC_EXIT'):\n"
            "            self.call_after_refresh(lambda: os._exit(0))\n"
            f"    def compose(self):\n        yield Static({tree['painted']!r}, markup=False)\n"
            "class Mimic(App):\n    CSS_PATH = sys.argv[1]\n    def on_mount(self):\n        self.push_screen(One())\n"
            "Mimic().run()\n")


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for which in ("start", "game"):
        tree = asyncio.run(_dump(which))
        (folder / f"mimic_{which}.py").write_text(_source(tree))
        if which == "game":
            (folder / "mimic_one.py").write_text(_one_static(tree))
    print(f"written: {', '.join(sorted(p.name for p in folder.glob('mimic_*.py')))} in {folder}")


def _cases(folder: Path, home: str) -> dict[str, tuple[list[str], str]]:
    from benchmarks.tui_measure import BARE_FOOTER, _resumable

    css = str(ROOT / "assets" / "spades.tcss")
    py = sys.executable
    return {
        "bare Textual (Static + Footer)": ([py, "-c", BARE_FOOTER], "bare textual ready"),
        "spades-tui (start screen)": ([py, "-m", "spades_tui"], "Spades for two"),
        "mimic of the start screen": ([py, str(folder / "mimic_start.py"), css], "Spades for two"),
        "spades-tui --bot hard": ([py, "-m", "spades_tui", "--bot", "hard"], "Spades to 500"),
        "spades-tui --load (resumed)": ([py, "-m", "spades_tui", "--load", _resumable(home)], "Spades to 500"),
        "mimic of --bot hard's table": ([py, str(folder / "mimic_game.py"), css], "Spades to 500"),
        "its text as one Static": ([py, str(folder / "mimic_one.py"), css], "Spades to 500"),
    }


def tmux(folder: Path, runs: int) -> None:
    from benchmarks.tui_measure import _compiled, _tmux, rounds

    home = tempfile.mkdtemp()
    env = {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "XDG_DATA_HOME": home,
           "XDG_CONFIG_HOME": os.path.join(home, "config"), **_compiled(str(ROOT))}
    cases = _cases(folder, home)
    name = f"spades-mimic-{os.getpid()}"
    _tmux("new-session", "-d", "-s", name, "-c", home, "-x", "80", "-y", "24", "sleep 600")
    _tmux("set-option", "-t", name, "remain-on-exit", "on")
    target = f"{name}:0.0"
    try:
        rounds(target, cases, env, runs)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)


def instructions(folder: Path) -> None:
    """Each start under callgrind on an 80x24 pty, exiting at its first paint; run twice, the second counted
    (the first writes bytecode)."""
    from benchmarks.tui_measure import _resumable, spawn_80x24

    home = tempfile.mkdtemp()
    css = str(ROOT / "assets" / "spades.tcss")
    cases = {
        "bare Textual (Static + Footer)": ["bare"],
        "spades-tui (start screen)": [],
        "mimic of the start screen": ["mimic", str(folder / "mimic_start.py"), css],
        "spades-tui --bot hard": ["--bot", "hard"],
        "spades-tui --load (resumed)": ["--load", _resumable(home)],
        "mimic of --bot hard's table": ["mimic", str(folder / "mimic_game.py"), css],
        "its text as one Static": ["mimic", str(folder / "mimic_one.py"), css],
    }
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", PYTHONHASHSEED="0", XDG_DATA_HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, "config"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    counts: dict[str, int] = {}
    for label, args in cases.items():
        out = os.path.join(home, "callgrind.out")
        for _ in range(2):
            # The pty's size set as the game's tmux measurements have it (a new pty is 0x0 until told).
            pid, fd = spawn_80x24(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                   sys.executable, "-c", EXIT_AT_PAINT, *args], env)
            while True:
                try:
                    if not os.read(fd, 65536):
                        break
                except OSError:
                    break
            os.waitpid(pid, 0)
            os.close(fd)
        summary = [line for line in Path(out).read_text().splitlines() if line.startswith("summary:")]
        counts[label] = int(summary[0].split()[1])
    bare = counts["bare Textual (Static + Footer)"]
    for label, count in counts.items():
        print(f"{label:32} {count / 1e6:7.0f} million instructions: {count / bare:.2f}x bare")


def main() -> None:
    what, folder = sys.argv[1], Path(sys.argv[2])
    if what == "write":
        write(folder)
    elif what == "tmux":
        tmux(folder, int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    else:
        instructions(folder)


if __name__ == "__main__":
    main()
