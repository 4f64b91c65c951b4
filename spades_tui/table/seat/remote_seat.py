"""A seat at a network table as the interface drives a game: what ``Session`` offers, for a client.

The app draws a ``SeatView`` and hands decisions back; at a table the view comes from the host's
``update`` frames and a decision goes back as an ``act``.  Hints are computed here from the seat's
own observation (the hint service, as in a local game), the review from the hand rebuilt from the
host's reveal.  There is no take-back and no replay at a table (the other player is a person), and
the statistics count the game as it goes (``record_stats``).  ``RemoteSeat`` is a ``session.seat.Seat``: the
interface plays it as it plays a game at this keyboard.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from ...engine.actions import PlayerAction
from ...engine.observation import Observation
from ...engine.state import Phase
from ...i18n.language import _, ngettext
from ...keep.meta import CHALLENGE_HANDS
from ...keep.stats import StatsRecorder
from ...session.hintdesk import HintDesk
from ...session.reviewdesk import ReviewDesk
from ...session.seat import Job, Seat, ViewSwitches
from ...session.view import SAID_KEPT, ChallengeView, SeatView
from ..wire import protocol as p
from .client import TableClient

T = TypeVar("T")

# A watcher's hand summary moves on by itself once the players have begun the next hand (they read their own
# summaries meanwhile), but never before it has been on the screen this long: two bots deal on at once.
SUMMARY_HELD = 6.0


class RemoteSeat(ViewSwitches):
    """The seat of ``client``, for the interface; ``on_change`` is called whenever the view changed."""

    def __init__(self, client: TableClient, *, hints: bool = True, show_hints: bool = False,
                 auto_review: bool = False, hint_samples: Optional[int] = None,
                 invite_at: Optional[str] = None) -> None:
        """``invite_at``: the address the invite and the watch command name (a browser's page serves the table
        at another address than this seat connects to); None: the address this seat connects to."""
        self.client = client
        self.invite_at = invite_at
        self.hints = hints and not client.challenge  # the day's challenge: no hints, as the field and the par had none
        super().__init__(show_hints=show_hints and self.hints, auto_review=auto_review)
        self._hints = HintDesk(hint_samples, self._hint_token)
        self._reviews = ReviewDesk(self._hand_over, self.client.review_job, self.changed)
        self._sent: Optional[int] = None  # the record length a decision was sent for, until the host answers
        self._sent_on = 0  # the connection (client.connections) it was sent on
        self._summary: Optional[SeatView] = None  # the finished hand's summary, kept until the person moves on
        # The view built for the last change (a host frame, the link, a choice sent, a hint or review come, a
        # switch): built once, then read by whoever asks until the next change.
        self._built: Optional[SeatView] = None
        self._stale = True
        self._built_at_end = False  # that view was built once the host's end had come, or the link had gone
        self._read = 0  # the hands whose summary the person has moved on from
        self._summary_shown: Optional[float] = None  # a watcher's: when the summary kept was first drawn
        self._recheck: Optional[asyncio.TimerHandle] = None  # a watcher's: the look once it has been up long enough
        self._tasks: set[asyncio.Future[Any]] = set()
        self.told = 0  # the client's notices already shown
        self.news_told = 0  # the other seat's comings and goings already said
        self._kept = False  # the finished game's record was written to games/finished/
        self.told_down = False  # the player was told the table went away

    # ------------------------------------------------------------ what the app reads

    @property
    def forfeit(self) -> Optional[str]:
        o = self.client.outcome
        return o.forfeit.reason if o is not None and o.forfeit is not None else None

    @property
    def actions(self) -> int:
        return self.client.at

    @property
    def vs_bot(self) -> bool:
        return False  # the other seat is a person's, at their own screen

    @property
    def bot_thinking(self) -> bool:
        return False  # no bot plays at this screen (the host's bot, if any, thinks there)

    def table_line(self) -> str:
        """The panel's lines about the table: the other seat's connection and the shuffle of every hand so far
        (a hand never revealed is as loud as one that did not verify)."""
        from .ledger import NEVER_REVEALED

        client = self.client
        seat = client.seat
        lines = [_("Rated game")] if client.table_rated else []
        if not client.link_up:
            if client.taken:
                lines += _("SEAT TAKEN from another\nwindow").split("\n")
            else:
                lines.append(_("NOT CONNECTED: waiting for the table"))
                if client.retry is not None:
                    lines.append(_("trying again in {seconds} s (try {attempt})").format(
                        seconds=p.decimal(client.retry[1]), attempt=client.retry[0]))
                elif client.gave_up is not None:
                    lines.append(client.gave_up)
        elif seat is not None and client.players is not None:
            other = client.players[1 - seat].name
            there = _("{player} connected") if client.connected[1 - seat] else _("{player} disconnected")
            lines.append(there.format(player=other))
        if client.watching and client.link_up:
            lines.append(_("Watching: the public view"))
        if client.talk.chat:
            lines.append(p.chat_line(*client.talk.chat[-1]))
        invite = client.invite_commands(self.invite_at)
        if invite is not None and client.link_up and seat is not None and not client.connected[1 - seat] \
                and client.outcome is None:  # over: nobody comes back to it
            lines += [_("They come back with:"), p.way_back(invite[0])]  # both sat: the invite's code is used
        bad = client.shuffle_problems()
        played = client.played
        if client.watching:
            pass  # a watcher checks no shuffle: it saw no card of its own
        elif bad:
            lines.append(_("SHUFFLE NOT VERIFIED"))
            for hand, problem in bad[:3]:
                verdict = _("hand {hand}: never revealed") if problem == NEVER_REVEALED else \
                    _("hand {hand}: did not verify")
                lines.append(verdict.format(hand=hand))
            if len(bad) > 3:
                lines.append(ngettext("and {count} more hand", "and {count} more hands", len(bad) - 3).format(
                    count=len(bad) - 3))
        elif played:
            good = sum(1 for h in range(1, played + 1) if h in client.verified)
            every = _("(the one hand)") if played == 1 else _("(all {count} hands)").format(count=played)
            lines += [_("shuffle verified"), every if good == played else
                      ngettext("({good} of {count} hand)", "({good} of {count} hands)", played).format(
                          good=good, count=played)]
        return "\n".join(lines)

    def view(self) -> SeatView:
        """The seat's view now; the summary of a finished hand stays until the person moves on (a watcher's,
        until the players have begun the next hand and it has been up ``SUMMARY_HELD`` seconds)."""
        if self._summary is not None and self.client.outcome is None:
            if self.client.watching and self._summary_shown is None:  # asked for to be drawn: it is up from now
                self._summary_shown = time.monotonic()
                self._look_again(SUMMARY_HELD)
            return self._summary
        view = self._view()
        assert view is not None
        return view

    def live_view(self) -> Optional[SeatView]:
        """The view for the change last made, never held at a hand's summary (as ``view`` holds it for the eye):
        line mode's watcher says every hand as it is played, and two bots play a hand faster than the hold."""
        return self._view()

    def _view(self) -> Optional[SeatView]:
        """The view for the change last made, built once (``_build``) and kept until the next change."""
        if self._stale or self._built is None:
            self._built = self._build()
            self._stale = self._built is None
            self._built_at_end = self.client.outcome is not None or not self.client.link_up
        return self._built

    def end_heard(self) -> bool:
        """The view now built was built once the host's ``over`` had come (or the link had gone): its shuffle
        line is whole.  Line mode says the end from such a view only: the client's own state runs ahead of the view,
        which is built again a moment after a frame, when the change is told (a view of the last update, before
        the last hand's reveal, said "Shuffle verified for 4 of 5 hands")."""
        self._view()
        return self._built_at_end

    def _touch(self) -> None:
        """Something the view shows changed here (not in a host frame): it is built again when next asked."""
        self._stale = True

    def _build(self) -> Optional[SeatView]:
        client = self.client
        sent = self._sent is not None and self._sent == client.at  # sent: waiting for the host's answer
        invite = client.invite_commands(self.invite_at) if not client.watching else None
        table = dict(invite=invite[0] if invite else "", watch_invite=invite[1] if invite else "",
                     invite_taken=client.invite_taken() if invite else None, lines=self.table_line(),
                     said=tuple(client.talk.chat)[-SAID_KEPT:],
                     shuffle=(client.shuffle_summary()[1] if client.played and not client.watching
                              else ""),  # a watcher checks no shuffle
                     rated=client.table_rated, claim_after=client.claim_after, gone_since=client.gone_since,
                     ratings=client.rating_lines())
        facts: dict[str, Any] = dict(show_hints=self.show_hints, auto_review=self.auto_review,
                                     hint=None if sent else self._hints.current(), review=self._reviews.current(),
                                     field=client.standings, challenge=self._challenge())
        return client.view(table, offer=not sent, **facts)

    def _challenge(self) -> Optional[ChallengeView]:
        """The day's challenge at a server: its code and this seat's margins so far (the par is the field's)."""
        client = self.client
        if not client.challenge or client.seat is None:
            return None
        me = client.seat
        mine = tuple(h.points[me] - h.points[1 - me] for h in client.hands)
        return ChallengeView(client.challenge_code or "today", mine[:CHALLENGE_HANDS], None, None)

    @property
    def ready(self) -> bool:
        return self._view() is not None

    def set_switches(self, *, show_hints: Optional[bool] = None, auto_review: Optional[bool] = None) -> None:
        super().set_switches(show_hints=show_hints, auto_review=auto_review)
        self._touch()

    def changed(self) -> None:
        """Called on every message from the host (and on the link's changes): the view built for it, once; a
        finished hand's summary kept until it is read."""
        client = self.client
        if self._sent is not None and (client.at != self._sent or client.connections != self._sent_on):
            self._sent = None  # answered, or sent on a connection that dropped: asked again, never lost
        self._touch()
        view = self._view()
        if view is None:
            return
        if view.phase is Phase.SHUFFLE and view.hands and self._summary is None and view.outcome is None \
                and len(view.hands) != self._read:
            self._summary = view
        elif self._summary is not None:
            # The hand's review and the shuffle check come after the summary was kept: keep it fresh.
            if view.phase is Phase.SHUFFLE and len(view.hands) == len(self._summary.hands):
                self._summary = view
            elif self.client.watching and self._summary_read():
                self.next_hand()  # the players began the next hand: a watcher moves on with them
            else:
                self._summary = replace(self._summary, review=view.review, table_facts=view.table_facts)

    def _summary_read(self) -> bool:
        """A watcher's summary has been on the screen ``SUMMARY_HELD`` seconds (else a look is due then)."""
        shown = self._summary_shown
        if shown is None:
            return False  # never drawn yet: not lost before it was seen at all
        left = shown + SUMMARY_HELD - time.monotonic()
        if left > 0:
            self._look_again(left)
        return left <= 0

    def _look_again(self, after: float) -> None:
        """Ask for the view again in ``after`` seconds: the next hand may have begun with no update since."""
        if self._recheck is not None:
            self._recheck.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a view asked for outside the app): the next update looks again
            self._recheck = None
            return
        self._recheck = loop.call_later(max(0.0, after), self._look)

    def _look(self) -> None:
        self._recheck = None
        if self._summary is not None:
            self.client.on_change()  # as after a message: changed(), then the screen drawn again

    def notices(self) -> list[str]:
        """What to tell the player once (a late nonce, a shuffle that did not verify, the host's errors)."""
        new, self.told = self.client.talk.notices_since(self.told)
        return new

    # ------------------------------------------------------------ what the person does

    def act(self, action: PlayerAction) -> Optional[str]:
        view = self._view()
        if view is None or not view.legal:
            return None  # a key pressed again before the screen showed the decision sent: nothing to do
        if action not in view.legal:
            return _("that is not one of your choices")
        self._sent, self._sent_on = view.actions, self.client.connections
        self._touch()  # sent: no choice offered until the host answers
        self._spawn(self._send(action, view.actions))
        return None

    async def _send(self, action: PlayerAction, at: int) -> None:
        if not await self.client.act(action) and self._sent == at:
            self._sent = None  # not sent (the link is down): the choice is offered again once it is back
            self._touch()
            self.client.on_change()

    def reveal(self) -> None:
        """No hand-off at a table: each seat has its own screen."""

    def next_hand(self) -> None:
        """From the summary: on to the hand in play (the host deals it; the summary was only kept here)."""
        if self._summary is not None:
            self._read = len(self._summary.hands)  # that summary is not held again
        self._summary, self._summary_shown = None, None
        self._touch()
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None

    def take_back(self) -> bool:
        return False

    def replay_hand(self) -> bool:
        return False

    def note_save_problem(self, problem: str) -> None:
        self.client.talk.note(problem)

    def record_stats(self, recorder: Callable[[], Optional[StatsRecorder]]) -> Optional[str]:
        """This person's own statistics of the table game (each scored hand, the result), as the host's are
        kept on its machine; once over, the record is kept in ``games/finished/`` like any finished game."""
        built = self.client.stats_record()
        if built is None:
            return None
        problem = None
        if self.client.record is not None and not self._kept:
            self._kept = True
            problem = self.client.keep_finished()
        writer = recorder()
        said = writer.record(*built) if writer is not None else None
        return said or problem

    def jobs(self) -> list[Job[Any]]:
        """The review of a hand just finished (once the host revealed it), this seat's hint: each once."""
        asked = self.hint_request()
        hint = self._hints.job(*asked) if asked is not None else None
        found = (self._reviews.job(), self._touching(hint) if hint is not None else None)
        return [job for job in found if job is not None]

    # ------------------------------------------------------------ hints, from this seat's observation

    def _touching(self, job: Job[T]) -> Job[T]:
        """``job``, whose result changes the view (a hint come: Enter's default is its recommendation)."""
        def done(result: T) -> None:
            job.done(result)
            self._touch()

        return Job(job.kind, job.start, done)

    def _hint_token(self) -> Optional[tuple[int, int]]:
        """This seat's decision now, from the client's state (no view is built for it): the record length and
        the seat, while a choice is offered and no summary is kept."""
        client = self.client
        offered = client.legal and client.outcome is None and client.link_up and client.seat is not None
        if not offered or client.observation is None or self._summary is not None:
            return None
        return (client.at, client.seat or 0)

    def hint_request(self) -> Optional[tuple[tuple[int, int], Observation, tuple[PlayerAction, ...]]]:
        obs = self.client.observation
        if not self.hints or obs is None:
            return None
        token = self._hints.ask()
        return (token, obs, self.client.legal) if token is not None else None

    # ------------------------------------------------------------ the review, from the reveal

    def _hand_over(self) -> int:
        hands = self.client.hands
        obs = self.client.observation
        phase = self._summary.phase if self._summary is not None else obs.phase if obs is not None else None
        if not hands or phase not in (Phase.SHUFFLE, Phase.GAME_OVER):
            return 0
        return len(hands)

    # ------------------------------------------------------------ the end

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None
        self._spawn(self.client.stop())

    def close_all(self) -> None:
        self.close()
        self._hints.close()

    def warm(self) -> None:
        """Nothing to start: the other seat plays at the host."""


if TYPE_CHECKING:
    def _a_seat(remote: RemoteSeat) -> Seat:
        return remote  # mypy proves that a seat at another's table is a Seat the interface can play
