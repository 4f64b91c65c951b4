"""The day's challenge at a server, against the field (docs/serving.md, "The day's challenge"): the server's
secret, each player's one entry a day and the par, and the duplicate scoring.

No Textual, no network.  The entries and the par live in the server's ``players.sqlite3`` beside the ratings
(its tables ``challenge_entries`` and ``challenge_pars``, keep/players.py's second migration), written the same
way: one transaction each, WAL, ``synchronous=FULL``, so a kill -9 loses no finished entry.

Matchpoints (duplicate scoring, as bridge players know it): on each hand, an entry gets 2 for each other entry
whose margin it beats and 1 for each it ties, out of 2 for each other entry; that as a percentage is the hand's
score, and the day's score is the mean of the four hands' percentages.  The par (the expert in both seats)
stands as one more entry, named "Par".  An entry alone on a hand (nobody else, no par yet) has 50%: the
average, as a lone board is scored in bridge.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from ..i18n.language import _, ngettext
from .meta import CHALLENGE_HANDS
from .storage import private_dir

SECRET_NAME = "challenge-secret"  # in the server's data folder: 32 random bytes, 0600, made at the first start
SECRET_BYTES = 32
PAR_NAME = "Par"
MAX_MARGIN = 10_000
MAX_ENTRIES = 10_000  # entries listed for one day (the players database holds at most --max-players)


class FieldError(Exception):
    """The server's challenge secret cannot be used: the message says which file and why."""


def server_secret(data_dir: Path) -> bytes:
    """The server's challenge secret: made once (0600, never through a link), then read; ``FieldError`` if the
    file is not one (it is never overwritten: every day's stocks and their standings depend on it)."""
    path = data_dir / SECRET_NAME
    private_dir(data_dir)
    if os.path.lexists(path):
        return _read_secret(path)
    try:  # written whole beside it, then linked into place: a kill -9 leaves no half secret, and never replaces one
        fd, tmp = tempfile.mkstemp(prefix=f".{SECRET_NAME}.", dir=data_dir)
        try:
            os.write(fd, os.urandom(SECRET_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another start made it first: theirs stands
        finally:
            os.unlink(tmp)
    except OSError as exc:
        raise FieldError(_("cannot make {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    return _read_secret(path)


def _read_secret(path: Path) -> bytes:
    try:
        found = path.lstat()
        if not stat.S_ISREG(found.st_mode):
            raise FieldError(_("{path} is not a regular file: the server will not start. Move it away.").format(
                path=path))
        data = path.read_bytes()
    except OSError as exc:
        raise FieldError(_("cannot read {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    if len(data) != SECRET_BYTES:
        raise FieldError(ngettext(
            "{path} is damaged (it holds {count} byte, not {bytes}): the server will not start, and it is left as it "
            "is (the day's challenges depend on it). Restore it from a backup, or move it away to start with a new "
            "one.",
            "{path} is damaged (it holds {count} bytes, not {bytes}): the server will not start, and it is left as it "
            "is (the day's challenges depend on it). Restore it from a backup, or move it away to start with a new "
            "one.", len(data)).format(path=path, count=len(data), bytes=SECRET_BYTES))
    return data


# ------------------------------------------------------------ the duplicate scoring (pure)

def hand_matchpoints(margins: Sequence[int]) -> list[tuple[int, int]]:
    """Each entry's (matchpoints, the most it could get) on one hand, from every entry's margin on it."""
    top = 2 * (len(margins) - 1)
    return [(sum(2 if m > o else 1 if m == o else 0 for j, o in enumerate(margins) if j != i), top)
            for i, m in enumerate(margins)]


def percent(points: int, top: int) -> float:
    """Matchpoints as a percentage of the most; a lone entry (nothing to beat) has the average, 50%."""
    return 100.0 * points / top if top else 50.0


@dataclass(frozen=True)
class Standing:
    """One entry of a day's field, scored against the rest."""

    name: str
    hands: tuple[int, ...]  # its margin on each hand
    hand_percents: tuple[float, ...]  # its matchpoints on each hand, as a percentage
    percent: float  # the mean of the hands' percentages
    rank: int  # 1 the best; equal scores share a rank
    par: bool = False
    player: Optional[int] = None

    def to_json(self, you: Optional[int] = None, with_hands: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "percent": round(self.percent, 2), "rank": self.rank,
                                "par": self.par, "you": you is not None and self.player == you}
        if with_hands:
            data["hands"] = list(self.hands)
            data["hand_percents"] = [round(h, 2) for h in self.hand_percents]
        return data


def standings(entries: Sequence[tuple[str, tuple[int, ...], Optional[int]]],
              par: Optional[tuple[int, ...]]) -> list[Standing]:
    """The field scored: ``entries`` (name, margins, player id) and the par as one more entry; best first."""
    field = list(entries) + ([(PAR_NAME, par, None)] if par is not None else [])
    if not field:
        return []
    per_hand = [hand_matchpoints([e[1][h] for e in field]) for h in range(CHALLENGE_HANDS)]
    scored = []
    for i, (name, hands, player) in enumerate(field):
        pcts = tuple(percent(*per_hand[h][i]) for h in range(CHALLENGE_HANDS))
        scored.append((sum(pcts) / CHALLENGE_HANDS, name, hands, pcts, player, par is not None and i == len(entries)))
    scored.sort(key=lambda s: -s[0])
    found: list[Standing] = []
    for place, (score, name, hands, pcts, player, is_par) in enumerate(scored, 1):
        rank = found[-1].rank if found and abs(found[-1].percent - score) < 1e-9 else place
        found.append(Standing(name, hands, pcts, score, rank, is_par, player))
    return found


# ------------------------------------------------------------ kept in the players database

def _hands(text: str) -> Optional[tuple[int, ...]]:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if isinstance(value, list) and len(value) == CHALLENGE_HANDS and all(
            type(v) is int and abs(v) <= MAX_MARGIN for v in value):
        return tuple(value)
    return None


class FieldBook:
    """The entries and the pars of the server's challenges, in the players database ``conn`` (PlayerStore's)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def entry(self, day: str, preset: str, player: int) -> Optional[tuple[int, ...]]:
        """The margins of ``player``'s entry of that day's challenge (None: none yet)."""
        row = self.conn.execute("SELECT hands FROM challenge_entries WHERE day = ? AND preset = ? AND player = ?",
                                (day, preset, player)).fetchone()
        return _hands(row[0]) if row is not None else None

    def add_entry(self, day: str, preset: str, player: int, name: str, hands: tuple[int, ...], finished: float,
                  game_id: str) -> bool:
        """``player``'s entry of the day, in one transaction; False if they have one already (the first stands)."""
        if len(hands) != CHALLENGE_HANDS:
            raise ValueError(f"an entry has {CHALLENGE_HANDS} hands")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.conn.execute(
                "INSERT OR IGNORE INTO challenge_entries (day, preset, player, name, hands, finished, game_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)", (day, preset, player, name, json.dumps(list(hands)), finished,
                                                  game_id))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        return cursor.rowcount == 1

    def par(self, day: str, preset: str) -> Optional[tuple[int, ...]]:
        row = self.conn.execute("SELECT hands FROM challenge_pars WHERE day = ? AND preset = ?",
                                (day, preset)).fetchone()
        return _hands(row[0]) if row is not None else None

    def set_par(self, day: str, preset: str, iterations: int, hands: tuple[int, ...]) -> None:
        """The day's par, kept once (a second computation of it changes nothing)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute("INSERT OR IGNORE INTO challenge_pars (day, preset, iterations, hands)"
                              " VALUES (?, ?, ?, ?)", (day, preset, iterations, json.dumps(list(hands))))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def entries(self, day: str, preset: str) -> list[tuple[str, tuple[int, ...], Optional[int]]]:
        """The day's entries, (name, margins, player id), first finished first; a row whose hands cannot be read
        is left out."""
        rows = self.conn.execute(
            "SELECT e.player, COALESCE(p.name, e.name), e.hands FROM challenge_entries e"
            " LEFT JOIN players p ON p.id = e.player WHERE e.day = ? AND e.preset = ? ORDER BY e.finished LIMIT ?",
            (day, preset, MAX_ENTRIES)).fetchall()
        found: list[tuple[str, tuple[int, ...], Optional[int]]] = []
        for player, name, text in rows:
            hands = _hands(text)
            if hands is not None:
                found.append((str(name), hands, int(player)))
        return found
