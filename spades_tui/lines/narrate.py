"""What happened between two views of one seat, one line an event, in plain words and in the order it happened.

``events(before, after, words)`` compares two views of the same seat (or two public views) and says the
difference: a hand begun, Double Nil declared, each draft turn, an exchange, each bid, each card played and each
trick won, spades broken, a hand scored, the game's end, and a line said at a table.  It reads the views only,
so it says nothing the seat may not know: of a draft turn only what the seat saw (its own: ``last_draw``; the
other's: which of the two cards it took), of an exchange only the count.
"""

from __future__ import annotations

from typing import Optional

from ..session.text import printable, winner_words
from ..session.view import HandResult, Observation, PlayedCard, SeatView
from .words import Words, bid_words


def who(view: SeatView, player: int) -> str:
    """"You" for the seat's own player, else the name (a player called "You" in the public view reads as a name)."""
    return "You" if player == view.seat else view.names[player]


def _mid(text: str) -> str:
    """A name as it reads inside a sentence: "you", never "You" there."""
    return "you" if text == "You" else text


def _plays(obs: Observation) -> list[PlayedCard]:
    played = [pc for t in obs.tricks for pc in t]
    return played + list(obs.trick)


def events(before: Optional[SeatView], after: SeatView, w: Words, hands_told: int = 0) -> list[str]:
    """The lines that say what happened from ``before`` (None: nothing said yet) to ``after``; the hands scored
    are said from ``hands_told`` on (hot-seat: a hand's score is said once, not again in each player's view)."""
    lines: list[str] = []
    old_hands = max(len(before.hands) if before is not None else len(after.hands), hands_told)
    obs = after.observation
    same_hand = before is not None and before.observation.hand_number == obs.hand_number
    if same_hand:
        assert before is not None
        lines += _in_hand(before.observation, after, w)
    for number in range(old_hands, len(after.hands)):
        lines += hand_lines(after, number, w)
    if not same_hand and after.in_hand:
        first = obs.first_drafter
        lines.append(f"Hand {obs.hand_number}. {who(after, first)} {'draft' if first == after.seat else 'drafts'} "
                     "first.")
        lines += _in_hand(None, after, w)
    if before is not None:
        lines += _table(before, after)
    if after.outcome is not None and (before is None or before.outcome is None):
        lines += end_lines(after, w)
    return lines


def _in_hand(base: Optional[Observation], view: SeatView, w: Words) -> list[str]:
    obs = view.observation
    lines: list[str] = []
    for p in (0, 1):
        if obs.double_nil[p] and not (base is not None and base.double_nil[p]):
            lines.append(f"{who(view, p)} declared Double Nil: {'you' if p == view.seat else 'they'} must win no "
                         "trick.")
    old = len(base.draft_log) if base is not None else 0
    mine = [i for i, d in enumerate(obs.draft_log) if d.player == view.seat]
    for i in range(old, len(obs.draft_log)):
        turn = obs.draft_log[i]
        if turn.player == view.seat and i == mine[-1] and view.last_draw is not None:
            lines.append(_own_draw(view.last_draw, w))
        elif turn.take == "first":
            lines.append(f"{who(view, turn.player)} took the top card.")
        else:
            lines.append(f"{who(view, turn.player)} passed the top card and took the next one.")
    for p in (0, 1):
        if obs.exchanged[p] is not None and not (base is not None and base.exchanged[p] is not None):
            lines.append(_exchange(view, p, obs.exchanged[p] or 0, w))
    for p in (0, 1):
        bid = obs.bids[p]
        if bid is not None and bid != "double_nil" and not (base is not None and base.bids[p] is not None):
            lines.append(f"{who(view, p)} bid {bid_words(bid)}.")
    lines += _play(base, view, w)
    return lines


def _own_draw(last: tuple[object, object, str], w: Words) -> str:
    top, second, take = last
    if take == "first":
        said = f"You kept {w.card(top)}."  # type: ignore[arg-type]
        return said + (f" {w.card(second)} went to the discard pile." if second is not None else "")  # type: ignore[arg-type]
    if second is None:
        return f"You passed {w.card(top)} and took the next card."  # type: ignore[arg-type]
    return f"You passed {w.card(top)} and took {w.card(second)}."  # type: ignore[arg-type]


def _exchange(view: SeatView, p: int, count: int, w: Words) -> str:
    if p == view.seat and view.last_exchange is not None:
        gave, got = view.last_exchange
        if not gave:
            return "You kept all your cards."
        return f"You gave back {w.cards(gave)} and drew {w.cards(got)}."
    if count == 0:
        return f"{who(view, p)} kept all {'your' if p == view.seat else 'their'} cards."
    return f"{who(view, p)} exchanged {count} card{'s' if count != 1 else ''}."


def _play(base: Optional[Observation], view: SeatView, w: Words) -> list[str]:
    obs = view.observation
    played = _plays(obs)
    old = len(_plays(base)) if base is not None else 0
    lines: list[str] = []
    for i in range(old, len(played)):
        pc = played[i]
        number = i // 2 + 1
        if i % 2 == 0:
            lines.append(f"{who(view, pc.player)} led {w.card(pc.card)}.")
            continue
        lines.append(f"{who(view, pc.player)} played {w.card(pc.card)}.")
        if number <= len(view.trick_winners):
            winner = view.trick_winners[number - 1]
            card = next(c.card for c in played[i - 1:i + 1] if c.player == winner)
            won = [sum(1 for x in view.trick_winners[:number] if x == p) for p in (0, 1)]
            me = view.seat if view.seat is not None else 0
            tally = f"{_mid(who(view, me))} {won[me]}, {_mid(who(view, 1 - me))} {won[1 - me]}"
            lines.append(f"{who(view, winner)} won trick {number} with {w.card(card)}. Tricks: {tally}.")
    if obs.spades_broken and not (base is not None and base.spades_broken):
        lines.append("Spades are broken.")
    return lines


def hand_lines(view: SeatView, index: int, w: Words) -> list[str]:
    """Hand ``index + 1`` scored: each player's bid, tricks and points (the seat's own first), then the score."""
    h: HandResult = view.hands[index]
    order = (view.seat, 1 - view.seat) if view.seat is not None else (0, 1)
    parts = [_scored(view, h, p, w) for p in order]
    score = ", ".join(f"{_mid(who(view, p))} {w.number(h.scores_after[p])}" for p in order)
    bags = ", ".join(f"{_mid(who(view, p))} {h.bags_after[p]}" for p in order)
    return [f"Hand {index + 1} scored. " + " ".join(parts), f"Score: {score}. Bags: {bags}."]


def _scored(view: SeatView, h: HandResult, p: int, w: Words) -> str:
    line = h.lines[p]
    said = f"{who(view, p)} bid {bid_words(h.bids[p])} and won {h.tricks[p]}: {w.signed(h.points[p])}"
    extra = []
    if line.bags_added:
        extra.append(f"{line.bags_added} bag{'s' if line.bags_added != 1 else ''}")
    if line.bag_penalty:
        extra.append(f"bag penalty {w.signed(line.bag_penalty)}")
    return said + (f" ({', '.join(extra)})" if extra else "") + "."


def end_lines(view: SeatView, w: Words) -> list[str]:
    """The game's end: by a forfeit, or the winner and the score."""
    if view.forfeit:
        winner = view.winner
        return [printable(view.forfeit, limit=190)] + (
            [f"{winner_words(who(view, winner))} by forfeit."] if winner is not None else [])
    winner = view.winner
    scores = view.observation.scores
    if winner is None:
        return ["Game over."]
    return [f"Game over: {winner_words(who(view, winner))}, {w.number(scores[winner])} to "
            f"{w.number(scores[1 - winner])}."] + ([view.shuffle] if view.shuffle else [])


def _table(before: SeatView, after: SeatView) -> list[str]:
    """At a network table: the lines said since (who sat down, dropped or came back the table says itself)."""
    lines = []
    old, new = before.said, after.said
    overlap = next((k for k in range(min(len(old), len(new)), 0, -1) if old[len(old) - k:] == new[:k]), 0)
    for name, text in new[overlap:]:
        lines.append(f"{printable(name, limit=40)} says: {printable(text, limit=150)}")
    return lines
