"""Whole games through key presses alone, checking every frame for hidden cards."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from spades_tui.engine.record import GameRecord, loads_record, replay
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.session.session import Session, new_record
from tests.support.pilot import (
    VS_BOT,
    bot_thinking,
    check_frame,
    game_state,
    game_store,
    local_session,
    make_app,
    record_until,
    screen_text,
    settle,
    slot_file,
    state_of,
    store_of,
    viewer,
)

# Hundreds of keys a game, each waiting for Pilot's idle check: at a finer grain (tests/support/pilot.py).
fine_grain = pytest.mark.usefixtures("fine_grain")


@pytest.mark.slow  # a whole game (or hand) by keys
@fine_grain
async def test_whole_hotseat_game_by_enter_alone(tmp_path: Path) -> None:
    app = make_app(tmp_path, hotseat=True, seed=4, rules=Rules(target=1))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        handoffs = 0
        for _ in range(2000):
            check_frame(app, hotseat=True)
            state = game_state(app)
            assert state is not None
            if state.phase is Phase.GAME_OVER:
                break
            if viewer(app) is None:
                handoffs += 1
                assert "Pass to " in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
        state = game_state(app)
        assert state is not None and state.phase is Phase.GAME_OVER
        assert handoffs >= 26  # the keyboard changes hands at least once per draft turn pair
        text = screen_text(app)
        assert "Game over" in text and "Every hand" in text
        # The record on disk replays to the state the app shows.
        saved = loads_record(slot_file(tmp_path).read_text(encoding="utf-8"))
        assert replay(saved) == state
        winner = state.winner
        assert winner is not None
        assert f"{store_of(app).names()[winner]} wins" in text
        assert f"{state.scores[winner]} to {state.scores[1 - winner]}" in text


@pytest.mark.slow  # a whole game (or hand) by keys
@fine_grain
async def test_whole_hand_against_the_bot_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=9, rules=Rules(target=1000))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        keys = ["right", "left", "enter"]  # move about, then confirm
        for i in range(600):
            await settle(pilot, app)
            check_frame(app, hotseat=False)
            state = game_state(app)
            assert state is not None
            if state.history:
                break
            await pilot.press(keys[i % 3])
        state = game_state(app)
        assert state is not None and len(state.history) == 1 and state.phase is Phase.SHUFFLE
        assert "Hand 1 is over" in screen_text(app)
        saved = loads_record(slot_file(tmp_path).read_text(encoding="utf-8"))
        assert replay(saved) == state
        assert saved.players is not None and saved.players[1].kind == "bot:easy"


@pytest.mark.slow
@fine_grain
async def test_clicking_a_choice_and_a_card_plays_it(tmp_path: Path) -> None:
    from spades_tui.engine.actions import Play
    from spades_tui.tui.widgets.cards import Picker

    app = make_app(tmp_path, bot="easy", seed=9, rules=Rules(target=1000))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(300):
            state = game_state(app)
            assert state is not None
            if state.phase is Phase.PLAY and state.to_act == 0:
                break
            picker = app.screen.query_one("#choices", Picker)
            spans = [s for s in picker._spans if picker.items[s[4]].enabled]
            if spans:
                x0, _x1, y0, _y1, _index = spans[-1]  # click the last enabled choice
                await pilot.click("#choices", offset=(x0 + 1, y0))
            await settle(pilot, app)
        state = game_state(app)
        assert state is not None and state.phase is Phase.PLAY and state.to_act == 0
        picker = app.screen.query_one("#hand", Picker)  # the cards of the hand, at the bottom
        legal = [s for s in picker._spans if picker.items[s[4]].enabled]
        x0, _x1, y0, _y1, index = legal[-1]
        card = picker.items[index].card
        before = len(store_of(app).record.actions)
        await pilot.click("#hand", offset=(x0 + 2, y0 + 1))
        await settle(pilot, app)
        assert game_store(app) is not None
        assert store_of(app).record.actions[before] == Play(0, card)  # type: ignore[arg-type]


async def test_help_lists_every_key_from_the_live_bindings(tmp_path: Path) -> None:
    """One source for the keys: the help's table is built from the bindings, so a new key shows up in it."""
    from textual.binding import Binding

    from spades_tui.tui.screens.game import GameScreen
    from spades_tui.tui.screens.help import HelpScreen

    app = make_app(tmp_path, hotseat=True, seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys, does = (list(map(str, column.cells)) for column in app.screen.keys_table().columns)
        tooltips = [b.tooltip for b in [*GameScreen.BINDINGS, *app.BINDINGS] if isinstance(b, Binding) and b.tooltip]
        assert len(tooltips) >= 7 and set(tooltips) <= set(does)
        assert {"⏎", "space", "^q", "t"} <= set(keys)


@pytest.mark.parametrize("phase, screen, heading, then", [
    (Phase.DRAFT, "DraftScreen", "The draft", "Blind Nil"),
    (Phase.BIDDING, "BiddingScreen", "Bidding", "Keys"),
    (None, "StartScreen", "How a hand goes", "Rule options"),
])
async def test_help_starts_with_the_guide_for_the_screen_beneath(tmp_path: Path, phase: Phase | None, screen: str,
                                                                 heading: str, then: str) -> None:
    """Help opened from a phase's screen shows that phase's section of the guide first, then the keys."""
    from spades_tui.tui.screens.help import HelpScreen

    loaded = None if phase is None else record_until(lambda s: s.phase is phase and s.to_act == 0, players=VS_BOT,
                                                     seed=12)
    app = make_app(tmp_path, loaded=loaded)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        assert type(app.screen).__name__ == screen
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = [line.strip(" │╭╮╰╯─") for line in screen_text(app).splitlines() if line.strip(" │╭╮╰╯─")]
        assert lines[0] == heading
        text = "\n".join(lines)
        assert then in text and "Glossary" not in text  # the topic's sections, then the rest below


def test_every_help_topic_names_a_screen() -> None:
    import importlib
    import pkgutil

    from textual.screen import Screen

    from spades_tui.tui import screens
    from spades_tui.tui.app.guide import TOPICS
    from spades_tui.tui.app.help import DEFAULT_TOPIC, topic_of
    from spades_tui.tui.screens.review import ReviewScreen

    modules = [importlib.import_module(f"{screens.__name__}.{m.name}") for m in pkgutil.iter_modules(screens.__path__)]
    classes = {c for m in modules for c in vars(m).values()
               if isinstance(c, type) and issubclass(c, Screen) and c.__module__ == m.__name__} | {ReviewScreen}
    # Each screen's HELP_TOPIC is a topic of the guide; the screens that name one other than the start's:
    topics = {c.__name__: topic_of(c) for c in classes if topic_of(c) != DEFAULT_TOPIC}
    assert topics == {
        "DraftScreen": "draft", "BiddingScreen": "bidding", "PlayScreen": "play", "SummaryScreen": "scoring",
        "ReviewScreen": "scoring", "GameOverScreen": "scoring", "SettingsScreen": "settings", "SetupScreen": "new_game",
        "LessonEndScreen": "scoring", "ChallengeEndScreen": "challenge", "FieldEndScreen": "challenge",
        # Every table screen opens the help about tables (issue 52).
        "TableWaitScreen": "table", "ServerAddressScreen": "table", "LobbyScreen": "table", "WatchCodeScreen": "table",
        "TableChoiceScreen": "table",
    }
    assert {topic_of(c) for c in classes} <= set(TOPICS)


@pytest.mark.slow
@fine_grain
async def test_review_opens_from_the_hand_summary_with_r(tmp_path: Path) -> None:
    from spades_tui.tui.screens.review import ReviewScreen
    from spades_tui.tui.screens.summary import SummaryScreen

    app = make_app(tmp_path, bot="easy", seed=6)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(200):
            state = game_state(app)
            assert state is not None
            if state.phase is Phase.SHUFFLE and state.history:
                break
            await pilot.press("r")  # nothing to review while the hand is played
            assert not isinstance(app.screen, ReviewScreen)
            await pilot.press("enter")
            await settle(pilot, app)
        assert isinstance(app.screen, SummaryScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.seat_view is not None and app.seat_view.review is not None
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        text = screen_text(app)
        assert "What happened:" in text and "judged by the score" in text  # the review tells the story (issue 29)
        await pilot.press("right")  # trick by trick
        await pilot.pause()
        text = screen_text(app)
        assert "Hand 1, trick 1 of 13" in text and "margin after each card" in text
        await pilot.press("right", "left")
        await pilot.pause()
        assert "Hand 1, trick 1 of 13" in screen_text(app)
        await pilot.press("escape")  # back to the first page of the review
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and "judged by the score" in screen_text(app)
        await pilot.press("left")  # from the first page, the last trick
        await pilot.pause()
        assert "Hand 1, trick 13 of 13" in screen_text(app)
        await pilot.press("right")  # past the end: the first page again
        await pilot.pause()
        assert "judged by the score" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)


@cache  # the two tests below play the same game: it is played once
def _game_by_enter_defaults(seed: int, rules: Rules) -> tuple[GameRecord, int]:
    """A hot-seat game in which every decision is the seat's view's default, the choice Enter confirms (the
    screens highlight it; at the exchange its cards come marked), played through the session without a
    screen: its record, and where its last hand begins (the ``shuffle`` of that hand)."""
    session = Session(new_record(rules, None, ("Ada", "Bob"), bot=None, seed=seed), seed=seed, hints=False)
    try:
        for _ in range(5000):
            state = session.state
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.SHUFFLE:
                session.next_hand()
                continue
            assert state.to_act is not None
            default = session.view(state.to_act).default
            assert default is not None
            assert session.act(default) is None
        record = session.store.record
    finally:
        session.close_all()
    last_hand = max(i for i, action in enumerate(record.actions) if action.type == "shuffle")
    return record, last_hand


@pytest.mark.slow  # a whole game (or hand) by keys
def test_a_hotseat_game_to_100_played_with_enter_defaults_alone_reaches_game_over() -> None:
    """Enter's default is a sound choice (the normal bot's, or the hint's once it comes): Enter alone ends a game.
    With the old defaults (first legal card, a rough bid) both scores fell past -70,000 without an end.
    Played through the session (the screens' part, Enter confirming the default, is the next test's)."""
    record, last_hand = _game_by_enter_defaults(2, Rules(target=100))
    state = replay(record)
    assert state.phase is Phase.GAME_OVER and max(state.scores) >= 100, state.scores
    assert len(state.history) >= 2 and last_hand > 0


@pytest.mark.slow  # a whole game (or hand) by keys
@fine_grain
async def test_enter_alone_goes_from_a_hand_summary_through_the_last_hand_to_game_over(tmp_path: Path) -> None:
    """The screens' side of the game above: loaded at the summary of its next-to-last hand, Enter alone (the
    summary's, the hand-offs', every decision's) plays the last hand to the same end."""
    record, last_hand = _game_by_enter_defaults(2, Rules(target=100))
    end = replay(record)
    app = make_app(tmp_path, seed=2, loaded=record.truncated(last_hand))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        state = game_state(app)
        assert state is not None and state.phase is Phase.SHUFFLE and len(state.history) == len(end.history) - 1
        presses = 0
        while game_state(app) is not None and state_of(app).phase is not Phase.GAME_OVER and presses < 1500:
            await pilot.press("enter")
            presses += 1
        state = game_state(app)
        assert state is not None and state.phase is Phase.GAME_OVER, (presses, state and state.scores)
        assert max(state.scores) >= 100 and game_store(app) is not None and replay(store_of(app).record) == state
        assert state.scores == end.scores and state.history == end.history


@pytest.mark.slow
@fine_grain
async def test_h_shows_the_hint_and_enter_confirms_its_recommendation(tmp_path: Path) -> None:
    from spades_tui.engine.observation import observe
    from spades_tui.engine.reducer import legal_actions

    app = make_app(tmp_path, bot="easy", seed=7, hints=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(80):  # to the first bid, taking the default (hinted) choice each time
            state = game_state(app)
            assert state is not None
            if state.phase is Phase.BIDDING and state.to_act == 0:
                break
            await app.workers.wait_for_complete()
            await pilot.press("h")  # the hint panel on and off: never a hidden card in it
            await pilot.pause()
            check_frame(app, hotseat=False)
            await pilot.press("h")
            await pilot.press("enter")
            await settle(pilot, app)
            check_frame(app, hotseat=False)
        await app.workers.wait_for_complete()
        await pilot.pause()
        snap = app.seat_view
        assert snap is not None and snap.hint is not None and snap.hint.kind == "bidding"
        assert "Hint:" not in screen_text(app)
        await pilot.press("h")
        await pilot.pause()
        assert "Hint: " in screen_text(app) and "%" in screen_text(app)
        hinted = app.seat_view.hint if app.seat_view is not None else None
        assert hinted is not None
        from spades_tui.bots.hints import hint

        state = game_state(app)
        assert state is not None
        # The same hint from the viewer's observation alone (fixed sample count): nothing else went in.
        assert hint(observe(state, 0), legal_actions(state), 0, samples=6) == hinted
        before = len(store_of(app).record.actions) if game_store(app) is not None else 0
        await pilot.press("enter")
        await settle(pilot, app)
        assert game_store(app) is not None and store_of(app).record.actions[before] == hinted.recommended


@pytest.mark.slow
async def test_u_takes_back_against_the_bot_and_says_practice(tmp_path: Path) -> None:
    app = make_app(tmp_path, bot="easy", seed=11)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        for _ in range(6):
            await pilot.press("enter")
            await settle(pilot, app)
        assert game_store(app) is not None
        before = store_of(app).record.actions
        await pilot.press("u", "enter")  # the first take-back asks first (it makes the game practice): yes
        await settle(pilot, app)
        assert len(store_of(app).record.actions) < len(before)
        assert store_of(app).record.actions == before[:len(store_of(app).record.actions)]
        assert "PRACTICE (1 take-back)" in screen_text(app)
        assert game_state(app) == replay(store_of(app).record)
        # The game goes on after it: the bot still answers when its turn comes again.
        for _ in range(12):
            await pilot.press("enter")
            await settle(pilot, app)
        assert len(store_of(app).record.actions) > len(before) and not bot_thinking(app)
        players = [getattr(a, "player", None) for a in store_of(app).record.actions[len(before):]]
        assert 1 in players


@pytest.mark.slow
async def test_a_choice_from_a_screen_the_game_has_left_is_ignored(tmp_path: Path) -> None:
    """Enter pressed twice quickly: the second press can reach the old screen after the game moved
    on.  Its choice is stale: ignored, with no error (an error named the other player's cards)."""
    from spades_tui.tui.messages import ActionChosen
    from spades_tui.tui.screens.game import GameScreen

    app = make_app(tmp_path, hotseat=True, seed=4)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # the hand-off: player 1 is at the keyboard
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.seat_view is not None
        old = screen.seat_view
        item = screen.items[screen.cursor]
        assert item.action is not None
        stale = ActionChosen(item.action, (old.actions, old.seat))
        await pilot.press("enter")  # player 1 decides; the game moves on
        await settle(pilot, app)
        moved = app.seat_view
        assert moved is not None and moved.actions > old.actions
        app.post_message(stale)
        await settle(pilot, app)
        assert app.seat_view == moved
        assert not [n for n in app._notifications if "Not allowed" in str(n.message)]


@pytest.mark.slow
async def test_a_key_typed_before_the_hand_off_came_up_does_not_pass_it(tmp_path: Path) -> None:
    """A quick second Enter after a hot-seat player's decision reaches the hand-off screen late:
    it was typed before that screen came up, so it must not show the next player's cards."""
    from textual import events

    from spades_tui.tui.screens.handoff import HandoffScreen

    app = make_app(tmp_path, hotseat=True, seed=4)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen) and viewer(app) is None
        typed = events.Key("enter", None)
        typed.time = app.screen.shown_at - 0.05  # typed while the screen before was on top
        app.post_message(typed)
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen) and viewer(app) is None
        await pilot.press("enter")  # pressed now, by the player the screen asks for
        await settle(pilot, app)
        assert viewer(app) is not None


@pytest.mark.slow  # a whole game (or hand) by keys
@fine_grain
async def test_a_record_with_the_bot_at_seat_0_plays_to_the_end(tmp_path: Path) -> None:
    """The person may sit in either seat against a bot: the screens show seat 1's view throughout."""
    from spades_tui.engine.record import GameRecord, PlayerInfo

    record = GameRecord(Rules(target=100), 0, (PlayerInfo("Bot (easy)", "bot:easy"), PlayerInfo("Ada")))
    app = make_app(tmp_path, loaded=record, seed=21)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        assert app.session is not None and local_session(app).person == 1
        for _ in range(3000):
            await settle(pilot, app)
            check_frame(app, hotseat=False)  # seat 1's view, never a card of the bot's
            state = game_state(app)
            assert state is not None
            if state.phase is Phase.GAME_OVER:
                break
            await pilot.press("enter")
        state = game_state(app)
        assert state is not None and state.phase is Phase.GAME_OVER and state.winner is not None
        assert game_store(app) is not None and replay(store_of(app).record) == state
        text = screen_text(app)
        assert ("Ada wins" if state.winner == 1 else "Bot (easy) wins") in text
        assert "Your hand (Ada)" not in text  # the game-over screen shows no hand


@pytest.mark.slow
async def test_at_the_exchange_the_hint_comes_marked_and_enter_confirms_it(tmp_path: Path) -> None:
    """The Double Nil exchange: the hint's cards come marked, the footer says what Enter does on the highlighted
    choice (mark, unmark, exchange, keep all), and Enter alone confirms the hint's recommendation."""
    from spades_tui.engine.actions import DeclareDoubleNil, Exchange, ExchangeDraw, PlayerAction
    from spades_tui.engine.state import GameState
    from spades_tui.tui.notation import sort_hand

    def declare(state: GameState, legal: list[PlayerAction]) -> PlayerAction:
        want = DeclareDoubleNil(0, True)
        return want if want in legal else legal[0]

    record = record_until(lambda s: s.phase is Phase.EXCHANGE and s.to_act == 0, players=VS_BOT, policy=declare,
                          seed=12)
    app = make_app(tmp_path, loaded=record, hints=True, show_hints=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(200):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.seat_view is not None and app.seat_view.hint is not None:
                break
        snap = app.seat_view
        assert snap is not None and snap.hint is not None and snap.hint.kind == "exchange"
        wanted = snap.hint.recommended
        assert isinstance(wanted, Exchange)
        screen = app.screen
        assert screen.marked == frozenset(wanted.discard)  # type: ignore[attr-defined]

        def enter_says() -> str:
            return next(b.binding.description for k, b in app.screen.active_bindings.items() if k == "enter")

        assert enter_says() == ("Exchange marked" if wanted.discard else "Keep all")
        assert snap.hint.options[0].label in screen_text(app)  # the confirm choice reads as the hint does
        await pilot.press("left")  # onto a card
        await pilot.pause()
        assert enter_says() in ("Mark card", "Unmark card")
        await pilot.press("right")  # back onto the confirm choice, nothing changed
        await pilot.pause()
        store = game_store(app)
        assert store is not None
        before = len(store.record.actions)
        await pilot.press("enter")
        await settle(pilot, app)
        assert store.record.actions[before] == wanted
        # The next screen says what came back (the bot bids, then may lead: the play screen says it).
        got = store.record.actions[before + 1]
        if wanted.discard:
            assert isinstance(got, ExchangeDraw)
            words = (f"You gave {' '.join(c.label() for c in sort_hand(wanted.discard))} and got "
                     f"{' '.join(c.label() for c in sort_hand(got.cards))}.")
        else:
            words = "You kept all your cards."
        assert words in " ".join(screen_text(app).split()), screen_text(app)
