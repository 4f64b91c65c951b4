"""The card table's sizes (docs/playing.md, "Screen sizes"): which card size fits, the faces at each size,
the cards seen passed (only this seat's), and the panel's tricks list that never vanishes."""

from __future__ import annotations

from typing import Sequence

from spades_tui.engine.actions import Draft, PlayerAction
from spades_tui.engine.cards import Card, Suit
from spades_tui.engine.reducer import reduce
from spades_tui.engine.state import Phase
from spades_tui.tui.viewmodels import bidding_view, draft_view
from spades_tui.tui.widgets.faces import LARGE, MEDIUM, SMALL, face_lines, pile_lines, row_step
from spades_tui.tui.widgets.fit import Content, plan
from spades_tui.tui.widgets.panel import ScorePanel
from tests.support.hidden import hidden_cards
from tests.support.views import snap

PLAY = Content(opponent=True, opponent_cards=13, table_rows=2, caption=16, text_rows=4, hand=True, hand_cards=13,
               extras=("piles",))


def test_the_largest_size_that_fits_the_rows() -> None:
    assert plan(PLAY, 53, 23, (80, 24)).card is SMALL  # 80x24: the main area beside a 26-column panel
    assert plan(PLAY, 73, 31, (100, 32)).card is MEDIUM
    large = plan(PLAY, 121, 49, (160, 50))
    assert (large.card, large.back) == (LARGE, LARGE) and "piles" in large.extras
    # Two rows short of the large backs: the backs one size smaller, the hand still large.
    tight = plan(PLAY, 121, 35 - 2, (160, 36))
    assert (tight.card, tight.back) == (LARGE, MEDIUM)
    assert "piles" not in plan(PLAY, 73, 31, (100, 32)).extras  # the piles only at the large size


def test_the_seen_cards_only_from_120x40() -> None:
    content = Content(opponent=True, opponent_cards=5, table_rows=1, caption=25, text_rows=5, hand=True,
                      hand_cards=5, extras=("seen",))
    assert "seen" not in plan(content, 73, 31, (100, 32)).extras
    assert "seen" in plan(content, 87, 39, (120, 40)).extras


def test_every_size_shows_rank_and_suit_in_what_a_fan_leaves_visible() -> None:
    for size in (SMALL, MEDIUM, LARGE):
        for c in (Card.of(10, Suit.HEARTS), Card.of(12, Suit.SPADES)):
            face = face_lines(c, size=size)
            assert len(face) == size.height and all(len(line) == size.width for line in face)
            step = row_step(13, 53, size)
            assert c.label() in face[1][:step], (size, face)
        assert len(pile_lines(3, size)) == size.height


def test_the_seen_cards_are_the_seats_own_passes_only() -> None:
    from tests.support.pilot import record_until

    def passes(s: object, legal: Sequence[PlayerAction]) -> PlayerAction:
        return next((a for a in legal if isinstance(a, Draft) and a.take == "second"), legal[0])

    record = record_until(lambda s: s.phase is Phase.BIDDING, seed=7, policy=passes)
    state = record.new_state()
    for action in record.actions:
        state = reduce(state, action)
    for seat in (0, 1):
        vm = bidding_view(snap(state, seat))
        assert vm.seen, "every turn passed a seen card"
        assert not set(vm.seen) & hidden_cards(state, seat)
        assert set(vm.seen) <= state.hand.seen_discards[seat] - state.hand.hands[seat]  # type: ignore[union-attr]
    assert not draft_view(snap(state, None)).seen  # the public view: nothing


def test_the_panel_keeps_the_last_tricks_that_fit() -> None:
    from tests.support.pilot import record_until

    record = record_until(lambda s: s.phase is Phase.PLAY and s.hand is not None and len(s.hand.tricks) == 11
                          and not s.hand.trick, seed=7)
    state = record.new_state()
    for action in record.actions:
        state = reduce(state, action)
    panel = ScorePanel()
    panel.show(snap(state, 0), "")
    tall = panel.lines(23, 40)
    assert sum(1 for line in tall if line[:3].strip().isdigit()) == 11  # every trick from 40 rows
    short = panel.lines(23, 17)
    assert len(short) <= 17
    listed = [line for line in short if line[:3].strip().isdigit()]
    assert listed and listed[-1].strip().startswith("11"), short  # the last tricks, never none
    assert any(line.startswith("Tricks ") for line in short)


def test_the_wide_panel_lists_the_last_chat_lines_cleaned_and_wrapped() -> None:
    from spades_tui.tui.widgets.panel import CHAT_LINES, WIDE_PANEL

    panel = ScorePanel()
    said = [(f"P{i}", f"line {i}") for i in range(5)]
    said.append(("Eve\x1b[2J", "a long line that goes on well past the width of the panel itself"))
    panel.show(None, "Score\nYou 0", chat=tuple(said))
    wide = panel.lines(WIDE_PANEL, 40)
    assert "Chat" in wide
    shown = wide[wide.index("Chat") + 1:]
    assert any("line 4" in line for line in shown) and any("line 3" in line for line in shown)
    assert not any("line 2" in line for line in shown), "only the last lines said"
    assert sum(1 for line in shown if not line.startswith("   ")) == CHAT_LINES  # wrapped parts indented
    assert all(len(line) <= WIDE_PANEL for line in wide), wide
    assert not any("\x1b" in line for line in wide), "a control character reached the screen"
    assert any("Eve" in line for line in shown)
    assert "Chat" not in panel.lines(WIDE_PANEL - 1, 40), "a narrow panel keeps to the score"
