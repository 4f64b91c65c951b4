"""Rated play as a client reads it (docs/table-protocol.md, "Rated play"): one question to a server, one answer.

``register``, ``rename``, ``players`` and ``player`` are first frames answered once (the connection then
closes).  What comes back is the server's and trusted in nothing: every field checked and bounded, names
cleaned as for ``say`` and cut to a registered name's length, numbers in range; a line that cannot be read is
left out, never the list.  The key kept for the server (``keep.serverkeys``) goes with every question that
needs one, and a new one is kept the moment ``registered`` brings it.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import aiohttp

from ...engine.text import MAX_PLAYER_NAME, num, player_name
from ...i18n.language import _, ngettext
from ...keep.glicko import PROVISIONAL_RD, shown
from ...keep.serverkeys import KeyFileError, ServerKey, is_key, load_key, save_key
from ..wire import protocol as p
from ..wire.reasons import shown as reason_words
from .link import Redirected, no_redirects, table_address, why_unreachable

MAX_ANSWER = 256 * 1024  # bytes: a leaderboard of 100 lines, a page of 20 results
MAX_LINES = 100
MAX_RESULTS = 20
ANSWER_WITHIN = 30.0  # seconds


class RatedError(Exception):
    """The server could not be asked, or refused; in plain words."""


@dataclass(frozen=True)
class PlayerLine:
    """One line of the leaderboard, or the head of a player's page."""

    id: int
    name: str
    rating: float
    rd: float
    games: int
    wins: int
    last: Optional[str]  # the date of their last rated game (UTC), None for never

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    @property
    def shown(self) -> str:
        return shown(self.rating, self.rd)  # the server's own way: 1523, or 1523? while provisional

    def row(self, rank: Optional[int], you: Optional[PlayerLine], dated: bool = True) -> str:
        """One leaderboard row (``rank`` None: not ranked), the player's own marked; ``dated``: with the day last
        played (the lobby screen leaves it out, to fit 80 columns)."""
        place = f"{rank:3}." if rank is not None else "    "
        mark = "  " + _("← you") if you is not None and you.id == self.id else ""
        # The column's word, as long in every row: "games", and "game " for one.
        unit = ngettext("game", "games", self.games)
        width = max(len(ngettext("game", "games", 1)), len(ngettext("game", "games", 2)))
        won = _("won")
        return (f"{place} {self.name:<24} {num(round(self.rating)):>5}{'?' if self.provisional else ' '} "
                f"RD {round(self.rd):>3}  {self.games:>4} {unit:<{width}} {self.wins:>4} {won}  "
                f"{(self.last or '') if dated else ''}{mark}".rstrip())

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rating": self.rating, "rd": self.rd,
                "provisional": self.provisional, "games": self.games, "wins": self.wins, "last": self.last}


@dataclass(frozen=True)
class ResultLine:
    opponent: str
    won: bool
    change: float
    how: str  # "over", "resign" or "claim"
    at: int

    def to_json(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "won": self.won, "change": self.change, "how": self.how, "at": self.at}


@dataclass(frozen=True)
class PlayerPage:
    line: PlayerLine
    results: tuple[ResultLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {**self.line.to_json(), "results": [r.to_json() for r in self.results]}


def _number(value: object, low: float, high: float) -> float:
    if type(value) not in (int, float) or not low <= value <= high:  # type: ignore[operator]
        raise ValueError("a number out of range")
    return float(value)  # type: ignore[arg-type]


def _whole(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError("a count out of range")
    return value


def _name(value: object) -> str:
    name = player_name(value[:4 * MAX_PLAYER_NAME] if isinstance(value, str) else value)
    if not name:
        raise ValueError("no name")
    return name


def line_of(value: object) -> PlayerLine:
    """A leaderboard line from the server; ``ValueError`` if it is not one."""
    if not isinstance(value, dict):
        raise ValueError("not an object")
    last = value.get("last")
    if last is not None and not (isinstance(last, str) and len(last) == 10 and last.replace("-", "").isdigit()):
        raise ValueError("not a date")
    return PlayerLine(_whole(value.get("id"), 0, 2**53), _name(value.get("name")),
                      _number(value.get("rating"), -10_000, 10_000), _number(value.get("rd"), 0, 1000),
                      _whole(value.get("games"), 0, 10**9), _whole(value.get("wins"), 0, 10**9), last)


def page_of(value: object) -> PlayerPage:
    if not isinstance(value, dict):
        raise ValueError("not a player's page")
    results: list[ResultLine] = []
    raw = value.get("results")
    for r in raw[:MAX_RESULTS] if isinstance(raw, list) else []:
        try:
            if not isinstance(r, dict) or not isinstance(r.get("won"), bool) or r.get("how") not in ("over", "resign",
                                                                                                      "claim"):
                raise ValueError("not a result")
            results.append(ResultLine(_name(r.get("opponent")), r["won"], _number(r.get("change"), -1000, 1000),
                                      r["how"], _whole(r.get("at"), 0, 2**40)))
        except ValueError:
            continue
    return PlayerPage(line_of(value), tuple(results))


def board_rows(lines: list[PlayerLine], you: Optional[PlayerLine], dated: bool = True) -> list[str]:
    """The leaderboard's rows, your own marked, and yours under them when you are not on it (provisional)."""
    rows = [line.row(rank, you, dated) for rank, line in enumerate(lines, 1)]
    if you is not None and all(line.id != you.id for line in lines):
        rows.append(you.row(None, you, dated))
    return rows


def leaderboard_of(message: dict[str, Any]) -> tuple[list[PlayerLine], Optional[PlayerLine]]:
    """A ``players`` answer: the lines that can be read, and the asker's own line (if a key went with it)."""
    found: list[PlayerLine] = []
    raw = message.get("players")
    for value in raw[:MAX_LINES] if isinstance(raw, list) else []:
        try:
            found.append(line_of(value))
        except ValueError:
            continue
    try:
        you = line_of(message["you"]) if message.get("you") is not None else None
    except ValueError:
        you = None
    return found, you


async def ask(url: str, frame: dict[str, Any], answer: str, *, insecure: bool = False) -> dict[str, Any]:
    """Send ``frame`` as a first frame and read the one answer of type ``answer``; ``RatedError`` otherwise."""
    context: Any = True
    if url.startswith("wss://"):
        context = ssl.create_default_context()
        if insecure:
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, connect=10),
                                     middlewares=(no_redirects,)) as session:
        try:
            async with session.ws_connect(url, max_msg_size=MAX_ANSWER, ssl=context) as ws:
                await ws.send_str(p.dumps({**frame, "protocol": p.PROTOCOL}))
                message = await asyncio.wait_for(ws.receive(), ANSWER_WITHIN)
        except Redirected as exc:
            raise RatedError(_("{url} answered with a redirect (HTTP {status}): not followed").format(
                url=url, status=exc.status)) from None
        except aiohttp.WSServerHandshakeError as exc:
            raise RatedError(_("{url} is not a spades-tui server (it answered HTTP {status})").format(
                url=url, status=exc.status)) from None
        except TimeoutError:
            raise RatedError(_("the server at {url} did not answer within {seconds} s").format(
                url=url, seconds=p.decimal(ANSWER_WITHIN))) from None
        except (aiohttp.ClientError, OSError) as exc:
            raise RatedError(_("cannot reach the server at {address}: {why}").format(
                address=table_address(url), why=why_unreachable(exc))) from None
    if message.type is not aiohttp.WSMsgType.TEXT:
        raise RatedError(_("the server closed the connection without an answer (an older spades-tui server?)"))
    try:
        data = json.loads(message.data)
    except (ValueError, RecursionError):
        raise RatedError(_("the server's answer is not JSON")) from None
    if not isinstance(data, dict):
        raise RatedError(_("the server's answer is not an object"))
    if data.get("type") == "error":
        reason = p.clean_said(data.get("reason"))[0]
        raise RatedError(reason_words(reason) if reason else _("the server refused"))
    if data.get("type") != answer:
        raise RatedError(_("the server answered something else than {answer}").format(answer=repr(answer)))
    return data


def kept_key(data_dir: Path, address: str) -> Optional[ServerKey]:
    try:
        return load_key(data_dir, address)
    except KeyFileError as exc:
        raise RatedError(str(exc)) from None


async def register(data_dir: Path, address: str, url: str, name: str, *, insecure: bool = False) -> ServerKey:
    """This player's key for ``address``: the one kept, or a new one registered under ``name`` (and kept)."""
    found = kept_key(data_dir, address)
    if found is not None:
        return found
    answer = await ask(url, {"type": "register", "name": name}, "registered", insecure=insecure)
    key, player = answer.get("key"), answer.get("player")
    if not isinstance(key, str) or not is_key(key) or type(player) is not int:
        raise RatedError(_("the server's 'registered' holds no key"))
    made = ServerKey(address, player, player_name(answer.get("name")) or name, key)
    try:
        save_key(data_dir, made)
    except KeyFileError as exc:
        raise RatedError(_("registered, but {problem}: the account is lost unless it is kept").format(problem=exc)
                         ) from None
    return made


async def rename(data_dir: Path, address: str, url: str, name: str, *, insecure: bool = False) -> ServerKey:
    found = kept_key(data_dir, address)
    if found is None:
        raise RatedError(_("you have no name at {address} yet: play there once ('spades-tui quick {address}')").format(
            address=address))
    answer = await ask(url, {"type": "rename", "key": found.key, "name": name}, "renamed", insecure=insecure)
    renamed = ServerKey(found.server, found.player, player_name(answer.get("name")) or name, found.key)
    try:
        save_key(data_dir, renamed)
    except KeyFileError as exc:
        raise RatedError(str(exc)) from None
    return renamed


async def players(url: str, key: Optional[str] = None, *, insecure: bool = False
                  ) -> tuple[list[PlayerLine], Optional[PlayerLine]]:
    frame: dict[str, Any] = {"type": "players"}
    if key is not None:
        frame["key"] = key
    return leaderboard_of(await ask(url, frame, "players", insecure=insecure))


async def page(url: str, *, name: Optional[str] = None, key: Optional[str] = None,
               insecure: bool = False) -> PlayerPage:
    """A player's page by name, or one's own (by ``key``)."""
    frame: dict[str, Any] = {"type": "player"}
    if name is not None:
        frame["name"] = name
    if key is not None:
        frame["key"] = key
    answer = await ask(url, frame, "player", insecure=insecure)
    try:
        return page_of(answer.get("player"))
    except ValueError as exc:
        raise RatedError(_("the server's page cannot be read ({problem})").format(problem=exc)) from None
