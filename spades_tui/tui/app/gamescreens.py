"""Which game screen a seat's view needs, showing it (one screen above the default one), and handing the game
screens each new view."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Optional
from weakref import WeakKeyDictionary

from textual.app import App
from textual.screen import Screen

from ...i18n.language import current

if TYPE_CHECKING:  # loaded with the first game, not before the start screen (test_start_imports.py)
    from ...session.view import SeatView
    from ..pacing import Pace
    from ..screens.game import GameScreen


# Each kind's screen, by module and class: only the screen a view needs is imported, so a game's first paint
# loads one phase's screen, not all six (issue 33: the first paint within 1.3x a bare Textual app's).
_SCREENS: dict[str, tuple[str, str]] = {
    "HANDOFF": ("handoff", "HandoffScreen"), "DRAFT": ("draft", "DraftScreen"),
    "BIDDING": ("bidding", "BiddingScreen"), "PLAY": ("play", "PlayScreen"),
    "SUMMARY": ("summary", "SummaryScreen"), "GAME_OVER": ("gameover", "GameOverScreen"),
}


def game_screen(view: SeatView) -> type[GameScreen]:
    """The screen a view of the game needs."""
    # In the function: the game's screens (and the cards and view models they draw) load with the first game,
    # not before the start screen (tests/unit_tests/test_start_imports.py).
    from importlib import import_module

    from ..gameview import screen_kind

    kind = screen_kind(view).name
    # The lesson's one hand scored: its end screen, not the next hand's summary; a challenge's four: its own end.
    if kind == "SUMMARY" and view.lesson:
        module, name = "lessonend", "LessonEndScreen"
    elif kind == "GAME_OVER" and view.field is not None and not view.forfeit:  # the day's challenge at a server
        module, name = "fieldend", "FieldEndScreen"
    elif kind == "GAME_OVER" and view.challenge is not None and not view.forfeit and view.table_facts is None:
        module, name = "challengeend", "ChallengeEndScreen"
    else:
        module, name = _SCREENS[kind]
    screen: type[GameScreen] = getattr(import_module(f"spades_tui.tui.screens.{module}"), name)
    return screen


def with_breakpoints(app: App[Any], screen: Screen[None]) -> Screen[None]:
    """``screen`` given now the width and height classes (``HORIZONTAL_BREAKPOINTS``, ``VERTICAL_BREAKPOINTS``) that
    its first resize would give it: Textual restyles the whole screen when they change, and a new screen came up
    styled three times over (mounted, resumed, resized), a third of its first paint's style work (issue 33)."""
    width, height = app.size
    for dimension, own, default in ((width, screen.HORIZONTAL_BREAKPOINTS, app.HORIZONTAL_BREAKPOINTS),
                                    (height, screen.VERTICAL_BREAKPOINTS, app.VERTICAL_BREAKPOINTS)):
        # As Textual's Screen._get_breakpoint_classes: the class of the largest breakpoint the size reaches.
        for breakpoint, name in sorted((default if own is None else own) or [], reverse=True):
            if dimension >= breakpoint:
                screen.add_class(name)
                break
    return screen


# The language each screen shown was made in: a game screen made in another is made again (the settings' language
# applies at once: docs/languages.md).
_SPOKEN: WeakKeyDictionary[Screen[Any], str] = WeakKeyDictionary()


def show_only(app: App[Any], screen: Screen[None]) -> None:
    """Make ``screen`` the only screen above the default one."""
    _SPOKEN[screen] = current()
    with_breakpoints(app, screen)
    while len(app.screen_stack) > 2:
        app.pop_screen()
    if len(app.screen_stack) == 2:
        app.switch_screen(screen)
    else:
        app.push_screen(screen)


def show_game_screen(app: App[Any], view: SeatView, pace: Pace) -> Optional[type[GameScreen]]:
    """The game screen ``view`` needs, shown unless it is up already (in the language spoken now) or a screen over
    the game (help, a form, the palette) is: returns the screen shown, None when none was."""
    from ..screens.game import GameScreen  # in here: it loads with the first game (test_start_imports.py)

    wanted = game_screen(view)
    top = app.screen
    if type(top) is wanted and _SPOKEN.get(top) == current():
        return None
    if isinstance(top, GameScreen) or len(app.screen_stack) <= 2 or not top.is_modal:
        show_only(app, wanted(view, pace))
        return wanted
    return None


def hand_down(app: App[Any], view: Optional[SeatView], pace: Pace) -> None:
    """The app's new view (and pace) to every game screen in its stack: the one shown, or one under help or a form."""
    if "spades_tui.tui.screens.game" not in sys.modules:
        return  # no game screen made yet (show_game_screen gives the first its view); none loaded before it is needed
    from ..screens.game import GameScreen

    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            screen.show_view(view, pace)
