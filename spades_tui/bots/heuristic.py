"""The easy and normal bots: rules of thumb over the observation, no search."""

from __future__ import annotations

import random
from typing import Optional, Sequence

from ..engine import rulebook
from ..engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, Play, PlayerAction
from ..engine.cards import CARDS
from ..engine.observation import Observation
from ..engine.rulebook import follower_wins
from ..engine.rules import Rules
from ..engine.state import Phase
from .base import Bot
from .core import (
    FULL,
    SPADES,
    View,
    bits,
    card_danger,
    estimate_tricks,
    mask_of,
    mode_of,
    nil_safety,
    pick_legal,
    policy,
    tricks_wanted,
    view_of,
)


class SeededBot(Bot):
    """Common plumbing: a per-decision random generator that depends only on the
    bot's seed and the public position, so a decision is a function of
    (seed, observation): the same observation gets the same answer."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rules = Rules()
        self.seat = 0

    def start(self, seat: int, rules: Rules) -> None:
        self.seat = seat
        self.rules = rules

    def rng_for(self, obs: Observation) -> random.Random:
        key = (
            f"{self.seed}:{obs.seat}:{obs.hand_number}:{obs.phase.value}:{obs.stock_left}:"
            f"{len(obs.tricks)}:{len(obs.trick)}:{obs.scores}:{sorted(obs.hand)}"
        )
        return random.Random(key)

    def decide(self, observation: Observation, legal: Sequence[PlayerAction]) -> PlayerAction:
        if len(legal) == 1:
            return legal[0]  # nothing to think about
        wanted = self.choose(observation, legal, self.rng_for(observation))
        return pick_legal(legal, wanted)

    def choose(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> PlayerAction:
        raise NotImplementedError


# ---------------------------------------------------------------- helpers shared with hard

def others_for_bidding(view: View) -> int:
    """Cards that may be in the opponent's hand, as far as this player knows."""
    return view.unknown


def calibrated_tricks(hand: int, others: int) -> float:
    """``estimate_tricks`` corrected for drafted hands: the opponent drafted good cards
    too, so the raw estimate (which spreads them evenly) runs high.  Fitted on 468
    hands of normal-vs-normal play (slope 0.94, intercept -0.97)."""
    return 0.94 * estimate_tricks(hand, others) - 0.97


def normal_bid(
    hand: int, others: int, rules: Rules, scores: tuple[int, int], bags: tuple[int, int],
    opp_bid: Optional[rulebook.Bid],
) -> int:
    """The normal bot's bid: estimated tricks, adjusted to the score; 0 for a safe Nil."""
    tricks = calibrated_tricks(hand, others)
    me, opp = scores
    behind = opp - me
    # A set near the losing score can end the game (docs/rules.md 8.4): bid and Nil more safely there.
    near_floor = rules.losing_score > 0 and me - 10 * max(1.0, tricks) <= -rules.losing_score
    nil_threshold = 0.55
    if behind >= 150:
        nil_threshold = 0.42  # riskier when behind
    elif me >= rules.target - 120 and me > opp:
        nil_threshold = 0.7  # safer when ahead near the target
    if near_floor:
        nil_threshold = max(nil_threshold, 0.75)
    # The Nil beats the tricks it gives up when (2p - 1) x its points > 10 x those tricks: the
    # threshold moves with the points (docs/rules.md 7.2), from the 0.55 fitted at 100.
    nil_threshold = min(0.99, max(0.3, nil_threshold + 5 * max(1.0, tricks) * (1 / rules.nil_points - 0.01)))
    if rules.nil and tricks < 2.8 and (opp_bid is None or not rulebook.is_nil(opp_bid)):
        if nil_safety(hand, others) >= nil_threshold:
            return 0
    if rules.thirteen_wins and estimate_tricks(hand, others) >= 12.6:
        return 13  # all 13 tricks win the game at once (docs/rules.md 8.5)
    adj = -0.15
    if near_floor:
        adj -= 0.4
    if behind >= 100:
        adj += 0.35
    if me >= rules.target - 150 and me > opp:
        adj -= 0.35
    if rules.bag_limit and bags[0] >= rules.bag_limit - 3:
        adj += 0.3  # a penalty is near: bid up rather than collect bags
    bid = int(tricks + adj + 0.5)
    if rules.ten_for_200 and bid == 9 and tricks + adj >= 9.3:
        bid = 10  # a made 10 scores 200 (docs/rules.md 7.1): worth the reach
    theirs = None if opp_bid is None else rulebook.contract(opp_bid)
    if theirs is not None:
        bid = min(bid, 13 - theirs)  # the tricks are shared: both cannot make more than 13
    return max(1, min(13, bid))


def exchange_choice(view: View, seen: int) -> list[int]:
    """Double Nil exchange: cards more dangerous than a random draw from the pile."""
    hand = view.hand
    others = FULL & ~hand & ~seen
    p = 13 / max(1, others.bit_count())
    danger = {c: card_danger(c, hand, others, p) for c in bits(hand)}
    pile_known = bits(seen)
    unknown = bits(view.unknown)
    unseen_in_pile = max(0, 26 - len(pile_known))
    total = sum(card_danger(c, hand, others, p) for c in pile_known)
    if unknown:
        total += unseen_in_pile * sum(card_danger(c, hand, others, p) for c in unknown) / len(unknown)
    mean_draw = total / max(1, len(pile_known) + unseen_in_pile)
    worst = sorted(danger, key=lambda c: -danger[c])[:3]
    return [c for c in worst if danger[c] > mean_draw * 1.1]


def play_card(view: View, obs: Observation) -> int:
    left = view.hand.bit_count()
    b0, b1 = view.bids
    mode = mode_of(tricks_wanted(b0) if b0 is not None else 1, tricks_wanted(b1) if b1 is not None else 1,
                   view.won[0], view.won[1], left)
    # What may be in the opponent's hand stands in for their hand: a card is a sure
    # winner when no unknown card of its suit is higher.
    other = view.unknown & ~view.opp_voids
    return policy(view.hand, other, view.lead, view.broken, mode)


# ---------------------------------------------------------------- easy

class EasyBot(SeededBot):
    """A beginner: simple rules, some mistakes, never Double Nil."""

    name = "easy"

    def choose(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> PlayerAction:
        seat = obs.seat
        hand = sorted(obs.hand)
        if obs.phase is Phase.DOUBLE_NIL:
            return DeclareDoubleNil(seat, False)
        if obs.phase is Phase.DRAFT:
            c = obs.drawn
            keep = c is not None and (c < 13 or c % 13 >= 8)
            if rng.random() < 0.15:
                keep = not keep
            return Draft(seat, "first" if keep else "second")
        if obs.phase is Phase.EXCHANGE:
            worst = sorted(hand, key=lambda c: (c % 13, c < 13))[-3:]
            return Exchange(seat, tuple(sorted(CARDS[c] for c in worst)))
        if obs.phase is Phase.BIDDING:
            count = sum(1 for c in hand if c % 13 >= 11) + sum(1 for c in hand if c < 13 and c % 13 >= 8) // 2
            count += max(0, sum(1 for c in hand if c < 13) - 4)
            count += rng.choice((-1, 0, 0, 1))
            return Bid(seat, max(1, min(13, count)))
        cards = [a.card for a in legal if isinstance(a, Play)]
        if rng.random() < 0.2:
            return Play(seat, rng.choice(cards))
        if obs.trick:
            led = obs.trick[0].card
            winners = [c for c in cards if follower_wins(led, c)]
            if winners:
                return Play(seat, max(winners, key=lambda c: c % 13))
            return Play(seat, min(cards, key=lambda c: c % 13))
        return Play(seat, max(cards, key=lambda c: (c % 13, c >= 13)))


# ---------------------------------------------------------------- normal

def wants_double_nil(obs: Observation) -> bool:
    me, opp = obs.scores[obs.seat], obs.scores[1 - obs.seat]
    rules = obs.rules
    target = rules.target
    points = rules.double_nil_points
    if rules.losing_score and me - points <= -rules.losing_score:
        return False  # a failure would end the game at the losing score
    # Only as a last resort: the opponent is about to win and an ordinary hand cannot catch up,
    # and only while a success (+200 by default) brings the game back; further behind (after a failed
    # one, say), another Double Nil only sinks the score (games vs normal went on to -1500).
    return opp >= target - 130 and 0.8 * points <= opp - me <= 1.25 * points


class NormalBot(SeededBot):
    """Solid heuristics: trick counting, score-aware bids, Nil set and cover, bag care."""

    name = "normal"

    def choose(self, obs: Observation, legal: Sequence[PlayerAction], rng: random.Random) -> PlayerAction:
        seat = obs.seat
        view = view_of(obs)
        if obs.phase is Phase.DOUBLE_NIL:
            return DeclareDoubleNil(seat, wants_double_nil(obs))
        if obs.phase is Phase.DRAFT:
            return Draft(seat, "first" if self.keep_top(obs, view) else "second")
        if obs.phase is Phase.EXCHANGE:
            cards = exchange_choice(view, view.seen)
            return Exchange(seat, tuple(sorted(CARDS[c] for c in cards)))
        if obs.phase is Phase.BIDDING:
            me = obs.seat
            scores = (obs.scores[me], obs.scores[1 - me])
            bags = (obs.bags[me], obs.bags[1 - me])
            return Bid(seat, normal_bid(view.hand, view.unknown, obs.rules, scores, bags, view.bids[1]))
        return Play(seat, CARDS[play_card(view, obs)])

    def keep_top(self, obs: Observation, view: View) -> bool:
        """Keep the top card if it adds more than a random unknown card would."""
        c = obs.drawn
        if c is None:
            return True
        hand = view.hand
        if obs.double_nil[obs.seat]:
            return (c >= 13 and c % 13 <= 5) or (c < 13 and c % 13 <= 2)  # low cards only
        pool = bits(view.unknown)
        base_others = FULL & ~hand & ~view.seen
        base = estimate_tricks(hand, base_others & ~(1 << c))
        gain_top = estimate_tricks(hand | (1 << c), base_others & ~(1 << c)) - base
        if not pool:
            return True
        # An evenly spread subset keeps this under a few milliseconds.
        step = max(1, len(pool) // 12)
        sample = pool[::step]
        mean_gain = sum(estimate_tricks(hand | (1 << x), base_others & ~(1 << x)) - base for x in sample) / len(
            sample
        )
        return gain_top >= mean_gain


__all__ = ["EasyBot", "NormalBot", "SeededBot", "exchange_choice", "mask_of", "normal_bid", "play_card", "SPADES"]
