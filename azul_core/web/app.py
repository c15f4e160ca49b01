"""The web table: a Starlette application (HTTP API, pages, WebSocket) over the store.

``create_app(config)`` builds it; ``azul serve`` runs it with uvicorn. One
process, one event loop: a decision is judged, committed to SQLite and
applied without an ``await`` in between, so the decisions of one table are
serialised by construction; a decision for a version that has passed is
refused. Bots think in a worker thread on a copy of the state and send their
decision through the same path.

The protocol is documented in ``docs/serve.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from azul_core.engine.notation import format_decision
from azul_core.players.registry import make_bot
from azul_core.records.game_record import dumps_record
from azul_core.web.capabilities import bearer, digest, new_token
from azul_core.web.catalog import Catalog, build_catalog
from azul_core.web.store import SeatRow, Store, TableRow
from azul_core.web.table import Refused, Table

log = logging.getLogger("azul.web")

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
       "object-src 'none'")

MAX_NAME = 32
MAX_BODY = 16 * 1024


@dataclass
class Config:
    """What the operator decides (``azul serve`` options)."""

    data: Path
    variant_dirs: tuple[Path, ...] = ()
    #: largest WebSocket message accepted from a client, in bytes
    max_message: int = 4096
    #: tables one client address may create per hour
    tables_per_hour: int = 20
    #: unfinished tables the server holds at most
    max_open_tables: int = 1000
    #: days a finished table stays (then it is deleted)
    keep_finished_days: float = 30.0
    #: days an unfinished table nobody moves in stays
    keep_idle_days: float = 30.0
    #: seconds a bot waits before it moves, so people see each move
    bot_delay: float = 0.6
    #: thinking time of the search bot (mcts), seconds a move
    think: float | None = 1.0
    #: more origins allowed to POST and open WebSockets (besides the server's own)
    allowed_origins: tuple[str, ...] = ()
    #: fsync every commit (survives a power cut; a killed process loses nothing either way)
    durable: bool = False
    #: makes each new table's seed (the deals); tests give a fixed sequence
    seed_factory: Any = None
    #: table seeds derived from this one (SEED:N for the N-th table): deals anyone can foresee,
    #: for tests and demonstrations only
    seed: str | None = None

    @property
    def database(self) -> Path:
        return Path(self.data) / "tables.sqlite3"


class HTTPError(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(eq=False)
class Client:
    """One open WebSocket: which table and seat, and its queue of messages to send."""

    websocket: WebSocket
    table: Table
    seat: int | None
    with_record: bool = False
    outbox: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=256))

    def send(self, message: str) -> bool:
        try:
            self.outbox.put_nowait(message)
            return True
        except asyncio.QueueFull:
            return False


class Server:
    """The application's state: store, variants, tables in memory, limits."""

    def __init__(self, config: Config, catalog: Catalog | None = None):
        self.config = config
        self.catalog = catalog if catalog is not None else build_catalog(list(config.variant_dirs))
        self.store: Store | None = None
        self.tables: dict[str, Table] = {}
        self.created_by: dict[str, deque] = defaultdict(deque)
        self.tasks: set[asyncio.Task] = set()

    # ------------------------------------------------------------ lifecycle

    def open(self) -> None:
        self.store = Store(self.config.database, durable=self.config.durable)
        self.purge()

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.store is not None:
            self.store.close()
            self.store = None
        self.tables.clear()

    def purge(self) -> int:
        now = time.time()
        purged = self.store.purge(now - self.config.keep_finished_days * 86400,
                                  now - self.config.keep_idle_days * 86400)
        if purged:
            log.info("purged %d idle tables", purged)
            for table_id in [t for t in self.tables if not self.store.exists(t)]:
                self.tables.pop(table_id, None)
        return purged

    async def housekeeping(self) -> None:
        """Every minute: forget tables nobody looks at; every hour: purge old ones."""
        last_purge = time.monotonic()
        while True:
            await asyncio.sleep(60)
            idle = time.monotonic() - 300
            for table_id, table in list(self.tables.items()):
                if not table.clients and table.bot_task is None and table.last_used < idle:
                    del self.tables[table_id]
            if time.monotonic() - last_purge > 3600:
                last_purge = time.monotonic()
                self.purge()

    def spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ------------------------------------------------------------ tables

    def table(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 64:
            return None
        loaded = self.store.load(table_id)
        if loaded is None:
            return None
        row, events = loaded
        offered = self.catalog.get(row.variant)
        if offered is None:
            log.warning("table %s plays variant '%s', which this server no longer offers",
                        table_id[:6], row.variant)
            return None
        table = Table.replay(row, events, offered)
        self.tables[table_id] = table
        self.kick_bot(table)
        return table

    def create_table(self, body: Any, client: str) -> tuple[Table, dict[int, str], str, str]:
        if not isinstance(body, dict):
            raise HTTPError(400, "send a JSON object: {\"variant\": ..., \"seats\": [...]}")
        key = body.get("variant", "standard")
        offered = self.catalog.get(key)
        if offered is None:
            raise HTTPError(400, f"unknown variant {str(key)[:40]!r} (offered: "
                                 f"{', '.join(self.catalog.variants)})")
        seats_in = body.get("seats")
        if not isinstance(seats_in, list) or not seats_in:
            raise HTTPError(400, "'seats' must be a list: {\"name\": ...} for a person, "
                                 "{\"bot\": ...} for a bot")
        if len(seats_in) not in offered.variant.players:
            allowed = ", ".join(str(p) for p in offered.variant.players)
            raise HTTPError(400, f"{len(seats_in)} seats: variant '{key}' is played by {allowed}")
        bots = [s.get("bot") if isinstance(s, dict) else None for s in seats_in]
        seats: list[SeatRow] = []
        secrets: dict[int, str] = {}
        for number, spec in enumerate(seats_in):
            if not isinstance(spec, dict):
                raise HTTPError(400, f"seat {number}: expected {{\"name\": ...}} or {{\"bot\": ...}}")
            bot = spec.get("bot")
            name = spec.get("name")
            if bot is not None:
                if bot not in offered.bots:
                    raise HTTPError(400, f"seat {number}: unknown bot {str(bot)[:40]!r} "
                                         f"(bots: {', '.join(offered.bots)})")
                if name is None or (isinstance(name, str) and not name.strip()):
                    name = bot if bots.count(bot) == 1 else f"{bot} {bots[:number + 1].count(bot)}"
                seats.append(SeatRow(number, clean_name(name, number), bot, None))
            else:
                if name is None:
                    raise HTTPError(400, f"seat {number}: give a person's name or a bot")
                secret = new_token()
                secrets[number] = secret
                seats.append(SeatRow(number, clean_name(name, number), None, digest(secret)))
        self.check_limits(client)
        watch, admin = new_token(), new_token()
        now = time.time()
        if self.config.seed_factory:
            seed = self.config.seed_factory()
        elif self.config.seed is not None:
            seed = f"{self.config.seed}:{self.store.tables_created()}"
        else:
            seed = new_token()
        row = TableRow(new_token(), key, str(seed), now, now, None, 0, digest(watch), digest(admin), seats)
        table, events = Table.new(row, offered)
        self.store.create(row, events)
        self.created_by[client].append(time.monotonic())
        self.tables[row.id] = table
        self.kick_bot(table)
        return table, secrets, watch, admin

    def check_limits(self, client: str) -> None:
        recent = self.created_by[client]
        hour_ago = time.monotonic() - 3600
        while recent and recent[0] < hour_ago:
            recent.popleft()
        if len(recent) >= self.config.tables_per_hour:
            raise HTTPError(429, f"{self.config.tables_per_hour} tables an hour from one address: "
                                 "try again later")
        if len(self.created_by) > 10000:  # forget addresses with nothing recent
            for address in [a for a, times in self.created_by.items() if not times]:
                del self.created_by[address]
        if self.store.open_tables() >= self.config.max_open_tables:
            raise HTTPError(503, "the server holds as many open tables as it may: try again later")

    # ------------------------------------------------------------ telling the clients

    def broadcast(self, table: Table) -> None:
        """Send the table's state to every client of it (each seat sees its own legal moves)."""
        messages: dict[tuple, str] = {}
        for client in list(table.clients):
            key = (client.seat, client.with_record)
            message = messages.get(key)
            if message is None:
                message = messages[key] = table.state_message(client.seat, client.with_record)
            if not client.send(message):
                self.drop(client)

    def tell_presence(self, table: Table) -> None:
        table.forget_cache()
        message = json.dumps({"type": "presence", "connected": table.connected()})
        for client in list(table.clients):
            if not client.send(message):
                self.drop(client)

    def drop(self, client: Client) -> None:
        """A client too slow to keep up: closed; it reconnects and catches up."""
        client.table.clients.discard(client)
        with contextlib.suppress(Exception):
            self.spawn(client.websocket.close(code=1013))

    # ------------------------------------------------------------ bots

    def kick_bot(self, table: Table) -> None:
        if table.bot_task is None and table.bot_to_move() is not None:
            try:
                table.bot_task = self.spawn(self.bot_turns(table))
            except RuntimeError:  # no running loop (a table loaded outside a request)
                table.bot_task = None

    async def bot_turns(self, table: Table) -> None:
        try:
            while (seat := table.bot_to_move()) is not None and self.tables.get(table.id) is table:
                if self.config.bot_delay:
                    await asyncio.sleep(self.config.bot_delay)
                version = table.version
                bot = table.bots.get(seat)
                if bot is None:
                    bot = table.bots[seat] = make_bot(
                        table.seats[seat].bot, table.offered.variant.rules,
                        seed=f"{table.row.seed}:seat:{seat}", think=self.config.think)
                # The game as this seat may know it: a bot never sees another seat's secret.
                snapshot = table.seen_by(seat).clone()
                decision = await asyncio.to_thread(bot.choose, snapshot)
                if table.version != version or self.store is None:
                    continue
                try:
                    table.decide(seat, version, format_decision(decision), self.store, by_bot=True)
                except Refused as exc:
                    log.warning("bot %s refused at table %s: %s", table.seats[seat].bot, table.id[:6], exc)
                    break
                self.broadcast(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a bot failed at table %s", table.id[:6])
        finally:
            table.bot_task = None


def clean_name(name: Any, seat: int) -> str:
    if not isinstance(name, str):
        raise HTTPError(400, f"seat {seat}: a name is text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise HTTPError(400, f"seat {seat}: the name is empty")
    if len(cleaned) > MAX_NAME:
        raise HTTPError(400, f"seat {seat}: a name has at most {MAX_NAME} characters")
    if not cleaned.isprintable():
        raise HTTPError(400, f"seat {seat}: the name holds characters that can't be shown")
    return cleaned


def origin_allowed(headers, allowed: tuple[str, ...]) -> bool:
    """A browser's request comes from this server's own pages (or an operator-allowed origin).
    No Origin header: not a browser (scripts, the terminal client), allowed."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    host = headers.get("host", "")
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc.lower() == host.lower()


# ---------------------------------------------------------------- the application


class SecurityHeaders:
    """Headers on every HTTP answer: CSP without inline script, no referrer, no caching of
    table pages and API answers, no indexing."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-robots-tag", b"noindex, nofollow"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                    (b"cache-control", b"no-cache" if static else b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def _page(name: str) -> Response:
    path = TEMPLATES / name
    if not path.is_file():
        return PlainTextResponse(f"the page {name} is not installed", status_code=500)
    return FileResponse(path, media_type="text/html; charset=utf-8")


def create_app(config: Config, catalog: Catalog | None = None) -> Starlette:
    """The ASGI application of one server (``catalog``: the variants, built from the config's
    folders when not given)."""
    server = Server(config, catalog)

    async def home(request: Request) -> Response:
        return _page("home.html")

    async def table_page(request: Request) -> Response:
        if server.table(request.path_params["table"]) is None:
            return PlainTextResponse("no such table", status_code=404)
        return _page("table.html")

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def variants(request: Request) -> Response:
        return JSONResponse(server.catalog.describe())

    async def read_json(request: Request) -> Any:
        if not origin_allowed(request.headers, config.allowed_origins):
            raise HTTPError(403, "this request comes from another site's page")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise HTTPError(413, f"the request is larger than {MAX_BODY} bytes")
        try:
            return json.loads(body or b"null")
        except (ValueError, UnicodeDecodeError):
            raise HTTPError(400, "the request is not JSON") from None

    async def create(request: Request) -> Response:
        try:
            body = await read_json(request)
            client = request.client.host if request.client else "unknown"
            table, secrets, watch, admin = server.create_table(body, client)
        except HTTPError as exc:
            return _error(exc.status, exc.reason)
        base = f"{str(request.base_url).rstrip('/')}/t/{table.id}"
        seats = [{"seat": seat.seat, "name": seat.name, "bot": seat.bot,
                  "url": f"{base}#seat={secrets[seat.seat]}" if seat.seat in secrets else None}
                 for seat in table.seats]
        return JSONResponse({"table": table.id, "variant": table.offered.key, "seats": seats,
                             "watch_url": f"{base}#watch={watch}", "admin_secret": admin,
                             "admin_url": f"{base}#watch={watch}&admin={admin}"}, status_code=201)

    async def record(request: Request) -> Response:
        table = server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no such table")
        known, seat = table.seat_of(bearer(request.headers.get("authorization")))
        if not known:
            return _error(401, "send a seat's or the watch secret as 'Authorization: Bearer SECRET'")
        # Until the game is over, the other seats' secrets are sealed in this copy.
        text = dumps_record(table.record(seat).to_dict())
        filename = f"azul-{table.offered.key}-{table.id[:8]}.json"
        return Response(text, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{filename}"'})

    async def hand_to_bot(request: Request) -> Response:
        try:
            body = await read_json(request)
        except HTTPError as exc:
            return _error(exc.status, exc.reason)
        table = server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no such table")
        if not table.is_admin(bearer(request.headers.get("authorization"))):
            return _error(401, "only the table's creator (the admin secret) may hand a seat to a bot")
        seat = request.path_params["seat"]
        if not 0 <= seat < len(table.seats):
            return _error(404, f"no seat {seat} at this table")
        bot = body.get("bot") if isinstance(body, dict) else None
        if bot not in table.offered.bots:
            return _error(400, f"unknown bot {str(bot)[:40]!r} (bots: {', '.join(table.offered.bots)})")
        try:
            table.hand_to_bot(seat, bot, server.store)
        except Refused as exc:
            return _error(409, str(exc))
        server.broadcast(table)
        server.kick_bot(table)
        return JSONResponse({"seat": seat, "bot": bot})

    async def websocket_endpoint(websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers, config.allowed_origins):
            await websocket.close(code=4403)
            return
        await websocket.accept()
        table = server.table(websocket.path_params["table"])
        if table is None:
            await _close(websocket, 4404, "no such table")
            return
        try:
            hello = await asyncio.wait_for(_receive(websocket, config.max_message), 30)
        except (asyncio.TimeoutError, _TooLarge, WebSocketDisconnect, ValueError) as exc:
            code, reason = ((1009, "message too large") if isinstance(exc, _TooLarge) else
                            (4400, "the first message must be a hello"))
            with contextlib.suppress(Exception):
                await _close(websocket, code, reason)
            return
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await _close(websocket, 4400, "the first message must be {\"type\": \"hello\", \"secret\": ...}")
            return
        secret = hello.get("secret")
        if not isinstance(secret, str) or not secret:
            secret = bearer(websocket.headers.get("authorization"))
        # The table may have been put away while the hello was awaited: take the current one.
        table = server.table(websocket.path_params["table"])
        if table is None:
            await _close(websocket, 4404, "no such table")
            return
        known, seat = table.seat_of(secret)
        if not known:
            await _close(websocket, 4401, "this link's secret is wrong: ask for the link again")
            return
        client = Client(websocket, table, seat, bool(hello.get("record")))
        table.clients.add(client)
        client.send(table.state_message(seat, client.with_record))
        if seat is not None:
            server.tell_presence(table)
        writer = asyncio.create_task(_write(client))
        try:
            while True:
                try:
                    message = await _receive(websocket, config.max_message)
                except _TooLarge:
                    await _close(websocket, 1009, f"messages are at most {config.max_message} bytes")
                    return
                except ValueError:
                    client.send(json.dumps({"type": "refused", "move": None, "version": table.version,
                                            "reason": "the message is not JSON"}))
                    continue
                if not isinstance(message, dict):
                    continue
                kind = message.get("type")
                if kind == "ping":
                    client.send('{"type":"pong"}')
                elif kind == "move":
                    move = message.get("move")
                    try:
                        table.decide(seat, message.get("version"), move, server.store)
                    except Refused as exc:
                        client.send(json.dumps({"type": "refused", "move": move if isinstance(move, str)
                                                else None, "version": table.version, "reason": str(exc)}))
                        continue
                    except Exception:  # the store failed: the move was not taken
                        log.exception("a move at table %s could not be stored", table.id[:6])
                        client.send(json.dumps({"type": "refused", "move": None, "version": table.version,
                                                "reason": "the server could not store the move: try again"}))
                        continue
                    server.broadcast(table)
                    server.kick_bot(table)
        except WebSocketDisconnect:
            pass
        finally:
            writer.cancel()
            if client in table.clients:
                table.clients.discard(client)
                if seat is not None:
                    server.tell_presence(table)
            table.last_used = time.monotonic()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.open()
        keeper = server.spawn(server.housekeeping())
        try:
            yield
        finally:
            keeper.cancel()
            server.close()

    routes = [
        Route("/", home),
        Route("/t/{table}", table_page),
        Route("/healthz", health),
        Route("/api/variants", variants),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table}/record", record),
        Route("/api/tables/{table}/seats/{seat:int}/bot", hand_to_bot, methods=["POST"]),
        WebSocketRoute("/ws/{table}", websocket_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    wrapped = SecurityHeaders(app)
    wrapped.server = server
    return wrapped


class _TooLarge(Exception):
    pass


async def _receive(websocket: WebSocket, limit: int) -> Any:
    """The next message as JSON; ``_TooLarge`` past ``limit`` bytes, ``ValueError`` if not JSON."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    if len(data) > limit:
        raise _TooLarge()
    return json.loads(data)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "reason": reason}))
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason[:100])


async def _write(client: Client) -> None:
    try:
        while True:
            message = await client.outbox.get()
            await client.websocket.send_text(message)
    except asyncio.CancelledError:
        raise
    except Exception:  # the socket closed under us: the reader sees it too
        return
