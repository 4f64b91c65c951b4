"""The view models, without a terminal: what each screen shows in every phase, and never a hidden card."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Optional

import pytest

from spades_tui.engine.actions import Action, Bid, DeclareDoubleNil, Exchange, Play, PlayerAction
from spades_tui.engine.cards import CARDS, Card, Suit
from spades_tui.engine.observation import Observation, observe
from spades_tui.engine.outcome import Forfeit, outcome_of
from spades_tui.engine.record import PlayerInfo
from spades_tui.engine.reducer import legal_actions, reduce, trick_winner
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState, Phase, new_game
from spades_tui.session.dealer import Dealer
from spades_tui.session.loop import run
from spades_tui.session.view import SeatView, TableFacts, seat_view
from spades_tui.tui.gameview import Command, GameView, Kind, TableRow, screen_kind
from spades_tui.tui.notation import sort_hand
from spades_tui.tui.viewmodels import bidding_view, draft_view, game_over_view, handoff_view, play_view, summary_view
from tests.support.hidden import hidden_cards
from tests.support.views import NAMES, snap


def shown_cards(vm: GameView) -> set[Card]:
    cards = {c for row in vm.table for c in row.cards if c is not None}
    cards |= {i.card for i in vm.items if i.card is not None} | set(vm.hand) | set(vm.seen)  # seen passed too
    text = "\n".join([vm.status, vm.prompt, vm.info, vm.hand_label, vm.last_trick, *(i.text for i in vm.items),
                      *(r.caption for r in vm.table), vm.opponent.note if vm.opponent else "", vm.seen_caption,
                      *(words for words, _ in vm.piles), *vm.picks])
    if vm.sheet is not None:
        text += "\n".join(" ".join(row) for row in vm.sheet.rows)
    return cards | {c for c in CARDS if c.label() in text}


def view(s: SeatView, marked: frozenset[Card] = frozenset(), typed: str = "") -> GameView:
    kind = screen_kind(s)
    if kind is Kind.HANDOFF:
        return handoff_view(s)
    if kind is Kind.DRAFT:
        return draft_view(s, marked)
    if kind is Kind.BIDDING:
        return bidding_view(s, typed)
    if kind is Kind.PLAY:
        return play_view(s)
    if kind is Kind.SUMMARY:
        return summary_view(s)
    return game_over_view(s)


def game_states(seed: int, rules: Rules, declare: bool = False, hands: int = 2) -> list[GameState]:
    """Every state of a game between random legal players (Double Nil declared by player 0 if asked)."""
    rng = random.Random(seed)
    start = new_game(rules)
    states: list[GameState] = [start]

    def decide(state: GameState, seat: int) -> PlayerAction:
        legal = legal_actions(state)
        if DeclareDoubleNil(seat, True) in legal:
            return DeclareDoubleNil(seat, declare and seat == 0)
        return rng.choice(legal)

    def apply(state: GameState, action: Action) -> GameState:
        states.append(reduce(state, action))
        return states[-1]

    run(start, Dealer(seed), decide, apply=apply, stop=lambda s: s.phase is Phase.SHUFFLE and len(s.history) >= hands)
    return states


@pytest.mark.parametrize(("seed", "declare"), [(1, False), (2, True), (3, True)])
def test_no_view_shows_a_hidden_card_to_any_viewer(seed: int, declare: bool) -> None:
    """Every state of two hands, seen by the player to act, the other player, and nobody (a hand-off)."""
    kinds = set()
    for state in game_states(seed, Rules(), declare):
        for viewer in (0, 1, None):
            s = snap(state, viewer)
            vm = view(s)
            kinds.add(screen_kind(s))
            leaked = shown_cards(vm) & hidden_cards(state, viewer)
            assert not leaked, (state.phase, viewer, vm.pane, sorted(c.label() for c in leaked))
    assert {Kind.HANDOFF, Kind.DRAFT, Kind.BIDDING, Kind.PLAY, Kind.SUMMARY} <= kinds


def test_the_hidden_card_check_catches_a_leak() -> None:
    state = next(s for s in game_states(4, Rules()) if s.phase is Phase.PLAY)
    assert state.hand is not None
    other_hand = state.hand.hands[1]
    wrong = play_view(snap(state, 1))  # what player 1 sees, shown to player 0
    assert shown_cards(wrong) & hidden_cards(state, 0) >= set(other_hand) - {pc.card for pc in state.hand.trick}


def test_every_choice_of_a_decision_is_a_legal_action_and_the_default_is_enabled() -> None:
    seen_panes = set()
    for state in game_states(5, Rules(), declare=True, hands=3):
        seat = state.to_act
        if seat is None:
            continue
        vm = view(snap(state, seat))
        seen_panes.add(vm.pane)
        legal = set(legal_actions(state))
        for item in vm.items:
            if item.action is not None and item.enabled and vm.pane != "exchange":
                assert item.action in legal, (vm.pane, item)
        if vm.items:
            assert vm.items[vm.default].enabled
            assert vm.items[vm.default].action in legal or vm.pane == "exchange"
    assert {"double_nil", "draft", "bidding", "play"} <= seen_panes


def test_handoff_shows_no_card_and_reveals() -> None:
    state = next(s for s in game_states(6, Rules()) if s.phase is Phase.DRAFT)
    vm = view(snap(state, None))
    assert vm.pane == "handoff" and not shown_cards(vm)
    assert [i.command for i in vm.items] == [Command.REVEAL]
    assert vm.prompt == f"Pass to {NAMES[state.to_act or 0].name}, then press Enter."


def test_draft_view_offers_take_and_pass_of_the_top_card() -> None:
    state = next(s for s in game_states(7, Rules()) if s.phase is Phase.DRAFT)
    seat = state.to_act
    assert seat is not None and state.hand is not None
    top = state.hand.stock[0]
    vm = view(snap(state, seat))
    assert vm.pane == "draft" and vm.table == (TableRow("the top card of the stock", (top,)),)
    assert vm.opponent is not None and vm.opponent.cards == len(state.hand.hands[1 - seat])
    assert [i.text for i in vm.items] == [f"Take {top.label()}", f"Pass {top.label()}, take the next card"]
    waiting = view(snap(state, 1 - seat, thinking=True))
    assert waiting.pane == "waiting" and waiting.prompt == f"{NAMES[seat].name} is thinking…"
    assert top not in shown_cards(waiting)


def test_exchange_marks_at_most_three_and_confirms_them() -> None:
    state = next(s for s in game_states(2, Rules(), declare=True) if s.phase is Phase.EXCHANGE)
    seat = state.to_act
    assert seat is not None and state.hand is not None
    hand = sorted(state.hand.hands[seat])
    marked = frozenset(hand[:3])
    vm = draft_view(snap(state, seat), marked)
    assert vm.marking and vm.pane == "exchange"
    cards = [i for i in vm.items if i.card is not None]
    assert all(i.raised == (i.card in marked) and i.enabled == (i.card in marked) for i in cards)
    assert vm.items[-1].action == Exchange(seat, tuple(sorted(marked)))
    labels = " ".join(c.label() for c in sorted(marked, key=lambda c: (c.suit, -c.rank)))
    assert vm.items[-1].text == f"Exchange {labels}"
    assert vm.default == len(vm.items) - 1
    assert draft_view(snap(state, seat)).items[-1].text == "Keep all"


def test_the_exchange_comes_marked_as_the_hint_says_and_enter_confirms_it() -> None:
    """Enter's default is the hint's recommendation at the exchange too: its cards come marked (premark),
    and with them marked the default is the confirm choice, whose action is the recommendation."""

    from spades_tui.bots.hints import hint

    state = next(s for s in game_states(2, Rules(), declare=True) if s.phase is Phase.EXCHANGE)
    seat = state.to_act
    assert seat is not None
    got = hint(observe(state, seat), legal_actions(state), 0, samples=4)
    assert isinstance(got.recommended, Exchange)
    with_hint = seat_view(state, seat, NAMES, outcome=outcome_of(state), hint=got, show_hints=True)
    assert with_hint.default == got.recommended
    first = draft_view(with_hint)
    assert first.premark == frozenset(got.recommended.discard)
    assert first.premark is not None
    marked = draft_view(with_hint, first.premark)
    chosen = marked.items[marked.default]
    assert chosen.action == got.recommended and chosen.text == got.options[0].label
    assert marked.hint.splitlines()[0] == f"Hint: {got.summary}"
    # Before the hint has come, the normal bot's exchange is marked the same way.
    from spades_tui.bots.heuristic import NormalBot

    bot = NormalBot(0)
    bot.start(seat, state.rules)
    normal = bot.decide(observe(state, seat), tuple(legal_actions(state)))
    assert isinstance(normal, Exchange)
    quick = draft_view(snap(state, seat))
    assert quick.premark == frozenset(normal.discard)
    assert quick.premark is not None
    again = draft_view(snap(state, seat), quick.premark)
    assert set(again.items[again.default].action.discard) == set(normal.discard)  # type: ignore[union-attr]


def test_bidding_view_types_and_suggests() -> None:
    state = next(s for s in game_states(8, Rules()) if s.phase is Phase.BIDDING)
    seat = state.to_act
    assert seat is not None
    vm = bidding_view(snap(state, seat), typed="12")
    assert vm.typing_bid and "Typed: 12" in vm.info
    assert [i.action for i in vm.items] == [Bid(seat, n) for n in range(0, 14)]
    no_nil = bidding_view(snap(dataclasses.replace(state, rules=Rules(nil=False)), seat))
    assert no_nil.items[0].action == Bid(seat, 1) and no_nil.prompt.endswith("your bid.")


def test_the_waiting_bidder_is_told_who_bids_first_not_shown_a_blank_bid() -> None:
    states = [s for s in game_states(8, Rules()) if s.phase is Phase.BIDDING]
    first, second = states[0], states[1]
    assert first.to_act is not None and second.to_act == 1 - first.to_act
    waiting = bidding_view(snap(first, 1 - first.to_act))  # the other bids first
    assert waiting.pane == "waiting" and "—" not in waiting.info
    assert f"{NAMES[first.to_act].name} bids first; you bid next." in waiting.info
    after = bidding_view(snap(second, first.to_act))  # its bid made, the other to bid
    assert after.pane == "waiting" and re.search(r"Your bid: (\d+|Nil)\.", after.info)


def test_play_view_raises_exactly_the_legal_cards() -> None:
    for state in game_states(9, Rules()):
        if state.phase is Phase.PLAY and state.to_act is not None:
            seat = state.to_act
            vm = play_view(snap(state, seat))
            legal = {a.card for a in legal_actions(state) if isinstance(a, Play)}
            assert {i.card for i in vm.items if i.raised} == legal
            assert {i.card for i in vm.items if i.enabled} == legal
            # The opponent's row above, the viewer's below; each card on its player's side.
            assert [r.caption.split(" ")[0] for r in vm.table] == [NAMES[1 - seat].name, NAMES[seat].name]
            hand = state.hand
            assert hand is not None
            mine = {pc.player: pc.card for pc in (hand.trick or (hand.tricks[-1] if hand.tricks else ()))}
            assert [r.cards[0] for r in vm.table] == [mine.get(1 - seat), mine.get(seat)]
            if not hand.trick and hand.tricks:  # a finished trick stays, its winner marked
                winner = trick_winner(hand.tricks[-1])
                assert [r.mark for r in vm.table] == [winner != seat, winner == seat]
                assert vm.last_trick.endswith(f"{NAMES[winner].name} won.")


def test_summary_and_game_over_sheets() -> None:
    summary = next(s for s in game_states(10, Rules()) if s.phase is Phase.SHUFFLE and s.history)
    vm = view(snap(summary, None))
    assert vm.pane == "summary" and vm.sheet is not None and vm.sheet.title == "Hand 1"
    assert vm.sheet.rows[-2][0] == "Total score"
    assert [i.command for i in vm.items] == [Command.NEXT_HAND, Command.REVIEW]
    # A watcher (the public view, no person at this screen) is offered no review that would never come.
    watched = dataclasses.replace(snap(summary, None), persons=(False, False))
    assert [i.command for i in view(watched).items] == [Command.NEXT_HAND]
    over = game_states(10, Rules(target=1), hands=50)[-1]
    assert over.phase is Phase.GAME_OVER and over.winner is not None
    vm = view(snap(over, 0))
    assert vm.pane == "gameover" and vm.prompt.startswith(f"Game over: {NAMES[over.winner].name} wins")
    assert vm.sheet is not None and len(vm.sheet.rows) == len(over.history)
    # The default name against the bot is "You": the verb agrees with it.
    you = (PlayerInfo("You") if over.winner == 0 else NAMES[0], PlayerInfo("You") if over.winner == 1 else NAMES[1])
    vm = game_over_view(snap(over, 0, vs_bot=True, players=you))
    assert vm.prompt.startswith("Game over: You win, ")


def test_forfeit_ends_the_game_on_screen() -> None:
    state = next(s for s in game_states(11, Rules()) if s.phase is Phase.BIDDING)
    s = snap(state, 0, vs_bot=True, forfeit="Bob forfeits: no answer")
    assert screen_kind(s) is Kind.GAME_OVER
    vm = view(s)
    assert vm.pane == "forfeit" and vm.prompt == "Bob forfeits: no answer"
    assert [i.command for i in vm.items] == [Command.NEW_GAME, Command.QUIT]
    assert not shown_cards(vm) & hidden_cards(state, 0)


def test_status_line_says_autosave_off_first_and_marks_the_player_to_act() -> None:
    state = next(s for s in game_states(12, Rules()) if s.phase is Phase.BIDDING)
    vm = view(snap(state, state.to_act, save_error="Autosave failed: disk full"))
    lines = vm.status.splitlines()
    assert lines[0] == "AUTOSAVE OFF" and lines[2].startswith("Hand 1")
    assert f"▶ {NAMES[state.to_act or 0].name} (you) to act" in lines


def test_a_new_decision_changes_the_decision_key() -> None:
    states = [s for s in game_states(13, Rules()) if s.phase is Phase.PLAY and s.to_act is not None]
    a, b = states[0], states[1]
    assert view(snap(a, a.to_act, actions=10)).decision != view(snap(b, b.to_act, actions=11)).decision


def test_panel_names_are_short_and_told_apart() -> None:
    from spades_tui.tui.panelmodel import panel_names

    assert panel_names(("You", "Bot (hard)")) == ("You", "Bot")
    assert panel_names(("Player 1", "Player 2")) == ("Player 1", "Player 2")  # hot-seat's defaults are not cut
    assert panel_names(("Alexander", "Alexandra")) == ("Alexan…r", "Alexan…a")
    assert panel_names(("Alexandrina", "Alexandrona")) == ("P1", "P2")  # told apart where cutting would not
    assert panel_names(("Alexandrina", "Alexandrine"), 11) == ("Alexandrina", "Alexandrine")  # a roomy panel


def test_the_panel_fits_its_width_with_names_uncut_where_there_is_room() -> None:
    from spades_tui.tui.panelmodel import PANEL_WIDTH, ROOMY_PANEL_WIDTH, status_text

    state = next(s for s in game_states(14, Rules()) if s.phase is Phase.PLAY)
    players = (PlayerInfo("Player 1"), PlayerInfo("Player 2"))
    for width in (PANEL_WIDTH, ROOMY_PANEL_WIDTH):
        text = status_text(snap(state, 0, players=players), width)
        assert all(len(line) <= width for line in text.splitlines()), text
        assert re.search(r" Player 1 +Player 2$", text, re.M)  # both names whole, apart


def test_the_review_is_offered_only_once_the_hand_is_over(tmp_path: object) -> None:
    from spades_tui.engine.record import GameRecord
    from spades_tui.session.session import Session
    from spades_tui.solver.analysis import review_hand
    from spades_tui.solver.words import bid_words
    from spades_tui.tui.reviewmodel import review_view

    session = Session(GameRecord(Rules(), 0, NAMES), seed=3)
    rng = random.Random(4)
    while not (session.state.phase is Phase.SHUFFLE and session.state.history):
        assert session.review_request() is None  # nothing to review while the hand is played
        session.reveal()
        session.act(rng.choice(legal_actions(session.state)))
    summary = summary_view(session.view())
    assert [i.enabled for i in summary.items if i.command is Command.REVIEW] == [False]  # still analysing
    job = session.review_request()
    assert job is not None and session.review_request() is None  # asked once per hand
    done = job()
    assert done is not None and done.hand == 1 and done == review_hand(session.store.record, 1)
    session.set_review(done)
    snap = session.view()
    assert [i.enabled for i in summary_view(snap).items if i.command is Command.REVIEW] == [True]
    rv = review_view(snap)
    assert rv is not None and [len(cards) for _, cards in rv.hands] == [13, 13]
    assert rv.plays and rv.chances and rv.titles == ("Ada's costly cards", "Bob's costly cards")  # hot-seat
    for lines in (rv.plays, rv.chances):
        assert all(line.startswith(("Trick ", "  Had ", "No card of", "None: ", "Smaller costs, ")) for line in lines)
    assert rv.totals[0].startswith("What happened: ")
    assert [label for label, _ in rv.hands] == [f"{NAMES[p].name}, {bid_words(snap.hands[0].bids[p])}"
                                                for p in (0, 1)]
    assert len(rv.bids) == 2 and all("best play for tricks from the first lead would have" in b for b in rv.bids)
    assert [t.title for t in rv.tricks] == [f"Hand 1, trick {n} of 13" for n in range(1, 14)]
    for t in rv.tricks:
        assert len(t.played) == 2
        assert [len(cards) for _, cards in t.hands] == [14 - int(t.title.split()[3])] * 2
        assert all(any(c in cards for _, cards in t.hands) for c in t.played)
        assert t.lines[0].startswith("Trick ") and len(t.lines) == 3
    session.next_hand()
    assert session.view().review is None and review_view(session.view()) is None  # gone with the new hand


# ---------------------------------------------------------------- the start screen's saved games


def test_resume_choices_name_the_game_say_when_and_whether_open_elsewhere() -> None:
    import datetime
    from pathlib import Path

    from spades_tui.engine.record import GameRecord, replay
    from spades_tui.keep.gamelist import SavedGame
    from spades_tui.session.store import GameStore
    from spades_tui.tui.startlist import resume_choices

    now = datetime.datetime(2025, 3, 5, 18, 30).timestamp()

    def at(year: int, month: int, day: int, hour: int, minute: int) -> float:
        return datetime.datetime(year, month, day, hour, minute).timestamp()

    record = GameRecord(Rules(), 0, (PlayerInfo("[b]Ada"), PlayerInfo("Bob")))
    store = GameStore(record, seed=1)
    store.record_forfeit(Forfeit(1, "gone"))
    games = [SavedGame.of_record(Path("g/game-1.json"), record, replay(record), at(2025, 3, 5, 9, 5), False),
             SavedGame.of_record(Path("g/game-2.json"), record, replay(record), at(2025, 3, 4, 8, 0), True),
             SavedGame.of_record(Path("g/game-3.json"), store.record, replay(store.record), now, False)]
    choices = resume_choices(games, now)
    assert [c.path.name for c in choices] == ["game-1.json", "game-2.json"]  # a finished game is not offered
    assert choices[0].label == "Resume hand 0: [b]Ada 0 – Bob 0, hot-seat, last played today 09:05"
    assert not choices[0].elsewhere
    assert choices[1].label == ("Resume hand 0: [b]Ada 0 – Bob 0, hot-seat, last played yesterday 08:00\n"
                                "  open in another window: continue it there") and choices[1].elsewhere


def test_each_saved_game_says_its_kind() -> None:
    """Against the bot LEVEL, hot-seat, a table with NAME, and practice after a take-back (issue 29)."""
    from pathlib import Path

    from spades_tui.engine.record import GameRecord, replay
    from spades_tui.keep.gamelist import SavedGame, SlotSummary
    from spades_tui.keep.meta import with_meta
    from spades_tui.tui.startlist import resume_choices

    kinds = {
        (PlayerInfo("You"), PlayerInfo("Bot (hard)", "bot:hard")): "against the bot (hard)",
        (PlayerInfo("Ann"), PlayerInfo("Bob")): "hot-seat",
        (PlayerInfo("Gus"), PlayerInfo("Hana", "remote")): "a table with Hana",
    }
    now = 1.7e9
    for players, words in kinds.items():
        record = GameRecord(Rules(), 0, players)
        for practice in (False, True):
            r = with_meta(record, practice={"takebacks": 1, "from_hand": 1}) if practice else record
            game = SavedGame.of_record(Path("g/game-1.json"), r, replay(r), now, False)
            (choice,) = resume_choices([game], now)
            kind = words + (", practice" if practice else "")
            assert choice.label.startswith(
                f"Resume hand 0: {players[0].name} 0 – {players[1].name} 0, {kind}, last played today ")
            # and the slot index keeps it: a listing from the index says the same
            again = SlotSummary.from_json(game.summary.to_json())
            assert again is not None and again.practice is practice


# ---------------------------------------------------------------- what the other player did, said where one looks


def test_the_play_screen_says_the_trick_the_other_won_before_leading_again() -> None:
    for seed in range(20, 40):
        for state in game_states(seed, Rules(), hands=1):
            hand = state.hand
            if (state.phase is Phase.PLAY and hand is not None and hand.tricks and len(hand.trick) == 1
                    and state.to_act is not None and hand.trick[0].player != state.to_act
                    and hand.trick_winners[-1] == hand.trick[0].player):
                me, other = state.to_act, hand.trick[0].player
                vm = view(snap(state, me))
                theirs = next(pc.card for pc in hand.tricks[-1] if pc.player == other)
                mine = next(pc.card for pc in hand.tricks[-1] if pc.player == me)
                assert (f"{NAMES[other].name} won trick {len(hand.tricks)} with {theirs.label()} "
                        f"(you played {mine.label()}) and leads again.") in vm.info
                return
    pytest.fail("no state where the other player won a trick and led again")


def test_the_first_trick_says_the_other_players_bid() -> None:
    state = next(s for s in game_states(41, Rules()) if s.phase is Phase.PLAY and s.hand is not None
                 and not s.hand.tricks)
    me = state.to_act
    assert me is not None and state.hand is not None
    other_bid = state.hand.bid_of(1 - me)
    assert f"{NAMES[1 - me].name} bid " in view(snap(state, me)).info
    assert other_bid is not None


def test_the_game_over_table_fits_80_columns_and_writes_minus_signs() -> None:
    from rich.console import Console

    from spades_tui.tui.widgets.sheet import sheet_table

    over = game_states(42, Rules(target=1), hands=50)[-1]
    assert over.phase is Phase.GAME_OVER
    long = (PlayerInfo("Alexandrina Longname"), PlayerInfo("Bot (expert)", "bot:expert"))
    vm = view(snap(over, 0, players=long))
    assert vm.sheet is not None and vm.sheet.columns == ("Hand", "First", "Bids", "Won", "Points", "Score")
    console = Console(width=78, record=True, color_system=None)
    console.print(sheet_table(vm.sheet))
    text = console.export_text()
    assert all(len(line) <= 78 for line in text.splitlines()), text
    assert all(cell in text for row in vm.sheet.rows for cell in row)  # no cell cut short
    assert "Every hand (Alexandrina Longname · Bot (expert))" in text
    for h, row in zip(over.history, vm.sheet.rows, strict=True):
        assert row[-1] == f"{h.scores_after[0]} · {h.scores_after[1]}".replace("-", "\u2212")
        assert "-" not in "".join(row)  # the true minus sign only


def test_the_draft_says_the_card_drawn_after_a_pass() -> None:
    from spades_tui.engine.actions import Draft, Shuffle
    from spades_tui.engine.record import GameRecord
    from spades_tui.session.session import Session

    for see_second in (False, True):
        session = Session(GameRecord(Rules(see_second_card=see_second), 0, NAMES), seed=43, hints=False)
        takes = {"first": False, "second": False}
        while session.state.phase in (Phase.DOUBLE_NIL, Phase.DRAFT):
            seat = session.state.to_act
            assert seat is not None
            session.reveal()
            legal = legal_actions(session.state)
            action: Optional[PlayerAction] = next(
                (a for a in legal if isinstance(a, DeclareDoubleNil) and not a.declare), None)
            if action is None:
                turns = len(session.state.hand.draft_log) if session.state.hand else 0
                action = Draft(seat, "second" if turns % 3 else "first")
            session.act(action)
            if not isinstance(action, Draft) or session.state.phase is not Phase.DRAFT:
                continue
            session.viewer = seat  # the same player looks again (as after the hand-off)
            v = session.view(seat)
            stock = next(a for a in reversed(session.store.record.actions) if isinstance(a, Shuffle)).stock
            hand = session.state.hand
            assert hand is not None
            t = len(hand.draft_log) - 1
            top, second = stock[2 * t], stock[2 * t + 1]
            info = draft_view(v).info
            if action.take == "second":
                assert v.last_draw == (top, second, "second")
                assert f"Last turn you passed {top.label()} and drew {second.label()}." in info
            else:
                assert v.last_draw == (top, second if see_second else None, "first")
                assert (second.label() in info) == see_second  # the unseen card is never named
            takes[action.take] = True
        assert all(takes.values())


def test_the_hint_panel_fits_whole_phrases() -> None:
    """A narrow panel drops an option's last phrases rather than cutting one; the measure stays."""
    from spades_tui.tui.gameview import HintLine
    from spades_tui.tui.hintpanel import fit_hint

    lines = (HintLine("Hint: Bid 8: best chance to win the game, ≈ 71%"),
             HintLine("Bid 8", ("win ≈ 71%", "makes 8 in 100%", "+82 expected"), "  "),
             HintLine("Bid 9", ("win ≈ 70%", "makes 9 in 95%", "+83 expected"), "  "),
             HintLine("Bid 7", ("win ≈ 60%", "makes 7 in 100%", "+72 expected"), "  "))
    wide = fit_hint(lines, 200).splitlines()
    assert wide[1] == "  Bid 8: win ≈ 71% · makes 8 in 100% · +82 expected" and len(wide) == 4
    narrow = fit_hint(lines, 36, options=2).splitlines()
    assert narrow == ["Hint: Bid 8: best chance to win the game, ≈ 71%",
                      "  Bid 8: win ≈ 71% · makes 8 in 100%", "  Bid 9: win ≈ 70% · makes 9 in 95%"]
    tiny = fit_hint(lines, 10, options=3).splitlines()
    assert tiny[1:] == ["  Bid 8: win ≈ 71%", "  Bid 9: win ≈ 70%", "  Bid 7: win ≈ 60%"]
    for text in (*wide[1:], *narrow[1:], *tiny[1:]):  # every phrase whole
        for phrase in text.split(": ", 1)[1].split(" · "):
            assert any(phrase in line.phrases for line in lines)



def _session_states(seed: int, see_second: bool = False) -> list[tuple[GameState, SeatView, SeatView, tuple[
        list[Observation], list[Observation]], tuple[Action, ...], SeatView]]:
    """One hand at a hot-seat session where Ada declares Double Nil and exchanges three cards: at every
    state the session's views of both seats, the observations each seat was shown so far (as a network
    table's seat receives them), the record's actions and the public view (a hot-seat hand-off's)."""
    from spades_tui.engine.actions import Draft
    from spades_tui.engine.record import GameRecord
    from spades_tui.session.session import Session

    session = Session(GameRecord(Rules(see_second_card=see_second), 0, NAMES), seed=seed, hints=False)
    seen: tuple[list[Observation], list[Observation]] = ([], [])
    out = []
    rng = random.Random(seed)
    while not (session.state.phase is Phase.SHUFFLE and session.state.history):
        state = session.state
        if state.hand is not None and state.phase is not Phase.SHUFFLE:
            for s in (0, 1):
                seen[s].append(observe(state, s))
        out.append((state, session.view(0), session.view(1), (list(seen[0]), list(seen[1])),
                    tuple(session.store.record.actions), session.view(None)))
        seat = state.to_act
        assert seat is not None
        session.reveal()
        legal = legal_actions(state)
        if DeclareDoubleNil(seat, True) in legal:
            action: PlayerAction = DeclareDoubleNil(seat, seat == 0)
        elif state.phase is Phase.DRAFT:
            action = Draft(seat, rng.choice(("first", "second")))
        elif state.phase is Phase.EXCHANGE:
            action = next(a for a in legal if isinstance(a, Exchange) and len(a.discard) == 3)
        else:
            action = rng.choice(legal)
        session.act(action)
    return out


@pytest.mark.parametrize("see_second", [False, True])
def test_the_exchange_and_the_last_draft_turn_are_said_to_their_player_only(see_second: bool) -> None:
    """Ada's exchange is said on her next screen in the cards she gave and got; Bob learns the count only
    and never a card of it; Bob's 13th draft turn is said on his bidding screen; Bob reads that Ada
    declared Double Nil on his draft screens."""
    from spades_tui.engine.actions import ExchangeDraw

    said = {"exchange": False, "last_turn": False, "declared": False}
    for state, ada, bob, _, actions, public in _session_states(5, see_second):
        assert public.last_exchange is None and public.last_draw is None  # the hand-off says nothing of it
        for viewer, v in ((0, ada), (1, bob), (None, public)):
            vm = view(v)
            leaked = shown_cards(vm) & hidden_cards(state, viewer)
            assert not leaked, (state.phase, viewer, vm.pane, sorted(c.label() for c in leaked))
        assert state.hand is not None
        if state.phase in (Phase.BIDDING, Phase.PLAY) and not state.hand.tricks and not state.hand.trick:
            ex = next(a for a in reversed(actions) if isinstance(a, Exchange))
            got = next(a for a in reversed(actions) if isinstance(a, ExchangeDraw))
            words = (f"You gave {' '.join(c.label() for c in sort_hand(ex.discard))} and got "
                     f"{' '.join(c.label() for c in sort_hand(got.cards))}.")
            ada_vm, bob_vm = view(ada), view(bob)
            assert words in ada_vm.info and len(words) <= 80
            assert "You gave" not in bob_vm.info and "Ada exchanged 3 cards." in bob_vm.info
            said["exchange"] = True
            if state.phase is Phase.BIDDING:
                assert bob.last_draw is not None and "Last turn you" in bob_vm.info
                said["last_turn"] = True
        if state.phase is Phase.DRAFT and state.hand.double_nil[0]:
            assert "Ada declared Double Nil." in view(bob).info
            assert "declared Double Nil" not in view(ada).info
            said["declared"] = True
    assert all(said.values()), said


@pytest.mark.parametrize("see_second", [False, True])
def test_a_table_seat_derives_the_same_news_from_its_observations(see_second: bool) -> None:
    """A network table's seat never sees the shuffle: from the observations it was sent it finds the same
    last draft turn and exchange as the session that holds the record (so the guest's draft screen says
    "Last turn ..." as a local player's does)."""
    from spades_tui.session.view import draw_news, exchange_news

    found = 0
    for state, ada, bob, seen, _, _ in _session_states(7, see_second):
        for v, obs in ((ada, seen[0]), (bob, seen[1])):
            if state.phase in (Phase.DRAFT, Phase.DOUBLE_NIL, Phase.EXCHANGE, Phase.BIDDING):
                assert draw_news(obs) == v.last_draw, (state.phase, len(obs))
                found += v.last_draw is not None
            if state.phase is not Phase.EXCHANGE_DRAW:
                assert exchange_news(obs) == v.last_exchange, state.phase
    assert found > 20


def test_the_last_trick_says_you_mid_sentence() -> None:
    """Issue 37: "Bot (normal) led 8♠, You played 10♠; You won." A player called "You" reads as "you"."""
    from spades_tui.tui.news import last_trick_words
    from tests.support.pilot import record_until

    players = (PlayerInfo("You"), PlayerInfo("Bot (normal)", "bot:normal"))
    record = record_until(lambda s: s.phase is Phase.PLAY and s.hand is not None and len(s.hand.tricks) == 2
                          and not s.hand.trick, players=players, seed=3)
    state = record.new_state()
    for action in record.actions:
        state = reduce(state, action)
    words = last_trick_words(snap(state, 0, vs_bot=True, players=players), ("You", "Bot (normal)"))
    assert words.startswith("Last trick: ") and "You" not in words and "you " in words, words
    assert words.endswith(("; you won.", "; Bot (normal) won.")), words


@pytest.mark.parametrize(("seed", "declare"), [(8, False), (9, True)])
def test_the_watching_view_shows_both_sides_from_public_facts_and_no_card(seed: int, declare: bool) -> None:
    """Nobody at this keyboard plays (a table's watcher, bots among themselves): in every state of two hands each
    player's cards as the other knows them, their draft picks, the stock, the bids and tricks, whose turn; no
    card but the trick's; and no choice, so that an idle Enter does nothing (``l`` leaves)."""
    phases = set()
    for state in game_states(seed, Rules(), declare):
        for watcher in (True, False):
            s = seat_view(state, None, NAMES, outcome=outcome_of(state), persons=(False, False),
                          table_facts=TableFacts(watcher=True) if watcher else None)
            if screen_kind(s) is not Kind.HANDOFF:
                continue
            vm = handoff_view(s)
            hand = state.hand
            assert hand is not None and vm.opponent is not None
            phases.add(state.phase)
            assert vm.pane == "watching" and not vm.items
            leaked = shown_cards(vm) & hidden_cards(state, None)
            assert not leaked, (state.phase, sorted(c.label() for c in leaked))
            held = (observe(state, 1).opponent_cards, observe(state, 0).opponent_cards)  # as the other knows
            assert (vm.hand_backs, vm.opponent.cards) == held and not vm.hand
            assert vm.hand_label.startswith(f"Ada · {held[0]} card") and vm.opponent.name == "Bob"
            actor = state.to_act
            if actor is None:  # a chance's turn (the exchange's draw): nobody's
                assert vm.prompt == "Ada and Bob are playing."
            elif state.phase is Phase.DRAFT:
                took = [d.take for d in hand.draft_log if d.player == 1]
                assert vm.stock == len(hand.stock)
                picks = f"took {took.count('first')} first, {took.count('second')} second"
                assert not took or picks in vm.opponent.note
                turn = sum(1 for d in hand.draft_log if d.player == actor) + 1
                assert vm.prompt == f"{NAMES[actor].name}: draft turn {turn} of 13."
            if state.phase is Phase.PLAY:
                assert {pc.card for pc in hand.trick} <= {c for row in vm.table for c in row.cards if c is not None}
                assert f"won {hand.tricks_won[1]}" in vm.opponent.note and f"won {hand.tricks_won[0]}" in vm.hand_label
            if state.phase is Phase.BIDDING and hand.bid_of(0) is not None:
                assert "Ada bid" in vm.info
    assert {Phase.DRAFT, Phase.BIDDING, Phase.PLAY} <= phases


def test_a_watchers_summary_moves_on_with_the_players_and_bots_among_themselves_keep_next_hand() -> None:
    state = next(s for s in game_states(10, Rules()) if s.phase is Phase.SHUFFLE and s.history)
    watching = summary_view(seat_view(state, None, NAMES, persons=(False, False),
                                         table_facts=TableFacts(watcher=True)))
    assert not any(i.command is Command.NEXT_HAND for i in watching.items) and "players begin it" in watching.info
    here = summary_view(seat_view(state, None, NAMES, persons=(False, False)))
    assert [i.command for i in here.items][:1] == [Command.NEXT_HAND]  # nobody deals it but this keyboard


def test_a_table_seat_is_listed_as_a_saved_game_is() -> None:
    """Issue 37: the start screen's seat at a network table says when it was last played in the words of the
    saved games above it (``last played today 21:11``), its scores with the true minus, its own first."""
    import datetime
    from pathlib import Path

    from spades_tui.engine.record import GameRecord, replay
    from spades_tui.keep.gamelist import SavedGame
    from spades_tui.table.seat.seat_file import SeatFile
    from spades_tui.tui.startlist import resume_choices, seat_label

    now = datetime.datetime(2026, 12, 1, 21, 30).timestamp()
    today = datetime.datetime(2026, 12, 1, 21, 11).timestamp()
    earlier = datetime.datetime(2026, 11, 1, 21, 12).timestamp()
    seat = SeatFile("ws://h:1/table", "t", 1, ("Gus", "Ada"), scores=(80, -58), hand=3, played=today)
    assert seat_label(seat, now) == "vs Gus, \u221258 – 80, hand 3, last played today 21:11"
    seat.played = earlier
    assert seat_label(seat, now) == "vs Gus, \u221258 – 80, hand 3, last played 2026-11-01 21:12"
    assert seat_label(SeatFile("ws://h:1/table", "t", 0, ("Ada", ""), played=0), now) == \
        "vs your friend, 0 – 0, not played yet"
    record = GameRecord(Rules(), 0, (PlayerInfo("Ann"), PlayerInfo("Bob")))
    (choice,) = resume_choices([SavedGame.of_record(Path("g/game-1.json"), record, replay(record), earlier, False)],
                               now)
    assert choice.label.endswith(", hot-seat, last played 2026-11-01 21:12")


@pytest.mark.parametrize("code", ["2026-12-01", "2026-12-01:tournament"])
def test_a_challenge_s_panel_lines_fit_the_narrowest_panel(code: str) -> None:
    # The panel at 80 columns (PANEL_WIDTH): the challenge's lines, practice included, are never wrapped or cut.
    from spades_tui.keep.challenges import Result
    from spades_tui.session.view import ChallengeView
    from spades_tui.tui.panelmodel import PANEL_WIDTH, status_text

    state = new_game(Rules(target=10000), 0)
    on_record = Result.new(code, "Ann", (1, 2, 3, 4), None, "g")
    view = dataclasses.replace(seat_view(state, 0, (PlayerInfo("Ann"), PlayerInfo("Bot (expert)", "bot:expert"))),
                               challenge=ChallengeView(code, (), None, on_record))
    lines = status_text(view).splitlines()
    assert lines[:3] == [f"Challenge {code[:10]}", f"{(code[11:] or 'standard').capitalize()}, 4 hands",
                         "PRACTICE: played before"]
    assert all(len(line) <= PANEL_WIDTH for line in lines) and not any("Spades to" in line for line in lines)


def test_a_leader_with_only_spades_is_told_they_may_lead_one_not_that_spades_are_not_broken() -> None:
    """Issue 52: "Spades are not broken yet." over a hand of spades alone, every raised card a spade."""
    told = {"only": 0, "not broken": 0}
    for seed in range(40):
        for state in game_states(seed, Rules()):
            hand = state.hand
            if state.phase is not Phase.PLAY or state.to_act is None or hand is None or hand.trick:
                continue
            if hand.spades_broken:
                continue
            seat = state.to_act
            prompt = play_view(snap(state, seat)).prompt
            only = all(c.suit is Suit.SPADES for c in hand.hands[seat])
            assert ("not broken yet" in prompt) == (not only), prompt
            assert ("Only spades left: you may lead one" in prompt) == only, prompt
            told["only" if only else "not broken"] += 1
    assert told["not broken"] and told["only"], told


def test_a_person_at_the_other_seat_of_a_table_is_waited_for_and_a_bot_there_thinks() -> None:
    """Issue 52: a person at the other seat read "Host is thinking…"."""
    from dataclasses import replace

    from spades_tui.tui.news import waiting_prompt

    state = next(s for s in game_states(3, Rules()) if s.phase is Phase.PLAY and s.to_act == 1)
    person = replace(snap(state, 0, players=(PlayerInfo("Ada"), PlayerInfo.remote("Host"))),
                     table_facts=TableFacts(lines="Host connected"))
    assert waiting_prompt(person) == "Waiting for Host at the other machine."
    bot = replace(snap(state, 0, players=(PlayerInfo("Ada"), PlayerInfo.bot("Bot (easy)", "easy"))),
                  table_facts=TableFacts(lines="Bot (easy) connected"))
    assert waiting_prompt(bot) == "Bot (easy) is thinking…"


def test_the_double_nil_question_says_the_games_own_points_and_what_the_exchange_is() -> None:
    """Issue 52 (seen at a Quick table, Double Nil 100): the question said +200/−200 whatever the rules."""
    for points in (200, 100):
        state = next(s for s in game_states(1, Rules(double_nil_points=points)) if s.phase is Phase.DOUBLE_NIL)
        info = draft_view(snap(state, state.to_act)).info
        assert f"+{points} if you do, −{points} if not" in info and "swap up to 3 cards" in info
