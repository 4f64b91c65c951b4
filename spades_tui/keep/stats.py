"""Statistics of finished hands and games: ``stats.sqlite3`` in the user data directory.

Standard library only (``sqlite3``), no Textual.  Each scored hand and each finished game is
written from the game record, keyed by the game's id (metadata ``game_id``; for old records
without one, a hash of the rules, players and first two actions), so resuming, loading or
replaying a game never counts it twice: ``INSERT OR IGNORE`` on ``(game_id, hand_number)``,
one transaction per write, so a kill at any moment leaves the database consistent.

Figures count people, not seats.  "You" is the person playing against a bot (or a remote
player), in whichever seat the record puts them (``person_seat``): their hands go to ``hands``.
A hot-seat game is counted for each of its two players by name (``hotseat_players``) and never
as "you".  Practice games (metadata ``practice``) are flagged in ``games.practice``: their result is left out of
the figures, and so are their hands from the first one a take-back touched
(``games.practice_from``); the hands scored before it still count.

A damaged database is set aside (renamed ``stats.corrupt-DATE.sqlite3``, never deleted) with
one message and a fresh one is made; a locked or read-only one never stops a game: writing
returns a message instead of raising.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from ..engine.record import GameRecord, SeatKind, replay, seat_kinds
from ..engine.rulebook import made
from ..engine.rules import OLD_PRESET_NAMES, PRESETS, Rules, preset_name
from ..engine.state import GameState
from ..i18n.language import N_, _, translated
from .autosave import set_aside
from .meta import RecordMeta, game_id_of, game_outcome
from .storage import StorageError, private_dir, private_file, tighten

STATS_NAME = "stats.sqlite3"
BOT_OPPONENTS = ("easy", "normal", "hard", "expert", "external")
RECENT = 5
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


# ------------------------------------------------------------------ schema and migrations

def _v1(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE games (game_id TEXT PRIMARY KEY, opponent TEXT NOT NULL, practice INTEGER NOT NULL DEFAULT 0,"
        " finished INTEGER NOT NULL DEFAULT 0, won INTEGER, first_seen REAL NOT NULL, updated REAL NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE hands (game_id TEXT NOT NULL REFERENCES games(game_id), hand_number INTEGER NOT NULL,"
        " bid INTEGER NOT NULL, double_nil INTEGER NOT NULL, tricks INTEGER NOT NULL, contract INTEGER NOT NULL,"
        " nil INTEGER NOT NULL, points INTEGER NOT NULL, bags_added INTEGER NOT NULL, bag_penalty INTEGER NOT NULL,"
        " penalties INTEGER NOT NULL, score_after INTEGER NOT NULL, PRIMARY KEY (game_id, hand_number))"
    )
    conn.execute(
        "CREATE TABLE hotseat_players (game_id TEXT NOT NULL REFERENCES games(game_id), seat INTEGER NOT NULL,"
        " name TEXT NOT NULL, won INTEGER NOT NULL, PRIMARY KEY (game_id, seat))"
    )


def _v2(conn: sqlite3.Connection) -> None:
    # Version 1 wrote a hot-seat game's first seat into "your" hands: they were somebody else's.
    conn.execute("DELETE FROM hands WHERE game_id IN (SELECT game_id FROM games WHERE opponent = 'hotseat')")


def _v3(conn: sqlite3.Connection) -> None:
    # The first hand of a practice game that a take-back touched; hands before it count.  NULL: not
    # practice; 1 for the practice games version 2 wrote (all of them practice then).
    conn.execute("ALTER TABLE games ADD COLUMN practice_from INTEGER")
    conn.execute("UPDATE games SET practice_from = 1 WHERE practice = 1")


def _v4(conn: sqlite3.Connection) -> None:
    # The house rules a game was played under (rules_group): a preset's name or "own". NULL for the games
    # written before: their rules were not kept ("earlier").
    conn.execute("ALTER TABLE games ADD COLUMN rules TEXT")


def _v5(conn: sqlite3.Connection) -> None:
    # Whether the hand's bid was made, as the rule book says (``rulebook.made``) when the hand is
    # written, so the figures never say it again in SQL.  The hands written before are asked of the
    # rule book too, from their bid and tricks (a function of this connection, for this update only).
    conn.create_function("rulebook_made", 3, lambda bid, double_nil, tricks:
                         int(made("double_nil" if double_nil else bid, tricks)), deterministic=True)
    conn.execute("ALTER TABLE hands ADD COLUMN made INTEGER")
    conn.execute("UPDATE hands SET made = rulebook_made(bid, double_nil, tricks)")


def _v6(conn: sqlite3.Connection) -> None:
    # The presets took one name each (issue 37): a group kept under an old name ("article") is its preset's
    # now, so its games stand with those written since, in one group.
    for old, name in OLD_PRESET_NAMES.items():
        conn.execute("UPDATE games SET rules = ? WHERE rules = ?", (name, old))


# Applied in order: step i takes the schema from version i to i + 1 (PRAGMA user_version).
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3, _v4, _v5, _v6]
SCHEMA_VERSION = len(MIGRATIONS)


class StatsError(Exception):
    """The statistics database could not be used (locked, read-only, too new)."""


# ------------------------------------------------------------------ what a record says

OWN_RULES = "own"  # a game under options that are no preset
EARLIER = "earlier"  # a game written before the statistics kept the rules


def rules_group(rules: Rules) -> str:
    """The figures' group of a game's rules: its preset's name, or "own" (house rules of one's own)."""
    return rules.preset or OWN_RULES


def rules_group_name(group: str) -> str:
    """A group in words: the preset's title, "own house rules", or "earlier games"."""
    name = preset_name(group) if group not in (OWN_RULES, EARLIER) else None
    if name is not None:
        return _("{preset} rules").format(preset=PRESETS[name].title)  # the title in the player's language
    return _("own house rules") if group == OWN_RULES else _("earlier games (rules not kept)")




def person_seat(record: GameRecord) -> Optional[int]:
    """The seat of "you": the one person at this keyboard when the other seat is not (a bot, a remote
    player); None in hot-seat (two persons) and between bots."""
    humans = [seat for seat, kind in enumerate(seat_kinds(record.players)) if kind is SeatKind.PERSON]
    return humans[0] if len(humans) == 1 else None


def opponent_of(record: GameRecord) -> Optional[str]:
    """"You"'s opponent: a built-in bot's level (``easy`` .. ``expert``), ``external`` against ``cmd:``,
    ``remote`` at a network table; ``hotseat`` for two persons; None between bots (not counted)."""
    seat = person_seat(record)
    if seat is None:
        return "hotseat" if seat_kinds(record.players) == (SeatKind.PERSON, SeatKind.PERSON) else None
    assert record.players is not None  # a record without players is two persons' (above)
    other = record.players[1 - seat]
    if other.bot_spec is not None:
        return "external" if other.external_bot else other.bot_spec
    if other.is_remote:  # a friend at a network table, counted by their name
        return f"remote:{other.name}" if other.name else "remote"
    return "external"


def is_practice(record: GameRecord) -> bool:
    return RecordMeta.of(record).practice


def practice_from(record: GameRecord) -> Optional[int]:
    """The first hand a take-back touched (None: no take-back)."""
    return RecordMeta.of(record).practice_from


def winner_of(record: GameRecord, state: GameState) -> Optional[int]:
    """The winner's seat once the game is over (by the rules or by a forfeit); None while it goes on."""
    found = game_outcome(record, state)
    return found.winner if found is not None else None


# ------------------------------------------------------------------ the database

def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    return not isinstance(exc, sqlite3.OperationalError)


def _migrate(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StatsError(_("the statistics database is from a newer version (schema {version})").format(
            version=version))
    while version < SCHEMA_VERSION:
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current == version:  # else another copy migrated meanwhile
                MIGRATIONS[version](conn)
                conn.execute(f"PRAGMA user_version = {version + 1}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]


def open_stats(path: Path, *, timeout: float = 0.2) -> tuple[sqlite3.Connection, Optional[str]]:
    """Open (create, migrate) the database; a damaged one is set aside first, said in the message.

    Raises ``StatsError`` when it cannot be used (locked, read-only, unreadable).
    """
    message: Optional[str] = None
    for attempt in range(2):
        conn: Optional[sqlite3.Connection] = None
        try:
            private_dir(path.parent)
            private_file(path)  # 0600 before SQLite opens it (it would make it 0644; its journals copy the mode)
            tighten(path)  # one an older version made 0644
            conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            _migrate(conn)
            return conn, message
        except sqlite3.DatabaseError as exc:
            if conn is not None:
                conn.close()
            if attempt or not _is_corrupt(exc):
                raise StatsError(_("the statistics database {path} cannot be used: {problem}").format(
                    path=path, problem=exc)) from exc
            try:
                aside = set_aside(path)
                for extra in ("-journal", "-wal", "-shm"):
                    side = path.with_name(path.name + extra)
                    if side.exists():
                        set_aside(side)
            except (OSError, StorageError) as exc2:
                raise StatsError(_("the statistics database {path} is damaged ({why}) and could not be moved: "
                                   "{problem}").format(path=path, why=exc, problem=exc2)) from exc2
            message = _("The statistics database could not be read ({why}). It was kept as {aside}; a new one was "
                        "made.").format(why=exc, aside=aside)
        except OSError as exc:
            if conn is not None:
                conn.close()
            raise StatsError(_("the statistics database {path} cannot be used: {problem}").format(
                path=path, problem=exc)) from exc
    raise AssertionError("unreachable")


def record_game(conn: sqlite3.Connection, record: GameRecord, state: Optional[GameState] = None) -> int:
    """Write the record's scored hands (and its result, once over) in one transaction; new hands written."""
    if state is None:
        state = replay(record)
    opponent = opponent_of(record)
    if opponent is None:  # bots among themselves: nobody's figures
        return 0
    gid = game_id_of(record)
    you = person_seat(record)
    winner = winner_of(record, state)
    now = time.time()
    rules = record.rules
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT OR IGNORE INTO games (game_id, opponent, practice, finished, won, first_seen, updated,"
                     " rules) VALUES (?, ?, 0, 0, NULL, ?, ?, ?)", (gid, opponent, now, now, rules_group(rules)))
        conn.execute("UPDATE games SET rules = ? WHERE game_id = ? AND rules IS NULL", (rules_group(rules), gid))
        first = practice_from(record)
        if first is not None:  # its result is practice; its hands from the first one a take-back touched too
            conn.execute("UPDATE games SET practice = 1, practice_from = min(coalesce(practice_from, ?), ?)"
                         " WHERE game_id = ?", (first, first, gid))
        before = conn.total_changes
        for number, h in enumerate(state.history, 1):
            if you is None:  # hot-seat: nobody is "you"
                break
            line = h.lines[you]
            bid = h.bids[you]
            penalties = -line.bag_penalty // rules.bag_penalty if rules.bag_penalty > 0 else 0
            conn.execute(
                "INSERT OR IGNORE INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, number, 0 if bid == "double_nil" else bid, int(bid == "double_nil"), h.tricks[you],
                 line.contract, line.nil, line.points, line.bags_added, line.bag_penalty, penalties,
                 h.scores_after[you], int(made(bid, h.tricks[you]))),
            )
        written = conn.total_changes - before
        if winner is not None:
            won = None if you is None else int(winner == you)
            changed = conn.execute("UPDATE games SET finished = 1, won = ?, updated = ? WHERE game_id = ?"
                                   " AND finished = 0", (won, now, gid)).rowcount
            if changed and opponent == "hotseat":
                names = (record.players[0].name, record.players[1].name) if record.players else ("Player 1",
                                                                                                  "Player 2")
                for seat in (0, 1):
                    conn.execute("INSERT OR IGNORE INTO hotseat_players VALUES (?, ?, ?, ?)",
                                 (gid, seat, names[seat], int(winner == seat)))
        elif written:
            conn.execute("UPDATE games SET updated = ? WHERE game_id = ?", (now, gid))
    return written


def summary(conn: sqlite3.Connection, group: Optional[str] = None) -> dict[str, Any]:
    """The figures for "you" (practice games left out, counted apart; hot-seat games by each player's name).

    ``by_opponent`` lists only the opponents played (no empty rows).  Of all games, with ``by_rules``
    the same figures for each group of house rules played (``rules_group``); with ``group``, of that
    group's games alone."""
    q = conn.execute
    out: dict[str, Any] = {}
    if group is not None and not group.isidentifier():
        raise ValueError(f"not a rules group: {group!r}")
    # The group is a preset's name, "own" or "earlier" (checked above): written into the query, not a value.
    where = "" if group is None else (" AND games.rules IS NULL" if group == EARLIER
                                      else f" AND games.rules = '{group}'")
    mine = f"finished = 1 AND practice = 0 AND opponent != 'hotseat'{where}"
    out["finished_games"] = q(f"SELECT count(*) FROM games WHERE {mine}").fetchone()[0]
    by: dict[str, dict[str, int]] = {}
    for opp, played, won in q(f"SELECT opponent, count(*), sum(won) FROM games WHERE {mine} GROUP BY opponent"):
        by[opp] = {"played": played, "won": won or 0}
    order = {k: i for i, k in enumerate(BOT_OPPONENTS)}
    out["by_opponent"] = dict(sorted(by.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))
    hands = ("FROM hands JOIN games USING (game_id) WHERE (games.practice_from IS NULL"
             f" OR hands.hand_number < games.practice_from){where}")
    n, made_, set_, exact, bags, points, bags_added, penalties = q(
        "SELECT count(*),"
        " sum(bid > 0 AND double_nil = 0 AND made), sum(bid > 0 AND double_nil = 0 AND NOT made),"
        " sum(bid > 0 AND double_nil = 0 AND tricks = bid), sum(bid > 0 AND double_nil = 0 AND tricks > bid),"
        f" sum(points), sum(bags_added), sum(penalties) {hands}").fetchone()
    out["hands"] = n
    out["bids"] = {"made": made_ or 0, "set": set_ or 0, "exact": exact or 0, "with_bags": bags or 0}
    nb, nm, db, dm = q("SELECT sum(bid = 0 AND double_nil = 0), sum(bid = 0 AND double_nil = 0 AND made),"
                       f" sum(double_nil), sum(double_nil AND made) {hands}").fetchone()
    out["nil"] = {"bid": nb or 0, "made": nm or 0}
    out["double_nil"] = {"bid": db or 0, "made": dm or 0}
    out["points_per_hand"] = round(points / n, 2) if n else 0.0
    out["bags_per_hand"] = round(bags_added / n, 2) if n else 0.0
    out["bag_penalties"] = penalties or 0
    # Finished ones only, as the finished games they stand beside: an unfinished practice game is no game yet.
    out["practice_games"] = q(f"SELECT count(*) FROM games WHERE practice = 1 AND finished = 1{where}").fetchone()[0]
    recent_ids = [row[0] for row in q(f"SELECT game_id FROM games WHERE {mine}"
                                      " ORDER BY updated DESC, rowid DESC LIMIT ?", (RECENT,))]
    out["recent"] = [[row[0] for row in q("SELECT score_after FROM hands WHERE game_id = ? ORDER BY hand_number",
                                          (gid,))] for gid in reversed(recent_ids)]
    # The same games with who they were against and how they ended, for a chart's labels.
    out["recent_games"] = []
    for gid, scores in zip(reversed(recent_ids), out["recent"], strict=True):
        opponent, won = q("SELECT opponent, won FROM games WHERE game_id = ?", (gid,)).fetchone()
        winner = q("SELECT name FROM hotseat_players WHERE game_id = ? AND won = 1", (gid,)).fetchone()
        out["recent_games"].append({"opponent": opponent, "won": bool(won), "scores": scores,
                                    "winner": winner[0] if winner else None})
    out["hotseat_players"] = {
        name: {"played": played, "won": won or 0}
        for name, played, won in q("SELECT name, count(*), sum(hotseat_players.won) FROM hotseat_players"
                                   f" JOIN games USING (game_id) WHERE games.practice = 0{where}"
                                   " GROUP BY name ORDER BY name")
    }
    if group is None:
        order = {name: i for i, name in enumerate((*PRESETS, OWN_RULES, EARLIER))}
        groups = sorted({row[0] or EARLIER for row in q("SELECT DISTINCT rules FROM games")},
                        key=lambda g: order.get(g, len(order)))
        out["by_rules"] = {g: summary(conn, g) for g in groups if g in order}
    return out


# How the figures name each kind of opponent (the command's text and the statistics screen).
# Marked where written, in the player's language where shown (``opponent_label``).
OPPONENT_NAMES = {"easy": N_("easy bot"), "normal": N_("normal bot"), "hard": N_("hard bot"),
                  "expert": N_("expert bot"), "external": N_("external bot"), "remote": N_("remote player")}


def opponent_label(key: str) -> str:
    """An opponent key in words: ``normal bot``, ``Gus (remote player)``."""
    if key.startswith("remote:"):
        return _("{name} (remote player)").format(name=key[7:])
    return translated(OPPONENT_NAMES[key]) if key in OPPONENT_NAMES else key


def recent_label(game: dict[str, Any]) -> str:
    """``vs normal bot, won`` / ``hot-seat, Ada won``: one of ``summary()["recent_games"]`` in words."""
    if game["opponent"] == "hotseat":
        return _("hot-seat, {winner} won").format(winner=game["winner"]) if game.get("winner") else _("hot-seat")
    name = opponent_label(game["opponent"])
    return (_("vs {opponent}, won") if game["won"] else _("vs {opponent}, lost")).format(opponent=name)


def empty_summary() -> dict[str, Any]:
    conn = sqlite3.connect(":memory:")
    try:
        _migrate(conn)
        return summary(conn)
    finally:
        conn.close()


@dataclass(frozen=True)
class StatsReport:
    """What a reader of the statistics gets: the figures, a note (a damaged database set aside), or the
    problem that kept it from reading them (then ``summary`` is the empty one)."""

    summary: dict[str, Any]
    message: Optional[str] = None
    error: Optional[str] = None


def load_summary(path: Optional[Path]) -> StatsReport:
    """The figures in the database at ``path``, never raising; a missing database (or none) reads empty.

    Opening it is ``open_stats``: a damaged database is set aside and a new one made, said in ``message``.
    """
    if path is None or not path.exists():  # nothing recorded yet: do not create a file just to read it
        return StatsReport(empty_summary())
    try:
        conn, message = open_stats(path)
    except StatsError as exc:
        return StatsReport(empty_summary(), error=str(exc))
    try:
        return StatsReport(summary(conn), message)
    except sqlite3.Error as exc:  # e.g. another copy holds an exclusive lock while it writes
        return StatsReport(empty_summary(), message, f"the statistics database {path} cannot be read: {exc}")
    finally:
        conn.close()


class StatsRecorder:
    """The app's writer: opens the database once, writes after each scored hand and at game over.

    ``record`` never raises; it returns a message for a new problem (once per distinct message).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn: Optional[sqlite3.Connection] = None
        self._done: Optional[tuple[str, int, bool, bool]] = None  # the last write: nothing new, nothing to do
        self._told: Optional[str] = None

    def record(self, record: GameRecord, state: GameState) -> Optional[str]:
        over = game_outcome(record, state) is not None
        key = (game_id_of(record), len(state.history), over, is_practice(record))
        if key == self._done:
            return None
        message: Optional[str] = None
        try:
            if self.conn is None:
                self.conn, message = open_stats(self.path)
            record_game(self.conn, record, state)
            self._done = key
        except (StatsError, sqlite3.Error) as exc:
            problem = (str(exc) if isinstance(exc, StatsError) else
                       _("the statistics database {path}: {problem}").format(path=self.path, problem=exc))
            message = _("Statistics not saved: {problem}").format(problem=problem)
        if message is not None and message != self._told:
            self._told = message
            return message
        return None

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()
