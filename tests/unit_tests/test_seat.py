"""The seat the interface plays (session/seat.py): a local game and a seat at a network table are both one, and a
seat's work (a bot's decision, a hint, a review) comes as jobs, each given once, run without knowing who made it."""

from __future__ import annotations

import random
from typing import Any

from spades_tui.engine.reducer import legal_actions
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import Phase
from spades_tui.session.seat import Job, Seat
from spades_tui.session.session import Session, new_record
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.remote_seat import RemoteSeat


def run(job: Job[Any]) -> bool:
    """What the interface does with a job, inline: start it, run its work, hand the result back."""
    work = job.start()
    if work is None:
        return False
    job.done(work())
    return True


def test_a_local_game_and_a_table_seat_are_both_seats() -> None:
    session = Session(new_record(Rules(), 0, ("A", "B"), bot=None, seed=1), seed=1, hints=False)
    remote = RemoteSeat(TableClient("ws://127.0.0.1:9/table", code="x"), hints=False)
    try:
        assert isinstance(session, Seat) and isinstance(remote, Seat)
        assert remote.jobs() == []  # not seated yet: no decision, no hand to review, and never a bot's
    finally:
        session.close_all()  # the remote seat started nothing: no connection, no hint service


def test_a_bots_decision_is_a_job_given_once_and_applied_when_done() -> None:
    session = Session(new_record(Rules(), 1, ("You", "Bot"), bot="easy", seed=5), seed=5, hints=False)
    rng = random.Random(2)
    try:
        played = 0
        while played < 6 and session.forfeit is None:
            bots = [j for j in session.jobs() if j.kind == "bot"]
            if session.state.to_act == 1:
                assert len(bots) == 1 and not any(j.kind == "bot" for j in session.jobs())  # given once
                before = session.actions
                assert run(bots[0]) and session.actions > before and not session.bot_thinking
                played += 1
            else:
                assert bots == []  # the person's turn: no bot job
                session.act(rng.choice(legal_actions(session.state)))
        assert played == 6
    finally:
        session.close_all()


def test_a_bot_job_started_after_the_game_moved_on_does_nothing() -> None:
    session = Session(new_record(Rules(), 0, ("You", "Bot"), bot="easy", seed=7), seed=7, hints=False)
    try:
        rng = random.Random(3)
        while session.state.to_act != 1:
            session.act(rng.choice(legal_actions(session.state)))
        job = next(j for j in session.jobs() if j.kind == "bot")
        assert session.take_back()  # the person's decision undone before the bot was asked
        assert job.start() is None and not session.bot_thinking
        assert not any(j.kind == "bot" for j in session.jobs())  # the person's turn again
    finally:
        session.close_all()


def test_the_review_is_a_job_once_per_hand() -> None:
    session = Session(new_record(Rules(), 0, ("A", "B"), bot=None, seed=3), seed=3, hints=False)
    rng = random.Random(4)
    try:
        while not (session.state.phase is Phase.SHUFFLE and session.state.history):
            assert not any(j.kind == "review" for j in session.jobs())
            session.reveal()
            session.act(rng.choice(legal_actions(session.state)))
        reviews = [j for j in session.jobs() if j.kind == "review"]
        assert len(reviews) == 1 and not any(j.kind == "review" for j in session.jobs())
        assert session.view().review is None and run(reviews[0])
        review = session.view().review
        assert review is not None and review.hand == 1
    finally:
        session.close_all()
