"""The shuffle's ledger at a seat (docs/table-protocol.md; the crypto is wire/shuffle.py; the host's side is
host/ledger.py, in the same steps: the host's secret committed to, each seat's nonce back, the hand's key fixed
and the hand dealt, and once it is scored the secret and the nonces revealed).

``SeatLedger`` (owned by ``client.TableClient``): answers each ``commit`` with a fresh nonce (kept in the seat file
before it is sent), keeps what its seat saw of each unrevealed hand, and checks each ``reveal`` against it
(``shuffle.reconstruct_hand``): "verified", or a plain warning.  The hand rebuilt is also what the seat's
review of the hand is solved from.  "Verified" speaks of every hand played: a hand that was never revealed (by
the next hand's ``commit`` or by ``over``) warns like a wrong one.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...engine.observation import Observation
from ...engine.record import GameRecord, PlayerInfo
from ...engine.state import Phase
from ...i18n.language import N_, _, ngettext, translated
from ..wire import frames as f
from ..wire import shuffle
from ..wire.shuffle import (
    NONCE_BYTES,
    ShuffleMismatch,
    reconstruct_hand,
    verify_secret,
)

if TYPE_CHECKING:
    from ...engine.rules import Rules
    from ...session.view import HandResult
    from .keeping import SeatKeeping
    from .talk import SeatTalk

MAX_SEEN = 400  # observations kept of one hand (a hand has fewer actions), for its check
MAX_SEEN_HANDS = 3  # unrevealed hands whose observations are kept
MAX_RECOMMITS = 3  # a hand's commitment changed before its deal (a host restarting), per connection
MAX_REBUILT = 50  # revealed hands kept for their review (a game has fewer)
# A hand's verdict is kept in the seat file as these English words (data: a restarted client compares them), and
# said in the player's language (``verdict_words``).
NEVER_REVEALED = N_("the host never revealed this hand's shuffle: it was not checked, the cards may have been chosen")
NO_SEAT = N_("the shuffle could not be checked (no seat)")
NO_COMMITMENT = N_("the shuffle could not be checked: its commitment never came")
OTHER_SECRET = N_("the host revealed a secret other than the one it committed to: the cards may have been chosen")
SILENT_SHUFFLE = N_("the host shuffled without your nonce and did not say so")
OTHER_NONCE = N_("the host used a nonce other than yours: it could have chosen the cards")
NO_END = N_("the shuffle could not be checked: the end of the hand was not seen")
NO_RESULT = N_("the shuffle could not be checked: the hand's result was not seen")
OTHER_CARDS = N_("the host dealt cards other than those it committed to: {detail}")
NO_HAND = N_("the shuffle could not be checked: the host's views do not make a hand ({detail})")
_VERDICTS = (NEVER_REVEALED, NO_SEAT, NO_COMMITMENT, OTHER_SECRET, SILENT_SHUFFLE, OTHER_NONCE, NO_END, NO_RESULT)


def verdict_words(problem: str) -> str:
    """A hand's verdict as kept (English) in the player's language; the detail of a mismatch as it was found."""
    if problem in _VERDICTS:
        return translated(problem)
    for template in (OTHER_CARDS, NO_HAND):
        head, _rest = template.split("{detail}")
        if problem.startswith(head):
            return translated(template).format(detail=problem[len(head):].removesuffix(_rest))
    return problem


class SeatLedger:
    """A seat's side: the nonce it answers each commitment with, what it saw of each hand, each reveal checked.

    Built by the client with its seat file (``keeping``: the commitments, nonces and verdicts kept), its
    ``talk`` (a verdict or a warning said) and ``send`` (a nonce out, in the background); what the seat knows of
    the game (its seat, the rules, the hands played, its latest observation) comes with each call."""

    def __init__(self, keeping: SeatKeeping, talk: SeatTalk, send: Callable[[dict[str, Any]], None]) -> None:
        self._keeping = keeping
        self._talk = talk
        self._send = send
        self.rebuilt: dict[int, GameRecord] = {}  # the last revealed hands as records of their own, for the review
        self.seen: dict[int, dict[int, Observation]] = {}  # by hand, by record length: what the seat saw
        self._final: dict[int, tuple[int, Observation]] = {}  # by hand: (record length, observation) once scored
        self._late: set[int] = set()  # hands the host said were shuffled without our nonce
        self._pending: Optional[int] = None  # the hand whose commitment we answered, until it is dealt
        self.recommits = 0  # commitments changed before a deal, on this connection
        # The day's challenge (its client sets it): the server deals (``commit``/``reveal`` with ``fixed``), its key
        # committed to before the hand and checked after it, no nonce of ours in it.  Refused at any other table.
        self.fixed_allowed = False

    def kept(self) -> int:
        """How many things it holds from the host now (the client's memory bound)."""
        return sum(len(v) for v in self.seen.values()) + len(self._final) + len(self.rebuilt) + len(self._late)

    @property
    def verified(self) -> dict[int, Optional[str]]:
        """Each checked hand's verdict: None verified, else the warning (never-revealed hands included)."""
        saved = self._keeping.saved
        return saved.verified if saved is not None else {}

    def shuffle_problems(self) -> list[tuple[int, str]]:
        """(hand, what is wrong) for each hand played whose shuffle is not verified, reveals not yet due aside."""
        checks = self.verified
        return sorted((h, problem) for h, problem in checks.items() if problem is not None)

    def shuffle_summary(self, played: int) -> tuple[bool, str]:
        """Whether every one of the ``played`` hands is verified, and that in one sentence (the game-over screen,
        join --bot)."""
        checks = self.verified
        bad = self.shuffle_problems()
        waiting = [h for h in range(1, played + 1) if h not in checks]
        if bad:
            never = [h for h, problem in bad if problem == NEVER_REVEALED]
            wrong = [h for h, problem in bad if problem != NEVER_REVEALED]
            parts = []
            if wrong:
                parts.append(ngettext("hand {hands} did not verify", "hands {hands} did not verify",
                                      len(wrong)).format(hands=_hands(wrong)))
            if never:
                parts.append(ngettext("hand {hands} never revealed", "hands {hands} never revealed",
                                      len(never)).format(hands=_hands(never)))
            return False, _("WARNING: the shuffle is NOT verified: {problems}.").format(problems="; ".join(parts))
        if waiting:
            done = played - len(waiting)
            return False, ngettext("Shuffle verified for {done} of {played} hands; hand {hands} not revealed yet.",
                                   "Shuffle verified for {done} of {played} hands; hands {hands} not revealed yet.",
                                   len(waiting)).format(done=done, played=played, hands=_hands(waiting))
        if not played:
            return False, _("No hand played yet.")
        return True, (_("Shuffle verified for the one hand.") if played == 1 else
                      _("Shuffle verified for all {count} hands.").format(count=played))

    @staticmethod
    def _dealt(hand: int, played: int, obs: Optional[Observation]) -> bool:
        """Hand ``hand`` is being (or was) played (``played`` hands over, ``obs`` the latest): its shuffle is fixed."""
        return played >= hand or (obs is not None and obs.hand_number == hand and obs.phase is not Phase.SHUFFLE)

    def commit(self, m: f.Commit, played: int, obs: Optional[Observation]) -> None:
        """A ``commit``: answered with a fresh nonce, kept in the seat file before it is sent."""
        hand, commit = m.hand, m.commitment
        if self._keeping.saved is None:
            self._talk.warn(_("WARNING: the host sent a commitment before the seat was ours; it was dropped"))
            return
        expected = played + 1
        if hand != expected:
            self._talk.warn(_("WARNING: the host sent a commitment for hand {hand} while hand {next} is next; it was "
                              "dropped").format(hand=hand, next=expected))
            return
        seat = self._keeping.file
        known = seat.commitments.get(hand)
        if known is not None and known != commit:
            if self._dealt(hand, played, obs):  # the cards are out: a new commitment now would let the host choose them
                self._talk.warn(_("WARNING: the host changed its commitment for hand {hand} after dealing it; the new "
                                  "one was dropped (the reveal is checked against the first)").format(hand=hand))
                return
            # A host that restarted before the nonces came commits again: the new one counts, and a new nonce
            # (fresh, so that a host cannot pick its secret after seeing ours).  A few times, not endlessly.
            self.recommits += 1
            if self.recommits > MAX_RECOMMITS:
                self._talk.warn(_("WARNING: the host keeps changing its commitment for hand {hand}; dropped").format(
                    hand=hand))
                return
            seat.nonces.pop(hand, None)
        self.unrevealed(hand - 1, played)
        seat.commitments[hand] = commit
        if m.fixed and self.fixed_allowed:
            self._keeping.save()  # no nonce: the field plays the same deals
            return
        nonce = seat.nonces.get(hand) or secrets.token_bytes(NONCE_BYTES).hex()
        seat.nonces[hand] = nonce
        self._pending = hand
        self._keeping.save()  # before it is sent: a client that restarts checks the reveal with the nonce it sent
        self._send({"type": "nonce", "hand": hand, "nonce": nonce})

    def unrevealed(self, upto: int, played: int) -> None:
        """Every hand up to ``upto`` that was played and has no verdict was never revealed: it warns."""
        seat = self._keeping.saved
        if seat is None:
            return
        missing = [h for h in range(1, min(upto, played) + 1) if h not in seat.verified]
        for hand in missing:
            seat.verified[hand] = NEVER_REVEALED
            self._forget(hand)
            self._talk.note(_("WARNING: hand {hand}: {problem}").format(hand=hand,
                                                                         problem=verdict_words(NEVER_REVEALED)))
        if missing:
            self._keeping.save()

    def _forget(self, hand: int) -> None:
        self.seen.pop(hand, None)
        self._final.pop(hand, None)

    def late_nonce(self) -> bool:
        """The host said the hand answered last was shuffled without our nonce: True if one was awaited."""
        if self._pending is None:
            return False
        self._late.add(self._pending)  # the host's nonce timeout: hand dealt without our nonce, as said
        saved = self._keeping.saved
        if saved is not None:  # kept: a restarted client checks that hand's reveal the same way
            saved.late.add(self._pending)
            self._keeping.save()
        return True

    def saw(self, obs: Observation, at: int, hands: tuple[HandResult, ...]) -> None:
        """What the seat was sent, kept for its hand's check (bounded), until the hand is revealed."""
        if self._pending is not None and self._dealt(self._pending, len(hands), obs):
            self._pending = None
        number = obs.hand_number
        if number <= 0 or number in self.verified:
            return
        if obs.phase in (Phase.SHUFFLE, Phase.GAME_OVER) and len(hands) >= number:
            self._final.setdefault(number, (at, obs))
            return
        seen = self.seen.get(number)
        if seen is None:
            seen = self.seen[number] = {}
            while len(self.seen) > MAX_SEEN_HANDS:  # a host that skips hand numbers: the oldest goes
                del self.seen[min(self.seen)]
        if at in seen or len(seen) < MAX_SEEN:
            seen[at] = obs

    def reveal(self, m: f.Reveal, me: Optional[int], rules: Optional[Rules],
               players: Optional[tuple[PlayerInfo, PlayerInfo]], hands: tuple[HandResult, ...]) -> None:
        """A ``reveal``, checked against what seat ``me`` saw (None: a watcher, which checks nothing)."""
        hand, secret, nonces = m.hand, m.secret, m.nonces
        fixed = m.fixed and self.fixed_allowed
        seat = self._keeping.saved
        if seat is None or me is None:  # a watcher saw no card of its own: there is nothing of its to check
            return
        if hand in seat.verified:
            # Checked before (in this window or an earlier one): the verdict stays, a warning for good, and a
            # verified hand unless this reveal is itself a lie about the commitment or our nonce.
            lie = self._check_secret(hand, secret, nonces, me, fixed) if seat.verified[hand] is None else None
            if lie is not None:
                seat.verified[hand] = lie
                self._keeping.save()
                self._talk.note(_("WARNING: hand {hand}: {problem}").format(hand=hand, problem=verdict_words(lie)))
            return
        if hand > len(hands):
            self._talk.warn(_("WARNING: the host revealed hand {hand} before it was over; it was dropped").format(
                hand=hand))
            return
        problem = self._check(hand, secret, nonces, me, rules, players, hands, fixed)
        seat.verified[hand] = problem
        self._forget(hand)
        self._keeping.save()
        if problem is not None:
            self._talk.note(_("WARNING: hand {hand}: {problem}").format(hand=hand, problem=verdict_words(problem)))

    def _check_secret(self, hand: int, secret: bytes, nonces: tuple[Optional[bytes], Optional[bytes]], seat: int,
                      fixed: bool = False) -> Optional[str]:
        """The reveal against the commitment and our nonce: None if both hold."""
        saved = self._keeping.saved
        if saved is None:
            return NO_SEAT
        commit = saved.commitments.get(hand)
        if commit is None:
            return NO_COMMITMENT
        if not verify_secret(commit, secret):
            return OTHER_SECRET
        if fixed:
            return None  # the server's own deal (the day's challenge): committed to before the hand, no nonce in it
        mine = saved.nonces.get(hand)
        given = nonces[seat]
        if given is None:
            if hand not in self._late and hand not in saved.late:
                return SILENT_SHUFFLE
        elif mine is None or given.hex() != mine:
            return OTHER_NONCE
        return None

    def _check(self, hand: int, secret: bytes, nonces: tuple[Optional[bytes], Optional[bytes]], seat: int,
               rules: Optional[Rules], players: Optional[tuple[PlayerInfo, PlayerInfo]],
               hands: tuple[HandResult, ...], fixed: bool = False) -> Optional[str]:
        """None if the reveal gives every card this seat saw, else what is wrong, in words."""
        problem = self._check_secret(hand, secret, nonces, seat, fixed)
        if problem is not None:
            return problem
        assert rules is not None
        final = self._final.get(hand)
        if final is None:
            return NO_END
        end_at, final_obs = final
        if len(hands) < hand:
            return NO_RESULT
        final_obs = dataclasses.replace(final_obs, first_drafter=hands[hand - 1].first_drafter)
        key = secret if fixed else shuffle.hand_key(secret, nonces)  # the seat's own derivation, never the host's
        try:
            rebuilt = reconstruct_hand(rules, seat, final_obs, {}, key)
            start = end_at - len(rebuilt.actions)
            seen = {at - start: obs for at, obs in self.seen.get(hand, {}).items()}
            rebuilt = reconstruct_hand(rules, seat, final_obs, seen, key)
        except ShuffleMismatch as exc:
            return OTHER_CARDS.format(detail=exc)
        except Exception as exc:  # a host's view that no real hand could give
            return NO_HAND.format(detail=type(exc).__name__)
        self.rebuilt[hand] = GameRecord(rules, rebuilt.first_drafter, players, rebuilt.actions)
        while len(self.rebuilt) > MAX_REBUILT:
            del self.rebuilt[min(self.rebuilt)]
        return None


def _hands(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:12]))
    return _("{hands} and {count} more").format(hands=shown, count=len(numbers) - 12) if len(numbers) > 12 else shown

