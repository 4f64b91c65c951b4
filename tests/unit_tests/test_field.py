"""The day's challenge at a server, its pure parts and its files (docs/serving.md, "The day's challenge"): the
matchpoints of the spec's rule, the standings' ranks, the entries kept once in the players database, the server's
secret, the stocks from an HMAC of the date and the preset, the pool of experts that lets N think at once."""

from __future__ import annotations

import asyncio
import datetime
import random
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from spades_tui.engine.actions import Shuffle
from spades_tui.engine.state import new_game
from spades_tui.keep.field import SECRET_NAME, FieldBook, FieldError, server_secret, standings
from spades_tui.keep.players import PlayerStore
from spades_tui.session.challenge import ChallengeCode
from spades_tui.session.dealer import Dealer
from spades_tui.table.host.challenge import ServerChallenge
from spades_tui.table.host.experts import ExpertPool
from spades_tui.table.wire import frames as f
from spades_tui.table.wire.shuffle import stock_order

DAY = datetime.date(2026, 12, 4)


def by_the_rule(field: list[tuple[int, ...]]) -> list[float]:
    """The spec's rule worked entry by entry: 2 a beaten margin, 1 a tie, as a percentage of 2 an other entry,
    the four hands' percentages averaged (a lone entry: 50%)."""
    scores = []
    for i, mine in enumerate(field):
        pcts = []
        for hand in range(4):
            got = 0
            for j, other in enumerate(field):
                if j != i:
                    got += 2 if mine[hand] > other[hand] else 1 if mine[hand] == other[hand] else 0
            most = 2 * (len(field) - 1)
            pcts.append(100 * got / most if most else 50.0)
        scores.append(sum(pcts) / 4)
    return scores


@pytest.mark.parametrize("seed", range(6))
def test_matchpoints_are_the_specs_rule_with_the_par_as_one_more_entry(seed: int) -> None:
    rng = random.Random(seed)
    entries = [(f"P{i}", tuple(rng.choice((-40, -10, 0, 10, 10, 52)) for _ in range(4)), i)
               for i in range(rng.randint(1, 7))]
    par = tuple(rng.choice((-10, 0, 10)) for _ in range(4))
    rows = standings(entries, par)
    expected = by_the_rule([hands for _, hands, _ in entries] + [par])
    names = [name for name, _, _ in entries] + ["Par"]
    assert {r.name: r.percent for r in rows} == pytest.approx(dict(zip(names, expected, strict=True)))
    assert [r.par for r in rows].count(True) == 1
    ordered = sorted(expected, reverse=True)
    for row in rows:  # best first; an equal score shares the rank of the first of its equals
        assert row.rank == 1 + sum(1 for score in ordered if score > row.percent + 1e-9)


def test_a_lone_entry_has_the_average_and_ties_share_everything() -> None:
    assert [r.percent for r in standings([("Ada", (5, 5, 5, 5), 1)], None)] == [50.0]
    rows = standings([("Ada", (5, -5, 0, 9), 1), ("Bob", (5, -5, 0, 9), 2)], (5, -5, 0, 9))
    assert [(r.percent, r.rank) for r in rows] == [(50.0, 1)] * 3
    assert standings([], None) == []


def test_an_entry_is_kept_once_per_player_and_day_in_the_players_database(tmp_path: Path) -> None:
    store = PlayerStore.open(tmp_path)
    ada = store.register("Ada", "k" * 43, "1.2.3.4")
    book = FieldBook(store.conn)
    assert book.add_entry("2026-12-04", "standard", ada.id, "Ada", (1, 2, 3, 4), 1.0, "g1")
    assert not book.add_entry("2026-12-04", "standard", ada.id, "Ada", (9, 9, 9, 9), 2.0, "g2")  # the first stands
    assert book.add_entry("2026-12-05", "standard", ada.id, "Ada", (9, 9, 9, 9), 2.0, "g3")
    book.set_par("2026-12-04", "standard", 200, (0, 1, 0, 1))
    book.set_par("2026-12-04", "standard", 200, (7, 7, 7, 7))
    store.close()
    again = PlayerStore.open(tmp_path)  # a new process: what was committed is there
    book = FieldBook(again.conn)
    assert book.entry("2026-12-04", "standard", ada.id) == (1, 2, 3, 4)
    assert book.par("2026-12-04", "standard") == (0, 1, 0, 1)
    assert [e[1] for e in book.entries("2026-12-04", "standard")] == [(1, 2, 3, 4)]
    again.close()


def test_a_players_database_of_the_first_version_gains_the_challenge_tables(tmp_path: Path) -> None:
    from spades_tui.keep.players import MIGRATIONS, PLAYERS_NAME

    conn = sqlite3.connect(tmp_path / PLAYERS_NAME)
    MIGRATIONS[0](conn)
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    store = PlayerStore.open(tmp_path)
    assert FieldBook(store.conn).entries("2026-12-04", "standard") == []
    store.close()


def test_the_servers_secret_is_made_once_0600_and_a_damaged_one_is_left_as_it_is(tmp_path: Path) -> None:
    made = server_secret(tmp_path)
    path = tmp_path / SECRET_NAME
    assert len(made) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert server_secret(tmp_path) == made
    path.write_bytes(b"short")
    with pytest.raises(FieldError, match="damaged"):
        server_secret(tmp_path)
    assert path.read_bytes() == b"short"


def stocks(challenge: ServerChallenge) -> tuple[tuple[str, ...], ...]:
    """The four stocks its keys deal, top card first, as card codes."""
    return tuple(tuple(c.code for c in stock_order(challenge.key(h))) for h in range(1, 5))


def test_the_stocks_come_from_the_secret_the_date_and_the_preset() -> None:
    secret = bytes(range(32))
    day = ServerChallenge(ChallengeCode(DAY), secret)
    assert stocks(day) == stocks(ServerChallenge(ChallengeCode(DAY), bytes(range(32))))  # everyone's the same
    tomorrow = DAY + datetime.timedelta(1)
    others = [ServerChallenge(ChallengeCode(DAY), bytes(32)), ServerChallenge(ChallengeCode(tomorrow), secret),
              ServerChallenge(ChallengeCode(DAY, "tournament"), secret)]
    for other in others:
        assert all(a != b for a, b in zip(stocks(day), stocks(other), strict=True))
    assert len({s for s in stocks(day)}) == 4 and all(sorted(s) == sorted(stocks(day)[0]) for s in stocks(day))
    local = ChallengeCode(DAY)  # the local challenge of the date: its first stock from the date alone
    shuffle = Dealer(local.deal_seed).chance_action(new_game(local.rules, local.first))
    assert isinstance(shuffle, Shuffle) and tuple(c.code for c in shuffle.stock) != stocks(day)[0]


class FakeWorker:
    def alive(self) -> bool:
        return True

    def close(self) -> None:
        pass


async def test_the_pool_lets_n_think_at_once_and_tells_the_others_their_place() -> None:
    pool = ExpertPool(2, 1, make=FakeWorker)  # type: ignore[arg-type]
    thinking, most, told = 0, 0, {}
    release = asyncio.Event()

    async def decide(who: int) -> None:
        nonlocal thinking, most
        places: list[int] = []
        told[who] = places
        async with pool.turn(places.append):
            thinking += 1
            most = max(most, thinking)
            await release.wait()
            thinking -= 1

    tasks = [asyncio.ensure_future(decide(i)) for i in range(5)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert thinking == 2 and len(pool.line) == 3
    assert [told[i] for i in range(5)] == [[], [], [0], [1], [2]]
    release.set()
    await asyncio.gather(*tasks)
    assert most == 2 and len(pool.free) == 2 and not pool.line
    assert told[4][-1] == -1 and told[4][:-1] == sorted(told[4][:-1], reverse=True)  # its place fell, then its turn


def test_a_standings_frame_is_read_bounded_and_hostile_ones_refused() -> None:
    entry: dict[str, Any] = {"name": "Ada\x1b[31m", "percent": 50.0, "rank": 1, "par": False, "you": True,
                             "hands": [1, 2, 3, 4], "hand_percents": [50, 50, 50, 50]}
    good: dict[str, Any] = {"type": "standings", "date": "2026-12-04", "preset": "standard", "count": 1, "par": False,
                            "practice": False, "you": None,
                            "entries": [entry]}
    read = f.read(good)
    assert isinstance(read, f.Standings) and read.entries[0].name == "Ada" and read.entries[0].hands == (1, 2, 3, 4)
    hostile: list[dict[str, Any]] = [{"percent": float("nan")}, {"percent": 101}, {"hands": [1, 2, 3]},
                                     {"rank": True}, {"name": "x" * 500}]
    for change in hostile:
        bad = {**good, "entries": [{**entry, **change}]}
        with pytest.raises(f.FrameError):
            f.read(bad)
    with pytest.raises(f.FrameError):
        f.read({**good, "entries": good["entries"] * 201})


@pytest.mark.parametrize("address", ["bad:addr:x", "host:port", "127.0.0.1:99999", "ws://:7000"])
def test_a_server_address_that_is_none_is_said_not_raised(address: str) -> None:
    from spades_tui.table.seat.link import TableError, table_url

    with pytest.raises(TableError, match="not a table address"):
        table_url(address)
