"""The reducer: the one place where the rules are enforced.

``reduce(state, action)`` returns a new state or raises ``IllegalActionError``
with a plain-words reason; the state it was given is never changed (it is
immutable).  ``legal_actions(state)`` lists every legal decision of the player
to act; chance phases have no decisions (``reduce`` checks a ``Shuffle`` or
``ExchangeDraw`` itself).
"""

from __future__ import annotations

from dataclasses import fields
from itertools import combinations
from operator import attrgetter
from typing import Optional

from ..i18n.language import N_, _, translated
from .actions import (
    Action,
    Bid,
    DeclareDoubleNil,
    Draft,
    Exchange,
    ExchangeDraw,
    Play,
    PlayerAction,
    Shuffle,
    exchange_presorted,
)
from .cards import CARDS, DECK, Card, Suit
from .errors import IllegalActionError
from .rulebook import (
    asked_double_nil,
    bid_range,
    breaks_spades,
    follower_wins,
    game_end,
    hand_score,
    mask_of,
    playable_mask,
    spades_free,
)
from .rules import Rules
from .state import DraftTurn, GameState, HandResult, HandState, Phase, PlayedCard

DRAFT_TURNS = 26
TRICKS_PER_HAND = 13
MAX_EXCHANGE = 3


def _illegal(message: str) -> IllegalActionError:
    return IllegalActionError(message)


def _code(card: object) -> str:
    """Record code of a card, or its repr when it is not one of the 52 (bad API input)."""
    if isinstance(card, int) and not isinstance(card, bool):
        return CARDS[card].code if 0 <= card < 52 else _("number {number}").format(number=int(card))
    return repr(card)


def _other(player: int) -> int:
    return 1 - player


def _pair(pair: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (value, pair[1]) if index == 0 else (pair[0], value)


# ---------------------------------------------------------------- turn order

def _after_draft(hand: HandState) -> tuple[Phase, Optional[int]]:
    for p in (hand.second, hand.first):  # 4.3: the second player exchanges first
        if hand.double_nil[p] and hand.exchanged[p] is None:
            return Phase.EXCHANGE, p
    for p in (hand.second, hand.first):  # 5.1: the second player bids first
        if not hand.double_nil[p] and hand.bids[p] is None:
            return Phase.BIDDING, p
    return Phase.PLAY, hand.second  # 6.1: the second player leads


# ---------------------------------------------------------------- legality

def _check_turn(state: GameState, player: int) -> HandState:
    hand = state.hand
    assert hand is not None
    if player != hand.to_act:
        raise _illegal(_("it is player {player}'s turn, not player {other}'s").format(player=hand.to_act, other=player))
    return hand


def playable_cards(hand: HandState, player: int, rules: Optional[Rules] = None) -> frozenset[Card]:
    """Cards ``player`` may play now (6.2 follow suit, 6.4 leading spades, by the rule book).

    ``rules`` matter only for ``spades_any_time``; without them the article's game is meant.
    """
    cards = hand.hands[player]
    lead = hand.trick[0].card if hand.trick else -1
    free = spades_free(rules, hand.spades_broken) if rules is not None else hand.spades_broken
    allowed = playable_mask(mask_of(cards), lead, free)
    return frozenset(c for c in cards if allowed >> c & 1)


# Actions are immutable values, so the few that recur are built once and shared.
_PLAYS = tuple(tuple(Play(p, c) for c in CARDS) for p in (0, 1))
_DRAFTS = tuple((Draft(p, "first"), Draft(p, "second")) for p in (0, 1))
_DOUBLE_NILS = tuple((DeclareDoubleNil(p, False), DeclareDoubleNil(p, True)) for p in (0, 1))
_BIDS = tuple(tuple(Bid(p, n) for n in range(TRICKS_PER_HAND + 1)) for p in (0, 1))


def legal_actions(state: GameState) -> tuple[PlayerAction, ...]:
    """Every legal decision of the player to act, in a stable order.

    Empty when a chance action is due or the game is over.
    """
    hand = state.hand
    phase = state.phase
    if hand is None or hand.to_act is None:
        return ()
    p = hand.to_act
    if phase is Phase.PLAY:
        plays = _PLAYS[p]
        return tuple(plays[c] for c in sorted(playable_cards(hand, p, state.rules)))
    if phase is Phase.DRAFT:
        return _DRAFTS[p]
    if phase is Phase.DOUBLE_NIL:
        return _DOUBLE_NILS[p]
    if phase is Phase.BIDDING:
        bids = _BIDS[p]
        return tuple(bids[n] for n in bid_range(state.rules))
    if phase is Phase.EXCHANGE:
        cards = sorted(hand.hands[p])
        out: list[PlayerAction] = []
        for k in range(MAX_EXCHANGE + 1):
            out.extend(exchange_presorted(p, combo) for combo in combinations(cards, k))  # sorted already
        return tuple(out)
    return ()


# ---------------------------------------------------------------- reduce

def reduce(state: GameState, action: Action) -> GameState:
    """Apply ``action`` to ``state`` and return the new state."""
    phase = state.phase
    if phase is Phase.GAME_OVER:
        raise _illegal(_("the game is over; no action is legal"))
    if isinstance(action, Play):
        if phase is not Phase.PLAY:
            raise _illegal(_("cannot play a card now: the game is in the {phase} phase").format(phase=_phase(phase)))
        return _play(state, action)
    if isinstance(action, Draft):
        if phase is not Phase.DRAFT:
            raise _illegal(_("cannot draft now: the game is in the {phase} phase").format(phase=_phase(phase)))
        return _draft(state, action)
    if isinstance(action, DeclareDoubleNil):
        if phase is not Phase.DOUBLE_NIL:
            if not state.rules.double_nil:
                raise _illegal(_("Double Nil is not allowed under these rules"))
            if phase is Phase.DRAFT and not asked_double_nil(state.rules, state.scores, action.player):
                raise _illegal(_("player {player} is not asked about Double Nil: only a player at least {points} "
                                 "points behind is").format(player=action.player, points=state.rules.double_nil_behind))
            raise _illegal(_("cannot decide Double Nil now: the game is in the {phase} phase").format(
                phase=_phase(phase)))
        return _double_nil(state, action)
    if isinstance(action, Bid):
        if phase is not Phase.BIDDING:
            raise _illegal(_("cannot bid now: the game is in the {phase} phase").format(phase=_phase(phase)))
        return _bid(state, action)
    if isinstance(action, Shuffle):
        if phase is not Phase.SHUFFLE:
            raise _illegal(_("cannot shuffle now: the game is in the {phase} phase").format(phase=_phase(phase)))
        return _shuffle(state, action)
    if isinstance(action, Exchange):
        if phase is not Phase.EXCHANGE:
            raise _illegal(_("cannot exchange now: the game is in the {phase} phase").format(phase=_phase(phase)))
        return _exchange(state, action)
    if isinstance(action, ExchangeDraw):
        if phase is not Phase.EXCHANGE_DRAW:
            raise _illegal(_("cannot draw exchange cards now: the game is in the {phase} phase").format(
                phase=_phase(phase)))
        return _exchange_draw(state, action)
    raise _illegal(_("unknown action {action}").format(action=repr(action)))


# Phases in plain words for messages (the record names have underscores); a message for each action that comes
# in the wrong phase names the phase with one of these, translated where it is said.
_PHASE_WORDS = {
    Phase.SHUFFLE: N_("shuffle"),
    Phase.DOUBLE_NIL: N_("Double Nil decision"),
    Phase.DRAFT: N_("draft"),
    Phase.EXCHANGE: N_("exchange"),
    Phase.EXCHANGE_DRAW: N_("exchange draw"),
    Phase.BIDDING: N_("bidding"),
    Phase.PLAY: N_("play"),
    Phase.GAME_OVER: N_("game over"),
}


def _phase(phase: Phase) -> str:
    return translated(_PHASE_WORDS[phase])


def _shuffle(state: GameState, action: Shuffle) -> GameState:
    stock = action.stock
    if len(stock) != 52 or frozenset(stock) != DECK:
        raise _illegal(_("a shuffle must list each of the 52 cards exactly once"))
    if state.hand is None:
        first = state.first_drafter
    else:
        first = state.hand.second  # 2.2: roles swap after every hand
    empty: frozenset[Card] = frozenset()
    hand = HandState(
        first=first,
        stock=tuple(CARDS[c] for c in stock),
        discard=empty,
        hands=(empty, empty),
        seen_discards=(empty, empty),
        to_act=first,  # 3.1: the first player drafts first, after the Double Nil question (4.1)
    )
    return GameState(
        rules=state.rules,
        first_drafter=state.first_drafter,
        phase=Phase.DOUBLE_NIL if asked_double_nil(state.rules, state.scores, first) else Phase.DRAFT,
        hand_number=state.hand_number + 1,
        scores=state.scores,
        bags=state.bags,
        history=state.history,
        hand=hand,
        outcome=None,
    )


def _double_nil(state: GameState, action: DeclareDoubleNil) -> GameState:
    hand = _check_turn(state, action.player)
    if not isinstance(action.declare, bool):
        raise _illegal(_("a Double Nil decision must be true or false, not {value}").format(value=repr(action.declare)))
    hand = _hand(hand, double_nil=_pair(hand.double_nil, action.player, action.declare))
    return _with(state, Phase.DRAFT, hand)


def _draft(state: GameState, action: Draft) -> GameState:
    hand = _check_turn(state, action.player)
    p = action.player
    top, nxt = hand.stock[0], hand.stock[1]
    seen = hand.seen_discards
    if action.take == "first":
        kept, dropped = top, nxt
        if state.rules.see_second_card:
            seen = _pair(seen, p, seen[p] | {dropped})
    elif action.take == "second":
        kept, dropped = nxt, top
        seen = _pair(seen, p, seen[p] | {dropped})
    else:
        raise _illegal(_("take must be 'first' or 'second', not {value}").format(value=repr(action.take)))
    draft_log = hand.draft_log + (DraftTurn(p, action.take),)
    # Mid-draft the turn simply alternates; a pending Double Nil question comes first.
    other = 1 - p
    if len(draft_log) < DRAFT_TURNS:
        asks = hand.double_nil[other] is None and asked_double_nil(state.rules, state.scores, other)
        phase, actor = (Phase.DOUBLE_NIL if asks else Phase.DRAFT), other
    else:
        phase, actor = Phase.BIDDING, None  # settled below, once the hand is built
    hand = _hand(
        hand,
        stock=hand.stock[2:],
        discard=hand.discard | {dropped},
        hands=_pair(hand.hands, p, hand.hands[p] | {kept}),
        seen_discards=seen,
        draft_log=draft_log,
        to_act=actor,
    )
    if actor is None:
        phase, actor = _after_draft(hand)
        hand = _hand(hand, to_act=actor)
    return _with(state, phase, hand)


def _exchange(state: GameState, action: Exchange) -> GameState:
    hand = _check_turn(state, action.player)
    p = action.player
    discard = action.discard
    if len(discard) > MAX_EXCHANGE:
        raise _illegal(_("player {player} may exchange at most {most} cards, not {count}").format(
            player=p, most=MAX_EXCHANGE, count=len(discard)))
    if len(set(discard)) != len(discard):
        raise _illegal(_("the same card is listed twice in the exchange"))
    for c in discard:
        if c not in hand.hands[p]:
            raise _illegal(_("card {card} is not in player {player}'s hand").format(card=_code(c), player=p))
    if not discard:
        hand = _hand(hand, exchanged=_pair(hand.exchanged, p, 0))
        phase, actor = _after_draft(hand)
        return _with(state, phase, _hand(hand, to_act=actor))
    hand = _hand(
        hand,
        hands=_pair(hand.hands, p, hand.hands[p] - frozenset(discard)),
        set_aside=tuple(CARDS[c] for c in sorted(discard)),  # canonical order: equal states replay equal
        to_act=p,
    )
    return _with(state, Phase.EXCHANGE_DRAW, hand)


def _exchange_draw(state: GameState, action: ExchangeDraw) -> GameState:
    hand = state.hand
    assert hand is not None
    p = action.player
    if p != hand.to_act:
        raise _illegal(_("the exchange draw is for player {player}, not player {other}").format(
            player=hand.to_act, other=p))
    cards = action.cards
    if len(cards) != len(hand.set_aside):
        raise _illegal(_("player {player} set aside {aside} cards and must draw as many, not {count}").format(
            player=p, aside=len(hand.set_aside), count=len(cards)))
    if len(set(cards)) != len(cards):
        raise _illegal(_("the same card is drawn twice in the exchange"))
    for c in cards:
        if c not in hand.discard:
            raise _illegal(_("card {card} is not in the discard pile").format(card=_code(c)))
    drawn = frozenset(CARDS[c] for c in cards)
    aside = frozenset(hand.set_aside)
    hand = _hand(
        hand,
        hands=_pair(hand.hands, p, hand.hands[p] | drawn),
        discard=(hand.discard - drawn) | aside,
        seen_discards=_pair(hand.seen_discards, p, hand.seen_discards[p] | aside),
        set_aside=(),
        exchanged=_pair(hand.exchanged, p, len(cards)),
    )
    phase, actor = _after_draft(hand)
    return _with(state, phase, _hand(hand, to_act=actor))


def _bid(state: GameState, action: Bid) -> GameState:
    hand = _check_turn(state, action.player)
    n = action.tricks
    rules = state.rules
    if not isinstance(n, int) or isinstance(n, bool) or not rules.min_bid <= n <= TRICKS_PER_HAND:
        if n == 0 and not rules.nil:
            raise _illegal(_("Nil bids are not allowed under these rules; bid 1 to 13"))
        raise _illegal(_("a bid must be {low} to {high} tricks, not {bid}").format(
            low=rules.min_bid, high=TRICKS_PER_HAND, bid=repr(n)))
    hand = _hand(hand, bids=_pair(hand.bids, action.player, n))
    phase, actor = _after_draft(hand)
    return _with(state, phase, _hand(hand, to_act=actor))


def _play(state: GameState, action: Play) -> GameState:
    hand = _check_turn(state, action.player)
    p = action.player
    card = action.card
    held = hand.hands[p]
    if card not in held:
        raise _illegal(_("card {card} is not in player {player}'s hand").format(card=_code(card), player=p))
    card = CARDS[card]  # the canonical Card, even if the caller passed a plain int
    trick = hand.trick
    if card not in playable_cards(hand, p, state.rules):
        if trick:
            raise _illegal(_("player {player} must follow suit ({suit})").format(
                player=p, suit=Suit(trick[0].card // 13).words))
        raise _illegal(_("player {player} may not lead a spade: spades are not broken").format(player=p))
    lead_card = trick[0].card if trick else -1
    broken = hand.spades_broken or breaks_spades(lead_card, card)
    played = PlayedCard(p, card)
    hands = _pair(hand.hands, p, held - {card})
    if not trick:
        hand = _hand(hand, hands=hands, trick=(played,), spades_broken=broken, to_act=_other(p))
        return _with(state, Phase.PLAY, hand)
    lead = trick[0]
    winner = _trick_winner(lead, played)
    won = _pair(hand.tricks_won, winner, hand.tricks_won[winner] + 1)
    hand = _hand(
        hand,
        hands=hands,
        trick=(),
        tricks=hand.tricks + ((lead, played),),
        trick_winners=hand.trick_winners + (winner,),
        tricks_won=won,
        spades_broken=broken,
        to_act=winner,
    )
    if len(hand.tricks) < TRICKS_PER_HAND:
        return _with(state, Phase.PLAY, hand)
    return _score_hand(state, hand)


def _trick_winner(lead: PlayedCard, follow: PlayedCard) -> int:
    """6.3, by the rule book."""
    return follow.player if follower_wins(lead.card, follow.card) else lead.player


def trick_winner(trick: tuple[PlayedCard, PlayedCard]) -> int:
    return _trick_winner(trick[0], trick[1])


def _score_hand(state: GameState, hand: HandState) -> GameState:
    rules = state.rules
    bid0, bid1 = hand.bid_of(0), hand.bid_of(1)
    assert bid0 is not None and bid1 is not None  # a hand is scored only after both bids
    lines = []
    bags = []
    for p, bid in ((0, bid0), (1, bid1)):
        line, b = hand_score(rules, bid, hand.tricks_won[p], state.bags[p])
        lines.append(line)
        bags.append(b)
    scores = (state.scores[0] + lines[0].points, state.scores[1] + lines[1].points)
    result = HandResult(
        first_drafter=hand.first,
        bids=(bid0, bid1),
        tricks=hand.tricks_won,
        lines=(lines[0], lines[1]),
        scores_after=scores,
        bags_after=(bags[0], bags[1]),
    )
    outcome = game_end(rules, scores, (bid0, bid1), hand.tricks_won)  # section 8
    return GameState(
        rules=rules,
        first_drafter=state.first_drafter,
        phase=Phase.GAME_OVER if outcome is not None else Phase.SHUFFLE,
        hand_number=state.hand_number,
        scores=scores,
        bags=(bags[0], bags[1]),
        history=state.history + (result,),
        hand=_hand(hand, to_act=None),
        outcome=outcome,
    )


# ---------------------------------------------------------------- fast copies
# dataclasses.replace is several times slower than a direct constructor call;
# these helpers keep the reducer fast enough for the bots' simulations.

_HAND_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(HandState))
_GET_ALL = attrgetter(*_HAND_FIELDS)  # one C call returns every field as a tuple
_INDEX = {name: i for i, name in enumerate(_HAND_FIELDS)}


def _hand(hand: HandState, **changes: object) -> HandState:
    values = list(_GET_ALL(hand))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return HandState(*values)


def _with(state: GameState, phase: Phase, hand: HandState) -> GameState:
    return GameState(
        rules=state.rules,
        first_drafter=state.first_drafter,
        phase=phase,
        hand_number=state.hand_number,
        scores=state.scores,
        bags=state.bags,
        history=state.history,
        hand=hand,
        outcome=state.outcome,
    )
