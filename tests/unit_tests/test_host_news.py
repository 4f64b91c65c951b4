"""The host's events told apart by kind, not by their words: the screens show the scores, so the notices are the
seats' comings and goings alone, in any language (a filter on the English "scored:" let every score through as a
notice once the events were Swedish)."""

from __future__ import annotations

from typing import Any

from spades_tui.engine.record import PlayerInfo
from spades_tui.i18n import language
from spades_tui.table.host.talk import HostTalk


def talk() -> HostTalk:
    said: list[dict[str, Any]] = []
    return HostTalk(lambda: (PlayerInfo("Ada"), PlayerInfo("Bob")), said.append, on_event=lambda line: None,
                    on_said=said.append)


def test_a_scored_hand_and_the_end_are_no_seat_news_in_any_language() -> None:
    language.use("sv")  # the autouse fixture puts English back
    host = talk()
    host.event("Bob satte sig vid bordet.")
    host.event("Giv 1 räknad: Ada +50, Bob −20 (ställning 50 mot −20).", result=True)
    news, told = host.seat_news_since(0)
    assert news == ["Bob satte sig vid bordet."] and told == 2
    host.event("Bob lämnade bordet (frånkopplad).")
    host.event("Spelet är slut: Ada vinner, 500 mot 120.", result=True)
    assert host.seat_news_since(told) == (["Bob lämnade bordet (frånkopplad)."], 4)
    assert host.seat_news_since(4) == ([], 4)


def test_the_told_results_are_marked_as_results() -> None:
    from types import SimpleNamespace

    language.use("et")
    host = talk()
    host.event("Bob istus laua taha.")
    hand = SimpleNamespace(points=(50, -20), scores_after=(50, -20))
    session = SimpleNamespace(state=SimpleNamespace(history=[hand]), outcome=None)
    host.tell_results(session)  # type: ignore[arg-type]
    assert len(host.events) == 2 and host.seat_news_since(0) == (["Bob istus laua taha."], 2)
