"""Seat views (session/view.py): what each seat may know, the public view, their wire form; seats of any kind."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from spades_tui.bots.levels import make_bot
from spades_tui.engine.outcome import Forfeit, Termination, outcome_of
from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.keep.stats import open_stats, record_game, summary
from spades_tui.session import session as session_module
from spades_tui.session import view as view_module
from spades_tui.session.session import Session
from spades_tui.session.view import SeatView, seat_view
from spades_tui.tui.gameview import Kind, screen_kind
from spades_tui.tui.viewmodels import game_over_view, handoff_view
from tests.support.hidden import hidden_cards

CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")
NAMES = (PlayerInfo("Ada"), PlayerInfo("Bob"))


def leaked(state: GameState, view: SeatView) -> set[str]:
    """Card codes in the view that its seat may not know (docs/rules.md section 10)."""
    hidden = hidden_cards(state, view.seat)
    if view.seat is not None and state.hand is not None:
        # A card seen going to the discard pile stays known, even once the other's exchange drew it.
        hidden -= set(state.hand.seen_discards[view.seat])
    # Its wire form (what a table's host sends), the observation the screens draw, and the seat's own news of
    # its draw and exchange.
    draw, exchange = view.last_draw or (), view.last_exchange or ((), ())
    news = [c.code for c in (*draw[:2], *exchange[0], *exchange[1]) if c is not None and not isinstance(c, str)]
    shown = set(CODE.findall(json.dumps([view.to_json(), view.observation.to_json()]))) | set(news)
    return shown & {c.code for c in hidden}


def check_views(state: GameState) -> None:
    """The oracle: every seat's view and the public one, at this state."""
    for seat in (0, 1, None):
        view = seat_view(state, seat, NAMES, outcome=outcome_of(state))
        bad = leaked(state, view)
        assert not bad, f"seat {seat} is shown hidden cards {sorted(bad)} in phase {state.phase.value}"
        if seat is None:
            assert not view.observation.hand and view.observation.drawn is None and not view.legal


def whole_game_states(seed: int, rules: Rules, hands: int = 2) -> list[GameState]:
    """Every state of ``hands`` hands between random legal players (Double Nil now and then)."""
    session = Session(GameRecord(rules, 0, NAMES), seed=seed, hints=False)
    rng = random.Random(seed)
    states = [session.state]
    while len(session.state.history) < hands and session.state.phase is not Phase.GAME_OVER:
        if session.state.phase is Phase.SHUFFLE:
            session.next_hand()
        else:
            session.act(rng.choice(legal_actions(session.state)))
        states.append(session.state)
    return states


@pytest.mark.parametrize("seed,rules", [(1, Rules()), (2, Rules(see_second_card=True)),
                                        (3, Rules(nil=False, double_nil=False)), (4, Rules(target=100))])
def test_no_view_of_a_whole_game_shows_a_hidden_card(seed: int, rules: Rules) -> None:
    states = whole_game_states(seed, rules)
    assert {s.phase for s in states} >= {Phase.DRAFT, Phase.BIDDING, Phase.PLAY, Phase.SHUFFLE}
    for state in states:
        check_views(state)


def test_a_double_nil_exchange_is_checked_too() -> None:
    for seed in range(40):
        states = whole_game_states(seed, Rules(), hands=1)
        if any(s.hand is not None and any(s.hand.exchanged) for s in states):  # cards were exchanged
            for state in states:
                check_views(state)
            return
    pytest.fail("no random game declared Double Nil and exchanged")


def test_a_leaking_view_builder_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle can fail: a builder that hands each seat the other's observation is found out."""
    real = view_module.observe
    monkeypatch.setattr(view_module, "observe", lambda state, seat: real(state, 1 - seat))
    state = next(s for s in whole_game_states(5, Rules(), hands=1) if s.phase is Phase.PLAY)
    with pytest.raises(AssertionError, match="hidden cards"):
        check_views(state)


def test_a_public_view_that_kept_a_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view_module, "public_observation", lambda state: view_module.observe(state, 0))
    state = next(s for s in whole_game_states(6, Rules(), hands=1) if s.phase is Phase.BIDDING)
    with pytest.raises(AssertionError, match="seat None"):
        check_views(state)


def test_the_wire_form_is_the_update_a_host_sends_and_a_seat_reads_back() -> None:
    """``SeatView.to_json`` is the game part of the host's ``update`` frame: a seat's client reads it back (its
    frame reader trusts nothing) as the same observation, choices, hands and record length; the public view's
    has no seat, hand, drawn card or seen discards."""
    from spades_tui.table.wire import frames

    states = whole_game_states(7, Rules(target=100), hands=3)
    for state in states[::7]:
        for seat in (0, 1, None):
            view = seat_view(state, seat, NAMES, outcome=outcome_of(state), actions=42, bot_thinking=True)
            sent = {"type": "update", **view.to_json(), "connected": [True, False], "players": ["Ada", "Bob"]}
            read = frames.read(json.loads(json.dumps(sent)))
            assert isinstance(read, frames.Update) and read.public == (seat is None)
            assert (read.at, read.legal, read.hands) == (42, view.legal, view.hands)
            if seat is not None:
                assert read.observation == view.observation
            else:
                wire = sent["observation"]
                assert wire["seat"] is None and wire["hand"] == [] and wire["drawn"] is None
                assert "seen_discards" not in wire


def test_a_view_carries_advice_for_its_own_seat_only() -> None:
    state = next(s for s in whole_game_states(8, Rules(), hands=1) if s.phase is Phase.PLAY)
    to_act = state.to_act
    assert to_act is not None
    mine = seat_view(state, to_act, NAMES)
    other = seat_view(state, 1 - to_act, NAMES)
    assert mine.legal == legal_actions(state) and mine.default in mine.legal  # the normal bot's choice
    assert other.legal == () and other.default is None and not other.my_turn


# ---------------------------------------------------------------- seats of any kind


def _in_process_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Built-in bots in this process (fast); the session treats them as any bot."""
    monkeypatch.setattr(session_module, "create_bot", lambda spec, seed=None: make_bot(spec, seed))


def _play_person_against_bot(session: Session, person: int) -> None:
    """The person takes Enter's default at each decision; the bot answers through the session's protocol."""
    for _ in range(20000):
        view = session.view()
        assert view.seat == person  # the screen always shows the person's own view
        if view.outcome is not None:
            return
        seat = session.bot_due()
        if seat is not None:
            assert seat == 1 - person
            token, asked, observation, legal = session.bot_request()
            assert asked == seat and observation.seat == seat
            session.bot_answer(token, seat, session.bots[seat].decide(observation, legal), None)
        elif view.phase is Phase.SHUFFLE:
            session.next_hand()
        else:
            assert view.my_turn and view.default is not None
            assert session.act(view.default) is None
    pytest.fail("the game did not end")


def test_a_record_with_the_bot_at_seat_0_plays_to_the_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _in_process_bots(monkeypatch)
    record = GameRecord(Rules(target=150), 0, (PlayerInfo("Bot (easy)", "bot:easy"), PlayerInfo("Ada")))
    session = Session(record, seed=11, hints=False)
    assert session.person == 1 and session.vs_bot and session.bot_seats == (0,)
    _play_person_against_bot(session, 1)
    view = session.view()
    assert view.outcome is not None and view.outcome.termination is Termination.TARGET
    assert replay(session.store.record) == session.state
    winner = view.winner
    assert winner is not None and game_over_view(view).prompt.startswith(
        "Game over: " + ("Ada wins" if winner == 1 else "Bot (easy) wins"))
    conn, _ = open_stats(tmp_path / "s.sqlite3")
    record_game(conn, session.store.record)
    s = summary(conn)  # "you" are seat 1 here
    assert s["by_opponent"] == {"easy": {"played": 1, "won": int(winner == 1)}}
    assert s["recent"] == [[h.scores_after[1] for h in session.state.history]]


def test_a_take_back_undoes_the_person_in_seat_1(monkeypatch: pytest.MonkeyPatch) -> None:
    _in_process_bots(monkeypatch)
    record = GameRecord(Rules(), 1, (PlayerInfo("Bot (easy)", "bot:easy"), PlayerInfo("Ada")))
    session = Session(record, seed=12, hints=False)
    for _ in range(200):
        if session.bot_due() is not None:
            token, seat, obs, legal = session.bot_request()
            session.bot_answer(token, seat, session.bots[seat].decide(obs, legal), None)
        elif session.view().my_turn and session.view().can_take_back:
            break
        else:
            session.act(session.view().default)  # type: ignore[arg-type]
    before = session.store.record.actions
    assert session.take_back() and session.view().practice == 1
    last = before[len(session.store.record.actions)]
    assert getattr(last, "player", None) == 1  # the cut is at the person's own decision


def test_bots_against_bots_run_through_the_step_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    _in_process_bots(monkeypatch)
    record = GameRecord(Rules(target=100), 0, (PlayerInfo("Easy", "bot:easy"), PlayerInfo("Normal", "bot:normal")))
    session = Session(record, seed=13, hints=False)
    assert session.viewer is None and not session.vs_bot and not session.persons
    for _ in range(100):
        state = session.run_bots()
        if state.phase is Phase.GAME_OVER:
            break
        assert state.phase is Phase.SHUFFLE  # a hand scored: the next is dealt when asked
        view = session.view()
        assert view.seat is None and screen_kind(view) is Kind.SUMMARY
        session.next_hand()
        watching = session.view()
        assert screen_kind(watching) is Kind.HANDOFF and handoff_view(watching).pane == "watching"
        assert not watching.observation.hand  # the public view: nobody's cards
    assert session.state.phase is Phase.GAME_OVER and replay(session.store.record) == session.state
    assert session.view().outcome is not None and not session.bots  # closed at the end


def test_a_failing_bot_forfeits_for_its_own_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tui.bots.base import Bot, BotError

    class Broken(Bot):
        def decide(self, observation: object, legal: object) -> object:  # type: ignore[override]
            raise BotError("no answer")

    monkeypatch.setattr(session_module, "create_bot",
                        lambda spec, seed=None: Broken() if spec == "hard" else make_bot(spec, seed))
    record = GameRecord(Rules(), 0, (PlayerInfo("Hard", "bot:hard"), PlayerInfo("Ada")))
    session = Session(record, seed=14, hints=False)
    while session.bot_due() is None and session.view().outcome is None:
        session.act(session.view().default)  # type: ignore[arg-type]
    session.run_bots()
    outcome = session.view().outcome
    assert outcome is not None and outcome.termination is Termination.FORFEIT
    assert outcome.forfeit is not None and outcome.forfeit.seat == 0 and outcome.winner == 1
    assert "by forfeit" in game_over_view(session.view()).info and "Ada wins" in game_over_view(session.view()).info


def test_the_outcome_is_read_in_one_place() -> None:
    from spades_tui.engine.outcome import Outcome
    from spades_tui.session.randomplay import random_game

    _, over = random_game(0, rules=Rules(target=100), max_hands=12)
    assert over.phase is Phase.GAME_OVER
    outcome = outcome_of(over)
    assert outcome is not None and outcome.termination is Termination.TARGET and outcome.winner == over.winner
    assert outcome_of(GameState(Rules(), 0)) is None  # a game not over has none
    forfeited = outcome_of(over, Forfeit(0, "gone"))
    assert forfeited is not None and forfeited.winner == 1 and forfeited.loser == 0
    for found in (outcome, forfeited):
        assert Outcome.from_json(json.loads(json.dumps(found.to_json()))) == found
    assert Outcome.from_json({"termination": "forfeit", "winner": 1, "scores": [0, 0]}) is None  # no forfeit in it
