"""The store: dispatch, autosave, resume, corrupt autosave (no Textual involved)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.actions import Bid, PlayerAction, is_chance
from spades_tui.engine.errors import IllegalActionError
from spades_tui.engine.record import GameRecord, PlayerInfo, loads_record, replay
from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase
from spades_tui.keep.autosave import check_autosave, default_data_dir
from spades_tui.session.store import GameStore

PLAYERS = (PlayerInfo("Ada"), PlayerInfo("Bob"))


def _play(store: GameStore, n: int, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(0)
    for _ in range(n):
        legal = legal_actions(store.state)
        bids = [a for a in legal if isinstance(a, Bid) and a.tricks == 1]  # modest bids: games end
        action = store.chance_due() or (bids[0] if bids else rng.choice(legal))
        store.dispatch(action)


def test_dispatch_appends_to_record_and_autosaves(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "autosave.json"
    store = GameStore(GameRecord(Rules(target=50), 1, PLAYERS), seed=7, autosave=path)
    _play(store, 40)
    assert len(store.record.actions) == 40
    saved = loads_record(path.read_text(encoding="utf-8"))
    assert saved.actions == store.record.actions
    assert replay(saved) == store.state
    assert dict(saved.metadata)["seed"] == 7


def test_illegal_action_changes_nothing(tmp_path: Path) -> None:
    store = GameStore(GameRecord(Rules(), 0, PLAYERS), seed=1, autosave=tmp_path / "a.json")
    store.deal()
    before_state, before_record = store.state, store.record
    with pytest.raises(IllegalActionError):
        store.dispatch(Bid(0, 3))  # it is the draft, not the bidding
    assert store.state is before_state and store.record is before_record


def test_resume_continues_with_the_same_cards(tmp_path: Path) -> None:
    """A resumed game (seed from the record) deals exactly what the original would have."""
    path = tmp_path / "autosave.json"
    original = GameStore(GameRecord(Rules(target=100), 0, PLAYERS), seed=11, autosave=path)
    _play(original, 130)  # past the first hand's end
    status = check_autosave(path)
    assert status.resumable and status.record is not None
    resumed = GameStore(status.record, autosave=path)
    assert resumed.state == original.state
    _play(original, 60)
    _play(resumed, 60)
    assert resumed.state == original.state


def test_corrupt_autosave_is_set_aside_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.write_text('{"format": "spades-tui-game", "version": 1, "actions": [{"type": "bogus"}]}', encoding="utf-8")
    status = check_autosave(path)
    assert status.record is None and not status.resumable
    assert status.message is not None and "could not be read" in status.message
    assert not path.exists()
    aside = list(tmp_path.glob("autosave.corrupt-*.json"))
    assert len(aside) == 1 and "bogus" in aside[0].read_text(encoding="utf-8")
    assert str(aside[0]) in status.message


def test_illegal_record_in_autosave_is_corrupt_too(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    record = GameRecord(Rules(), 0, PLAYERS, (Bid(0, 3),))
    path.write_text(record.dumps(), encoding="utf-8")
    status = check_autosave(path)
    assert status.message and "action 0" in status.message
    assert len(list(tmp_path.glob("autosave.corrupt-*.json"))) == 1


def test_two_corrupt_files_never_overwrite_each_other(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    for text in ("not json", "still not json"):
        path.write_text(text, encoding="utf-8")
        check_autosave(path)
    kept = sorted(p.read_text(encoding="utf-8") for p in tmp_path.glob("autosave.corrupt-*"))
    assert kept == ["not json", "still not json"]


def test_missing_autosave_is_quietly_absent(tmp_path: Path) -> None:
    status = check_autosave(tmp_path / "none.json")
    assert status.record is None and status.message is None


def test_finished_game_is_not_offered_for_resume(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    store = GameStore(GameRecord(Rules(target=1), 0, PLAYERS), seed=2)  # no autosave while playing: faster
    rng = random.Random(5)
    for _ in range(20000):
        if store.state.phase is Phase.GAME_OVER:
            break
        _play(store, 1, rng)
    assert store.state.phase is Phase.GAME_OVER
    store.autosave_path = path
    store.save()
    status = check_autosave(path)
    assert status.record is not None and not status.resumable


def test_unwritable_autosave_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    store = GameStore(GameRecord(Rules(), 0, PLAYERS), seed=3, autosave=blocker / "autosave.json")
    store.deal()
    assert store.save_error is not None and "Autosave failed" in store.save_error


def test_data_dir_honours_xdg_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "spades-tui"


# ---------------------------------------------------------------- the step loop, forfeits, the session


def test_settle_deals_up_to_a_decision_and_holds_the_next_hand(tmp_path: Path) -> None:
    store = GameStore(GameRecord(Rules(), 0, PLAYERS), seed=3)
    state = store.settle()
    assert state.phase in (Phase.DOUBLE_NIL, Phase.DRAFT) and state.to_act == 0
    assert len(store.record.actions) == 1  # the shuffle, and nothing else
    rng = random.Random(1)
    while not (store.state.phase is Phase.SHUFFLE and store.state.history):
        store.dispatch(rng.choice(legal_actions(store.state)))
        store.settle()
    before = len(store.record.actions)
    store.settle()
    assert len(store.record.actions) == before  # the summary waits: no shuffle yet
    assert store.deal() is not None and store.state.hand_number == 2


def test_run_stops_where_decide_waits_and_plays_to_the_end() -> None:
    from spades_tui.engine.state import new_game
    from spades_tui.session.dealer import Dealer
    from spades_tui.session.loop import run

    waiting = run(new_game(Rules()), Dealer(1))
    assert waiting.to_act is not None and waiting.hand_number == 1
    def modest(state: GameState, seat: int) -> PlayerAction:
        legal = legal_actions(state)
        return next((a for a in legal if isinstance(a, Bid) and a.tricks == 1), legal[0])  # 1-trick bids end games

    over = run(new_game(Rules(target=1)), Dealer(1), modest)
    assert over.phase is Phase.GAME_OVER


def test_a_recorded_forfeit_is_saved_and_ends_the_game(tmp_path: Path) -> None:
    from spades_tui.engine.outcome import Forfeit
    from spades_tui.session.store import forfeit_of

    path = tmp_path / "autosave.json"
    store = GameStore(GameRecord(Rules(), 0, PLAYERS), seed=5, autosave=path)
    store.settle()
    store.record_forfeit(Forfeit(1, "Bob forfeits: no answer"))
    saved = loads_record(path.read_text(encoding="utf-8"))
    assert forfeit_of(saved) == Forfeit(1, "Bob forfeits: no answer")
    assert '"result": {"forfeit": 1, "reason": "Bob forfeits: no answer"}' in path.read_text(encoding="utf-8")
    status = check_autosave(path)
    assert status.record is not None and not status.resumable  # a forfeited game is over


@pytest.mark.parametrize("result", [None, "x", [1], {"forfeit": 2}, {"forfeit": True}, {"forfeit": 0, "reason": 3}])
def test_a_malformed_result_is_ignored_like_any_unknown_key(result: object) -> None:
    from spades_tui.session.store import forfeit_of

    record = GameRecord(Rules(), 0, PLAYERS, (), (("result", result),))
    assert forfeit_of(record) is None


def test_session_records_a_bot_forfeit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tui.bots.base import Bot
    from spades_tui.session import session as session_module
    from spades_tui.session.session import Session
    from spades_tui.session.store import forfeit_of

    monkeypatch.setattr(session_module, "create_bot", lambda spec, seed=None: Bot())
    record = GameRecord(Rules(), 1, (PlayerInfo("Ada"), PlayerInfo("Bot", "bot:easy")))
    session = Session(record, seed=4, autosave=tmp_path / "a.json")
    assert session.bot_due() == 1 and session.view().seat == 0
    token, seat, observation, _legal = session.bot_request()
    assert seat == 1 and observation.seat == 1 and session.view().bot_thinking
    assert session.bot_answer(token, seat, None, "no answer within 5 seconds")
    assert session.forfeit == "Bot forfeits: no answer within 5 seconds" and not session.bots
    saved = loads_record((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert forfeit_of(saved) is not None and forfeit_of(saved).seat == 1  # type: ignore[union-attr]
    resumed = Session(saved, autosave=tmp_path / "b.json")
    assert resumed.forfeit == session.forfeit and resumed.bot_due() is None  # the game stays ended


def test_session_hands_the_keyboard_over_in_hot_seat(tmp_path: Path) -> None:
    from spades_tui.session.session import Session

    session = Session(GameRecord(Rules(), 0, PLAYERS), seed=6)
    assert session.viewer is None  # nobody's cards until player 0 says they are there
    session.reveal()
    assert session.viewer == 0
    while session.state.to_act == 0:
        assert session.viewer == 0  # the same player goes on: still shown
        assert session.act(legal_actions(session.state)[0]) is None
    assert session.viewer is None and session.state.to_act == 1
    assert session.act(Bid(0, 3)) is not None  # not allowed now: a reason, nothing changes


def _vs_bot_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int = 8) -> object:
    from spades_tui.bots.levels import make_bot
    from spades_tui.session import session as session_module
    from spades_tui.session.session import Session

    monkeypatch.setattr(session_module, "create_bot", lambda spec, seed=None: make_bot("easy", seed=1))
    monkeypatch.setattr(session_module, "ProcessBot", lambda factory: None)  # hints are asked for, not computed
    record = GameRecord(Rules(), 0, (PlayerInfo("Ada"), PlayerInfo("Bot", "bot:easy")))
    return Session(record, seed=seed, autosave=tmp_path / "a.json")


def _step(session: object, person: int = 1) -> None:
    """The person takes their first legal choice ``person`` times; the bot answers in between."""
    s = session  # type: Any
    done = 0
    while done < person:
        if s.bot_due() is not None:
            token, seat, obs, legal = s.bot_request()
            s.bot_answer(token, seat, s.bots[seat].decide(obs, legal), None)
        elif s.state.to_act == 0:
            s.hint_request()  # as the app does at each of the person's decisions
            s.act(legal_actions(s.state)[-1])
            done += 1
        else:
            s.next_hand()


def test_take_back_undoes_the_persons_last_decision_and_marks_practice(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    session: Any = _vs_bot_session(tmp_path, monkeypatch)
    _step(session, 5)
    actions = session.store.record.actions
    last_mine = max(i for i, a in enumerate(actions) if getattr(a, "player", None) == 0 and not is_chance(a))
    assert session.view().can_take_back and session.view().practice == 0
    assert session.take_back()
    assert session.store.record.actions == actions[:last_mine]
    assert session.state == replay(session.store.record)
    assert session.view().practice == 1 and session.state.to_act == 0
    saved = loads_record((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert dict(saved.metadata)["practice"] == {"takebacks": 1, "from_hand": 1}  # in hand 1: no hand before it
    _step(session, 1)  # the same seed deals the same cards: the game goes on from there
    assert session.take_back() and session.view().practice == 2


def test_no_take_back_in_hot_seat_or_across_a_scored_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tui.session.session import Session

    hot = Session(GameRecord(Rules(), 0, PLAYERS), seed=6)
    hot.reveal()
    hot.act(legal_actions(hot.state)[0])
    assert not hot.take_back() and not hot.view().can_take_back
    session: Any = _vs_bot_session(tmp_path, monkeypatch, seed=9)
    while not (session.state.phase is Phase.SHUFFLE and session.state.history):
        _step(session, 1)
    scored = session.state
    assert not session.view().can_take_back and not session.take_back()
    assert session.state is scored
    deal = next(a for a in reversed(session.store.record.actions) if type(a).__name__ == "Shuffle")
    assert session.replay_hand()  # the same deal again, as practice
    assert session.store.record.actions[-1] == deal and session.state.hand_number == scored.hand_number
    assert session.state.history == scored.history[:-1] and session.view().practice == 1
    asked = session.hint_request()  # the first decision of the replayed hand gets its hint again
    assert asked is not None and asked[1].hand_number == scored.hand_number
    session.close_all()
