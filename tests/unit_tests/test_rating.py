"""Rated play's pure parts and its files (docs/serving.md, "Rated play"): Glicko-2 as the paper computes it,
names held cleaned and case-folded, the server's players database, the client's key for each server."""

from __future__ import annotations

import hashlib
import math
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades_tui.engine.text import name_key, player_name
from spades_tui.keep import glicko
from spades_tui.keep.glicko import Rating, away, game, rate
from spades_tui.keep.players import NEW_PER_HOUR, PLAYERS_NAME, PlayersError, PlayerStore, Refused, key_hash
from spades_tui.keep.serverkeys import KeyFileError, ServerKey, is_key, key_path, load_key, new_key, save_key
from tests.support.rated import one_game_by_hand

# ------------------------------------------------------------------ Glicko-2


def test_the_papers_worked_example() -> None:
    """Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one period."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.02)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_one_game_between_new_players_moves_both_as_the_formulas_say() -> None:
    won, lost = game(Rating(), Rating())
    for after, score in ((won, 1.0), (lost, 0.0)):
        rating, rd = one_game_by_hand(Rating(), Rating(), score)
        assert after.rating == pytest.approx(rating, abs=0.01)
        assert after.rd == pytest.approx(rd, abs=0.01)
    assert won.rating > 1600 and lost.rating < 1400  # about +162 and -162
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)


def test_time_away_widens_the_rd_a_period_a_day_capped_at_350() -> None:
    kept = Rating(1700, 60, 0.06)
    assert away(kept, 0) == kept
    one_day = away(kept, 1)
    assert one_day.rd == pytest.approx(173.7178 * math.sqrt((60 / 173.7178) ** 2 + 0.06**2))
    assert away(kept, 30).rd > away(kept, 10).rd > one_day.rd > kept.rd
    assert away(kept, 10_000).rd == 350.0
    assert away(kept, 30).rating == 1700 and away(kept, 30).volatility == 0.06
    assert away(Rating(1500, 350), 5).rd == 350.0  # a new player's RD stays where it is


def test_provisional_over_rd_110_is_shown_with_a_question_mark() -> None:
    assert Rating(1523.4, 111).shown == "1523?" and Rating(1523.4, 111).provisional
    assert Rating(1523.6, 110).shown == "1524" and not Rating(1523.6, 110).provisional
    assert Rating().provisional


# ------------------------------------------------------------------ names


@pytest.mark.parametrize("other", ["ada", "ADA", "A\u200bda", "Ada\u200d", " Ada ", "Ａｄａ", "\ufeffAda",
                                   "Ada\x1b[31m"])
def test_names_are_one_when_cleaned_and_case_folded(other: str) -> None:
    assert name_key(other) == name_key("Ada")


def test_a_name_is_cleaned_and_bounded() -> None:
    assert player_name("x" * 100) == "x" * 24
    assert player_name("\u200b\u200b") == "" and player_name(None) == ""
    assert player_name("Ann\nBob\x07") == "Ann Bob"
    assert name_key("Ann") != name_key("Anne")


# ------------------------------------------------------------------ the server's players database


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[PlayerStore]:
    opened = PlayerStore.open(tmp_path, clock)
    yield opened
    opened.close()


def test_the_database_is_private_and_in_wal_mode(tmp_path: Path, store: PlayerStore) -> None:
    path = tmp_path / PLAYERS_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_server_keeps_only_the_keys_hash(tmp_path: Path, store: PlayerStore) -> None:
    key = new_key()
    ada = store.register("Ada", key, "10.0.0.1")
    assert store.by_key(key) == ada and store.by_key(new_key()) is None
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the database, its WAL and its index
    store.close()
    data += (tmp_path / PLAYERS_NAME).read_bytes()
    assert key.encode() not in data
    assert key_hash(key) == hashlib.sha256(key.encode()).hexdigest()


def test_a_taken_name_is_refused_for_another_key(store: PlayerStore) -> None:
    store.register("Ada", new_key(), "10.0.0.1")
    for same in ("ada", "A\u200bda", "ADA "):
        with pytest.raises(Refused, match="that name is taken on this server"):
            store.register(same, new_key(), "10.0.0.2")
    assert store.count() == 1


def test_a_player_may_rename_to_a_free_name_only(store: PlayerStore) -> None:
    ada = store.register("Ada", new_key(), "10.0.0.1")
    store.register("Bob", new_key(), "10.0.0.2")
    with pytest.raises(Refused, match="taken"):
        store.rename(ada.id, "bob")
    assert store.rename(ada.id, "ADA").name == "ADA"  # one's own name in another case
    assert store.rename(ada.id, "Countess").name == "Countess"
    assert store.by_name("countess") is not None and store.by_name("Ada") is None


def test_three_new_players_an_address_an_hour_and_a_cap_in_all(store: PlayerStore, clock: Clock) -> None:
    for n in range(NEW_PER_HOUR):
        store.register(f"Ann {n}", new_key(), "10.0.0.1")
    with pytest.raises(Refused, match="an hour"):
        store.register("Ann 9", new_key(), "10.0.0.1")
    store.register("Bob", new_key(), "10.0.0.2")  # another address is not refused for it
    clock.now += 3601
    store.register("Ann 9", new_key(), "10.0.0.1")
    with pytest.raises(Refused, match="as many players"):
        store.register("Cy", new_key(), "10.0.0.3", max_players=5)


def test_a_result_is_one_transaction_and_never_rated_twice(store: PlayerStore) -> None:
    ada = store.register("Ada", new_key(), "10.0.0.1")
    bob = store.register("Bob", new_key(), "10.0.0.2")
    rated = store.rate("game-1", ada.id, bob.id)
    assert rated is not None
    assert store.rate("game-1", ada.id, bob.id) is None
    assert store.rate("game-1", bob.id, ada.id) is None
    won, lost = game(Rating(), Rating())
    after_ada, after_bob = store.by_id(ada.id), store.by_id(bob.id)
    assert after_ada is not None and after_bob is not None
    assert after_ada.rating == won and after_bob.rating == lost
    assert (after_ada.games, after_ada.wins, after_bob.games, after_bob.wins) == (1, 1, 1, 0)


def test_a_result_rates_from_the_rd_widened_by_time_away(store: PlayerStore, clock: Clock) -> None:
    ada = store.register("Ada", new_key(), "10.0.0.1")
    bob = store.register("Bob", new_key(), "10.0.0.2")
    for n in range(20):
        store.rate(f"g{n}", ada.id, bob.id) if n % 2 else store.rate(f"g{n}", bob.id, ada.id)
    ada_then, bob_then = store.by_id(ada.id), store.by_id(bob.id)
    assert ada_then is not None and bob_then is not None and ada_then.rating.rd < 110
    clock.now += 200 * glicko.DAY
    assert ada_then.now_rating(clock.now).rd == pytest.approx(away(ada_then.rating, 200).rd)
    assert store.rate("late", ada.id, bob.id) is not None
    won, lost = game(away(ada_then.rating, 200), away(bob_then.rating, 200))
    ada_now, bob_now = store.by_id(ada.id), store.by_id(bob.id)
    assert ada_now is not None and bob_now is not None
    assert ada_now.rating == won and bob_now.rating == lost
    assert won != game(ada_then.rating, bob_then.rating)[0]  # the time away made a difference


def test_the_leaderboard_leaves_provisional_ratings_off(store: PlayerStore, clock: Clock) -> None:
    ada = store.register("Ada", new_key(), "10.0.0.1")
    bob = store.register("Bob", new_key(), "10.0.0.2")
    cy = store.register("Cy", new_key(), "10.0.0.3")
    for n in range(20):
        store.rate(f"g{n}", ada.id, bob.id) if n % 3 else store.rate(f"g{n}", bob.id, ada.id)
    store.rate("cy", cy.id, ada.id)
    board = store.leaderboard()
    assert [line["name"] for line in board] == ["Ada", "Bob"]  # Cy, one game, is provisional
    assert board[0]["rating"] > board[1]["rating"] and all(not line["provisional"] for line in board)
    clock.now += 400 * glicko.DAY  # a year away: provisional again
    assert store.leaderboard() == []
    page = store.page(cy)
    assert page["results"] == [{"opponent": "Ada", "won": True, "change": page["results"][0]["change"],
                                "how": "over", "at": int(clock.now - 400 * glicko.DAY)}]
    assert page["results"][0]["change"] > 0 and page["provisional"]


def test_a_damaged_database_stops_the_start_and_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / PLAYERS_NAME
    opened = PlayerStore.open(tmp_path)
    opened.register("Ada", new_key(), "10.0.0.1")
    opened.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the header's tail and the first page
    path.write_bytes(bytes(data))
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(PlayersError, match=r"damaged.*will not start.*left as it is"):
        PlayerStore.open(tmp_path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("content", [b"not a database at all, but text " * 200, b"SQLite format 3\x00" + b"\x00" * 50])
def test_a_file_that_is_no_database_is_refused_unchanged(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / PLAYERS_NAME
    path.write_bytes(content)
    with pytest.raises(PlayersError, match="will not start"):
        PlayerStore.open(tmp_path)
    assert path.read_bytes() == content


def test_someone_elses_database_and_a_newer_one_are_refused(tmp_path: Path) -> None:
    path = tmp_path / PLAYERS_NAME
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE orders (x)")
    conn.commit()
    conn.close()
    with pytest.raises(PlayersError, match="not a spades-tui players database"):
        PlayerStore.open(tmp_path)
    path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(PlayersError, match="newer spades-tui"):
        PlayerStore.open(tmp_path)


def test_a_link_in_its_place_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_bytes(b"")
    os.symlink(tmp_path / "elsewhere", tmp_path / PLAYERS_NAME)
    with pytest.raises(PlayersError, match="not a regular file"):
        PlayerStore.open(tmp_path)


# ------------------------------------------------------------------ the client's key for each server


def test_a_key_is_32_random_bytes_base64url() -> None:
    import base64

    keys = {new_key() for _ in range(20)}
    assert len(keys) == 20 and all(is_key(k) and len(k) == 43 for k in keys)
    assert len(base64.urlsafe_b64decode(next(iter(keys)) + "=")) == 32
    assert not is_key("x" * 42) and not is_key("+" * 43) and not is_key(None)


def test_the_key_is_kept_per_server_0600(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        kept = ServerKey("box.example.org:7000", 7, "Ada", new_key())
        path = save_key(tmp_path, kept)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load_key(tmp_path, "ws://BOX.example.org:7000/") == kept
    assert load_key(tmp_path, "box.example.org:7001") is None
    assert key_path(tmp_path, "a:1") != key_path(tmp_path, "a_1")
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_a_damaged_key_file_is_said_and_never_overwritten(tmp_path: Path) -> None:
    path = key_path(tmp_path, "box:7000")
    path.parent.mkdir(parents=True)
    path.write_text("{broken")
    with pytest.raises(KeyFileError, match="damaged"):
        load_key(tmp_path, "box:7000")
    with pytest.raises(KeyFileError):
        save_key(tmp_path, ServerKey("box:7000", 1, "Ada", new_key()))
    assert path.read_text() == "{broken"
