"""A match in parts (``arena ... --deals A:B --out FILE``, ``arena merge FILES``): the parts of a
seeded match merged give the whole match's report, and a bad part is a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_tui.cli import main

MATCH = ["arena", "easy", "normal", "--hands-only", "--seed", "5"]


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args])
    out, err = capsys.readouterr()
    return code, out, err


def _body(report: str) -> list[str]:
    """The report's lines but the decision times, whole and by kind (a time differs from run to run)."""
    return [line for line in report.splitlines() if "decision time" not in line and " ms" not in line]


def test_the_parts_of_a_match_merge_into_the_whole_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, whole, _ = _report(capsys, *MATCH, "--games", "6")
    assert code == 0 and "3 duplicate deals" in whole
    parts = [tmp_path / "a.json", tmp_path / "b.json"]
    assert _report(capsys, *MATCH, "--deals", "0:1", "--out", str(parts[0]))[0] == 0
    assert _report(capsys, *MATCH, "--deals", "1:3", "--out", str(parts[1]))[0] == 0
    code, merged, err = _report(capsys, "arena", "merge", str(parts[1]), str(parts[0]))
    assert code == 0, err
    report, _, listed = merged.partition("\n\nparts:\n")
    assert _body(report) == _body(whole)  # the same deals, the same hands: the same figures
    assert f"{parts[1]}: deals 1:3, 2 of 2 played" in listed and f"{parts[0]}: deals 0:1, 1 of 1 played" in listed
    assert "load" in listed
    # Each part file holds its own deals only.
    assert [r["index"] for r in json.loads(parts[1].read_text())["results"]] == [1, 2]


def test_merge_refuses_parts_of_another_match_or_a_deal_twice(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    one, again, other = tmp_path / "one.json", tmp_path / "again.json", tmp_path / "other.json"
    for path, args in ((one, MATCH), (again, MATCH), (other, [*MATCH[:-1], "6"])):
        assert _report(capsys, *args, "--deals", "0:1", "--out", str(path))[0] == 0
    code, out, err = _report(capsys, "arena", "merge", str(one), str(again))
    assert code == 2 and out == "" and f"deal 0 was played in {one} too" in err
    code, out, err = _report(capsys, "arena", "merge", str(one), str(other))
    assert code == 2 and "another match" in err and "seed" in err


@pytest.mark.parametrize("content, said", [
    (b"", "Expecting value"),
    (b"{\"format\": \"something else\"}", "not an arena part file"),
    (b"\xff\xfe", "can't decode"),
    (b"[1, 2]", "not an arena part file"),
])
def test_a_malformed_part_is_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             content: bytes, said: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    code, out, err = _report(capsys, "arena", "merge", str(bad))
    assert code == 2 and out == "" and str(bad) in err and said in err and "Traceback" not in err


@pytest.mark.parametrize("change, said", [
    (lambda d: d["results"][0].update(index=7), "not among the deals 0:1"),
    (lambda d: d["results"][0]["sides"][0].update(hands="many"), "hands is not a count"),
    (lambda d: d["results"][0]["sides"][1].update(extra=1), "fields are not a side's"),
    (lambda d: d["results"][0].update(margins=[1]), "margins are not two numbers"),
    (lambda d: d["match"].update(seed="5"), "its match is not described"),
    (lambda d: d["match"]["rules"].update(target=-4), "target"),
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d.update(deals=[3, 1]), "deals are not START:END"),
    (lambda d: d["results"][0]["sides"][0].update(kind_times={"bidding": ["slow"]}), "by kind are not lists"),
    (lambda d: d["results"][0]["sides"][0].update(kind_times=[1.0]), "by kind are not lists"),
])
def test_a_part_changed_by_hand_is_refused_with_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             change: object, said: str) -> None:
    path = tmp_path / "part.json"
    assert _report(capsys, *MATCH, "--deals", "0:1", "--out", str(path))[0] == 0
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))
    code, out, err = _report(capsys, "arena", "merge", str(path))
    assert code == 2 and out == "" and said in err, err


def test_a_part_has_its_decision_times_by_kind_and_one_without_them_still_merges(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each side's times by the phase they were decided in (issue 38's targets are a bid's, a draft turn's and
    the worst), as many as its decisions; a part written before these were kept merges, its times by kind
    left out."""
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    assert _report(capsys, *MATCH, "--deals", "0:1", "--out", str(new))[0] == 0
    assert _report(capsys, *MATCH, "--deals", "1:2", "--out", str(old))[0] == 0
    data = json.loads(new.read_text())
    for side in data["results"][0]["sides"]:
        assert {"draft", "bidding", "play"} <= set(side["kind_times"])
        assert sorted(t for ts in side["kind_times"].values() for t in ts) == sorted(side["times"])
        assert len(side["kind_times"]["bidding"]) == side["hands"]  # one bid a hand (no Double Nil by these bots)
    data = json.loads(old.read_text())
    for side in data["results"][0]["sides"]:
        del side["kind_times"]
    old.write_text(json.dumps(data))
    code, merged, err = _report(capsys, "arena", "merge", str(new), str(old))
    assert code == 0, err
    lines = merged.splitlines()
    bids = [line for line in lines if line.strip().startswith("bid ") and "median" in line]
    assert len(bids) == 2 and all(line.endswith("(2)") for line in bids)  # deal 0's two hands a side only
    assert any(line.strip().startswith("draft turn") for line in lines)
    assert any(line.strip().startswith("card play") for line in lines)


@pytest.mark.parametrize("args, said", [
    (["--deals", "0:2"], "--deals needs --out"),
    (["--deals", "2:1", "--out", "x.json"], "START:END with 0 <= START < END"),
    (["--deals", "two", "--out", "x.json"], "--deals must be START:END"),
])
def test_bad_deals_are_a_clear_message(capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    code, out, err = _report(capsys, *MATCH, *args)
    assert code == 2 and out == "" and said in err


def test_a_part_that_cannot_be_written_is_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _report(capsys, *MATCH, "--deals", "0:1", "--out", str(tmp_path / "missing" / "p.json"))
    assert code == 2 and "cannot write" in err and "Traceback" not in err
