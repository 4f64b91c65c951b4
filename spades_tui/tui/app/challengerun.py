"""The daily challenge at this screen (``spades-tui challenge``, the start screen's "Today's challenge", issue 40):
four hands against the expert on the challenge's stocks, saved like any game, its result kept apart.

``ChallengeRun`` asks the app only what ``ChallengeOwner`` says; the app's ``@on`` handler for ``StartChallenge`` is
one line calling it.  A saved game whose record names a challenge is played as one wherever it is started from (the
app asks ``session_for``): resumed from the start screen, loaded from a file, or begun here.  The challenge's
modules load only when a challenge starts (test_start_imports.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

from ...i18n.language import N_, _, translated

if TYPE_CHECKING:
    from ...keep.slots import Slot
    from ...session.seat import Seat
    from ...session.view import GameRecord
    from ...settings.options import LaunchOptions
    from ...settings.preferences import Preferences
    from .network import NetworkTable
    from .saved import SavedGames


class ChallengeOwner(Protocol):
    """What the challenge asks of the app."""

    data_dir: Optional[Path]
    saved_games: SavedGames
    network_table: NetworkTable
    options: LaunchOptions

    @property
    def prefs(self) -> Preferences: ...

    def show_start(self, message: Optional[str] = None) -> None: ...

    def say(self, text: str, severity: str = "information", timeout: Optional[float] = None) -> None: ...

    def _start(self, record: GameRecord, *, seed: Optional[int], slot: Optional[Slot] = None) -> None: ...

    @property
    def session(self) -> Optional[Seat]: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...


# Three paragraphs, each a message (marked here, in the player's language where shown).
INTRO = (N_("Four hands of standard Spades against the expert bot, on the day's deals: the same four for every "
            "player, so results can be compared."),
         N_("Your result is your margin, your points less the bot's, added up over the four hands, and it is scored "
            "against the par: the margin the expert itself made in your seat on the same deals. Beat it and you are "
            "over par."),
         N_("No hints and no take-backs: the par was made without them. Each hand's summary and review (r) are as in "
            "any game; left half-way, the challenge goes on where you left it."))


def is_challenge(record: GameRecord) -> bool:
    from ...keep.meta import RecordMeta

    return RecordMeta.of(record).challenge is not None


class ChallengeRun:
    def __init__(self, app: ChallengeOwner) -> None:
        self.app = app

    @property
    def book(self) -> Optional[Path]:
        """The results file (None: nothing is kept, as for a test's app without a data folder)."""
        from ...keep.challenges import CHALLENGES_NAME

        return self.app.data_dir / CHALLENGES_NAME if self.app.data_dir is not None else None

    def start(self, code_text: Optional[str], server: bool = False) -> None:
        """The challenge of ``code_text`` (None: today's): its unfinished game resumed if there is one, else a new
        one (practice when it was played before); ``server``: today's at the table server, against the field."""
        if server:
            from .fieldrun import start

            start(self.app.network_table)
            return
        from ...keep.challenges import ChallengeBook, ChallengeFileError
        from ...session.challenge import ChallengeCode, ChallengeError, challenge_record

        app = self.app
        try:
            code = ChallengeCode.parse(code_text) if code_text is not None else ChallengeCode.today()
            if self.book is not None:
                ChallengeBook.load(self.book)  # a damaged file refused now, not once the four hands are played
        except (ChallengeError, ChallengeFileError) as exc:
            app.show_start(_("The challenge cannot start: {problem}").format(problem=exc))
            return
        found = app.saved_games.challenge_game(str(code))
        if found is not None:
            slot, record = found
            app._start(record, seed=None, slot=slot)
            app.say(_("Challenge {code}: your game goes on where you left it.").format(code=code), timeout=4)
            return
        from ..screens.choice import ChoiceScreen

        def begin(choice: Optional[str]) -> None:
            if choice != "start":
                app.show_start()
                return
            app._start(challenge_record(code, (app.prefs.player_name, _("Bot ({level})").format(level="expert"))),
                       seed=None)
            on_record = getattr(app.session, "on_record", None)
            if on_record is not None:  # said at its start, and by the score panel all through
                app.say(_("You have played the challenge {code} before: this play is practice, your result on "
                          "record stays.").format(code=code), timeout=6)

        # What it is before its first card: the par, and that hints and take-backs are off (issue 52: the draft
        # against the expert came with no word of either).
        intro = "\n\n".join(translated(paragraph) for paragraph in INTRO)
        app.push_screen(ChoiceScreen(_("Challenge {code}").format(code=code), intro,
                                     [("start", _("Start the challenge")), ("back", _("Back to the start screen"))],
                                     name="challenge-intro"), begin)

    def session_for(self, record: GameRecord, options: dict[str, Any]) -> Seat:
        """The session that plays a challenge's ``record`` (``options`` as for any game's session)."""
        from ...session.challenge import ChallengeSession

        options.pop("allowed_cmd", None)  # its bot is the challenge's expert, whatever the command line said
        return ChallengeSession(record, book=self.book, **options)
