"""The start's dataclasses (tui/app/quickstart.py): made between begin() and end(), a class's methods are compiled
on their first call, and the class behaves exactly as one made as usual."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
import threading
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Iterator

import pytest

from spades_tui.tui.app import quickstart

CREATE_FN = "_create_fn"  # dataclasses' private maker of methods (typeshed does not name it)


@pytest.fixture
def deferred() -> Iterator[None]:
    quickstart.begin()
    try:
        yield
    finally:
        quickstart.end()


def make_classes() -> dict[str, Any]:
    @dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = field(default=(), compare=False)

    @dataclass(order=True)
    class Rank:
        value: int
        name: str = ""

    @dataclass(frozen=True)
    class Labelled(Point):
        label: str = "p"

    return {"Point": Point, "Rank": Rank, "Labelled": Labelled}


def behaviour(classes: dict[str, Any]) -> list[object]:
    """What the classes do, as plain values (compared across the two ways of making them)."""
    Point, Rank, Labelled = classes["Point"], classes["Rank"], classes["Labelled"]
    seen: list[object] = []
    a, b, c = Point(1, 2, ("x",)), Point(1, 2), Point(2)
    seen += [a == b, a == c, a != c, hash(a) == hash(b), repr(a), repr(c), a == (1, 2)]
    with pytest.raises(FrozenInstanceError):
        a.x = 5
    with pytest.raises(FrozenInstanceError):
        del a.y
    seen += [sorted([Rank(3, "c"), Rank(1, "a"), Rank(2, "b")]) == [Rank(1, "a"), Rank(2, "b"), Rank(3, "c")],
             Rank(1) < Rank(2), Rank(2) >= Rank(2), repr(Rank(4, "d"))]
    r = Rank(1)
    r.value = 7  # not frozen: attributes may be set
    seen += [r.value, Labelled(1, 2, (), "q") == Labelled(1, 2, (), "q"), Labelled(1) == Point(1),
             repr(Labelled(3)), hash(Labelled(1)) == hash(Labelled(1))]
    seen += [dataclasses.replace(a, x=9) == Point(9, 2), [f.name for f in dataclasses.fields(Labelled)],
             dataclasses.asdict(Labelled(1, 2, ("t",), "z")), Point.__doc__, str(Point.__init__.__qualname__)]
    return seen


def test_a_class_made_meanwhile_behaves_as_one_made_as_usual(deferred: None) -> None:
    deferred_classes = make_classes()
    quickstart.end()
    usual = make_classes()
    assert behaviour(deferred_classes) == behaviour(usual)


def test_each_method_waits_for_its_first_call_then_is_the_real_one(deferred: None) -> None:
    Point = make_classes()["Point"]
    stand_in = Point.__dict__["__eq__"]
    assert stand_in.__qualname__.endswith("Point.__eq__")
    assert Point(1) == Point(1)
    real = Point.__dict__["__eq__"]
    assert real is not stand_in and real.__qualname__ == stand_in.__qualname__  # put in place by the first call
    assert "__create_fn__" not in real.__qualname__ and real(Point(1), Point(2)) is False
    assert Point.__dict__["__init__"].__code__.co_varnames[:3] == ("self", "x", "y")  # __init__ at once, as ever


def test_a_subclass_call_puts_the_method_in_the_class_that_holds_it(deferred: None) -> None:
    classes = make_classes()
    Point, Labelled = classes["Point"], classes["Labelled"]

    class Sub(Point):  # type: ignore[valid-type,misc]  # a class made at run time: a plain subclass inherits the stand-in
        pass

    stand_in = Point.__dict__["__hash__"]
    assert hash(Sub(1, 2)) == hash(Point(1, 2))
    assert Point.__dict__["__hash__"] is not stand_in and "__hash__" not in Sub.__dict__
    assert Labelled(1) == Labelled(1) and "__eq__" in Labelled.__dict__  # its own, made for its fields


def test_calls_from_many_threads_at_once_agree(deferred: None) -> None:
    Point = make_classes()["Point"]
    results: list[bool] = []

    def ask() -> None:
        results.append(Point(1, 2) == Point(1, 2) and hash(Point(3)) == hash(Point(3)))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 8


def test_end_restores_dataclasses_and_begin_is_idempotent() -> None:
    before = getattr(dataclasses, CREATE_FN)
    quickstart.begin()
    quickstart.begin()  # a second begin changes nothing more
    assert getattr(dataclasses, CREATE_FN) is not before
    quickstart.end()
    assert getattr(dataclasses, CREATE_FN) is before
    quickstart.end()  # and a second end is harmless
    assert getattr(dataclasses, CREATE_FN) is before


def test_a_dataclasses_module_it_does_not_know_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # As on Python 3.13, which builds a class's methods together and has no _create_fn to stand in for.
    unknown = object()
    monkeypatch.setattr(dataclasses, CREATE_FN, unknown)
    quickstart.begin()
    try:
        assert getattr(dataclasses, CREATE_FN) is unknown
    finally:
        quickstart.end()
    assert getattr(dataclasses, CREATE_FN) is unknown


def test_instances_made_meanwhile_pickle(deferred: None) -> None:
    # A pickled value names its class; the class must be importable, so use one of the engine's.
    from spades_tui.engine.outcome import Forfeit

    f = Forfeit(1, "gone")
    assert pickle.loads(pickle.dumps(f)) == f


def test_the_game_start_restores_dataclasses_at_its_first_paint() -> None:
    # The app ends it once its first screen is drawn: classes made later (a review, a hint) are made as usual.
    code = (
        "import asyncio, dataclasses\n"
        "from pathlib import Path\nimport tempfile\n"
        "from spades_tui.tui.app import quickstart\n"
        "original = dataclasses._create_fn\n"
        "quickstart.begin()\n"
        "from tests.support.pilot import make_app\n"
        "assert dataclasses._create_fn is not original\n"
        "async def main():\n"
        "    app = make_app(Path(tempfile.mkdtemp()), bot='easy', seed=1)\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert dataclasses._create_fn is original, 'still deferred after the first paint'\n"
        "asyncio.run(main())\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]
