"""Build precise game positions for the tests, through the engine's own actions.

The engine has no deal: hands come from the draft (docs/rules.md 3).  With every draft
turn taking the first card, turn ``t`` keeps ``stock[2t]`` and discards
``stock[2t + 1]``; the first player drafts on even turns and the second on odd
ones, so the first player ends up with ``stock[0], stock[4], stock[8], ...``
and the second with ``stock[2], stock[6], ...``.  ``stock_for`` inverts that, so a
test just says which 13 cards each player holds.

Everything here goes through ``reduce``: a position built by these helpers is a
position the rules allow, and ``Game.record()`` is its game record.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from spades_tui.engine.actions import Action, Bid, DeclareDoubleNil, Draft, Exchange, ExchangeDraw, Play, Shuffle
from spades_tui.engine.cards import CARDS, DECK, Card
from spades_tui.engine.record import GameRecord
from spades_tui.engine.reducer import legal_actions, reduce
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import BidValue, GameState, HandState, Phase, PlayedCard, new_game
from spades_tui.session.randomplay import random_game

Cards = Union[str, Iterable[Card]]
EMPTY: frozenset[Card] = frozenset()


def cards(text: Cards) -> tuple[Card, ...]:
    """``"AS KS 2H"`` -> the three cards (an iterable of cards is passed through)."""
    if isinstance(text, str):
        return tuple(Card.parse(t) for t in text.split())
    return tuple(text)


def card(text: str) -> Card:
    return Card.parse(text)


def hand(S: str = "", H: str = "", D: str = "", C: str = "") -> tuple[Card, ...]:
    """Cards by suit, ranks as record letters: ``hand(S="AK", H="T92")``."""
    out: list[Card] = []
    for suit, ranks in zip("SHDC", (S, H, D, C), strict=True):
        out.extend(Card.parse(r + suit) for r in ranks)
    return tuple(out)


def rest(*taken: Cards) -> tuple[Card, ...]:
    """The cards of the deck not in any of ``taken``, in index order."""
    used = {c for group in taken for c in cards(group)}
    return tuple(c for c in sorted(DECK) if c not in used)


def stock_for(first_hand: Cards, second_hand: Cards, discards: Optional[Cards] = None) -> tuple[Card, ...]:
    """The stock that, with every draft turn taking the first card, gives these hands.

    ``discards`` (default: the other 26 cards in index order) are the cards
    passed over, in the order they reach the discard pile.
    """
    a, b = cards(first_hand), cards(second_hand)
    d = cards(discards) if discards is not None else rest(a, b)
    if len(a) != 13 or len(b) != 13 or len(d) != 26 or set(a) | set(b) | set(d) != DECK:
        raise ValueError("need two 13-card hands and 26 discards making up the deck")
    stock: list[Card] = []
    for k in range(13):
        stock += [a[k], d[2 * k], b[k], d[2 * k + 1]]
    return tuple(stock)


# Suit sizes of split_hands: every trick count 0..13 is a sum of some of them.
_SPLIT = {"H": 6, "D": 4, "C": 2, "S": 1}
_RANKS_HIGH_FIRST = "AKQJT98765432"


def split_hands(player: int, tricks: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Hands (of player 0, player 1) in which ``player`` wins exactly ``tricks`` tricks
    however both play.

    Both hold the same number of cards of each suit (hearts 6, diamonds 4, clubs
    2, spades 1), so every trick is followed in suit (6.2) and nobody can trump;
    in the suits whose sizes add up to ``tricks`` ``player`` holds the higher
    cards, in the others the lower ones.
    """
    if not 0 <= tricks <= 13:
        raise ValueError(tricks)
    winning: set[str] = set()
    left = tricks
    for suit, size in sorted(_SPLIT.items(), key=lambda kv: -kv[1]):
        if size <= left:
            winning.add(suit)
            left -= size
    assert left == 0
    mine: list[Card] = []
    theirs: list[Card] = []
    for suit, size in _SPLIT.items():
        high = [Card.parse(r + suit) for r in _RANKS_HIGH_FIRST[:size]]
        low = [Card.parse(r + suit) for r in _RANKS_HIGH_FIRST[size : 2 * size]]
        mine += high if suit in winning else low
        theirs += low if suit in winning else high
    pair = (tuple(mine), tuple(theirs)) if player == 0 else (tuple(theirs), tuple(mine))
    return pair


class Game:
    """A game under construction: the state and the actions that led to it."""

    def __init__(self, rules: Optional[Rules] = None, first_drafter: int = 0) -> None:
        self.rules = rules if rules is not None else Rules()
        self.first_drafter = first_drafter
        self.state: GameState = new_game(self.rules, first_drafter)
        self.actions: list[Action] = []

    # -- plumbing
    def do(self, *actions: Action) -> Game:
        for action in actions:
            self.state = reduce(self.state, action)
            self.actions.append(action)
        return self

    def record(self) -> GameRecord:
        return GameRecord(self.rules, self.first_drafter, None, tuple(self.actions))

    @property
    def hand(self):  # type: ignore[no-untyped-def]
        assert self.state.hand is not None
        return self.state.hand

    @property
    def first(self) -> int:
        """First player of the hand in progress (or of the next one, before its shuffle)."""
        return self.state.current_first_drafter

    # -- the draft
    def shuffle(self, stock: Sequence[Card]) -> Game:
        return self.do(Shuffle(tuple(stock)))

    def draft(self, takes: Union[str, Sequence[str]] = "first", double_nil: Sequence[bool] = (False, False)) -> Game:
        """Play the whole draft: ``takes`` is one choice for every turn or a list of 26."""
        plan = [takes] * 26 if isinstance(takes, str) else list(takes)
        for take in plan:
            if self.state.phase is Phase.DOUBLE_NIL:
                p = self.state.to_act
                assert p is not None
                self.do(DeclareDoubleNil(p, double_nil[p]))
            p = self.state.to_act
            assert p is not None and self.state.phase is Phase.DRAFT, self.state.phase
            self.do(Draft(p, take))  # type: ignore[arg-type]
        return self

    def deal(
        self,
        hands: Sequence[Cards],
        double_nil: Sequence[bool] = (False, False),
        discards: Optional[Cards] = None,
    ) -> Game:
        """Shuffle and draft so that player 0 and player 1 hold ``hands[0]`` and ``hands[1]``."""
        first = self.first
        stock = stock_for(hands[first], hands[1 - first], discards)
        return self.shuffle(stock).draft("first", double_nil)

    # -- after the draft
    def exchange(self, player: int, discard: Cards = (), draw: Cards = ()) -> Game:
        self.do(Exchange(player, cards(discard)))
        if cards(discard):
            self.do(ExchangeDraw(player, cards(draw)))
        return self

    def skip_exchanges(self) -> Game:
        while self.state.phase is Phase.EXCHANGE:
            p = self.state.to_act
            assert p is not None
            self.do(Exchange(p, ()))
        return self

    def bids(self, bids: Mapping[int, int] | Sequence[Optional[int]]) -> Game:
        """Bid for whoever must bid, in the order the rules ask for (second player first)."""
        self.skip_exchanges()
        table = dict(bids) if isinstance(bids, Mapping) else dict(enumerate(bids))
        while self.state.phase is Phase.BIDDING:
            p = self.state.to_act
            assert p is not None
            self.do(Bid(p, table[p]))  # type: ignore[arg-type]
        return self

    def play(self, *codes: str) -> Game:
        """Each code is played by whoever is to act."""
        for code in codes:
            p = self.state.to_act
            assert p is not None and self.state.phase is Phase.PLAY
            self.do(Play(p, Card.parse(code)))
        return self

    def play_out(self) -> Game:
        """Finish the hand in progress with the lowest legal card each time."""
        while self.state.phase is Phase.PLAY:
            self.do(legal_actions(self.state)[0])
        return self

    def scored_hand(self, tricks0: int, bids: Sequence[BidValue]) -> Game:
        """A whole hand in which player 0 wins ``tricks0`` tricks with these bids.

        A bid of ``"double_nil"`` declares Double Nil (and exchanges nothing).
        """
        dn = [b == "double_nil" for b in bids]
        self.deal(split_hands(0, tricks0), double_nil=dn)
        self.bids({p: b for p, b in enumerate(bids) if b != "double_nil"})
        self.play_out()
        assert self.state.phase in (Phase.SHUFFLE, Phase.GAME_OVER)
        return self


def in_play(
    hands: Sequence[Cards],
    bids: Sequence[int] = (3, 3),
    rules: Optional[Rules] = None,
    first_drafter: int = 0,
) -> Game:
    """A new game dealt ``hands`` (player 0's, player 1's), bid, and ready for the first lead."""
    return Game(rules, first_drafter).deal(hands).bids(bids)


# ---------------------------------------------------------------- play-phase states and random endgames
# (for the solver's and the rulebook's checks against a minimax through the engine)


def play_state(
    hands: tuple[frozenset[Card], frozenset[Card]],
    to_act: int,
    broken: bool,
    table: Optional[tuple[int, Card]] = None,
    rules: Rules = Rules(),  # noqa: B008 (immutable)
) -> GameState:
    """An engine state in the play phase with these hands (no tricks played yet in it)."""
    trick = (PlayedCard(table[0], table[1]),) if table is not None else ()
    hand_state = HandState(
        first=0,
        stock=(),
        discard=EMPTY,
        hands=hands,
        seen_discards=(EMPTY, EMPTY),
        bids=(3, 3),
        trick=trick,
        spades_broken=broken,
        to_act=to_act,
    )
    return GameState(rules=rules, first_drafter=0, phase=Phase.PLAY, hand_number=1, hand=hand_state)


def tricks_left(state: GameState) -> int:
    h = state.hand
    assert h is not None
    return (len(h.hands[0]) + len(h.hands[1]) + len(h.trick)) // 2


def random_endgame(rng: random.Random) -> GameState:
    """2 to 6 cards each; few suits or many; all-spade hands; a card on the table or not."""
    k = rng.choice((2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6))
    kind = rng.random()
    if kind < 0.15:
        pool = [c for c in DECK if c // 13 == 0]  # spades only
    elif kind < 0.5:
        suits = rng.sample(range(4), 2)
        pool = [c for c in DECK if c // 13 in suits]
    else:
        pool = list(DECK)
    if rng.random() < 0.5:  # crowd the ranks so that cards touch and suits run out
        pool = [c for c in pool if c % 13 >= 13 - max(k, rng.randint(2, 8))] or pool
    pool = sorted(pool)
    if len(pool) < 2 * k:
        pool = sorted(DECK)
    chosen = rng.sample(pool, 2 * k)
    cards0 = frozenset(CARDS[c] for c in chosen[:k])
    cards1 = frozenset(CARDS[c] for c in chosen[k:])
    if rng.random() < 0.15:  # one hand all spades
        spades = [c for c in DECK if c // 13 == 0 and c not in cards1]
        cards0 = frozenset(rng.sample(spades, k))
    hands = (cards0, cards1)
    to_act = rng.randint(0, 1)
    broken = rng.random() < 0.5
    state = play_state(hands, to_act, broken)
    if rng.random() < 0.5:  # a card on the table: the leader plays one of their legal cards
        actions = legal_actions(state)
        state = reduce(state, rng.choice(actions))
    return state


def state_with(rules: Rules, hands: tuple[frozenset[Any], frozenset[Any]], to_act: int, broken: bool,
               trick: tuple[PlayedCard, ...] = ()) -> GameState:
    hand = HandState(first=0, stock=(), discard=EMPTY, hands=hands, seen_discards=(EMPTY, EMPTY), bids=(3, 3),
                     trick=trick, spades_broken=broken, to_act=to_act)
    return GameState(rules=rules, first_drafter=0, phase=Phase.PLAY, hand_number=1, hand=hand)


def decision_states(seed: int, rules: Rules, hands: int = 1) -> list[GameState]:
    """Every state of a random game (``hands`` hands) where a player must decide, by replaying prefixes."""
    record, _ = random_game(seed, rules, first_drafter=seed % 2, max_hands=hands)
    state = record.new_state()
    out = []
    for action in record.actions:
        if state.to_act is not None:
            out.append(state)
        state = reduce(state, action)
    return out


def seat0_plays(state: GameState) -> int:
    return sum(1 for a in legal_actions(state) if isinstance(a, Play) and a.player == 0)


def forced_follow(state: GameState) -> bool:
    """Seat 0 to follow with one legal card, more than one card in hand."""
    hand = state.hand
    return (state.phase is Phase.PLAY and state.to_act == 0 and hand is not None and len(hand.hands[0]) > 1
            and seat0_plays(state) == 1)


def last_trick(state: GameState) -> bool:
    hand = state.hand
    return state.phase is Phase.PLAY and state.to_act == 0 and hand is not None and len(hand.hands[0]) == 1
