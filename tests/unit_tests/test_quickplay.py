"""Quick play's pairing (docs/table-protocol.md, "Rated play"): within 150, widening by 50 every 10 s, anyone
after 60 s, never a player with themself, the seekers bounded."""

from __future__ import annotations

from spades_tui.table.server.quickplay import MAX_SEEKERS, SEEKERS_PER_ADDRESS, Seeker, Seeking, window


def _seek(seeking: Seeking[str], player: int, rating: float, since: float = 0.0, address: str = "") -> Seeker[str]:
    seeker = Seeker(player, rating, address or f"10.0.0.{player}", since, f"p{player}")
    assert seeking.add(seeker) is None
    return seeker


def _names(pairs: list[tuple[Seeker[str], Seeker[str]]]) -> list[tuple[str, str]]:
    return [(a.handle, b.handle) for a, b in pairs]


def test_the_window_widens_then_takes_anyone() -> None:
    assert [window(t) for t in (0, 9.9, 10, 25, 59.9)] == [150, 150, 200, 250, 400]
    assert window(60) == float("inf")


def test_within_150_at_once_and_the_nearest_rating_first() -> None:
    seeking: Seeking[str] = Seeking()
    _seek(seeking, 1, 1500)
    _seek(seeking, 2, 1640)
    _seek(seeking, 3, 1520)
    assert _names(seeking.pairs(0.0)) == [("p1", "p3")]
    assert [s.handle for s in seeking.seekers] == ["p2"]


def test_further_apart_waits_for_the_window_to_widen() -> None:
    seeking: Seeking[str] = Seeking()
    _seek(seeking, 1, 1500)
    _seek(seeking, 2, 1730, since=5.0)
    assert seeking.pairs(9.0) == []
    assert seeking.pairs(19.0) == []  # 200 for the first, 150 for the second
    assert _names(seeking.pairs(20.0)) == [("p1", "p2")]  # 250 wide after 20 s


def test_anyone_after_a_minute_and_never_oneself() -> None:
    seeking: Seeking[str] = Seeking()
    _seek(seeking, 1, 1000)
    _seek(seeking, 2, 2400, since=59.0)
    assert seeking.pairs(59.9) == []
    assert _names(seeking.pairs(60.0)) == [("p1", "p2")]
    alone: Seeking[str] = Seeking()
    _seek(alone, 7, 1500, address="10.0.0.1")
    assert alone.add(Seeker(7, 1500, "10.0.0.2", 0.0, "again")) is not None  # one seek a player
    assert alone.pairs(1000.0) == []


def test_seekers_are_bounded_per_address_and_in_all() -> None:
    seeking: Seeking[str] = Seeking()
    for n in range(SEEKERS_PER_ADDRESS):
        _seek(seeking, n, 1500 + 1000 * n, address="10.0.0.9")
    refused = seeking.add(Seeker(99, 1500, "10.0.0.9", 0.0, "more"))
    assert refused is not None and "one address" in refused
    small: Seeking[str] = Seeking(max_seekers=3)
    for n in range(3):
        _seek(small, n, 1000 * n)
    assert small.add(Seeker(9, 0, "10.0.0.99", 0.0, "x")) is not None
    assert MAX_SEEKERS >= 100


def test_a_seeker_who_leaves_is_not_paired_and_seeking_is_told_every_5_s() -> None:
    seeking: Seeking[str] = Seeking()
    gone = _seek(seeking, 1, 1500)
    seeking.remove(gone)
    _seek(seeking, 2, 1500)
    assert seeking.pairs(0.0) == []
    assert [s.handle for s in seeking.due(0.0)] == ["p2"]
    assert seeking.due(4.9) == [] and len(seeking.due(5.0)) == 1
