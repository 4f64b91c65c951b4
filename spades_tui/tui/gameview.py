"""What a game screen shows, as values: the ``GameView`` a view model returns and the parts it is made of.

The view models (``viewmodels.py``) build these; the screens and widgets draw them.  Frozen dataclasses,
no Textual, no game logic beyond ``screen_kind``: which screen a seat's view needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional

from ..session.view import Card, Phase, PlayerAction, SeatView


class Command(str, Enum):
    """What a choice asks of the game when it is not a player's action."""

    REVEAL = "reveal"  # hot-seat: the player to act is at the keyboard
    NEXT_HAND = "next_hand"
    NEW_GAME = "new_game"  # back to the start screen
    QUIT = "quit"
    MARK = "mark"  # mark or unmark a card for the exchange
    REVIEW = "review"  # the finished hand judged double dummy
    REPLAY_HAND = "replay_hand"  # practice: the same deal again
    LESSON_REAL = "lesson_real"  # the lesson's end: the new-game form
    LESSON_AGAIN = "lesson_again"  # the lesson's end: the lesson again
    LESSON_BACK = "lesson_back"  # the lesson's end: back to the start screen
    CHALLENGE_AGAIN = "challenge_again"  # the challenge's end: the same challenge again, as practice


@dataclass(frozen=True)
class Item:
    """One choice: a card face or a text button, and what choosing it does."""

    key: str  # stable identity, e.g. the card code or "confirm"
    text: str = ""
    card: Optional[Card] = None
    enabled: bool = True
    raised: bool = False  # drawn one row higher (legal cards, cards marked for exchange)
    action: Optional[PlayerAction] = None
    command: Optional[Command] = None


@dataclass(frozen=True)
class TableRow:
    """A row of cards in the middle of the table (None: an empty place), with its caption."""

    caption: str
    cards: tuple[Optional[Card], ...]
    mark: bool = False  # the winner's card of a complete trick


@dataclass(frozen=True)
class Opponent:
    """The other player's side of the table: public facts only."""

    name: str
    cards: int
    note: str = ""


@dataclass(frozen=True)
class Sheet:
    """A small table of facts (the hand summary, every hand of the game)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    first_column_left: bool = True  # the summary's row labels read left-aligned


@dataclass(frozen=True)
class HintLine:
    """One line of the hint panel: its head, then short phrases a narrow panel drops from the end."""

    head: str
    phrases: tuple[str, ...] = ()
    indent: str = ""
    figure: str = ""  # the number the hint ranks by, alone ("≈ 63%"): the compact list's (tui/hintpanel.py)

    def text(self, keep: Optional[int] = None) -> str:
        kept = self.phrases if keep is None else self.phrases[:keep]
        return self.indent + self.head + (": " + " · ".join(kept) if kept else "")


@dataclass(frozen=True)
class GameView:
    """Everything one game screen shows, and what its keys may do."""

    pane: str  # which part of the phase: "draft", "waiting", "handoff", ...
    status: str  # the score panel at the side
    prompt: str
    info: str = ""
    opponent: Optional[Opponent] = None
    table: tuple[TableRow, ...] = ()  # the middle: the opponent's row above, the viewer's below
    last_trick: str = ""  # the last complete trick in words, shown on a key
    last_trick_short: str = ""  # the same on one line, for a short terminal
    hint: str = ""  # the hint panel's text ("" when it is off or there is no decision)
    hint_lines: tuple[HintLine, ...] = ()  # the same, line by line, for fitting a narrow panel (fit_hint)
    premark: Optional[frozenset[Card]] = None  # the exchange's recommended cards: marked until the person marks
    sheet: Optional[Sheet] = None
    items: tuple[Item, ...] = ()
    default: int = 0  # the highlighted choice when the decision is new
    hand_label: str = ""
    hand: tuple[Card, ...] = ()
    hand_backs: int = 0  # the public view: the bottom player's cards, face down (no face is known)
    marking: bool = False  # Space marks cards (the Double Nil exchange)
    typing_bid: bool = False  # digits type a bid
    decision: tuple[object, ...] = ()  # changes when a new decision starts: the cursor and marks reset
    # What the table shows where the screen has room (docs/playing.md, "Screen sizes"):
    places: tuple[TableRow, ...] = ()  # the trick's empty places before the play (the bidding)
    stock: Optional[int] = None  # the stock's count: its pile beside its top card (the draft)
    discards: Optional[int] = None  # the discard pile's count: its pile (the exchange draws from it)
    seen: tuple[Card, ...] = ()  # the cards this seat saw passed, face up and small
    seen_caption: str = ""
    piles: tuple[tuple[str, int], ...] = ()  # each player's won tricks as a face-down pile: opponent's, then yours
    picks: tuple[str, ...] = ()  # the draft's picks in words, for the panel


class Kind(str, Enum):
    """Which screen the game needs now."""

    HANDOFF = "handoff"
    DRAFT = "draft"  # Double Nil question, draft, exchange
    BIDDING = "bidding"
    PLAY = "play"
    SUMMARY = "summary"
    GAME_OVER = "game_over"


def screen_kind(seat_view: SeatView) -> Kind:
    if seat_view.trick_held:  # the hand's last trick on the table, before its summary (tui/app/lasttrick.py)
        return Kind.PLAY
    if seat_view.outcome is not None:  # over by the rules or by a forfeit
        return Kind.GAME_OVER
    if seat_view.phase is Phase.SHUFFLE:
        return Kind.SUMMARY if seat_view.hands else Kind.DRAFT
    if seat_view.seat is None:
        return Kind.HANDOFF
    if seat_view.phase is Phase.BIDDING:
        return Kind.BIDDING
    if seat_view.phase is Phase.PLAY:
        return Kind.PLAY
    return Kind.DRAFT
