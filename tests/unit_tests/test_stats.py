"""The statistics database (keep/stats.py), checked against independent counts from state.history."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Optional, Sequence

import pytest

from spades_tui.engine.outcome import Forfeit
from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.rules import Rules
from spades_tui.engine.state import GameState
from spades_tui.keep.stats import (
    SCHEMA_VERSION,
    STATS_NAME,
    StatsError,
    StatsRecorder,
    game_id_of,
    load_summary,
    open_stats,
    recent_label,
    record_game,
    summary,
)
from spades_tui.session.randomplay import random_game
from spades_tui.session.session import Session, new_record
from tests.support.positions import Game

BOT = (PlayerInfo("You"), PlayerInfo("Bot", "bot:normal"))


def with_meta(record: GameRecord, players: Optional[tuple[PlayerInfo, PlayerInfo]] = BOT,
              **meta: Any) -> GameRecord:
    return GameRecord(record.rules, record.first_drafter, players, record.actions,
                      tuple({**dict(record.metadata), **meta}.items()))


def contract_game() -> GameRecord:
    """Nil made and failed, Double Nil made and failed, a set, an exact bid, a bag penalty (not over)."""
    g = Game()
    for tricks, bids in [(0, (0, 3)), (0, ("double_nil", 3)), (3, (5, 3)), (4, (4, 3)), (13, (1, 1)),
                         (2, (0, 3)), (1, ("double_nil", 3))]:
        g.scored_hand(tricks, bids)
    return g.record()


def finished_games() -> list[GameRecord]:
    """Random games played to the end (seeds whose games end, with a short target)."""
    out = []
    for seed in (0, 2):
        record, state = random_game(seed, rules=Rules(target=100), max_hands=12)
        assert state.winner is not None
        out.append(record)
    return out


def expected(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The figures counted directly from each record's state.history (player 0)."""
    e: dict[str, Any] = {"hands": 0, "made": 0, "set": 0, "exact": 0, "with_bags": 0, "nil": [0, 0],
                         "dnil": [0, 0], "points": 0, "bags": 0, "penalties": 0, "finished": 0, "won": 0,
                         "recent": []}
    for record in records:
        state = replay(record)
        for h in state.history:
            bid, tricks = h.bids[0], h.tricks[0]
            e["hands"] += 1
            e["points"] += h.points[0]
            e["bags"] += h.lines[0].bags_added
            e["penalties"] += -h.lines[0].bag_penalty // record.rules.bag_penalty
            if bid == "double_nil":
                e["dnil"][0] += 1
                e["dnil"][1] += tricks == 0
            elif bid == 0:
                e["nil"][0] += 1
                e["nil"][1] += tricks == 0
            else:
                e["made"] += tricks >= bid
                e["set"] += tricks < bid
                e["exact"] += tricks == bid
                e["with_bags"] += tricks > bid
        if state.winner is not None:
            e["finished"] += 1
            e["won"] += state.winner == 0
            e["recent"].append([h.scores_after[0] for h in state.history])
    e["recent"] = e["recent"][-5:]
    return e


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    conn, message = open_stats(tmp_path / STATS_NAME)
    assert message is None
    return conn


def test_every_figure_matches_an_independent_count(db: sqlite3.Connection) -> None:
    records = [with_meta(contract_game(), game_id="contracts")]
    records += [with_meta(r, game_id=f"g{i}") for i, r in enumerate(finished_games())]
    for record in records:
        record_game(db, record)
    s, e = summary(db), expected(records)
    assert e["nil"][1] and e["dnil"][1] and e["set"] and e["penalties"] and e["exact"]  # the test has them all
    assert s["hands"] == e["hands"]
    assert s["bids"] == {"made": e["made"], "set": e["set"], "exact": e["exact"], "with_bags": e["with_bags"]}
    assert s["nil"] == {"bid": e["nil"][0], "made": e["nil"][1]}
    assert s["double_nil"] == {"bid": e["dnil"][0], "made": e["dnil"][1]}
    assert s["points_per_hand"] == round(e["points"] / e["hands"], 2)
    assert s["bags_per_hand"] == round(e["bags"] / e["hands"], 2)
    assert s["bag_penalties"] == e["penalties"]
    assert s["finished_games"] == e["finished"] == 2
    assert s["by_opponent"]["normal"] == {"played": 2, "won": e["won"]}
    assert "easy" not in s["by_opponent"]  # an opponent never played has no row
    assert s["recent"] == e["recent"]
    assert s["practice_games"] == 0


def test_kill_and_resume_counts_a_game_once(db: sqlite3.Connection) -> None:
    record = with_meta(finished_games()[1], game_id="once")
    state = replay(record)
    cut = len(record.actions) // 2
    assert record_game(db, record.truncated(cut)) > 0  # the prefix: the hands scored so far
    record_game(db, record)  # resumed and finished
    record_game(db, record)  # loaded again or replayed
    s = summary(db)
    assert s["hands"] == len(state.history)
    assert s["finished_games"] == 1
    assert s["recent"] == [[h.scores_after[0] for h in state.history]]


def test_old_records_get_a_stable_derived_id(db: sqlite3.Connection) -> None:
    record = with_meta(finished_games()[0])
    assert "game_id" not in dict(record.metadata)
    assert game_id_of(record) == game_id_of(record.truncated(2)) == game_id_of(with_meta(record))
    assert game_id_of(record) != game_id_of(with_meta(finished_games()[1]))
    record_game(db, record.truncated(len(record.actions) - 3))
    record_game(db, record)
    assert summary(db)["finished_games"] == 1


def test_a_new_session_gives_its_record_a_game_id() -> None:
    session = Session(new_record(Rules(), 0, ("A", "B"), bot=None, seed=3))
    try:
        gid = dict(session.store.record.metadata)["game_id"]
        assert isinstance(gid, str) and len(gid) == 32
        again = Session(session.store.record)  # a resumed game keeps it
        assert dict(again.store.record.metadata)["game_id"] == gid
    finally:
        session.close_all()


def test_practice_games_are_kept_apart(db: sqlite3.Connection) -> None:
    games = finished_games()
    plain = with_meta(games[0], game_id="plain")
    practice = with_meta(games[1], game_id="practice")
    record_game(db, practice.truncated(len(practice.actions) // 2))  # written before the first take-back
    record_game(db, with_meta(practice, practice={"takebacks": 1}))
    record_game(db, plain)
    s = summary(db)
    assert s["practice_games"] == 1
    assert s["finished_games"] == 1
    assert s["hands"] == len(replay(plain).history)


def test_hotseat_and_forfeit(db: sqlite3.Connection) -> None:
    games = finished_games()
    seats = (PlayerInfo("Ann"), PlayerInfo("Bob"))
    hot = with_meta(games[0], seats, game_id="hot")
    record_game(db, hot)
    winner = replay(hot).winner
    unfinished = with_meta(games[1].truncated(60), BOT, game_id="forfeit",
                           result=Forfeit(1, "the bot crashed").to_json())
    record_game(db, unfinished)
    ext = with_meta(games[1], (PlayerInfo("You"), PlayerInfo("X", "bot:cmd:./x")), game_id="ext")
    record_game(db, ext)
    s = summary(db)
    assert "hotseat" not in s["by_opponent"]  # a hot-seat game is its two players', never "you"'s
    assert s["by_opponent"]["normal"] == {"played": 1, "won": 1}  # the bot forfeited
    assert s["by_opponent"]["external"]["played"] == 1
    assert s["hotseat_players"] == {"Ann": {"played": 1, "won": int(winner == 0)},
                                    "Bob": {"played": 1, "won": int(winner == 1)}}


def test_schema_version_is_set(db: sqlite3.Connection, tmp_path: Path) -> None:
    assert SCHEMA_VERSION >= 1
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    conn, _ = open_stats(tmp_path / STATS_NAME)  # opened again: nothing to migrate
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StatsError, match="newer version"):
        open_stats(tmp_path / STATS_NAME)


def test_a_corrupt_database_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / STATS_NAME
    path.write_bytes(b"this is not a database at all" * 100)
    conn, message = open_stats(path)
    assert message is not None and "kept as" in message
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("stats.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")
    assert summary(conn)["hands"] == 0
    record_game(conn, with_meta(finished_games()[0], game_id="x"))
    assert summary(conn)["finished_games"] == 1


def test_the_recorder_reports_a_corrupt_database_once(tmp_path: Path) -> None:
    path = tmp_path / STATS_NAME
    path.write_bytes(b"garbage" * 500)
    recorder = StatsRecorder(path)
    record = with_meta(finished_games()[0], game_id="r")
    message = recorder.record(record, replay(record))
    assert message is not None and "could not be read" in message
    assert recorder.record(record, replay(record)) is None
    recorder.close()
    conn, _ = open_stats(path)
    assert summary(conn)["finished_games"] == 1


def test_a_locked_database_is_reported_not_raised(tmp_path: Path) -> None:
    path = tmp_path / STATS_NAME
    conn, _ = open_stats(path)
    conn.execute("BEGIN EXCLUSIVE")  # another copy writing
    recorder = StatsRecorder(path)
    record = with_meta(finished_games()[0], game_id="locked")
    state: GameState = replay(record)
    message = recorder.record(record, state)
    assert message is not None and "locked" in message
    assert recorder.record(record, state) is None  # the same problem is said once
    conn.execute("ROLLBACK")
    assert recorder.record(record, state) is None  # written now
    assert summary(conn)["finished_games"] == 1
    recorder.close()


def test_an_unopenable_database_is_reported_not_raised(tmp_path: Path) -> None:
    path = tmp_path / STATS_NAME
    path.mkdir()  # a directory where the file should be: cannot be opened (as a read-only place would)
    recorder = StatsRecorder(path)
    record = with_meta(finished_games()[0], game_id="ro")
    message = recorder.record(record, replay(record))
    assert message is not None and message.startswith("Statistics not saved")
    assert path.is_dir()  # nothing removed


def test_recent_games_say_who_was_played_and_how_it_ended(db: sqlite3.Connection) -> None:
    games = finished_games()
    hot = with_meta(games[0], (PlayerInfo("Ann"), PlayerInfo("Bob")), game_id="hot")
    bot = with_meta(games[1], game_id="bot")
    record_game(db, hot)
    record_game(db, bot)
    s = summary(db)
    hot_state, bot_state = replay(hot), replay(bot)
    assert [g["scores"] for g in s["recent_games"]] == s["recent"]  # the same games, the same order
    (only,) = s["recent_games"]  # "your" score after each hand: the hot-seat game was nobody's "you"
    assert only == {"opponent": "normal", "won": bot_state.winner == 0, "winner": None,
                    "scores": [h.scores_after[0] for h in bot_state.history]}
    assert recent_label(only) == f"vs normal bot, {'won' if only['won'] else 'lost'}"
    assert recent_label({"opponent": "hotseat", "won": False, "winner": "Ann"}) == "hot-seat, Ann won"
    assert s["hotseat_players"]["Ann"]["won"] == int(hot_state.winner == 0)


def test_a_hotseat_game_leaves_your_figures_unchanged(db: sqlite3.Connection) -> None:
    """Before: a hot-seat Player 1's failed Double Nil was "yours" and points per hand mixed both players."""
    games = finished_games()
    record_game(db, with_meta(games[1], game_id="bot"))
    before = summary(db)
    record_game(db, with_meta(games[0], (PlayerInfo("Player 1"), PlayerInfo("Player 2")), game_id="hot"))
    after = summary(db)

    def yours(s: dict[str, Any]) -> dict[str, Any]:  # the figures but the hot-seat players', in each group too
        return {k: ({g: yours(r) for g, r in v.items()} if k == "by_rules" else v) for k, v in s.items()
                if k != "hotseat_players"}

    assert yours(after) == yours(before)
    assert set(after["hotseat_players"]) == {"Player 1", "Player 2"}


def test_you_may_sit_in_either_seat(db: sqlite3.Connection) -> None:
    """A record whose bot sits at seat 0: "you" are seat 1, your hands are seat 1's."""
    game = finished_games()[1]
    swapped = with_meta(game, (PlayerInfo("Bot", "bot:hard"), PlayerInfo("You")), game_id="swapped")
    record_game(db, swapped)
    state = replay(swapped)
    s = summary(db)
    assert s["recent"] == [[h.scores_after[1] for h in state.history]]
    assert s["by_opponent"] == {"hard": {"played": 1, "won": int(state.winner == 1)}}
    assert s["points_per_hand"] == round(sum(h.points[1] for h in state.history) / len(state.history), 2)


def test_version_one_hotseat_hands_are_removed_on_migration(tmp_path: Path) -> None:
    from spades_tui.keep.stats import MIGRATIONS, open_stats

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(str(path), isolation_level=None)
    MIGRATIONS[0](old)
    old.execute("PRAGMA user_version = 1")
    record_game_v1 = [("hot", "hotseat"), ("bot", "normal")]
    for gid, opponent in record_game_v1:
        old.execute("INSERT INTO games VALUES (?, ?, 0, 1, 1, 0, 0)", (gid, opponent))
        old.execute("INSERT INTO hands VALUES (?, 1, 4, 0, 5, 40, 0, 41, 1, 0, 0, 41)", (gid,))
    old.close()
    conn, _ = open_stats(path)
    try:
        assert [r[0] for r in conn.execute("SELECT game_id FROM hands")] == ["bot"]
    finally:
        conn.close()


def test_load_summary_reads_without_creating_and_never_raises(tmp_path: Path) -> None:
    path = tmp_path / STATS_NAME
    report = load_summary(path)
    assert report.summary["finished_games"] == 0 and report.error is None and report.message is None
    assert not path.exists()  # reading made no database
    conn, _ = open_stats(path)
    record_game(conn, with_meta(finished_games()[0], game_id="one"))
    assert load_summary(path).summary["finished_games"] == 1
    conn.execute("BEGIN EXCLUSIVE")  # another copy writing: reading must wait, then give up with a message
    locked = load_summary(path)
    assert locked.error is not None and "locked" in locked.error and locked.summary["finished_games"] == 0
    conn.execute("ROLLBACK")
    conn.close()
    path.write_bytes(b"not a database" * 100)
    damaged = load_summary(path)
    assert damaged.error is None and damaged.message is not None and "kept as" in damaged.message
    assert load_summary(None).summary["hands"] == 0


def test_hands_scored_before_the_first_take_back_still_count(db: sqlite3.Connection) -> None:
    """Before: one take-back removed the whole game from the statistics, the hands already scored too."""
    games = finished_games()
    game = with_meta(games[1], game_id="kept")
    hands = replay(game).history
    assert len(hands) >= 3
    record_game(db, with_meta(game, practice={"takebacks": 1, "from_hand": 3}))
    s = summary(db)
    assert s["hands"] == 2  # hands 1 and 2 were played without knowing what comes
    assert s["points_per_hand"] == round((hands[0].points[0] + hands[1].points[0]) / 2, 2)
    assert s["finished_games"] == 0 and s["practice_games"] == 1  # the result is practice
    record_game(db, with_meta(game, practice={"takebacks": 2, "from_hand": 1}))  # a later replay of hand 1
    assert summary(db)["hands"] == 0


def test_a_take_back_says_which_hand_it_touched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spades_tui.bots.levels import make_bot
    from spades_tui.keep.meta import RecordMeta
    from spades_tui.session import session as session_module
    from spades_tui.session.session import Session

    monkeypatch.setattr(session_module, "create_bot", lambda spec, seed=None: make_bot(spec, seed))
    session = Session(GameRecord(Rules(), 0, BOT), seed=5, hints=False)
    assert not RecordMeta.of(session.store.record).practice  # no take-back yet
    while len(session.state.history) < 1 or session.state.phase.value == "shuffle" or not session.view().my_turn:
        if session.bot_due() is not None:
            token, seat, obs, legal = session.bot_request()
            session.bot_answer(token, seat, session.bots[seat].decide(obs, legal), None)
        elif session.state.phase.value == "shuffle":
            session.next_hand()
        else:
            session.act(session.view().default)  # type: ignore[arg-type]
    while not session.view().can_take_back:
        session.act(session.view().default)  # type: ignore[arg-type]
        if session.bot_due() is not None:
            token, seat, obs, legal = session.bot_request()
            session.bot_answer(token, seat, session.bots[seat].decide(obs, legal), None)
    assert session.take_back() and RecordMeta.of(session.store.record).practice
    meta = RecordMeta.of(session.store.record)
    assert meta.takebacks == 1 and meta.practice_from == 2  # hand 1 was scored before it
    session.close_all()


def test_games_under_different_house_rules_are_kept_apart(db: sqlite3.Connection, tmp_path: Path) -> None:
    """The figures by preset (and "own" house rules), each as an independent count of its games; "all" stays."""
    from spades_tui.engine.rules import PRESETS
    from spades_tui.keep.stats import StatsReport, rules_group_name
    from spades_tui.tui.statsview import stats_view

    standard = [with_meta(contract_game(), game_id="s")]  # the standard rules: not finished, seven hands
    quick_rules = PRESETS["quick"].rules
    quick = []
    for seed in range(40):
        record, state = random_game(seed, rules=quick_rules, max_hands=12)
        if state.winner is not None:
            quick.append(with_meta(record, game_id=f"q{seed}"))
        if len(quick) == 2:
            break
    own, _ = random_game(3, rules=Rules(nil_points=60), max_hands=2)
    groups = {"standard": standard, "quick": quick, "own": [with_meta(own, game_id="own")]}
    for records in groups.values():
        for record in records:
            record_game(db, record)
    s = summary(db)
    assert list(s["by_rules"]) == ["standard", "quick", "own"]
    assert s["hands"] == sum(expected(r)["hands"] for r in groups.values())  # "all": every group together
    for group, records in groups.items():
        got, e = s["by_rules"][group], expected(records)
        assert got["hands"] == e["hands"] and got["finished_games"] == e["finished"]
        assert got["bids"]["made"] == e["made"] and got["bag_penalties"] == e["penalties"]
    assert rules_group_name("quick") == "Quick rules"
    view = stats_view(StatsReport(s))
    assert [p.label for p in view.pages] == ["all games", "Standard rules", "Quick rules", "own house rules"]
    # A database from before the rules were kept: its games are "earlier", apart from the rest.
    db.execute("UPDATE games SET rules = NULL WHERE game_id = 'own'")
    assert list(summary(db)["by_rules"]) == ["standard", "quick", "earlier"]


def test_groups_kept_under_the_presets_old_names_join_their_presets_one_name(tmp_path: Path) -> None:
    """Version 6 (issue 37): a game a version 5 database kept as "article" (or "club", "kitchen", ...) is now
    its preset's one name, counted with the games written since, in one group."""
    from spades_tui.keep.stats import MIGRATIONS, open_stats, rules_group_name

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(str(path), isolation_level=None)
    for step in MIGRATIONS[:5]:
        step(old)
    old.execute("PRAGMA user_version = 5")
    for gid, group in (("a", "article"), ("c", "club"), ("k", "kitchen"), ("o", "own"), ("e", None)):
        old.execute("INSERT INTO games VALUES (?, 'normal', 0, 1, 1, 0, 0, NULL, ?)", (gid, group))
    old.close()
    conn, _ = open_stats(path)
    try:
        kept = dict(conn.execute("SELECT game_id, rules FROM games").fetchall())
        assert kept == {"a": "standard", "c": "tournament", "k": "casual", "o": "own", "e": None}
        new = with_meta(contract_game(), game_id="new")  # the standard rules, written now
        record_game(conn, new)
        assert list(summary(conn)["by_rules"]) == ["standard", "tournament", "casual", "own", "earlier"]
        assert summary(conn, "standard")["finished_games"] == 1  # "a"; "new" is not finished
        assert summary(conn, "standard")["hands"] == expected([new])["hands"]
    finally:
        conn.close()
    assert rules_group_name("article") == "Standard rules"  # an old name read anywhere says its one name


def test_version_four_hands_learn_whether_they_were_made_from_the_rule_book(tmp_path: Path) -> None:
    """The v5 step fills ``made`` for hands written before it, asking the rule book of their bid and
    tricks (their points agree); the figures then read ``made`` alone, as the rule book wrote it for
    every hand since."""
    from spades_tui.keep.stats import MIGRATIONS, open_stats

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(str(path), isolation_level=None)
    for step in MIGRATIONS[:4]:
        step(old)
    old.execute("PRAGMA user_version = 4")
    old.execute("INSERT INTO games VALUES ('g', 'normal', 0, 1, 1, 0, 0, NULL, NULL)")
    rows = [  # hand, bid, double_nil, tricks, contract, nil: made 4, set 5, made Nil, broken Double Nil
        (1, 4, 0, 5, 40, 0), (2, 5, 0, 3, -50, 0), (3, 0, 0, 0, 0, 100), (4, 0, 1, 2, 0, -200)]
    for hand, bid, dn, tricks, contract, nil in rows:
        old.execute("INSERT INTO hands VALUES ('g', ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0)",
                    (hand, bid, dn, tricks, contract, nil, contract + nil))
    old.close()
    conn, _ = open_stats(path)
    try:
        assert [r[0] for r in conn.execute("SELECT made FROM hands ORDER BY hand_number")] == [1, 0, 1, 0]
        s = summary(conn)
        assert s["bids"]["made"] == 1 and s["bids"]["set"] == 1
        assert s["nil"] == {"bid": 1, "made": 1} and s["double_nil"] == {"bid": 1, "made": 0}
    finally:
        conn.close()
