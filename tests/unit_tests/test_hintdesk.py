"""The hint desk both kinds of seat use (a local game, a seat at a network table): one question per
decision, a hint kept only for the decision it answers, nothing started once closed."""

from __future__ import annotations

from typing import Any, Optional

from spades_tui.session.hintdesk import HintDesk


def test_one_question_per_decision_and_a_hint_only_for_its_own() -> None:
    now: list[Optional[tuple[int, int]]] = [(5, 0)]
    desk = HintDesk(3, lambda: now[0])
    hint: Any = object()
    assert desk.ask() == (5, 0)
    assert desk.ask() is None  # asked already
    desk.answer((4, 0), hint)  # an answer to an earlier decision is dropped
    assert desk.current() is None
    desk.answer((5, 0), hint)
    assert desk.current() is hint
    now[0] = (7, 0)  # the game moved on: the hint was for another decision
    assert desk.current() is None and desk.ask() == (7, 0)
    now[0] = None  # not this seat's decision: nothing to ask
    assert desk.ask() is None and desk.current() is None


def test_forget_asks_again_for_a_decision_that_comes_back() -> None:
    now = (5, 1)
    desk = HintDesk(None, lambda: now)
    desk.ask()
    desk.answer(now, object())  # type: ignore[arg-type]
    desk.forget()  # a take-back: the same record length returns
    assert desk.current() is None and desk.ask() == now


def test_a_closed_desk_starts_no_service() -> None:
    desk = HintDesk(3, lambda: (1, 0))
    desk.close()
    assert desk.compute(None, ()) is None  # type: ignore[arg-type]
    assert desk._process is None
