"""Issue 37, with Pilot: a table's invite and watch code at hand all game (the Esc menu, the palette's "Invite"
and "Watch code", F1's table section) for a seat that has them, and a watcher's screen: the public view of
both players (their cards face down, their counts and draft picks, the stock, whose turn), no card of either
hand, no join code, an Enter that never leaves the table (``l`` does), and the hand's summary that moves on
with the players."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any, Optional

import pytest
from textual.command import Command, CommandList, CommandPalette
from textual.pilot import Pilot

from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.session.view import quick_advice
from spades_tui.settings.options import LaunchOptions
from spades_tui.table.host.table import TableHost
from spades_tui.table.seat import remote_seat as remote_module
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.remote_seat import RemoteSeat
from spades_tui.tui.app.app import SpadesApp
from spades_tui.tui.app.startup import HostTable, JoinTable
from spades_tui.tui.notation import bid_text
from spades_tui.tui.screens.choice import ChoiceScreen
from spades_tui.tui.screens.game import GameScreen
from spades_tui.tui.screens.help import HelpScreen
from spades_tui.tui.screens.start import StartScreen
from tests.support.hidden import hidden_cards
from tests.support.pilot import cards_on_screen, screen_text, until
from tests.support.table import SHORT, play_with_bot, table, url_of

pytestmark = pytest.mark.slow  # network tables on the screen: left out of the quick check

RULES = Rules.from_json(SHORT)
LONG = Rules.from_json({"target": 1000})  # a game of many hands: the watcher sees three begin
SIZE = (80, 24)  # the smallest screen: what must be read there is


def options() -> LaunchOptions:
    return LaunchOptions(hints=False, bot_pause=0)


async def palette_hits(pilot: Pilot[int], typed: str) -> list[str]:
    """Open the palette and type ``typed``: the commands it lists, best first (a table's workers never end, so
    this waits for the list rather than for every worker)."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: CommandPalette.is_open(pilot.app), "the palette")
    await pilot.press(*["space" if c == " " else c for c in typed])

    def hits() -> list[str]:
        found = pilot.app.screen.query(CommandList)
        if not found:
            return []
        listed = found.first()
        options = [listed.get_option_at_index(i) for i in range(listed.option_count)]
        return [str(option.hit.text) for option in options if isinstance(option, Command)]

    for _ in range(50):  # the search runs in the palette's own task: a few idle pauses at most
        await pilot.pause()
        if hits() and not pilot.app.screen.query_one(CommandList).loading:
            break
    return hits()


async def close_palette(pilot: Pilot[int]) -> None:
    await pilot.press("escape")
    await until(pilot, lambda: not CommandPalette.is_open(pilot.app), "the palette closed")


async def open_invite_from_the_menu(pilot: Pilot[int], app: SpadesApp, item: str = "Invite and watch code") -> str:
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen) and app.screen.name == "menu", "the game menu")
    assert item in screen_text(app)
    await pilot.press("down", "enter")  # Resume, then the invite
    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen) and app.screen.name == "invite", "the invite")
    return screen_text(app)


def commands_in(text: str) -> tuple[Optional[str], Optional[str]]:
    join = re.search(r"spades-tui join (\S+) (\S+)", text)
    watch = re.search(r"spades-tui watch (\S+) (\S+)", text)
    return (join.group(2) if join else None), (watch.group(2) if watch else None)


async def test_the_host_finds_the_invite_and_the_watch_code_after_the_friend_sat_down(tmp_path: Path) -> None:
    """Before the friend sits the invite is what is given; once they sat with it, its code seats no one else:
    every place says it is used, by whom, and what takes them back, and puts the watch code first."""
    app = SpadesApp(options(), data_dir=tmp_path / "data", config_dir=tmp_path / "cfg",
                    start=HostTable(dict(name="Alice", rules=RULES)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.listener is not None and app.listener.runner is not None
                    and "spades-tui join" in screen_text(app), "the invite on the wait screen")
        host, listener = app.table, app.listener
        assert host is not None and listener is not None
        join = f"spades-tui join 127.0.0.1:{listener.port} {host.code}"
        back = f"spades-tui join 127.0.0.1:{listener.port}"
        watch = f"spades-tui watch 127.0.0.1:{listener.port} {host.watch_code}"
        waiting = screen_text(app)
        assert join in waiting and watch in waiting and "used" not in waiting  # the seat is empty: give it
        guest = TableClient(f"ws://127.0.0.1:{listener.port}/table", code=host.code, name="Bob")
        bot = asyncio.ensure_future(play_with_bot(guest))
        try:
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and "Bob connected" in screen_text(app),
                        "the game, the friend seated")
            assert join not in screen_text(app)  # the panel gave it only while the seat was empty

            # The Esc menu: its item says the invite was used; the window puts the watch command first, says who
            # holds the seat and how they come back, offers no spent code to copy, and Enter copies the watch code.
            text = await open_invite_from_the_menu(pilot, app, "Watch code (the invite was used)")
            assert join not in text and watch in text and back in text
            assert "The invite was used: Bob holds its seat" in text and text.index(watch) < text.index("was used:")
            assert "Copy the invite" not in text and "Copy the watch command" in text
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "back to the game")
            assert app.clipboard == watch

            # The palette still finds "Invite" for "invi" (its help says it was used) and "Watch code": each opens
            # the same window, the watch command first.
            assert (await palette_hits(pilot, "invi"))[:1] == ["Invite"]
            assert "invite was used" in screen_text(app)
            await pilot.press("down", "enter")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen) and app.screen.name == "invite",
                        "the invite from the palette")
            text = screen_text(app)
            assert join not in text and watch in text and "Bob holds its seat" in text
            await pilot.press("down", "enter")  # the second choice: Bob's way back, no code
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "back to the game")
            assert app.clipboard == back
            assert (await palette_hits(pilot, "watch code"))[:1] == ["Watch code"]
            await pilot.press("down", "enter")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen) and app.screen.name == "invite",
                        "the watch code from the palette")
            assert join not in screen_text(app) and watch in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "back to the game")
            assert app.clipboard == watch

            # F1: the table's section gives the watch command, then the used invite.
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
            text = screen_text(app)
            assert "At the table: Bob connected" in text
            assert f"To watch: {watch}" in text and "Invite used: Bob holds its seat" in text
            assert f"Bob's way back: {back}" in text
            assert join not in text and text.index("To watch:") < text.index("Invite used:")
        finally:
            bot.cancel()
            await guest.stop()


async def test_a_seat_welcomed_with_the_codes_has_them_at_hand_all_game(tmp_path: Path) -> None:
    """The friend's seat got the codes in its welcome: the same three places give them."""
    async with table(tmp_path, rules=RULES, names=("Botty", "x")) as (host, listener):
        client = TableClient(url_of(listener), code=host.code, name="Cleo", seat_file=tmp_path / "seat.json")
        app = SpadesApp(options(), data_dir=tmp_path / "data", config_dir=tmp_path / "cfg", start=JoinTable(client))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.seat_view is not None
                        and app.seat_view.in_hand, "the game")
            # Its own seat is the one the invite took: the code is said to be used (by "you"), never given.
            text = await open_invite_from_the_menu(pilot, app, "Watch code (the invite was used)")
            assert commands_in(text) == (None, host.watch_code) and "you hold its seat" in text
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "back to the game")
            assert (await palette_hits(pilot, "watch"))[:1] == ["Watch code"]
            await close_palette(pilot)
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
            assert commands_in(screen_text(app)) == (None, host.watch_code)
            assert "Invite used: you hold its seat" in screen_text(app)


# ---------------------------------------------------------------- the watcher


class Guest:
    """The friend's seat, played here one decision at a time (the host's bot answers at once): the table waits
    at each of the guest's turns, where the test looks at the watcher's screen."""

    def __init__(self, host: TableHost, url: str, seat_file: Path) -> None:
        self.client = TableClient(url, code=host.code, name="Gus", seat_file=seat_file)
        self.task: Optional[asyncio.Future[Any]] = None

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.client.keep())

    async def turn(self, pilot: Pilot[int]) -> None:
        client = self.client
        await until(pilot, lambda: client.outcome is not None or (bool(client.legal) and client.link_up),
                    "the guest's turn")

    async def act(self, pilot: Pilot[int]) -> None:
        client = self.client
        assert client.observation is not None and client.legal
        at = client.at
        await client.act(quick_advice(client.observation, client.legal))
        await until(pilot, lambda: client.at != at, "the host took the guest's decision")

    async def stop(self) -> None:
        await self.client.stop()
        if self.task is not None:
            self.task.cancel()


def draft_lines(host: TableHost) -> list[str]:
    """What the watcher's screen must say of the draft now, from the whole state: each player's count and
    picks beside their name, the stock, whose turn."""
    session = host.session
    assert session is not None and session.state.hand is not None
    state, names = session.state, [p.name for p in host.players()]
    hand = state.hand
    assert hand is not None
    lines = []
    for p in (0, 1):
        count = len(hand.hands[p])
        took = [d.take for d in hand.draft_log if d.player == p]
        picks = f" · took {took.count('first')} first, {took.count('second')} second" if took else ""
        lines.append(f"{names[p]} · {count} card{'' if count == 1 else 's'}{picks}")
    lines.append(f"The stock: {len(hand.stock)} cards")
    actor = state.to_act
    assert actor is not None
    turn = sum(1 for d in hand.draft_log if d.player == actor) + 1
    lines.append(f"{names[actor]}: draft turn {turn} of 13.")
    return lines


def play_facts(host: TableHost, text: str) -> None:
    """In the bidding and the play the watcher's screen says each side's bid and tricks won, and the trick's
    cards are on the table."""
    session = host.session
    assert session is not None and session.state.hand is not None
    state, names = session.state, [p.name for p in host.players()]
    hand = state.hand
    assert hand is not None
    if state.phase is Phase.PLAY:
        for p in (0, 1):
            bid = hand.bid_of(p)
            assert bid is not None
            side = f"{names[p]} · {len(hand.hands[p])} card"
            assert side in text and f"bid {bid_text(bid)} · won {hand.tricks_won[p]}" in text, text
        assert {pc.card for pc in hand.trick} <= cards_on_screen(text)


async def test_a_watcher_sees_both_sides_no_card_and_moves_on_with_the_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_module, "SUMMARY_HELD", 3600.0)  # hand 1's summary: kept until let go below
    async with table(tmp_path, rules=LONG, names=("Botty", "x")) as (host, listener):
        guest = Guest(host, url_of(listener), tmp_path / "seat.json")
        watcher = TableClient(url_of(listener), name="Wes", watch=host.watch_code)
        app = SpadesApp(options(), data_dir=tmp_path / "data", config_dir=tmp_path / "cfg", start=JoinTable(watcher))
        async with app.run_test(size=SIZE) as pilot:
            guest.start()

            async def synced() -> str:
                """At the guest's turn, the watcher's screen drawn once it has had the same update: its text."""
                await guest.turn(pilot)
                await until(pilot, lambda: watcher.at == guest.client.at and isinstance(app.screen, GameScreen),
                            "the watcher's screen at the guest's turn")
                return screen_text(app)

            def check_public(text: str) -> None:
                session = host.session
                assert session is not None
                leaked = cards_on_screen(text) & hidden_cards(session.state, None)
                assert not leaked, f"a hand's cards on the watcher's screen: {sorted(c.label() for c in leaked)}"
                assert host.code not in text  # a watcher never gets the join code

            # The draft of hand 1, turn by turn: both sides' counts and picks, the stock, whose turn.
            drafted = 0
            while True:
                text = await synced()
                session = host.session
                assert session is not None
                if session.state.phase is not Phase.DRAFT:
                    if session.state.phase is Phase.PLAY:
                        break
                    await guest.act(pilot)
                    continue
                check_public(text)
                for line in draft_lines(host):
                    assert line in text, f"{line!r} not on the watcher's screen:\n{text}"
                drafted += 1
                if drafted == 3:  # Enter chooses nothing here: the watcher stays at the table
                    await pilot.press("enter")
                    await pilot.pause()
                    assert isinstance(app.screen, GameScreen) and isinstance(app.session, RemoteSeat)
                await guest.act(pilot)
            assert drafted >= 10
            assert "l Leave" in text  # the footer names the key that leaves

            # No invite for a watcher: neither the menu nor the palette has one.
            assert "Invite" not in await palette_hits(pilot, "invi")
            await close_palette(pilot)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the watcher's menu")
            assert "Invite" not in screen_text(app) and "Leave the table (the game goes on)" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "back to watching")

            # The play of hand 1: the trick on the table, never a card in hand.
            hand_number = 1
            while True:
                session = host.session
                assert session is not None
                if session.state.hand_number > hand_number and session.state.phase is not Phase.SHUFFLE:
                    break
                text = await synced()
                if app.seat_view is not None and app.seat_view.observation.hand_number == \
                        session.state.hand_number and "is over" not in text:
                    check_public(text)
                    play_facts(host, text)
                if session.state.hand_number > hand_number:
                    break
                await guest.act(pilot)

            # Hand 2 began: the watcher's screen still shows hand 1's summary (not lost before it was read), and
            # Enter does not leave it; once it has been up long enough it moves on with the players.
            text = await synced()
            assert "Hand 1 is over." in text and "Next hand" not in text
            await pilot.press("enter")
            await pilot.pause()
            assert "Hand 1 is over." in screen_text(app) and isinstance(app.session, RemoteSeat)
            monkeypatch.setattr(remote_module, "SUMMARY_HELD", 0.0)
            await guest.act(pilot)  # the next update: the summary has been read long enough
            await until(pilot, lambda: app.seat_view is not None and app.seat_view.observation.hand_number == 2
                        and "Hand 1 is over." not in screen_text(app), "the watcher on to hand 2")

            # Hand 2 to hand 3 with a hold of a few seconds: it moves on by itself, with no update since hand 3
            # began (the table waits for the guest): the hold's own look.
            monkeypatch.setattr(remote_module, "SUMMARY_HELD", 5.0)
            seen_summary = False
            while True:
                session = host.session
                assert session is not None
                text = await synced()
                if "Hand 2 is over." in text:
                    seen_summary = True
                if session.state.hand_number == 3 and session.state.phase is not Phase.SHUFFLE:
                    break
                await guest.act(pilot)
            assert seen_summary and "Hand 2 is over." in text  # hand 3 began within the hold
            at = watcher.at
            await until(pilot, lambda: "Hand 2 is over." not in screen_text(app), "the watcher on to hand 3")
            assert watcher.at == at and app.seat_view is not None and app.seat_view.observation.hand_number == 3
            check_public(screen_text(app))

            # l leaves the table for the start screen.
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
            assert app.session is None
        await guest.stop()


async def test_bots_among_themselves_an_idle_enter_stays_and_l_leaves_the_game_saved(tmp_path: Path) -> None:
    """The public view at this keyboard (no person plays: a loaded game of two bots) is the watcher's screen
    too: Enter there chooses nothing, the footer names ``l``, and ``l`` goes back to the start screen."""
    from spades_tui.engine.record import GameRecord, PlayerInfo
    from spades_tui.tui.app.startup import Resume
    from spades_tui.tui.screens.handoff import HandoffScreen

    record = GameRecord(RULES, 0, (PlayerInfo("Easy", "bot:easy"), PlayerInfo("Normal", "bot:normal")))
    # A long pause after each trick (a key ends it): the screen in play stays long enough to be pressed on.
    app = SpadesApp(LaunchOptions(hints=False, bot_pause=30), data_dir=tmp_path / "data",
                    config_dir=tmp_path / "cfg", start=Resume(record))
    async with app.run_test(size=SIZE) as pilot:
        # The screen is the app's as soon as it is pushed, its footer a moment later (CI's loaded run read the
        # screen in between): wait for the footer's keys too, so a footer that never names l still fails here.
        await until(pilot, lambda: isinstance(app.screen, HandoffScreen) and app.seat_view is not None
                    and app.seat_view.phase is Phase.PLAY and "l Leave" in screen_text(app),
                    "the bots' play, watched, its footer naming l")
        assert app.seat_view is not None
        obs = app.seat_view.observation
        played = {pc.card for t in obs.tricks for pc in t} | {pc.card for pc in obs.trick}
        assert cards_on_screen(screen_text(app)) <= played
        await pilot.press("enter")
        await pilot.pause()
        assert app.session is not None and isinstance(app.screen, GameScreen)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert app.session is None and "Easy" in screen_text(app)  # listed there, saved
