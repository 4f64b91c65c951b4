"""The web server behind ``spades-tui serve``: textual-serve's ``Server`` with what a game needs.

- The page is textual-serve's own with its one outside fetch (the Google font) replaced by the copy
  of Roboto Mono that textual-serve ships (``assets/serve/app_index.html``), so it works offline.
- Page and websocket addresses come from the address the browser used, not from ``--host``, so a
  page served on 0.0.0.0 still connects back from another machine.
- Only the names the server was started for are served (``Host``: the bound address, localhost,
  any ``--public-url``; an IP address when bound to every address), so a page elsewhere cannot
  reach it by DNS rebinding (its own name made to point here); and a websocket opened by a page
  from another site is refused (its Origin, compared by scheme, host and port, is not this server).
- At most ``max_games`` game processes at once: past that the page says the server is full.
- The terminal size a page asks for is clamped (``MAX_COLUMNS`` x ``MAX_ROWS``), as is every
  websocket message; ``/static/`` lists no directory.
- Ctrl+C (or SIGTERM, SIGHUP) stops every game process the server started and waits for them:
  each is asked to quit (it saves after every move anyway), then terminated, then killed.
- "Play a friend" (docs/table-protocol.md): the tables live in this process (``table.server.tables``), at
  ``/table``; a tab's game asks for one at ``/tables/new`` with the key only this server's games
  know (their environment), and sits at it over loopback, as the friend's tab does from the link
  ``/?table=CODE``.
- Each tab in its browser's language (docs/languages.md): the page's words and the tab's game (``--lang``) speak the
  first language of ``Accept-Language`` the game speaks, else the server's.
"""

from __future__ import annotations

import asyncio
import functools
import gettext
import hmac
import html
import ipaddress
import json
import logging
import re
import secrets
import signal
import sys
from typing import Any, Awaitable, Callable, Iterable, Optional
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from ..engine.errors import RulesError
from ..engine.rules import Rules
from ..i18n.language import N_, SOURCE, _, catalog_path, current, from_locale, ngettext
from ..keep.autosave import default_data_dir
from ..keep.field import server_secret
from ..keep.players import MAX_PLAYERS, PlayerStore
from ..keep.slots import GAMES_DIR, SlotDirectory
from ..session.challenge import ITERATIONS
from ..table.server.challenge import CHALLENGE_GAMES, WORKERS, ChallengeDesk
from ..table.server.rated import CLAIM_AFTER, RatedDesk
from ..table.server.tables import MAX_TABLES, TableServer, keep_private
from ..table.wire.guard import Limits, client_address, quiet_failures, serve_until_stopped
from ..table.wire.visitors import TAB_ENV, TAB_HEADER, VISITOR_COOKIE, VISITOR_ENV, visitor_id
from ..tui.app.resources import asset_path

log = logging.getLogger("textual-serve")

TITLE = "Spades"
QUIT_GRACE = 10.0  # seconds the games have to quit on Ctrl+C before they are terminated
TERM_GRACE = 3.0  # then seconds before the ones left are killed
MAX_COLUMNS, MAX_ROWS = 400, 150  # a 6000x6000 page made one game process take 425 MB
MAX_MESSAGE = 64 * 1024  # bytes of one websocket message from the page: keys and sizes are a few dozen
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")

FULL_PAGE = """<!doctype html><html{lang}><head><meta charset="utf-8"><title>{title}</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>{heading}</h1>
<p>{text}</p></body></html>
"""
# The words of the page and of the server's answers a browser shows, each in the language of the browser that asks
# (``words_for``): marked here, translated with that language's catalog, not the server's.
PAGE_WORDS = {"start": N_("Start"), "ended": N_("Session ended."), "restart": N_("Restart")}
FULL_TITLE = N_("Spades: the server is full")
FULL_HEADING = N_("The server is full")
FULL_TEXT = N_("It plays at most {limit} games at once, and {limit} are being played now. Close another tab of "
               "this server, or try again later (this page does not reload itself).")
MISDIRECTED = N_("This server does not serve that host name (see spades-tui serve --public-url).")
FOREIGN_PAGE = N_("This page is served to its own site only.")
NOT_A_PAGE = N_("This is the game's websocket: open the page at / in a web browser.")
ACCEPT_LANGUAGE_MAX = 500  # characters of the header read: a browser sends a few dozen


def _default_port(scheme: str) -> int:
    return 443 if scheme in ("https", "wss") else 80


def split_host(value: str, scheme: str = "http") -> Optional[tuple[str, int]]:
    """A ``Host`` header (or a URL's netloc) as (lower-case host without brackets, port); None if malformed."""
    try:
        parts = urlsplit(f"//{value}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return host.lower(), port if port is not None else _default_port(scheme)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


COOKIE_SHAPE = re.compile(r"^[A-Za-z0-9_-]{32}$")  # secrets.token_urlsafe(24): 192 random bits
COOKIE_AGE = 400 * 24 * 3600  # seconds: the longest a browser keeps a cookie
CODE_SHAPE = re.compile(r"^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$")  # protocol.new_code's: checked before it travels
PAGE_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$")


class GameService(AppService):
    """textual-serve's game process, with what it needs to know of this server's tables (environment)."""

    def __init__(self, *args: Any, extra_env: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.extra_env = extra_env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width=width, height=height), **self.extra_env}


class GameServer(Server):
    def __init__(self, command: str, *, host: str, port: int, public_urls: Iterable[str] = (),
                 max_games: int, max_tables: int = MAX_TABLES, trust_proxy: bool = False,
                 max_players: int = MAX_PLAYERS, claim_after: float = CLAIM_AFTER, challenge_workers: int = WORKERS,
                 challenge_iters: int = ITERATIONS) -> None:
        super().__init__(command, host=host, port=port, title=TITLE, templates_path=asset_path("serve"))
        self.games: dict[AppService, web.WebSocketResponse] = {}  # the tabs connected now
        self.trust_proxy = trust_proxy
        keep_private(default_data_dir())
        # The players and their ratings (rated play): PlayersError, said by the command, if the database is damaged.
        self.players = PlayerStore.open(default_data_dir())
        self.desk = RatedDesk(self.players, max_players=max_players, claim_after=claim_after)
        self.tables = TableServer(SlotDirectory(default_data_dir() / GAMES_DIR), peer_of=self.peer_of, desk=self.desk,
                                max_tables=max_tables, trust_proxy=trust_proxy)
        # The day's challenge against the field: FieldError, said by the command, if the server's secret is damaged.
        self.challenges = ChallengeDesk(self.desk, server_secret(default_data_dir()),
                                        SlotDirectory(default_data_dir() / CHALLENGE_GAMES), workers=challenge_workers,
                                        iterations=challenge_iters)
        for line in self.challenges.restore():  # today's challenges not finished when it stopped
            print(f"spades-tui serve: {line}", file=sys.stderr)
        for line in self.tables.restore():  # the tables held when it stopped: the same codes and tokens
            print(f"spades-tui serve: {line}", file=sys.stderr)
        self.tabs: dict[str, str] = {}  # each open tab's token: the address of the browser it plays for
        self.table_key = secrets.token_hex(32)  # only this server's game processes may open tables
        loop_host = "127.0.0.1" if host in ("0.0.0.0", "", "localhost") else ("::1" if host == "::" else host)
        self.tables_url = f"http://{f'[{loop_host}]' if ':' in loop_host else loop_host}:{port}"
        self.max_games = max_games
        self.server_language = current()  # a tab whose browser asks for no language the game speaks gets this
        self.starting = 0  # websockets accepted whose game is not in ``games`` yet: counted against the cap
        # (host, port) pairs a request may name, and the origins a page may come from besides the request's own.
        self.hosts: set[tuple[str, int]] = {(name, port) for name in LOOPBACK_NAMES}
        bound = host.strip("[]").lower()
        self.any_ip = bound in WILDCARDS  # bound to every address: any of this machine's IP addresses
        if not self.any_ip:
            self.hosts.add((bound, port))
        self.origins: set[tuple[str, str, int]] = set()
        # A --public-url's name at any port: a proxy in front passes it on with its own port or none, and
        # only whoever controls that name can point it here, so it is no rebinding.
        self.public_names: set[str] = set()
        for url in public_urls:
            parts = urlsplit(url)
            found = split_host(parts.netloc, parts.scheme or "http")
            if found is not None:
                self.public_names.add(found[0])
                self.origins.add((parts.scheme or "http", *found))

    # ------------------------------------------------------------ who may ask

    def host_allowed(self, header: Optional[str], scheme: str) -> bool:
        """Whether the ``Host`` a request names is one this server was started for: a name not on the list
        is a DNS rebinding (a page's own name pointed at this machine) or a mistake, and both are refused."""
        found = split_host(header or "", scheme)
        if found is None:
            return False
        if found in self.hosts or found[0] in self.public_names:
            return True
        # Bound to every address: an IP address of this machine (rebinding needs a name, not an address).
        return self.any_ip and found[1] == self.port and _is_ip(found[0])

    def origin_allowed(self, origin: Optional[str], request: web.Request) -> bool:
        """A page's Origin is the address the request came to (scheme, host and port, compared as a whole), or a
        ``--public-url``; no Origin (not a browser's page) is let through: only a page's script is the worry."""
        if origin is None:
            return True
        parts = urlsplit(origin)
        scheme = parts.scheme.lower()
        found = split_host(parts.netloc, scheme)
        if found is None:
            return False
        if (scheme, *found) in self.origins:
            return True
        return scheme == request.scheme and found == split_host(request.host, request.scheme)

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not self.host_allowed(request.headers.get("Host"), request.scheme):
            raise web.HTTPMisdirectedRequest(text=words_for(self.language(request), MISDIRECTED))
        return await handler(request)

    def full(self) -> bool:
        return len(self.games) + self.starting >= self.max_games

    def _full(self, request: web.Request) -> web.HTTPServiceUnavailable:
        language = self.language(request)
        page = FULL_PAGE.format(lang=f' lang="{language}"' if language != SOURCE else "",
                                title=html.escape(words_for(language, FULL_TITLE)),
                                heading=html.escape(words_for(language, FULL_HEADING)),
                                text=html.escape(words_for(language, FULL_TEXT).format(limit=self.max_games)))
        return web.HTTPServiceUnavailable(text=page, content_type="text/html", headers={"Retry-After": "60"})

    def language(self, request: web.Request) -> str:
        """The language of this browser's page and game: its ``Accept-Language``, else the server's."""
        return page_language(request.headers.get("Accept-Language"), self.server_language)

    async def _make_app(self) -> web.Application:
        """textual-serve's routes, with the host guard, and ``/static/`` without its directory listing."""
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_MESSAGE)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.static("/static", self.statics_path, show_index=False, name="static"),
            web.get("/ws/{table}", self.handle_websocket),  # a friend's tab, sat at that table
            web.get("/table", self.tables.handle),  # the tables of "Play a friend" (docs/table-protocol.md)
            web.post("/tables/new", self.handle_new_table),
        ])
        self.tables.attach(app)  # tables nobody joined, or everyone left, close by themselves
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    # ------------------------------------------------------------ the page

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if self.full():  # said before the page loads, rather than a game that never comes
            raise self._full(request)
        response = await self._index(request)
        # A page reached from another site's link comes without the (SameSite=Strict) cookie even when the
        # browser has one: setting one then would replace the visitor's own. The websocket sets it instead.
        if visitor_cookie(request) is None and request.headers.get("Sec-Fetch-Site") != "cross-site":
            set_visitor_cookie(response, request, new_visitor())
        return response

    @aiohttp_jinja2.template("app_index.html")
    async def _index(self, request: web.Request) -> dict[str, Any]:
        base = f"{request.scheme}://{request.host}"  # as the browser reached us, whatever --host was
        static = str(request.app.router["static"].url_for(filename="/")).rstrip("/") + "/"
        websocket = str(request.app.router["websocket"].url_for())
        scheme = "wss" if request.scheme == "https" else "ws"
        table = request.query.get("table", "")
        # The friend's link sits them at that table: in the path (the page's script appends its own query).
        where = f"/{table}" if CODE_SHAPE.match(table) else ""
        language = self.language(request)
        return {
            "lang": "" if language == SOURCE else language,  # the English page as textual-serve wrote it
            "words": {key: words_for(language, message) for key, message in PAGE_WORDS.items()},
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{scheme}://{request.host}{websocket}{where}",
            "config": {"static": {"url": f"{base}{static}"}},
            "application": {"name": self.title},
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its own game process, as textual-serve does it, and counted for shutdown."""
        if not self.origin_allowed(request.headers.get("Origin"), request):
            raise web.HTTPForbidden(text=words_for(self.language(request), FOREIGN_PAGE))
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        if not websocket.can_prepare(request).ok:  # a plain GET: an answer, not a traceback
            raise web.HTTPBadRequest(text=words_for(self.language(request), NOT_A_PAGE) + "\n")
        if self.full():
            raise self._full(request)
        cookie = visitor_cookie(request)
        if cookie is None:  # the browser's first game here (or it keeps no cookies): an identity of its own
            cookie = new_visitor()
            set_visitor_cookie(websocket, request, cookie)
        tab = secrets.token_urlsafe(24)
        width, height = clamp_size(request.query.get("width"), request.query.get("height"))
        service: AppService | None = None
        self.starting += 1  # counted at once: 30 tabs opened in the same moment must not all pass the check
        counted = True
        try:
            await websocket.prepare(request)

            async def close() -> None:
                await websocket.close()

            self.tabs[tab] = client_address(request, self.trust_proxy)
            # The tab's game speaks its browser's language (the handshake carries the page's Accept-Language).
            command = f"{self.command} --lang {self.language(request)}"  # a code of LANGUAGES: nothing to quote
            service = GameService(command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                  close=close, download_manager=self.download_manager,
                                  extra_env={**self.table_env(request), VISITOR_ENV: visitor_id(cookie), TAB_ENV: tab})
            self.games[service] = websocket
            self.starting -= 1
            counted = False
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a broken connection must not stop the server; said on its console
            log.exception(error)
        finally:
            self.tabs.pop(tab, None)
            if counted:
                self.starting -= 1
            if service is not None:
                await service.stop()  # asks the game to quit and waits for its output to end
                self.games.pop(service, None)
        return websocket

    # ------------------------------------------------------------ tables

    def peer_of(self, request: web.Request) -> Optional[str]:
        """The browser address a table connection stands for: a tab's game comes from loopback, and says
        which tab it is (its token, known only to this server and that game); None for any other."""
        tab = request.headers.get(TAB_HEADER)
        return self.tabs.get(tab) if tab else None

    def table_env(self, request: web.Request) -> dict[str, str]:
        """What a tab's game knows of the tables: where they are, the key, its page, the table it was invited to."""
        env = {"SPADES_TUI_TABLES": self.tables_url, "SPADES_TUI_TABLES_KEY": self.table_key}
        if PAGE_HOST.match(request.host):
            env["SPADES_TUI_PAGE"] = f"{'https' if request.scheme == 'https' else 'http'}://{request.host}"
        table = request.match_info.get("table", "")
        if CODE_SHAPE.match(table):
            env["SPADES_TUI_TABLE_CODE"] = table
        return env

    async def handle_new_table(self, request: web.Request) -> web.Response:
        """A tab's game opens a table: its code, the first seat's token, the address to sit down at."""
        key = request.headers.get("X-Spades-Key", "")
        if not hmac.compare_digest(key.encode(), self.table_key.encode()):
            raise web.HTTPForbidden(text="Only this server's games open tables.")
        try:
            body = json.loads(await request.text())
            name = body.get("name") if isinstance(body, dict) else None
            rules: Optional[Rules] = Rules.from_json(body["rules"]) if isinstance(body, dict) and \
                isinstance(body.get("rules"), dict) else None
        except (ValueError, RulesError):
            raise web.HTTPBadRequest(text="bad table request") from None
        public = isinstance(body, dict) and body.get("public") is True
        address = self.peer_of(request)  # the browser's: at most 3 waiting tables each, as at any server
        refused = self.tables.refusal(address)
        host = self.tables.new_table(name if isinstance(name, str) else "Host", rules, address=address,
                                    public=public) if refused is None else None
        if host is None:
            # Data on the wire to the tab's game (which words it for its player), so the source's words.
            raise web.HTTPServiceUnavailable(text=f"No table: {refused or 'too many tables are open here'}.")
        return web.json_response({"code": host.code, "token": host.owner_token, "watch": host.watch_code,
                                  "url": self.tables_url.replace("http", "ws", 1) + "/table"})

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """The page's messages, as textual-serve reads them, but nothing in them trusted: a malformed message
        is ignored (textual-serve's assert ended the tab), a size is clamped."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except (ValueError, RecursionError):
                continue
            if not isinstance(envelope, list) or len(envelope) < 2 or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1]
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await app_service.set_terminal_size(*clamp_size(data.get("width"), data.get("height")))
            elif kind == "ping" and isinstance(data, (str, int, float)):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    # ------------------------------------------------------------ start and stop

    async def on_startup(self, app: web.Application) -> None:
        """Nothing to say yet: the address is not bound until after start-up (``announce``)."""

    def announce(self, _site: str) -> None:
        """Said once the server listens (aiohttp's own message is replaced)."""
        print(_("Spades is served on {address} (open it in a web browser; each tab plays its own game).").format(
            address=self.address()), _("Press Ctrl+C to stop the server and every game; each game is saved after every "
                                       "move."), sep="\n", flush=True)

    async def on_shutdown(self, app: web.Application) -> None:
        self.tables.close()  # each table's record is saved after every action
        self.challenges.close()
        self.desk.close()
        self.players.close()  # each rated result was one transaction
        games = list(self.games.items())
        if not games:
            return
        print(ngettext("Stopping {count} game…", "Stopping {count} games…", len(games)).format(count=len(games)),
              flush=True)
        processes = [p for p in (service._process for service, _socket in games) if p is not None]
        for service, _socket in games:
            await service.send_meta({"type": "quit"})
        left = await _wait(processes, QUIT_GRACE)
        for process in left:
            process.terminate()
        for process in await _wait(left, TERM_GRACE):
            process.kill()
        await _wait(processes, TERM_GRACE)
        for _service, websocket in games:
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"The server stopped.")

    def limits(self) -> Limits:
        """Half-sent requests time out; connections are capped (table/wire/guard.py): with room for every game's
        browser tab, its websocket and its game's table connection, which all come from loopback here."""
        return Limits(per_address=max(Limits().per_address, 4 * self.max_games + 8),
                      total=max(Limits().total, 8 * self.max_games + 64), trust_proxy=self.trust_proxy)

    def run(self) -> None:
        """Serve until Ctrl+C, SIGTERM or SIGHUP; OSError if the address cannot be listened on."""
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        logging.getLogger("textual-serve").setLevel(logging.WARNING)
        quiet_failures("spades-tui serve", loop=loop)  # one line a second at most, never a traceback
        stopped = asyncio.Event()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, stopped.set)
        try:
            loop.run_until_complete(serve_until_stopped(
                self._make_app(), self.host, self.port, limits=self.limits(), stopped=stopped,
                announce=self.announce, shutdown_timeout=QUIT_GRACE + 2 * TERM_GRACE + 1))
        finally:
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(loop), return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()


def new_visitor() -> str:
    return secrets.token_urlsafe(24)


def visitor_cookie(request: web.Request) -> Optional[str]:
    """The visitor's cookie, if the request carries one this server could have made."""
    value = request.cookies.get(VISITOR_COOKIE, "")
    return value if COOKIE_SHAPE.match(value) else None


def set_visitor_cookie(response: web.StreamResponse, request: web.Request, value: str) -> None:
    """The browser's identity here: unreadable by the page's script, sent by this site's own requests only."""
    response.set_cookie(VISITOR_COOKIE, value, max_age=COOKIE_AGE, path="/", httponly=True, samesite="Strict",
                        secure=request.scheme == "https")


def clamp_size(width: object, height: object) -> tuple[int, int]:
    """The terminal size a page asks for, as whole numbers from 1 to ``MAX_COLUMNS`` x ``MAX_ROWS`` (80x24 when
    not a number)."""
    def number(value: object, default: int, top: int) -> int:
        if isinstance(value, bool):
            return default
        if isinstance(value, str):
            value = to_int(value[:12], default)
        if not isinstance(value, int):
            return default
        return max(1, min(top, value))

    return number(width, 80, MAX_COLUMNS), number(height, 24, MAX_ROWS)


async def _wait(processes: list[asyncio.subprocess.Process], timeout: float) -> list[asyncio.subprocess.Process]:
    """Wait up to ``timeout`` seconds for the processes to end; those still running."""
    running = [p for p in processes if p.returncode is None]
    if running:
        await asyncio.wait([asyncio.ensure_future(p.wait()) for p in running], timeout=timeout)
    return [p for p in running if p.returncode is None]


def page_language(header: Optional[str], fallback: str) -> str:
    """The first language of an ``Accept-Language`` header ("sv-SE,sv;q=0.9,en;q=0.8") that the game speaks, by
    the weights the browser gave (a weight of 0 is a refusal); ``fallback`` when it names none."""
    wanted: list[tuple[float, int, str]] = []
    for position, entry in enumerate((header or "")[:ACCEPT_LANGUAGE_MAX].split(",")):
        tag, _sep, params = entry.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value.strip()[:8])
                except ValueError:
                    weight = 0.0
        code = from_locale(tag.strip())
        if code is not None and weight > 0:
            wanted.append((-weight, position, code))
    return min(wanted)[2] if wanted else fallback


@functools.cache
def _catalog(language: str) -> gettext.NullTranslations:
    """A language's catalog, read once: the server speaks its own, each browser's page its browser's."""
    if language != SOURCE:
        try:
            with catalog_path(language).open("rb") as f:
                return gettext.GNUTranslations(f)
        except OSError:
            pass
    return gettext.NullTranslations()


def words_for(language: str, message: str) -> str:
    """A message marked with ``N_`` in ``language`` (a code of LANGUAGES), whatever the server speaks."""
    return _catalog(language).gettext(message)
