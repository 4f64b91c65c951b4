"""A server's registered players and their ratings: ``players.sqlite3`` in the server's data folder.

Standard library only (``sqlite3``), no Textual, no network.  What docs/serving.md ("Rated play") promises:

- A player is an id the server issued, a name held by its key (compared by ``name_key``: cleaned and
  case-folded) and the SHA-256 of its key: the key itself is never kept here.
- Each rated result is one transaction holding both players' updates and the result's row, keyed by its
  result id (the game's id): a kill -9 loses no committed result, and a result offered again (the server
  restarted between rating a game and letting its table go) is never rated twice.
- The file is 0600 (made so before SQLite opens it), in WAL mode, written by whoever holds this object (the
  server's one event loop): no two results race.
- A damaged database, or one that is not a players database, or one a newer spades-tui wrote, is said
  plainly and refused (``PlayersError``): the server does not start, and nothing in the file is changed.
"""

from __future__ import annotations

import datetime
import hashlib
import sqlite3
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from ..engine.text import name_key, player_name
from ..i18n.language import N_, _
from . import glicko
from .glicko import Rating
from .storage import private_dir, private_file

PLAYERS_NAME = "players.sqlite3"
MAX_PLAYERS = 10_000  # registered players in all (--max-players)
NEW_PER_HOUR = 3  # new players one address may register in an hour
LEADERBOARD = 100  # lines in the leaderboard
RECENT_RESULTS = 20  # results on a player's page
HOW = ("over", "resign", "claim")  # how a rated game ended: played out, resigned, claimed from a leaver


class PlayersError(Exception):
    """The players database cannot be used; the message says which file, why, and what to do."""


class Refused(Exception):
    """A registration or a rename refused: the message is for the player (a taken name, too many new players).

    It goes to the player in the protocol's frame, so in English whatever the server's language: the fixed ones are
    marked with ``N_`` (for the catalog; the client shows a reason it knows in the player's language)."""


TAKEN = N_("that name is taken on this server")


def _v1(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE players (id INTEGER PRIMARY KEY AUTOINCREMENT, key_hash TEXT NOT NULL UNIQUE,"
        " name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, rating REAL NOT NULL, rd REAL NOT NULL,"
        " volatility REAL NOT NULL, rated_at REAL, games INTEGER NOT NULL DEFAULT 0,"
        " wins INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, origin TEXT NOT NULL)"
    )
    conn.execute("CREATE INDEX players_origin ON players (origin, created)")
    conn.execute(
        "CREATE TABLE results (result_id TEXT PRIMARY KEY, at REAL NOT NULL, how TEXT NOT NULL,"
        " winner INTEGER NOT NULL REFERENCES players(id), loser INTEGER NOT NULL REFERENCES players(id),"
        " winner_before REAL NOT NULL, winner_after REAL NOT NULL, loser_before REAL NOT NULL,"
        " loser_after REAL NOT NULL)"
    )
    conn.execute("CREATE INDEX results_winner ON results (winner, at)")
    conn.execute("CREATE INDEX results_loser ON results (loser, at)")


def _v2(conn: sqlite3.Connection) -> None:
    """The day's challenge against the field (keep/field.py): each player's one entry a day, and the par."""
    conn.execute(
        "CREATE TABLE challenge_entries (day TEXT NOT NULL, preset TEXT NOT NULL,"
        " player INTEGER NOT NULL REFERENCES players(id), name TEXT NOT NULL, hands TEXT NOT NULL,"
        " finished REAL NOT NULL, game_id TEXT NOT NULL, PRIMARY KEY (day, preset, player))"
    )
    conn.execute(
        "CREATE TABLE challenge_pars (day TEXT NOT NULL, preset TEXT NOT NULL, iterations INTEGER NOT NULL,"
        " hands TEXT NOT NULL, PRIMARY KEY (day, preset))"
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2]
SCHEMA_VERSION = len(MIGRATIONS)
_TABLES = {"players", "results", "sqlite_sequence", "challenge_entries", "challenge_pars"}


def key_hash(key: str) -> str:
    """What the server keeps of a key: its SHA-256 (hex)."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def day_of(moment: Optional[float]) -> Optional[str]:
    """A moment's date (UTC), as the leaderboard gives it; None for never."""
    if moment is None:
        return None
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d")


@dataclass(frozen=True)
class Player:
    """A registered player as the server knows them; ``rating`` as of ``rated_at`` (``now_rating`` widens it
    for the time away since)."""

    id: int
    name: str
    rating: Rating
    rated_at: Optional[float]
    games: int
    wins: int

    def now_rating(self, now: float) -> Rating:
        if self.rated_at is None:
            return self.rating
        return glicko.away(self.rating, (now - self.rated_at) / glicko.DAY)

    def to_json(self, now: float) -> dict[str, Any]:
        """The fields of a leaderboard line and a player's page (docs/table-protocol.md)."""
        rating = self.now_rating(now)
        return {"id": self.id, "name": self.name, "rating": round(rating.rating, 1), "rd": round(rating.rd, 1),
                "provisional": rating.provisional, "games": self.games, "wins": self.wins,
                "last": day_of(self.rated_at)}


@dataclass(frozen=True)
class Rated:
    """One rated result as it was kept: the two players' ratings before and after."""

    result_id: str
    winner: int
    loser: int
    how: str
    at: float
    winner_before: float
    winner_after: float
    loser_before: float
    loser_after: float
    # The RDs (winner before, after, loser before, after) of a result just rated, which tell a provisional rating;
    # not kept (the players' rows hold the RDs now), so None for a result read back.
    rds: Optional[tuple[float, float, float, float]] = None


def _player(row: sqlite3.Row) -> Player:
    return Player(row["id"], row["name"], Rating(row["rating"], row["rd"], row["volatility"]), row["rated_at"],
                  row["games"], row["wins"])


def _rated(row: sqlite3.Row) -> Rated:
    return Rated(*(row[k] for k in ("result_id", "winner", "loser", "how", "at", "winner_before", "winner_after",
                                    "loser_before", "loser_after")))


class PlayerStore:
    """The players database of one server; every write is one transaction."""

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.conn = conn
        self.path = path
        self.clock = clock

    # ------------------------------------------------------------ opening, refusing a damaged file

    @classmethod
    def open(cls, data_dir: Path, clock: Callable[[], float] = time.time) -> PlayerStore:
        """The players database in ``data_dir`` (a new one if there is none); ``PlayersError`` if it cannot be
        used, with nothing in it changed."""
        path = data_dir / PLAYERS_NAME
        try:
            private_dir(data_dir)
            found = path.lstat() if path.exists() or path.is_symlink() else None
            if found is not None and not stat.S_ISREG(found.st_mode):
                raise PlayersError(_("{path} is not a regular file (a link, a folder or a device): the server will "
                                     "not start. Move it away.").format(path=path))
            private_file(path)
            conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        except OSError as exc:
            raise PlayersError(_("cannot open {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
        except sqlite3.Error as exc:
            raise PlayersError(_("cannot open {path}: {why}").format(path=path, why=exc)) from None
        conn.row_factory = sqlite3.Row
        try:
            cls._check(conn, path)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")  # a result the server said is rated stays rated
            conn.execute("PRAGMA foreign_keys=ON")
            cls._migrate(conn)
        except PlayersError:
            conn.close()
            raise
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise PlayersError(_damaged(path, str(exc))) from None
        return cls(conn, path, clock)

    @staticmethod
    def _check(conn: sqlite3.Connection, path: Path) -> None:
        """Read-only looks, before anything is written: damage, someone else's database, a newer schema."""
        try:
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise PlayersError(_damaged(path, str(exc))) from None
        if verdict != "ok":
            raise PlayersError(_damaged(path, str(verdict)))
        if version > SCHEMA_VERSION:
            raise PlayersError(_("{path} was written by a newer spades-tui (version {version}, this one reads "
                                 "{reads}): the server will not start. Update spades-tui.").format(
                path=path, version=version, reads=SCHEMA_VERSION))
        if (version == 0 and tables) or not tables <= _TABLES:
            raise PlayersError(_("{path} is not a spades-tui players database (it has the tables {tables}): the "
                                 "server will not start, and the file is left as it is. Move it away.").format(
                path=path, tables=", ".join(sorted(tables))[:200]))

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            conn.execute("BEGIN IMMEDIATE")
            try:
                MIGRATIONS[step](conn)
                conn.execute(f"PRAGMA user_version = {step + 1}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------ who you are

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM players").fetchone()[0])

    def new_since(self, origin: str, since: float) -> int:
        """Players registered from ``origin`` since ``since`` (kept across restarts, so a restart resets no count)."""
        return int(self.conn.execute("SELECT COUNT(*) FROM players WHERE origin = ? AND created >= ?",
                                     (origin, since)).fetchone()[0])

    def by_key(self, key: object) -> Optional[Player]:
        if not isinstance(key, str) or not 0 < len(key) <= 128:
            return None
        row = self.conn.execute("SELECT * FROM players WHERE key_hash = ?", (key_hash(key),)).fetchone()
        return _player(row) if row is not None else None

    def by_id(self, player_id: int) -> Optional[Player]:
        row = self.conn.execute("SELECT * FROM players WHERE id = ?", (player_id,)).fetchone()
        return _player(row) if row is not None else None

    def by_name(self, name: object) -> Optional[Player]:
        if not isinstance(name, str):
            return None
        row = self.conn.execute("SELECT * FROM players WHERE name_key = ?", (name_key(name),)).fetchone()
        return _player(row) if row is not None else None

    def register(self, name: object, key: str, origin: str, *, max_players: int = MAX_PLAYERS) -> Player:
        """A new player named ``name`` (cleaned) whose key is ``key`` (the caller made it and gives it to the
        player; only its hash is kept); ``Refused`` with the reason for the player."""
        cleaned = _usable(name)
        now = self.clock()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if self.new_since(origin, now - 3600) >= NEW_PER_HOUR:
                raise Refused(f"at most {NEW_PER_HOUR} new players an hour from one address: try again later")
            if self.count() >= max_players:
                raise Refused(N_("this server has as many players as it takes: no new ones now"))
            if self.conn.execute("SELECT 1 FROM players WHERE name_key = ?", (name_key(cleaned),)).fetchone():
                raise Refused(TAKEN)
            new = Rating()
            cursor = self.conn.execute(
                "INSERT INTO players (key_hash, name, name_key, rating, rd, volatility, rated_at, created, origin)"
                " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                (key_hash(key), cleaned, name_key(cleaned), new.rating, new.rd, new.volatility, now, origin))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        player_id = cursor.lastrowid
        assert player_id is not None
        return Player(player_id, cleaned, new, None, 0, 0)

    def rename(self, player_id: int, name: object) -> Player:
        """The player renamed to ``name`` (cleaned), if no other player holds it; ``Refused`` if one does."""
        cleaned = _usable(name)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            holder = self.conn.execute("SELECT id FROM players WHERE name_key = ?", (name_key(cleaned),)).fetchone()
            if holder is not None and holder[0] != player_id:
                raise Refused(TAKEN)
            self.conn.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?",
                              (cleaned, name_key(cleaned), player_id))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        found = self.by_id(player_id)
        if found is None:
            raise Refused("no such player")
        return found

    # ------------------------------------------------------------ rated results

    def rate(self, result_id: str, winner: int, loser: int, how: str = "over") -> Optional[Rated]:
        """A rated game's result: both players' ratings updated (each widened for their time away, then rated
        as one rating period) and the result kept, in one transaction.  None if ``result_id`` was rated before
        (nothing changes) or a player is unknown."""
        if how not in HOW or winner == loser:
            raise ValueError(f"not a rated result: {how!r}, {winner} against {loser}")
        now = self.clock()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if self.conn.execute("SELECT 1 FROM results WHERE result_id = ?", (result_id,)).fetchone():
                self.conn.execute("ROLLBACK")
                return None
            won, lost = self.by_id(winner), self.by_id(loser)
            if won is None or lost is None:
                self.conn.execute("ROLLBACK")
                return None
            before_w, before_l = won.now_rating(now), lost.now_rating(now)
            after_w, after_l = glicko.game(before_w, before_l)
            for player, after, win in ((won, after_w, 1), (lost, after_l, 0)):
                self.conn.execute("UPDATE players SET rating = ?, rd = ?, volatility = ?, rated_at = ?,"
                                  " games = games + 1, wins = wins + ? WHERE id = ?",
                                  (after.rating, after.rd, after.volatility, now, win, player.id))
            rated = Rated(result_id, winner, loser, how, now, before_w.rating, after_w.rating, before_l.rating,
                          after_l.rating, (before_w.rd, after_w.rd, before_l.rd, after_l.rd))
            self.conn.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              (rated.result_id, rated.at, rated.how, rated.winner, rated.loser, rated.winner_before,
                               rated.winner_after, rated.loser_before, rated.loser_after))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        return rated

    def result(self, result_id: str) -> Optional[Rated]:
        row = self.conn.execute("SELECT * FROM results WHERE result_id = ?", (result_id,)).fetchone()
        return _rated(row) if row is not None else None

    # ------------------------------------------------------------ the leaderboard and a player's page

    def leaderboard(self, limit: int = LEADERBOARD) -> list[dict[str, Any]]:
        """The best ``limit`` ratings that are not provisional now (time away widens an RD), best first."""
        now = self.clock()
        rows = self.conn.execute("SELECT * FROM players WHERE games > 0 AND rd <= ? ORDER BY rating DESC",
                                 (glicko.PROVISIONAL_RD,))
        lines: list[dict[str, Any]] = []
        for row in rows:
            player = _player(row)
            if not player.now_rating(now).provisional:
                lines.append(player.to_json(now))
                if len(lines) >= limit:
                    break
        return lines

    def page(self, player: Player) -> dict[str, Any]:
        """A player's page: the leaderboard's fields and their last ``RECENT_RESULTS`` rated results."""
        now = self.clock()
        rows = self.conn.execute(
            "SELECT r.*, w.name AS winner_name, l.name AS loser_name FROM results r"
            " JOIN players w ON w.id = r.winner JOIN players l ON l.id = r.loser"
            " WHERE r.winner = ? OR r.loser = ? ORDER BY r.at DESC, r.rowid DESC LIMIT ?",
            (player.id, player.id, RECENT_RESULTS)).fetchall()
        results = []
        for row in rows:
            won = row["winner"] == player.id
            change = (row["winner_after"] - row["winner_before"]) if won else (row["loser_after"] - row["loser_before"])
            results.append({"opponent": row["loser_name"] if won else row["winner_name"], "won": won,
                            "change": round(change, 1), "how": row["how"], "at": int(row["at"])})
        return {**player.to_json(now), "results": results}


def _usable(name: object) -> str:
    cleaned = player_name(name)
    if not cleaned:
        raise Refused(N_("a name is needed: letters, digits or signs, at most 24 characters"))
    return cleaned


def _damaged(path: Path, why: str) -> str:
    return _("{path} is damaged ({why}): the server will not start, so that no rating is lost, and the file is left "
             "as it is. Restore it from a backup, or move it away to start with no players.").format(path=path,
                                                                                                   why=why[:200])
