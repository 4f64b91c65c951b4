"""An independent reading of docs/rules.md and docs/game-record.md, for checking ``replay --json``.

Written from the two documents alone: it imports nothing of spades_tui, and it works on record
JSON and card codes (``"TS"``), not on the engine's types, so a rule the engine gets wrong is not
repeated here by sharing code.  ``run(record)`` returns what ``spades-tui replay --json`` must:
``(0, summary)``, ``(1, index of the illegal action)`` or ``(2, None)`` for a malformed record.
"""

from __future__ import annotations

from typing import Any, Optional

RANKS = "23456789TJQKA"
DECK = [r + s for s in "SHDC" for r in RANKS]

DEFAULTS: dict[str, Any] = {
    "target": 500, "bag_limit": 10, "bag_penalty": 100, "nil": True, "double_nil": True,
    "nil_tricks_are_bags": False, "see_second_card": False, "spades_any_time": False, "nil_points": 100,
    "double_nil_points": 200, "double_nil_behind": 0, "ten_for_200": False, "losing_score": 0,
    "thirteen_wins": False,
}
NUMBERS = {"target": (1, 10000), "bag_limit": (0, 50), "bag_penalty": (0, 1000), "nil_points": (10, 500),
           "double_nil_points": (10, 1000), "double_nil_behind": (0, 10000), "losing_score": (0, 10000)}


class Malformed(Exception):
    pass


class Illegal(Exception):
    pass


def rules_of(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise Malformed("rules")
    rules = dict(DEFAULTS)
    for key, value in raw.items():
        if key not in DEFAULTS:
            raise Malformed(key)
        if isinstance(DEFAULTS[key], bool):
            if not isinstance(value, bool):
                raise Malformed(key)
        else:
            lo, hi = NUMBERS[key]
            if type(value) is not int or not lo <= value <= hi:
                raise Malformed(key)
        rules[key] = value
    return rules


def suit(card: str) -> str:
    return card[1]


def beats(lead: str, follow: str) -> bool:
    """Whether the second card wins (6.3)."""
    if suit(lead) == suit(follow):
        return RANKS.index(follow[0]) > RANKS.index(lead[0])
    return suit(follow) == "S"


def points(rules: dict[str, Any], bid: Any, tricks: int, bags: int) -> tuple[int, int]:
    """Section 7: a player's points for the hand and their bag total after it."""
    added = 0
    if bid == "double_nil" or bid == 0:
        value = rules["double_nil_points"] if bid == "double_nil" else rules["nil_points"]
        pts = value if tricks == 0 else -value
        if rules["nil_tricks_are_bags"]:
            added = tricks
    elif tricks >= bid:
        per = 20 if rules["ten_for_200"] and bid >= 10 else 10
        pts = per * bid + (tricks - bid)
        added = tricks - bid
    else:
        pts = -10 * bid
    bags += added
    if rules["bag_limit"]:
        while bags >= rules["bag_limit"]:
            pts -= rules["bag_penalty"]
            bags -= rules["bag_limit"]
    return pts, bags


class Game:
    def __init__(self, rules: dict[str, Any], first_drafter: int) -> None:
        self.rules = rules
        self.first_of_next = first_drafter
        self.phase = "shuffle"
        self.hand_no = 0
        self.scores = [0, 0]
        self.bags = [0, 0]
        self.winner: Optional[int] = None
        self.to_act: Optional[int] = None
        self.history: list[dict[str, Any]] = []
        # The hand's facts, set again by start_hand for each hand.
        self.first = first_drafter
        self.stock: list[str] = []
        self.hands: list[set[str]] = [set(), set()]
        self.discard: set[str] = set()
        self.dn: list[Optional[bool]] = [None, None]
        self.exchanged: list[Optional[int]] = [None, None]
        self.bids: list[Optional[int]] = [None, None]
        self.aside: list[str] = []
        self.turns = 0
        self.trick: list[tuple[int, str]] = []
        self.won = [0, 0]
        self.broken = False
        self.tricks_done = 0

    # -------------------------------------------------------------- whose turn

    def asked(self, p: int) -> bool:
        """4.1 with the option double_nil_behind."""
        if not self.rules["double_nil"]:
            return False
        n = self.rules["double_nil_behind"]
        return bool(n == 0 or self.scores[1 - p] - self.scores[p] >= n)

    def next_draft_turn(self) -> None:
        if self.turns == 26:
            self.after_draft()
            return
        p = self.first if self.turns % 2 == 0 else 1 - self.first
        self.to_act = p
        self.phase = "double_nil" if self.dn[p] is None and self.asked(p) else "draft"

    def after_draft(self) -> None:
        second = 1 - self.first
        for p in (second, self.first):
            if self.dn[p] and self.exchanged[p] is None:
                self.phase, self.to_act = "exchange", p
                return
        for p in (second, self.first):
            if not self.dn[p] and self.bids[p] is None:
                self.phase, self.to_act = "bidding", p
                return
        self.phase, self.to_act = "play", second

    # -------------------------------------------------------------- the actions

    def legal(self) -> list[dict[str, Any]]:
        """Every legal decision now (for making random records)."""
        p = self.to_act
        if p is None:
            return []
        if self.phase == "double_nil":
            return [{"type": "double_nil", "player": p, "declare": d} for d in (False, True)]
        if self.phase == "draft":
            return [{"type": "draft", "player": p, "take": t} for t in ("first", "second")]
        if self.phase == "exchange":
            hand = sorted(self.hands[p])
            return [{"type": "exchange", "player": p, "discard": hand[:k]} for k in range(4)]
        if self.phase == "bidding":
            low = 0 if self.rules["nil"] else 1
            return [{"type": "bid", "player": p, "tricks": n} for n in range(low, 14)]
        if self.phase == "play":
            return [{"type": "play", "player": p, "card": c} for c in sorted(self.hands[p])
                    if self.may_play(p, c)]
        return []

    def may_play(self, p: int, card: str) -> bool:
        hand = self.hands[p]
        if self.trick:
            led = suit(self.trick[0][1])
            return suit(card) == led or not any(suit(c) == led for c in hand)
        if suit(card) != "S" or self.broken or self.rules["spades_any_time"]:
            return True
        return all(suit(c) == "S" for c in hand)

    def apply(self, a: dict[str, Any]) -> None:
        kind = a["type"]
        if self.phase == "game_over":
            raise Illegal("over")
        if kind == "shuffle":
            if self.phase != "shuffle":
                raise Illegal("phase")
            stock = a["stock"]
            if sorted(stock) != sorted(DECK):
                raise Illegal("stock")
            self.start_hand(stock)
            return
        if kind == "exchange_draw":
            if self.phase != "exchange_draw" or a["player"] != self.to_act:
                raise Illegal("draw")
            cards = a["cards"]
            if len(cards) != len(self.aside) or len(set(cards)) != len(cards) or not set(cards) <= self.discard:
                raise Illegal("draw cards")
            p = a["player"]
            self.hands[p] |= set(cards)
            self.discard = (self.discard - set(cards)) | set(self.aside)
            self.exchanged[p] = len(cards)
            self.aside = []
            self.after_draft()
            return
        wanted = {"double_nil": "double_nil", "draft": "draft", "exchange": "exchange", "bid": "bidding",
                  "play": "play"}[kind]
        if self.phase != wanted or a["player"] != self.to_act:
            raise Illegal("phase or player")
        p = a["player"]
        if kind == "double_nil":
            self.dn[p] = a["declare"]
            self.phase = "draft"
        elif kind == "draft":
            top, nxt = self.stock[0], self.stock[1]
            self.stock = self.stock[2:]
            kept, dropped = (top, nxt) if a["take"] == "first" else (nxt, top)
            self.hands[p].add(kept)
            self.discard.add(dropped)
            self.turns += 1
            self.next_draft_turn()
        elif kind == "exchange":
            cards = a["discard"]
            if len(cards) > 3 or len(set(cards)) != len(cards) or not set(cards) <= self.hands[p]:
                raise Illegal("exchange")
            if not cards:
                self.exchanged[p] = 0
                self.after_draft()
            else:
                self.hands[p] -= set(cards)
                self.aside = list(cards)
                self.phase = "exchange_draw"
        elif kind == "bid":
            n = a["tricks"]
            if type(n) is not int or not (0 if self.rules["nil"] else 1) <= n <= 13:
                raise Illegal("bid")
            self.bids[p] = n
            self.after_draft()
        else:
            card = a["card"]
            if card not in self.hands[p] or not self.may_play(p, card):
                raise Illegal("card")
            self.play(p, card)

    def start_hand(self, stock: list[str]) -> None:
        self.first = self.first_of_next
        self.first_of_next = 1 - self.first
        self.hand_no += 1
        self.stock = list(stock)
        self.hands = [set(), set()]
        self.discard = set()
        self.dn = [None, None]
        self.exchanged = [None, None]
        self.bids = [None, None]
        self.aside = []
        self.turns = 0
        self.trick = []
        self.won = [0, 0]
        self.broken = False
        self.tricks_done = 0
        self.next_draft_turn()

    def play(self, p: int, card: str) -> None:
        self.hands[p].discard(card)
        if suit(card) == "S" and (not self.trick or suit(self.trick[0][1]) != "S"):
            self.broken = True  # 6.5
        self.trick.append((p, card))
        if len(self.trick) == 1:
            self.to_act = 1 - p
            return
        (lp, lc), (fp, fc) = self.trick
        w = fp if beats(lc, fc) else lp
        self.won[w] += 1
        self.trick = []
        self.tricks_done += 1
        self.to_act = w
        if self.tricks_done == 13:
            self.score()

    def score(self) -> None:
        bids = ["double_nil" if self.dn[p] else self.bids[p] for p in (0, 1)]
        pts = []
        for p in (0, 1):
            x, self.bags[p] = points(self.rules, bids[p], self.won[p], self.bags[p])
            pts.append(x)
            self.scores[p] += x
        self.history.append({"first_drafter": self.first, "bids": bids, "tricks": list(self.won), "points": pts})
        self.to_act = None
        self.phase = "shuffle"
        r = self.rules
        for p in (0, 1):  # 8.5 first
            if r["thirteen_wins"] and bids[p] == 13 and self.won[p] == 13:
                self.winner, self.phase = p, "game_over"
                return
        a, b = self.scores
        ended = max(a, b) >= r["target"] or (r["losing_score"] > 0 and min(a, b) <= -r["losing_score"])
        if ended and a != b:
            self.winner, self.phase = (0 if a > b else 1), "game_over"

    def summary(self) -> dict[str, Any]:
        chance = self.phase in ("shuffle", "exchange_draw", "game_over")
        return {"phase": self.phase, "hand": self.hand_no, "scores": list(self.scores), "bags": list(self.bags),
                "winner": self.winner, "to_act": None if chance else self.to_act, "hands": list(self.history)}


def _check_action(a: Any) -> None:
    """Malformed actions (docs/game-record.md): a reader refuses them before any is applied."""
    if not isinstance(a, dict) or a.get("type") not in (
            "shuffle", "double_nil", "draft", "exchange", "exchange_draw", "bid", "play"):
        raise Malformed("action")
    kind = a["type"]
    if kind not in ("shuffle",) and a.get("player") not in (0, 1):
        raise Malformed("player")
    cards = {"shuffle": a.get("stock"), "exchange": a.get("discard"), "exchange_draw": a.get("cards"),
             "play": [a.get("card")]}.get(kind)
    if cards is not None and (not isinstance(cards, list) or any(c not in DECK for c in cards)):
        raise Malformed("cards")


def run(record: Any) -> tuple[int, Any]:
    try:
        if not isinstance(record, dict) or record.get("format") != "spades-tui-game" or record.get("version") != 1:
            raise Malformed("format")
        rules = rules_of(record.get("rules", {}))
        actions = record.get("actions")
        if not isinstance(actions, list):
            raise Malformed("actions")
        for a in actions:
            _check_action(a)
    except Malformed:
        return 2, None
    game = Game(rules, record.get("first_drafter", 0))
    for i, a in enumerate(actions):
        try:
            game.apply(a)
        except Illegal:
            return 1, i
    return 0, game.summary()
