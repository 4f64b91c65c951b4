"""What a client reads of rated play's answers (docs/table-protocol.md, "Rated play"): every field checked and
bounded, names cleaned, a line that cannot be read left out and never the list; the rows as printed; a rated
table's welcome, its over's rating changes and its lobby entry read as hostile text is."""

from __future__ import annotations

from typing import Any

from spades_tui.engine.rules import Rules
from spades_tui.table.seat.finder import entry
from spades_tui.table.seat.rated import PlayerLine, board_rows, leaderboard_of, line_of, page_of
from spades_tui.table.wire import frames as f


def _line(**change: Any) -> dict[str, Any]:
    return {"id": 3, "name": "Ada", "rating": 1712.4, "rd": 64.2, "provisional": False, "games": 23, "wins": 15,
            "last": "2026-12-04", **change}


def test_a_line_is_read_field_by_field() -> None:
    line = line_of(_line())
    assert line == PlayerLine(3, "Ada", 1712.4, 64.2, 23, 15, "2026-12-04")
    assert line.shown == "1712" and not line.provisional
    assert line_of(_line(rd=180.0)).shown == "1712?"  # provisional from the RD, whatever the server says


def test_hostile_lines_are_left_out_and_names_cleaned() -> None:
    bad = [_line(id=-1), _line(id=True), _line(rating="1700"), _line(rating=float("nan")), _line(rd=10**9),
           _line(games=1.5), _line(last="tomorrow"), _line(name=""), _line(name="\u200b"), "text", None]
    message = {"type": "players", "players": [*bad, _line(name="\x1b]0;pwned\x07Eve\n" + "x" * 500)],
               "you": _line(id="me")}
    lines, you = leaderboard_of(message)
    assert len(lines) == 1 and you is None
    assert lines[0].name.startswith("Eve x") and len(lines[0].name) == 24 and "\x1b" not in lines[0].name


def test_a_leaderboard_is_bounded() -> None:
    lines, _ = leaderboard_of({"players": [_line(id=n) for n in range(1000)]})
    assert len(lines) == 100


def test_a_page_keeps_the_results_it_can_read() -> None:
    results = [{"opponent": "Bob", "won": True, "change": 8.2, "how": "over", "at": 1_800_000_000},
               {"opponent": "Cy", "won": "yes", "change": 1, "how": "over", "at": 1},
               {"opponent": "Cy", "won": False, "change": -9.5, "how": "cheat", "at": 1},
               {"opponent": "Dee", "won": False, "change": -12.0, "how": "claim", "at": 1_800_000_100}]
    page = page_of({**_line(), "results": results * 10})
    assert [r.opponent for r in page.results] == ["Bob", "Dee"] * 5  # the first 20 looked at, 10 good
    assert page.line.name == "Ada"


def test_rows_mark_your_own_and_add_it_when_not_listed() -> None:
    ada, bob = line_of(_line()), line_of(_line(id=4, name="Bob", rating=1650.0))
    rows = board_rows([ada, bob], bob)
    assert rows[0].startswith("  1. Ada") and "← you" not in rows[0]
    assert rows[1].startswith("  2. Bob") and rows[1].endswith("← you")
    newcomer = line_of(_line(id=9, name="Cy", rating=1662.3, rd=290.3, games=1, wins=1))
    rows = board_rows([ada, bob], newcomer)
    assert len(rows) == 3 and rows[2].startswith("     Cy") and "1662?" in rows[2] and rows[2].endswith("← you")


# ------------------------------------------------------------------ a rated table's welcome and over


def _welcome(**fields: object) -> dict[str, object]:
    return {"type": "welcome", "seat": 1, "token": "t" * 40, "rules": Rules().to_json(), "code": None,
            "watch": None, "players": [{"name": "Ada"}, {"name": "Bob"}], **fields}


def test_a_welcome_says_a_table_is_rated_only_by_true_and_its_claim_wait_is_bounded() -> None:
    found = f.read(_welcome(rated=True, claim_after=300))
    assert isinstance(found, f.Welcome) and found.rated and found.claim_after == 300.0
    for rated in (None, 1, "true", [True]):
        plain = f.read(_welcome(rated=rated, claim_after=300))
        assert isinstance(plain, f.Welcome) and not plain.rated and plain.claim_after is None
    for after in (-1, 10**8, float("nan"), float("inf"), True, "300", None):
        odd = f.read(_welcome(rated=True, claim_after=after))
        assert isinstance(odd, f.Welcome) and odd.rated and odd.claim_after is None  # no claim offered


def _over(ratings: object) -> f.Over:
    found = f.read({"type": "over", "scores": [510, 200], "winner": 0, "record": None, "ratings": ratings})
    assert isinstance(found, f.Over) and found.winner == 0  # the result counts whatever the ratings say
    return found


def test_an_over_tells_each_seats_rating_change_and_a_hostile_one_is_left_out() -> None:
    seat = {"before": 1500.0, "after": 1662.3, "rd_before": 350.0, "rd_after": 290.3}
    told = _over([seat, {**seat, "after": 1337.7}]).ratings
    assert told is not None and told[0].after == 1662.3 and told[1].after == 1337.7 and told[1].rd_before == 350.0
    for hostile in ([seat], [seat, seat, seat], {"0": seat}, "1662", [seat, {**seat, "after": float("nan")}],
                    [seat, {**seat, "rd_after": 1e9}], [seat, {**seat, "before": True}], [seat, None],
                    [seat, {k: v for k, v in seat.items() if k != "after"}], [seat, {**seat, "after": "1662"}]):
        assert _over(hostile).ratings is None


def test_a_lobby_entry_marks_a_rated_table_only_by_true() -> None:
    raw = {"code": "abcd-efgh-jkmn", "watch": "bcde-fghj-kmnp", "players": ["Ada", "Guest"],
           "rules": Rules().to_json(), "since": 5, "scores": [0, 0], "hand": 0, "watchers": 0}
    assert "rated" in entry({**raw, "rated": True}).line()
    for rated in (None, 1, "yes"):
        listed = entry({**raw, "rated": rated})
        assert not listed.rated and "rated" not in listed.line()
