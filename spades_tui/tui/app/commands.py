"""The command palette (ctrl+p): the game's commands, offered only where they make sense now.

This module never imports the app: the app hands it the facts it needs (``PaletteContext``, through
``CommandHost``), and a command runs an action, of the app (``app.…``) or of the screen the palette
was opened from (the hint panel's ``hints``, as its key ``h`` does).  No command names or shows a
card: the names and help are fixed words, the saved games' labels are names, scores and dates.  On
a hot-seat hand-off no command shows the waiting player's cards: hints are not offered there (the
screen's own ``hints`` action is off), and every other command either opens a screen without cards
or leaves the game for the start screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from inspect import isawaitable
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence, Union, runtime_checkable

from textual.app import SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.screen import Screen

from ...i18n.language import _
from ..screens.game import GameScreen
from ..startlist import ResumeChoice
from ..widgets.plain import plain_content


@dataclass(frozen=True)
class PaletteContext:
    """What the app knows that decides which commands make sense."""

    in_game: bool = False
    hints_on: bool = False
    review_on: bool = False
    resumable: tuple[ResumeChoice, ...] = ()  # saved games free to resume, other than the one in play
    served: bool = False  # a browser tab's game (spades-tui serve): no file is loaded by path
    invite: bool = False  # a network table's seat that has its codes: its invite and watch code may be shown
    invite_used: bool = False  # ... and someone sat down with the invite: its code seats no one else


@runtime_checkable
class CommandHost(Protocol):
    """The app, as the palette sees it."""

    def palette_context(self) -> PaletteContext: ...


@dataclass(frozen=True)
class Where:
    """What the screen the palette was opened from allows."""

    hints: bool = False  # the hint panel can be shown or hidden there (its ``h`` key works)
    help: bool = False  # it is the help screen
    stats: bool = False  # it is the statistics screen
    settings: bool = False  # the app has a settings screen (action_settings) and it is not this one


@dataclass(frozen=True)
class PaletteCommand:
    name: str
    help: str
    # An action run on the calling screen ("app.x" is the app's, a bare name the screen's), or Textual's
    # own callback for one of its system commands.
    action: Union[str, Callable[[], Any]]


def game_commands(ctx: PaletteContext, where: Where, system: Sequence[PaletteCommand] = ()) -> list[PaletteCommand]:
    """The commands to offer, in the order the empty palette lists them; ``system``: Textual's (the theme).

    In a game, what concerns it comes first and the commands that leave it after; on the start
    screen, its own order: new game, resume, load.
    """
    leave = " " + _("This game stays saved.") if ctx.in_game else ""
    games = [
        PaletteCommand(_("New game against the bot"), _("Choose the bot, the names and the rules.") + leave,
                       "app.new_game('bot')"),
        PaletteCommand(_("New hot-seat game"), _("Two people at one keyboard.") + leave, "app.new_game('hotseat')"),
        *[PaletteCommand(choice.label, _("Continue this saved game where it stopped.") + leave,
                         f"app.resume_saved({str(choice.path)!r})") for choice in ctx.resumable],
        *([] if ctx.served else
          [PaletteCommand(_("Load a game record"), _("Continue a game from a record file.") + leave,
                          "app.load_record")]),
    ]
    here = []
    if ctx.invite_used:  # the invite's code seated its player: the watch code is what lets anyone else in
        here += [PaletteCommand(_("Invite"), _("This table's invite was used: who holds its seat and what takes them "
                                               "back to it, and the watch code, to copy."), "app.invite('watch')"),
                 PaletteCommand(_("Watch code"), _("The command that watches this table (the public view, no hand), "
                                                   "on the screen, to copy."), "app.invite('watch')")]
    elif ctx.invite:  # a watcher is never offered these: it has neither code
        here += [PaletteCommand(_("Invite"), _("This table's invite (spades-tui join) and its watch code, on the "
                                               "screen, to copy."), "app.invite('join')"),
                 PaletteCommand(_("Watch code"), _("The command that watches this table (the public view, no hand), "
                                                   "and the invite, on the screen, to copy."), "app.invite('watch')")]
    if where.hints:
        here.append(PaletteCommand(_("Turn hints off") if ctx.hints_on else _("Turn hints on"),
                                   _("Show or hide the hint panel (the h key)."), "hints"))
    if ctx.in_game:
        here.append(PaletteCommand(_("Turn review off") if ctx.review_on else _("Turn review on"),
                                   _("Open the review of every hand as it ends."), "app.toggle_review"))
    if not where.stats:
        here.append(PaletteCommand(_("Statistics"),
                                   _("Your games, win rate per opponent, bids, Nil, bags, recent scores."),
                                   "app.statistics"))
    if where.settings:
        here.append(PaletteCommand(_("Settings"), _("Theme, four-colour deck, hints, review, bot pause, new games' "
                                                    "defaults."), "app.settings"))
    here += system
    if not where.help:
        here.append(PaletteCommand(_("Help"), _("How to play this screen, every key, the guide."), "app.help"))
    quit_ = PaletteCommand(_("Quit"), _("The game is saved after every move; start spades-tui again to resume it."),
                           "app.quit")
    return [*here, *games, quit_] if ctx.in_game else [*games, *here, quit_]


def where(screen: Screen[Any]) -> Where:
    hints = isinstance(screen, GameScreen) and screen.check_action("hints", ()) is True
    # The screens a command opens say which (``PALETTE_COMMAND``), rather than being imported here: the app
    # imports the settings and help screens only when first opened (a faster start), and so does this.
    opened_by = getattr(screen, "PALETTE_COMMAND", None)
    settings = hasattr(screen.app, "action_settings") and opened_by != "settings"
    return Where(hints=hints, help=opened_by == "help", stats=opened_by == "stats", settings=settings)


def system_commands(commands: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Of Textual's own commands only the theme, as "Change theme".

    Its Quit would say nothing of the saved game (ours does), Keys duplicates F1 less well, and a
    screenshot would write a file of the screen, a player's cards included, into the current folder.
    """
    for command in commands:
        if command.title == "Theme":  # Textual's words: in the player's language here
            yield command._replace(title=_("Change theme"), help=_("Change the current theme"))


RESUME_DISCOVERED = 8  # saved games the empty palette lists


class GameCommands(Provider):
    """The game's commands and the app's system commands, worked out once when the palette opens.

    The one provider of the app (``App.COMMANDS``): with Textual's system provider beside it, the
    empty palette would list the two providers' commands in whichever order their tasks ran.
    """

    commands: list[PaletteCommand]

    async def startup(self) -> None:
        app = self.app
        ctx = app.palette_context() if isinstance(app, CommandHost) else PaletteContext()
        system = [PaletteCommand(c.title, c.help, c.callback)
                  for c in app.get_system_commands(self.screen) if c.discover]
        self.commands = game_commands(ctx, where(self.screen), system)

    async def _run(self, action: Union[str, Callable[[], Any]]) -> None:
        if isinstance(action, str):
            await self.screen.run_action(action)
        else:
            result = action()
            if isawaitable(result):
                await result

    async def discover(self) -> Hits:
        resumes = 0
        for command in self.commands:
            # The most recent saved games only (the start screen's first few): typing finds any other, and
            # hundreds of entries would make the palette slow to open.
            if isinstance(command.action, str) and command.action.startswith("app.resume_saved("):
                resumes += 1
                if resumes > RESUME_DISCOVERED:
                    continue
            # Content, not a str: a str is read as markup, and a resume entry holds the players' names.
            yield DiscoveryHit(plain_content(command.name), partial(self._run, command.action), text=command.name,
                               help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.commands:
            score = matcher.match(command.name)
            if score > 0:
                yield Hit(score, highlight(matcher, command.name), partial(self._run, command.action),
                          text=command.name, help=command.help)


def highlight(matcher: Matcher, text: str) -> Content:
    """``Matcher.highlight`` without reading ``text`` as markup (it calls ``Content.from_markup``)."""
    content = plain_content(text)
    if content.plain != text:  # escapes shown: the offsets would not match, so no highlight
        return content
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    if not score:
        return content
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
