"""The game's start made cheaper: dataclasses made before the first paint compile their methods when first called.

Python's ``dataclasses`` compiles each method it writes (``__repr__``, ``__eq__``, ``__hash__``, and a frozen
class's ``__setattr__`` and ``__delattr__``) with ``exec`` as the class is made: about a millisecond a frozen
class, and a game's first screen imports some ninety of them (the engine's, the views', Textual's own), most of
whose methods are not called before that screen is drawn (issue 33: about 8% of the instructions to a game's first
paint, counted by callgrind: 1.59 billion with this, 1.74 without). Between
``begin()`` (the command line, before the app is imported) and ``end()`` (the first paint), each of those methods
is a stand-in that compiles the real one on its first call and puts it in its class, so that later calls cost
nothing extra. ``__init__`` is made at once as ever: the class's signature (its doc, ``inspect``) reads it.

What a class does is unchanged: the stand-in calls the very function ``dataclasses`` would have made. On a
Python whose ``dataclasses`` does not make its methods one by one through ``_create_fn`` (3.13 builds them
together), ``begin()`` changes nothing.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Callable, Optional

_lock = threading.Lock()
_original: Optional[Callable[..., Any]] = None  # dataclasses' own _create_fn while begin() is in force
_CREATE_FN = "_create_fn"  # a private name (typeshed has none): read and set by name


def _deferred(original: Callable[..., Any]) -> Callable[..., Any]:
    def create_fn(name: str, args: Any, body: Any, **kw: Any) -> Any:
        if name == "__init__":
            return original(name, args, body, **kw)
        made: list[Any] = []

        def stand_in(self: Any, *rest: Any, **kwargs: Any) -> Any:
            if not made:
                real = original(name, args, body, **kw)
                real.__qualname__ = stand_in.__qualname__  # set by dataclasses on the stand-in
                made.append(real)
                # In the class that holds the stand-in, the real method from now on (a subclass may be asking).
                for klass in type(self).__mro__:
                    if klass.__dict__.get(name) is stand_in:
                        setattr(klass, name, real)
                        break
            return made[0](self, *rest, **kwargs)

        stand_in.__name__ = name
        return stand_in

    return create_fn


def begin() -> None:
    """From now until ``end()``, dataclasses compile their methods (but ``__init__``) when first called."""
    global _original
    with _lock:
        original = getattr(dataclasses, _CREATE_FN, None)
        if _original is not None or not callable(original):
            return  # already in force, or a dataclasses module this does not know: left as it is
        _original = original
        setattr(dataclasses, _CREATE_FN, _deferred(original))


def end() -> None:
    """Dataclasses made from now on are made as usual (those made meanwhile keep their stand-ins until called)."""
    global _original
    with _lock:
        if _original is not None:
            setattr(dataclasses, _CREATE_FN, _original)
            _original = None
