"""The web server behind ``spades-tui serve``: textual-serve's ``Server`` with what a game needs.

- The page is textual-serve's own with its one outside fetch (the Google font) replaced by the copy
  of Roboto Mono that textual-serve ships (``assets/serve/app_index.html``), so it works offline.
- Page and websocket addresses come from the address the browser used, not from ``--host``, so a
  page served on 0.0.0.0 still connects back from another machine.
- A websocket opened by a page from another site is refused (its Origin is not this server), so a
  web page elsewhere cannot start games here behind the player's back.
- Ctrl+C (or SIGTERM, SIGHUP) stops every game process the server started and waits for them:
  each is asked to quit (it saves after every move anyway), then terminated, then killed.
- "Play a friend" (table-protocol.md): the tables live in this process (``table.lobby``), at
  ``/table``; a tab's game asks for one at ``/tables/new`` with the key only this server's games
  know (their environment), and sits at it over loopback, as the friend's tab does from the link
  ``/?table=CODE``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
import signal
import sys
from typing import Any, Optional
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from ..engine import Rules, RulesError
from ..session import SlotDirectory, default_data_dir
from ..session.slots import GAMES_DIR
from ..table.lobby import TableLobby
from ..tui.resources import asset_path

log = logging.getLogger("textual-serve")

TITLE = "Spades"
QUIT_GRACE = 10.0  # seconds the games have to quit on Ctrl+C before they are terminated
TERM_GRACE = 3.0  # then seconds before the ones left are killed


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
    def __init__(self, command: str, *, host: str, port: int) -> None:
        super().__init__(command, host=host, port=port, title=TITLE, templates_path=asset_path("serve"))
        self.games: dict[AppService, web.WebSocketResponse] = {}  # the tabs connected now
        self.lobby = TableLobby(SlotDirectory(default_data_dir() / GAMES_DIR))
        self.table_key = secrets.token_hex(32)  # only this server's game processes may open tables
        loop_host = "127.0.0.1" if host in ("0.0.0.0", "", "localhost") else ("::1" if host == "::" else host)
        self.tables_url = f"http://{f'[{loop_host}]' if ':' in loop_host else loop_host}:{port}"

    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    # ------------------------------------------------------------ the page

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        base = f"{request.scheme}://{request.host}"  # as the browser reached us, whatever --host was
        static = str(request.app.router["static"].url_for(filename="/")).rstrip("/") + "/"
        websocket = str(request.app.router["websocket"].url_for())
        scheme = "wss" if request.scheme == "https" else "ws"
        table = request.query.get("table", "")
        # The friend's link sits them at that table: in the path (the page's script appends its own query).
        where = f"/{table}" if CODE_SHAPE.match(table) else ""
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{scheme}://{request.host}{websocket}{where}",
            "config": {"static": {"url": f"{base}{static}"}},
            "application": {"name": self.title},
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its own game process, as textual-serve does it, and counted for shutdown."""
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="This page is served to its own site only.")
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        service: AppService | None = None
        try:
            await websocket.prepare(request)

            async def close() -> None:
                await websocket.close()

            service = GameService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                  close=close, download_manager=self.download_manager,
                                  extra_env=self.table_env(request))
            self.games[service] = websocket
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a broken connection must not stop the server; said on its console
            log.exception(error)
        finally:
            if service is not None:
                await service.stop()  # asks the game to quit and waits for its output to end
                self.games.pop(service, None)
        return websocket

    # ------------------------------------------------------------ tables

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
        host = self.lobby.new_table(name if isinstance(name, str) else "Host", rules)
        if host is None:
            raise web.HTTPServiceUnavailable(text="Too many tables are open here: try again later.")
        return web.json_response({"code": host.code, "token": host.owner_token,
                                  "url": self.tables_url.replace("http", "ws", 1) + "/table"})

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/table", self.lobby.handle)
        app.router.add_get("/ws/{table}", self.handle_websocket)  # a friend's tab, sat at that table
        app.router.add_post("/tables/new", self.handle_new_table)
        return app

    # ------------------------------------------------------------ start and stop

    async def on_startup(self, app: web.Application) -> None:
        """Nothing to say yet: the address is not bound until after start-up (``announce``)."""

    def announce(self, _: str) -> None:
        """Said once the server listens (aiohttp's own message is replaced)."""
        print(f"Spades is served on {self.address()} (open it in a web browser; each tab plays its own game).\n"
              "Press Ctrl+C to stop the server and every game; each game is saved after every move.", flush=True)

    async def on_shutdown(self, app: web.Application) -> None:
        self.lobby.close()  # each table's record is saved after every action
        games = list(self.games.items())
        if not games:
            return
        print(f"Stopping {len(games)} game{'s' if len(games) != 1 else ''}…", flush=True)
        processes = [p for p in (service._process for service, _ in games) if p is not None]
        for service, _ in games:
            await service.send_meta({"type": "quit"})
        left = await _wait(processes, QUIT_GRACE)
        for process in left:
            process.terminate()
        for process in await _wait(left, TERM_GRACE):
            process.kill()
        await _wait(processes, TERM_GRACE)
        for _, websocket in games:
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"The server stopped.")

    def run(self) -> None:
        """Serve until Ctrl+C, SIGTERM or SIGHUP; OSError if the address cannot be listened on."""
        logging.basicConfig(level=logging.WARNING, format="spades-tui serve: %(message)s", stream=sys.stderr)
        loop = asyncio.new_event_loop()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, self.request_exit)
        web.run_app(self._make_app(), host=self.host, port=self.port, handle_signals=False, loop=loop,
                    print=self.announce, access_log=None, shutdown_timeout=QUIT_GRACE + 2 * TERM_GRACE + 1)


async def _wait(processes: list[asyncio.subprocess.Process], timeout: float) -> list[asyncio.subprocess.Process]:
    """Wait up to ``timeout`` seconds for the processes to end; those still running."""
    running = [p for p in processes if p.returncode is None]
    if running:
        await asyncio.wait([asyncio.ensure_future(p.wait()) for p in running], timeout=timeout)
    return [p for p in running if p.returncode is None]
