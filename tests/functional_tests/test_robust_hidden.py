"""Hidden information after load and resume (docs/rules.md 10): in every phase, loading a record
or resuming the autosave shows no hidden card, and the bot's first observation after it holds
none either (CheckingBot, tests/support/checking.py, checks each one)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional, Sequence

import pytest

from spades_tui.bots.base import Bot
from spades_tui.engine.actions import DeclareDoubleNil, PlayerAction
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.session import session as session_module
from spades_tui.settings.options import LaunchOptions
from spades_tui.tui.app.startup import Resume
from tests.support.checking import CheckingBot, MashApp
from tests.support.pilot import HOTSEAT, VS_BOT, check_frame, first_legal, record_until, screen_text, settle, slot_file

# Every test here is marked slow (every phase loaded and resumed, each an app of its own): left out of the quick check.


def double_nil_first(state: GameState, legal: Sequence[PlayerAction]) -> PlayerAction:
    return next((a for a in legal if isinstance(a, DeclareDoubleNil) and a.declare), legal[0])


STOPS: dict[str, Callable[[GameState], bool]] = {
    "draft": lambda s: s.phase is Phase.DRAFT and len(s.hand.stock) < 30 if s.hand else False,
    "exchange": lambda s: s.phase is Phase.EXCHANGE,
    "bidding": lambda s: s.phase is Phase.BIDDING and s.to_act == 1,
    "play": lambda s: s.phase is Phase.PLAY and s.hand is not None and len(s.hand.hands[0]) == 9,
    "summary": lambda s: s.phase is Phase.SHUFFLE and bool(s.history),
}


async def _drive(app: MashApp, bots: list[CheckingBot], hotseat: bool, how: str) -> None:
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        if how == "resume":
            assert "Resume hand " in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app)
        for _ in range(6):  # the loaded position, then a few moves on (the bot answers in between)
            check_frame(app, hotseat=hotseat)
            await pilot.press("enter")
            await settle(pilot, app)
        check_frame(app, hotseat=hotseat)


@pytest.mark.slow
@pytest.mark.parametrize("phase", sorted(STOPS))
@pytest.mark.parametrize("mode", ["hotseat", "bot"])
async def test_load_and_resume_show_no_hidden_card(tmp_path: Path, phase: str, mode: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    players = HOTSEAT if mode == "hotseat" else VS_BOT
    record = record_until(STOPS[phase], players=players, seed=17,
                          policy=double_nil_first if phase == "exchange" else first_legal, rules=Rules(target=2000))
    bots: list[CheckingBot] = []
    holder: list[MashApp] = []

    def create_bot(spec: str, seed: Optional[int]) -> Bot:
        bot = CheckingBot(holder[-1], seed)
        bots.append(bot)
        return bot

    monkeypatch.setattr(session_module, "create_bot", create_bot)
    how = "load" if phase in ("draft", "play", "summary") else "resume"
    if how == "load":
        app = MashApp(LaunchOptions(), data_dir=tmp_path, start=Resume(record))
    else:
        (tmp_path / "games").mkdir()
        slot_file(tmp_path).write_text(record.dumps(), encoding="utf-8")
        app = MashApp(LaunchOptions(), data_dir=tmp_path)
    holder.append(app)
    await _drive(app, bots, mode == "hotseat", how)
    if mode == "bot":
        assert sum(b.checked for b in bots) > 0, "the bot was never asked"
