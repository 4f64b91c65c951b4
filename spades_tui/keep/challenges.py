"""The daily challenges' results and pars: ``challenges.json`` in the user data directory (beside ``games/``).

No Textual here.  One JSON object::

    {"version": 1,
     "pars": {"2026-12-01": {"iterations": 40, "hands": [30, -12, 51, 8]}},
     "results": [{"challenge": "2026-12-01", "player": "Ann", "hands": [51, -80, 12, 40], "par": [30, -12, 51, 8],
                  "practice": false, "finished": "2026-12-01T21:12:00Z", "game_id": "..."}]}

A result's ``par`` is null until the par is known (a player may leave before it is computed; the next time the
challenge is opened it is filled in).  The first result of a challenge is the one on record; any later one is
``practice``.  The file is written atomically; a damaged one is refused, never overwritten (nothing lost): anything
that is not a book of four-hand results and pars is damage (``ChallengeFileError``, one line), whatever it holds
(brackets nested 100,000 deep, a result finished in year 9999, a par of thirteen hands).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Optional

from ..engine.text import clean_name
from ..i18n.language import N_, _
from .meta import CHALLENGE_HANDS, MAX_CHALLENGE_CODE
from .storage import StorageError, atomic_write_text, private_dir, read_text

CHALLENGES_NAME = "challenges.json"
VERSION = 1
MAX_BYTES = 4 * 1024 * 1024  # about 200 bytes a result: twenty thousand challenges
MAX_CODE = MAX_CHALLENGE_CODE
MAX_MARGIN = 10_000  # points of one hand's margin, either way (a hand scores a few hundred at most)
YEARS = (1970, 9000)  # a moment finished outside these is no moment of a game (9999 overflows a local time)


class ChallengeFileError(Exception):
    """The results file cannot be read or written; the message says which file and why."""


def _ints(value: Any) -> Optional[tuple[int, ...]]:
    """A challenge's hands (a result's margins, or the par's): exactly its number of whole numbers, each in range;
    None for anything else (two hands, or thirteen, are no challenge's: the file is damaged)."""
    if isinstance(value, list) and len(value) == CHALLENGE_HANDS and all(type(v) is int and abs(v) <= MAX_MARGIN
                                                                         for v in value):
        return tuple(value)
    return None


def _moment(text: str) -> bool:
    """Whether ``text`` is a moment as a result keeps it (UTC, to the second) within ``YEARS``."""
    try:
        moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return YEARS[0] <= moment.year <= YEARS[1]


@dataclass(frozen=True)
class Result:
    """One finished challenge: the player's margin in each hand and, once known, the par's."""

    challenge: str
    player: str
    hands: tuple[int, ...]
    par: Optional[tuple[int, ...]]
    practice: bool
    finished: str  # UTC, ISO 8601 to the second
    game_id: str

    @classmethod
    def new(cls, challenge: str, player: str, hands: tuple[int, ...], par: Optional[tuple[int, ...]],
            game_id: str, practice: bool = False) -> Result:
        now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
        return cls(challenge, player, hands, par, practice, now.strftime("%Y-%m-%dT%H:%M:%SZ"), game_id)

    @property
    def finished_at(self) -> Optional[float]:
        """When it was finished, in seconds since the epoch (None if the file's moment is not readable)."""
        try:
            moment = datetime.datetime.strptime(self.finished, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            return None
        return moment.replace(tzinfo=datetime.UTC).timestamp()

    @property
    def total(self) -> int:
        return sum(self.hands)

    @property
    def over_par(self) -> Optional[int]:
        return self.total - sum(self.par) if self.par is not None else None

    def to_json(self) -> dict[str, Any]:
        return {"challenge": self.challenge, "player": self.player, "hands": list(self.hands),
                "par": list(self.par) if self.par is not None else None, "practice": self.practice,
                "finished": self.finished, "game_id": self.game_id}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        if not isinstance(data, dict):
            raise ValueError(_("a result is not an object"))
        code, player, finished, game_id = (data.get(k) for k in ("challenge", "player", "finished", "game_id"))
        hands, par = _ints(data.get("hands")), _ints(data.get("par"))
        if not (isinstance(code, str) and 0 < len(code) <= MAX_CODE and code.isprintable()):
            raise ValueError(_("a result names no challenge"))
        if hands is None or (data.get("par") is not None and par is None):
            raise ValueError(_("the result of {code} has no proper hands (a challenge has {hands})").format(
                code=code, hands=CHALLENGE_HANDS))
        if not isinstance(data.get("practice"), bool) or not isinstance(finished, str) or not isinstance(game_id, str):
            raise ValueError(_("the result of {code} is incomplete").format(code=code))
        if not _moment(finished):
            raise ValueError(_("the result of {code} was finished at no moment a game could be ({moment})").format(
                code=code, moment=repr(finished[:30])))
        return cls(code, clean_name(player, "?"), hands, par, data["practice"], clean_name(finished, "?", limit=20),
                   clean_name(game_id, "", limit=64))


@dataclass(frozen=True)
class ChallengeBook:
    """The file's contents: the pars by challenge (with the samples they were made with) and every result."""

    pars: dict[str, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    results: tuple[Result, ...] = ()

    # ------------------------------------------------------------ reading

    @classmethod
    def load(cls, path: Path) -> ChallengeBook:
        """The book in ``path`` (empty if there is none); ``ChallengeFileError`` if it is damaged."""
        if not path.exists():
            return cls()
        try:
            data = json.loads(read_text(path, MAX_BYTES, N_("the challenges' results")))
        except StorageError as exc:
            raise ChallengeFileError(_("the challenges' results cannot be read: {problem}").format(problem=exc)) \
                from None
        except ValueError as exc:
            raise ChallengeFileError(_damaged(path, _("not JSON: {problem}").format(problem=exc))) from None
        except RecursionError:  # brackets nested deeper than any results file
            raise ChallengeFileError(_damaged(path, _("not JSON: nested too deep"))) from None
        try:
            return cls.from_json(data)
        except ValueError as exc:
            raise ChallengeFileError(_damaged(path, str(exc))) from None

    @classmethod
    def from_json(cls, data: Any) -> ChallengeBook:
        if not isinstance(data, dict):
            raise ValueError(_("not a JSON object"))
        if data.get("version") != VERSION:
            raise ValueError(_("version {found}, this spades-tui reads version {version}").format(
                found=repr(data.get("version")), version=VERSION))
        pars_in, results_in = data.get("pars", {}), data.get("results", [])
        if not isinstance(pars_in, dict) or not isinstance(results_in, list):
            raise ValueError(_("'pars' is not an object or 'results' not a list"))
        pars: dict[str, tuple[int, tuple[int, ...]]] = {}
        for code, entry in pars_in.items():
            hands = _ints(entry.get("hands")) if isinstance(entry, dict) else None
            iterations = entry.get("iterations") if isinstance(entry, dict) else None
            if hands is None or type(iterations) is not int or len(code) > MAX_CODE:
                raise ValueError(_("the par of {code} is not one (a challenge has {hands} hands)").format(
                    code=repr(str(code)[:MAX_CODE]), hands=CHALLENGE_HANDS))
            pars[code] = (iterations, hands)
        return cls(pars, tuple(Result.from_json(r) for r in results_in))

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION,
                "pars": {code: {"iterations": it, "hands": list(hands)} for code, (it, hands) in self.pars.items()},
                "results": [r.to_json() for r in self.results]}

    def par(self, code: str, iterations: Optional[int] = None) -> Optional[tuple[int, ...]]:
        """The par of ``code``, if it was computed with ``iterations`` samples a decision (None: with any)."""
        found = self.pars.get(code)
        return found[1] if found is not None and iterations in (None, found[0]) else None

    @property
    def newest_first(self) -> tuple[Result, ...]:
        """The results as the history and the statistics screen list them."""
        return tuple(sorted(self.results, key=lambda r: (r.finished, r.challenge), reverse=True))

    def on_record(self, code: str) -> Optional[Result]:
        """The result that counts for ``code``: its first."""
        return next((r for r in self.results if r.challenge == code and not r.practice), None)

    # ------------------------------------------------------------ changing (each a new book)

    def with_par(self, code: str, iterations: int, par: tuple[int, ...]) -> ChallengeBook:
        """The par kept, and given to the results of ``code`` that were finished before it was known."""
        results = tuple(replace(r, par=par) if r.challenge == code and r.par is None else r for r in self.results)
        return ChallengeBook({**self.pars, code: (iterations, par)}, results)

    def with_result(self, result: Result) -> ChallengeBook:
        """``result`` added: practice if the challenge has a result on record already; the same game's result
        is never added twice."""
        if any(r.game_id == result.game_id and r.game_id for r in self.results):
            return self
        practice = result.practice or self.on_record(result.challenge) is not None
        par = result.par if result.par is not None else self.par(result.challenge)
        return ChallengeBook(self.pars, (*self.results, replace(result, practice=practice, par=par)))

    @classmethod
    def update(cls, path: Path, change: Callable[[ChallengeBook], ChallengeBook]) -> ChallengeBook:
        """Read, change and write back atomically; a damaged file is left as it is."""
        book = change(cls.load(path))
        try:
            private_dir(path.parent)
            atomic_write_text(path, json.dumps(book.to_json(), ensure_ascii=False, indent=1) + "\n")
        except StorageError as exc:
            raise ChallengeFileError(_("the challenge's result could not be kept: {problem}").format(problem=exc)) \
                from None
        return book


def _damaged(path: Path, why: str) -> str:
    return _("{path} is damaged ({why}); it is left as it is. Move it away and the next challenge starts a new "
             "one.").format(path=path, why=why[:200])
