"""A seat's view at another's table is built once for each frame the host sends (issue 50): the guest's app
(its changed(), the wait for its first view, the repaint, the jobs asked for) reads the one view built for
the frame, and Enter's default (the normal bot's choice) is worked out once with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.session import view as view_module
from spades_tui.settings.options import LaunchOptions
from spades_tui.table.seat import client as client_module
from spades_tui.table.seat.seat_file import seat_path
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import JoinTable
from tests.support.pilot import until
from tests.support.table import SHORT, Recorder, table, url_of


@pytest.mark.slow
async def test_the_guest_builds_one_view_for_one_host_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"views": 0, "advice": 0}
    built, advised = client_module.seen_view, view_module.quick_advice

    def counted_view(*args: Any, **kwargs: Any) -> Any:
        counts["views"] += 1
        return built(*args, **kwargs)

    def counted_advice(*args: Any, **kwargs: Any) -> Any:
        counts["advice"] += 1
        return advised(*args, **kwargs)

    monkeypatch.setattr(client_module, "seen_view", counted_view)
    monkeypatch.setattr(view_module, "quick_advice", counted_advice)
    # The guest drafts first: once seated it has a decision, and the host's bot waits for it.
    async with table(tmp_path, rules=Rules.from_json(SHORT), names=("Botty", "x"), first=1) as (host, listener):
        data = tmp_path / "data"
        client = Recorder(url_of(listener), code=host.code, name="Cleo", seat_file=seat_path(data, url_of(listener)))
        app = SpadesApp(LaunchOptions(hints=False, bot_pause=0), data_dir=data, config_dir=tmp_path / "cfg",
                        start=JoinTable(client))
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.seat_view is not None and app.seat_view.my_turn, "the guest's decision")
            for _ in range(5):  # whatever the first frames started has run
                await pilot.pause()
            frames, counts["views"], counts["advice"] = len(client.frames), 0, 0
            assert host.say(0, "your turn, Cleo") is None  # one frame from the host: a line said at the table
            await until(pilot, lambda: app.seat_view is not None and app.seat_view.said[-1:] == (
                ("Botty", "your turn, Cleo"),), "the line on the guest's screen")
            for _ in range(5):
                await pilot.pause()
            assert [f["type"] for f in client.frames[frames:]] == ["said"]
            assert counts == {"views": 1, "advice": 1}, counts
            assert app.seat_view.my_turn and app.seat_view.default is not None  # the decision, and Enter's default
