"""Messages from the screens to the app: attributes flow down, messages flow up.

Screens never import the app; they post one of these and the app handles it with
``@on``.  Forms return their result with ``dismiss()`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from textual.message import Message

if TYPE_CHECKING:  # annotations only: the start screen posts these before any game is loaded
    from ..session.view import Card, PlayerAction, Rules


class ActionChosen(Message):
    """The person at the keyboard made a decision.

    ``position`` is (actions in the record, viewer) of the view the screen showed: a key
    pressed twice quickly can reach a screen after the game moved on, and its choice is then stale.
    """

    def __init__(self, action: PlayerAction, position: Optional[tuple[int, Optional[int]]] = None) -> None:
        super().__init__()
        self.action = action
        self.position = position


class Reveal(Message):
    """Hot-seat: the player to act is at the keyboard, show their cards."""


class NextHand(Message):
    """Deal the next hand (from the hand summary)."""


class ToggleHints(Message):
    """Show or hide the hint panel."""


class TakeBack(Message):
    """Practice: undo the person's last decision and the bot's answers after it."""


class ReplayHand(Message):
    """Practice: the same deal again, from the hand summary."""


class StartLesson(Message):
    """The lesson: a guided first hand against the easy bot (the start screen, the lesson's end)."""


class StartChallenge(Message):
    """The daily challenge of ``code`` (None: today's), from the start screen or the challenge's end; ``server``:
    today's at the table server (the settings', or in a browser the page's), against the field."""

    def __init__(self, code: Optional[str] = None, server: bool = False) -> None:
        super().__init__()
        self.code = code
        self.server = server


class LessonOver(Message):
    """The lesson's end screen chose: ``real`` (the new-game form), ``again`` or ``back``."""

    def __init__(self, choice: str) -> None:
        super().__init__()
        self.choice = choice


class LessonRefused(Message):
    """In a lesson: a key that does nothing here, or a card that may not be played (``card``): explained."""

    def __init__(self, key: str = "", card: Optional[Card] = None) -> None:
        super().__init__()
        self.key = key
        self.card = card


class ShowStart(Message):
    """Back to the start screen (a new game after the end)."""


class OpenChat(Message):
    """At a network table: open its chat (the lines said, and a line to say)."""


class RejoinTable(Message):
    """Take back the seat at a network table saved at ``path``."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path


class HostTable(Message):
    """Open a network table for a friend on another machine."""


class FindTable(Message):
    """List the public tables of the table server (the settings', or in a browser the page's own)."""


class QuickPlay(Message):
    """Play a stranger of one's strength at the table server, rated (registering there the first time)."""


class WatchTable(Message):
    """Watch a table of the page's server by its watch code (a browser's "Watch a table")."""


class ResumeGame(Message):
    """Continue the saved game at ``path`` (its slot)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path


@dataclass(frozen=True)
class NewGameRequest:
    """What the new-game form returns."""

    rules: Rules
    first: Optional[int]  # None: a random cut
    names: tuple[str, str]
    bot: Optional[str]
    seed: Optional[int]


class NewGame(Message):
    def __init__(self, request: NewGameRequest) -> None:
        super().__init__()
        self.request = request


class Seen(Message):
    """A key was pressed on a game screen: whatever it waited to show has been seen."""


class OpenSettings(Message):
    """Open the settings (the start screen's "Settings", the game menu's)."""


class OpenHelp(Message):
    """Open help for the screen on top (the start screen's "Help", the game menu's)."""


class OpenStatistics(Message):
    """Open the statistics (the start screen's "Statistics")."""


class LoadRecord(Message):
    """Choose a game record to load and play on (the start screen's "Load a game record…")."""


class GiveUp(Message):
    """At a rated table: resign the game (``claim`` False), or claim it from a player gone long enough (the game
    menu's "Resign" and "Claim the game")."""

    def __init__(self, claim: bool) -> None:
        super().__init__()
        self.claim = claim


class ShowInvite(Message):
    """At a network table: its invite and watch command on the screen, ``first`` (``join`` or ``watch``) the one
    Enter copies (the game menu's "Invite and watch code")."""

    def __init__(self, first: str = "join") -> None:
        super().__init__()
        self.first = first
