"""A seat's own keeping at a network table: its seat file, and the game as its player's statistics count it.

``SeatKeeping`` (owned by ``client.TableClient``): the seat (address, token, and each hand's commitment and nonce)
lives in a small JSON file in the user data directory (``seats.SeatFile``), written atomically, so ``join``
again (or the start screen) takes it back; one seat per table game.  The game counts in this person's own
statistics as it goes (``stats_record``), and once over its record is kept in ``games/finished/``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from ...engine.record import GameRecord, PlayerInfo, replay
from ...engine.state import GameState, new_game
from ...i18n.language import _
from ...keep.meta import with_meta
from ...keep.slots import FINISHED_DIR, GAMES_DIR
from ...keep.storage import StorageError, atomic_write_text, private_dir
from .link import TableError
from .seat_file import SEATS_DIR, SeatFile, others_of

if TYPE_CHECKING:
    from ...engine.rules import Rules
    from ...session.view import HandResult


class SeatKeeping:
    """The seat file at ``seat_path`` (``saved``, once read or given), and this seat's game for its player's
    statistics and finished games; ``note`` tells the player of a seat that could not be saved."""

    def __init__(self, seat_path: Optional[Path], saved: Optional[SeatFile], note: Callable[[str], None]) -> None:
        self.seat_path = seat_path
        self.saved = saved
        self._note = note

    @property
    def file(self) -> SeatFile:
        if self.saved is None:
            raise TableError("no seat yet")
        return self.saved

    def save(self) -> None:
        if self.seat_path is None or self.saved is None:
            return
        try:
            private_dir(self.seat_path.parent)
            atomic_write_text(self.seat_path, json.dumps(self.saved.to_json()))
        except (OSError, StorageError) as exc:
            self._note(_("Your seat could not be saved ({problem}); if this window closes, join with the code "
                         "again is not possible.").format(problem=exc))

    def forget_others(self) -> None:
        """One seat per table game: the same game's seat kept for another address (the host moved) goes."""
        path, saved = self.seat_path, self.saved
        if path is None or saved is None or saved.code is None or path.parent.name != SEATS_DIR:
            return
        for other in others_of(path.parent.parent, path, saved.code):
            other.unlink(missing_ok=True)

    def abandoned(self) -> None:
        """The table no longer knows this seat (its game was ended or deleted there): not listed any more."""
        if self.saved is not None and not self.saved.over:
            self.saved.over = True
            self.save()

    def stats_record(self, seat: Optional[int], players: Optional[tuple[PlayerInfo, PlayerInfo]],
                     rules: Optional[Rules], hands: tuple[HandResult, ...], record: Optional[GameRecord]
                     ) -> Optional[tuple[GameRecord, GameState]]:
        """The game as this person's statistics count it (their ``seat`` a person's, the other a remote
        player's, by name): the scored ``hands`` so far, the whole ``record`` once over; None before a hand
        was scored."""
        saved = self.saved
        if saved is None or players is None or rules is None or seat is None or not (hands or record):
            return None
        mine = (PlayerInfo.person(players[0].name) if seat == 0 else PlayerInfo.remote(players[0].name),
                PlayerInfo.person(players[1].name) if seat == 1 else PlayerInfo.remote(players[1].name))
        # Its own id: the host's statistics count the same game under theirs, on their machine.
        game_id = "table-" + hashlib.sha256(saved.token.encode()).hexdigest()[:32]
        if record is not None:
            full = dataclasses.replace(record, players=mine)
            full = with_meta(full, game_id=game_id)
            try:
                return full, replay(full)
            except Exception:  # a host's record that does not replay: not counted
                return None
        first = hands[0].first_drafter
        record = with_meta(GameRecord(rules, first, mine), game_id=game_id)
        last = hands[-1]
        state = dataclasses.replace(new_game(rules, first), history=hands, scores=last.scores_after,
                                    bags=last.bags_after)
        return record, state

    def keep_finished(self, built: Optional[tuple[GameRecord, GameState]], over: bool) -> Optional[str]:
        """The finished game's record (``built``, as ``stats_record`` gave it; ``over``: the game's whole record
        came) in ``games/finished/`` of this user's data, like any finished game; a problem in words, or None."""
        path = self.seat_path
        if built is None or not over or path is None or path.parent.name != SEATS_DIR:
            return None
        target = path.parent.parent / GAMES_DIR / FINISHED_DIR / f"table-{path.stem.removeprefix('seat-')}.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, json.dumps(built[0].to_json(), ensure_ascii=False))
        except (OSError, StorageError) as exc:
            return _("The finished table game could not be kept: {problem}").format(problem=exc)
        return None
