"""The web table: a Starlette application (HTTP API, pages, WebSocket) over the store.

``create_app(config)`` builds it; ``azul serve`` runs it with uvicorn. One
event loop per process: a decision is judged, committed to the store and
applied without an ``await`` in between; the store's version check refuses
a decision for a version that has passed, so the decisions of one table are
serialised even when several processes share a PostgreSQL store. Such
processes hear each other's moves from the store (``TableStore.changes``),
read the events they lack and tell their own clients. Search bots think in
worker processes (``web.bots``), the quick ones in a thread on a copy of the
state; either sends its decision through the same path. With a shared store,
one process at a time lets a table's bot move.

The protocol is documented in ``docs/serve.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from azul_core.engine.notation import format_decision
from azul_core.players.registry import make_bot
from azul_core.records.game_record import dumps_record
from azul_core.web import asking, chat, paths  # noqa: F401  (paths: the {...:index} of the routes below)
from azul_core.web.bots import BotPool, default_workers, is_search_bot
from azul_core.web.capabilities import bearer, digest, new_token
from azul_core.web.catalog import Catalog, build_catalog
from azul_core.web.clocks import parse_clock
from azul_core.web.closing import close_with_reason
from azul_core.web.hints import ask_for_hint
from azul_core.web.hints import searches as hints_search
from azul_core.web.rematch_first import rematch_first_of
from azul_core.web.replay_page import table_replay_routes
from azul_core.web.seats import SeatService
from azul_core.web.storage import open_store
from azul_core.web.store import CLOCK, Event, SeatRow, TableRow, TableStore
from azul_core.web.table import Refused, Stale, Table
from azul_core.web.turn_status import turn_status_routes

log = logging.getLogger("azul.web")

#: seconds between two attempts to claim a bot's turn another process holds
BOT_CLAIM_RETRY = 0.5
#: seconds between two looks at a shared store's tables beyond its notices
SHARED_REFRESH = 30.0

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
       "object-src 'none'")

MAX_NAME = 32
MAX_BODY = 16 * 1024
#: seconds between purges of old tables (tables nobody joined expire within the hour)
PURGE_EVERY = 300
#: a bot's move the store could not take is tried again after this many seconds, doubling up to
#: the second figure (the table goes on once the disk has room again)
BOT_RETRY_FIRST, BOT_RETRY_MOST = 1.0, 60.0


@dataclass
class Config:
    """What the operator decides (``azul serve`` options)."""

    data: Path
    #: a ``postgresql://`` URL: tables kept there, shared with other server processes; None:
    #: an SQLite database in ``data`` that this process alone uses
    database_url: str | None = None
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
    #: hours a table whose seats no person ever opened stays (all-bot tables too), from its creation
    keep_unjoined_hours: float = 1.0
    #: seconds a bot waits before it moves, so people see each move
    bot_delay: float = 0.6
    #: thinking time of the search bot (mcts), seconds a move
    think: float | None = 1.0
    #: worker processes search bots think in (0: one per core but one, at most four)
    bot_workers: int = 0
    #: unfinished tables with a search bot one client address (an IPv6 /64) may have at once
    search_tables_per_address: int = 3
    #: more origins allowed to POST and open WebSockets (besides the server's own)
    allowed_origins: tuple[str, ...] = ()
    #: host names the server answers to (``Host``), besides IP addresses; empty: any name
    #: (``azul serve`` always gives some: localhost, this machine's name, ``--public-url``'s)
    allowed_hosts: tuple[str, ...] = ()
    #: the address people use (``--public-url``): the links given out start with it
    public_url: str | None = None
    #: fsync every commit (survives a power cut; a killed process loses nothing either way)
    durable: bool = False
    #: makes each new table's seed (the deals); tests give a fixed sequence
    seed_factory: Any = None
    #: table seeds derived from this one (SEED:N for the N-th table): deals anyone can foresee,
    #: for tests and demonstrations only
    seed: str | None = None
    #: the server's clock, seconds since the epoch (turn clocks count with it; tests give their own)
    now: Any = time.time
    #: seconds a seat's page must have been closed before the creator is offered its seat for a bot
    absent_grace: float = 30.0
    #: seconds a new WebSocket has to send its hello before it is closed (4400)
    hello_seconds: float = 30.0

    @property
    def database(self) -> Path:
        return Path(self.data) / "tables.sqlite3"

    def open_store(self) -> TableStore:
        """The store of the tables (``StoreError`` if it can't be opened or is in use)."""
        return open_store(self.database_url or self.database, durable=self.durable)


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
    #: told what changed (``update`` messages) rather than the whole state each time
    wants_changes: bool = False
    #: told the game log (``log`` in its documents)
    with_log: bool = False
    #: the document last queued for it and its version (what the next update is diffed from)
    seen: dict | None = None
    seen_version: int = -1
    #: asked for ``seating`` messages (the clock, who plays each seat, the rematch: ``web.seats``)
    wants_seating: bool = False
    outbox: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=256))

    def send(self, message: str) -> bool:
        try:
            self.outbox.put_nowait(message)
            return True
        except asyncio.QueueFull:
            return False


class Server:
    """The application's state: store, variants, tables in memory, limits."""

    def __init__(self, config: Config, catalog: Catalog | None = None, store: TableStore | None = None):
        self.config = config
        self.catalog = catalog if catalog is not None else build_catalog(list(config.variant_dirs))
        self.store: TableStore | None = store
        self.tables: dict[str, Table] = {}
        self.created_by: dict[str, deque] = defaultdict(deque)
        #: the tables with a search bot each client address created (or handed a seat to one)
        self.search_tables: dict[str, set[str]] = defaultdict(set)
        self.tasks: set[asyncio.Task] = set()
        #: when a full server last purged (at most every 10 s: each purge is a write)
        self.purged_at = float("-inf")
        self.bot_pool = BotPool(config.bot_workers or default_workers(), config.think)
        #: reclaiming seats, the turn clocks' stand-ins, the seating message (``web.seats``)
        self.seats = SeatService(self)

    # ------------------------------------------------------------ lifecycle

    def open(self) -> None:
        if self.store is None:
            self.store = self.config.open_store()
        self.purge()
        if self.store.shared:
            self.spawn(self.follow_other_processes())
            self.spawn(self.look_again_now_and_then())

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        self.bot_pool.close()
        if self.store is not None:
            self.store.close()
            self.store = None
        self.tables.clear()

    def purge(self) -> int:
        now = time.time()
        purged = self.store.purge(now - self.config.keep_finished_days * 86400,
                                  now - self.config.keep_idle_days * 86400,
                                  now - self.config.keep_unjoined_hours * 3600)
        if purged:
            log.info("purged %d idle tables", purged)
            for table_id in [t for t in self.tables if not self.store.exists(t)]:
                self.tables.pop(table_id, None)
        return purged

    async def housekeeping(self) -> None:
        """Every minute: forget tables nobody looks at; every few minutes: purge old ones."""
        last_purge = time.monotonic()
        while True:
            await asyncio.sleep(60)
            last_purge = self.tidy(last_purge)

    def tidy(self, last_purge: float) -> float:
        """Forget the tables no client, bot or request used for five minutes (they are read
        again when asked for); purge old tables if the last purge was ``PURGE_EVERY`` seconds
        ago. The time of the last purge."""
        now = time.monotonic()
        for table_id, table in list(self.tables.items()):
            if not table.clients and table.bot_task is None and table.last_used < now - 300:
                del self.tables[table_id]
        if now - last_purge <= PURGE_EVERY:
            return last_purge
        try:
            self.purge()
        except Exception as exc:  # the store failed: tried again next time
            log.error("purging old tables failed: %s: %s", type(exc).__name__, exc)
        return now

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
        if self.store.shared:
            table.present_elsewhere = self.store.present_elsewhere(table_id)
        self.tables[table_id] = table
        self.seats.adopt(table, loaded=True)
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
        try:
            clock = parse_clock(body.get("clock"), offered.bots)
        except ValueError as exc:
            raise HTTPError(400, str(exc)) from None
        try:
            rematch_first = rematch_first_of(body)
        except ValueError as exc:
            raise HTTPError(400, str(exc)) from None
        seats: list[SeatRow] = []
        secrets: dict[int, str] = {}
        for number, spec in enumerate(seats_in):
            if not isinstance(spec, dict):
                raise HTTPError(400, f"seat {number + 1}: expected {{\"name\": ...}} or {{\"bot\": ...}}")
            bot = spec.get("bot")
            name = spec.get("name")
            if bot is not None:
                if bot not in offered.bots:
                    raise HTTPError(400, f"seat {number + 1}: unknown bot {str(bot)[:40]!r} "
                                         f"(bots: {', '.join(offered.bots)})")
                if name is None or (isinstance(name, str) and not name.strip()):
                    name = bot if bots.count(bot) == 1 else f"{bot} {bots[:number + 1].count(bot)}"
                seats.append(SeatRow(number, clean_name(name, number), bot, None))
            else:
                if name is None:
                    raise HTTPError(400, f"seat {number + 1}: give a person's name or a bot")
                secret = new_token()
                secrets[number] = secret
                seats.append(SeatRow(number, clean_name(name, number), None, digest(secret)))
        client = client_key(client)
        self.check_limits(client)
        searching = any(is_search_bot(seat.bot) for seat in seats) or (clock is not None and is_search_bot(clock.bot))
        if searching:
            self.check_search_bots(client)
        watch, admin = new_token(), new_token()
        now = time.time()
        row = TableRow(new_token(), key, self.new_seed(), now, now, None, 0, digest(watch), digest(admin), seats)
        first = (Event(CLOCK, clock.to_text()),) if clock is not None else ()
        row.hints = wants_hints(body)
        row.rematch_first = rematch_first
        try:
            row.chat = chat.wants_chat(body)
        except ValueError as exc:
            raise HTTPError(400, str(exc)) from None
        table = self.open_table(row, offered, first, client, searching)
        return table, secrets, watch, admin

    def open_table(self, row: TableRow, offered, first, client: str, searching: bool) -> Table:
        """A new table (``first``: its events before round 1's deal, such as a clock) stored,
        counted against ``client``'s limits and served. ``HTTPError`` 503 if it can't be stored."""
        if not searching and row.hints and hints_search(offered.bots):
            # Hints are searches on the same workers: such a table counts as one with a search bot.
            self.check_search_bots(client, hints=True)
            searching = True
        table, events = Table.new(row, offered, tuple(first), now=self.config.now)
        try:
            self.store.create(row, events)
        except Exception as exc:  # a full disk, a database gone: the table was not created
            log.error("a new table could not be stored: %s: %s", type(exc).__name__, exc)
            raise HTTPError(503, "the server could not store the new table: try again later") from None
        self.created_by[client].append(time.monotonic())
        if searching:
            self.search_tables[client].add(row.id)
        self.tables[row.id] = table
        self.seats.adopt(table, loaded=False)
        self.kick_bot(table)
        return table

    def new_seed(self) -> str:
        """A new table's seed: the tests', the operator's (SEED:N), else a random one."""
        if self.config.seed_factory:
            return str(self.config.seed_factory())
        if self.config.seed is not None:
            return f"{self.config.seed}:{self.store.tables_created()}"
        return new_token()

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
            if time.monotonic() - self.purged_at > 10:  # tables nobody joined may have expired
                self.purged_at = time.monotonic()
                self.purge()
            if self.store.open_tables() >= self.config.max_open_tables:
                raise HTTPError(503, "the server holds as many open tables as it may: try again later")

    def check_search_bots(self, client: str, table_id: str | None = None, hints: bool = False) -> None:
        """One address has at most ``search_tables_per_address`` unfinished tables with a
        search bot or hints (they share the bot workers with everybody); ``hints``: the table
        asked for has hints, and no search bot."""
        mine = self.search_tables[client]
        for other in list(mine):
            table = self.tables.get(other)
            if table is None or table.over:
                mine.discard(other)
        if not mine:
            del self.search_tables[client]
        if table_id in mine:
            return
        limit = self.config.search_tables_per_address
        if len(mine) >= limit:
            tables = "table" if limit == 1 else "tables"
            if hints:
                raise HTTPError(429, f"{limit} {tables} with a search bot or hints at once from one "
                                     "address: finish one first, or make this one without hints")
            raise HTTPError(429, f"{limit} {tables} with a search bot at once from one address: "
                                 "finish one first, or choose a quicker bot (greedy, random)")

    def joined(self, table: Table) -> None:
        """A person opened a seat of ``table``: it is kept as long as a table in play."""
        if table.row.joined is not None:
            return
        table.row.joined = time.time()
        try:
            self.store.mark_joined(table.id, table.row.joined)
        except Exception as exc:  # kept in memory; written again when the table is next loaded
            table.row.joined = None
            log.error("table %s: could not note that a seat was opened: %s: %s",
                      table.id[:6], type(exc).__name__, exc)

    # ------------------------------------------------------------ telling the clients

    def broadcast(self, table: Table) -> None:
        """Tell every client of the table its new state (each seat sees its own legal moves):
        what changed since the last it was told, or all of it to a client that did not ask
        for changes. Clients told the same thing share one message."""
        messages: dict[tuple, str] = {}
        diffs: dict[tuple, str] = {}
        for client in list(table.clients):
            if client.wants_changes and client.seen is not None:
                key: tuple = (client.seat, client.with_record, client.with_log, id(client.seen), client.seen_version)
                message = messages.get(key)
                if message is None:
                    message = messages[key] = table.update_message(
                        client.seat, client.with_record, client.seen_version, client.seen, diffs, client.with_log)
            else:
                key = (client.seat, client.with_record, client.with_log)
                message = messages.get(key)
                if message is None:
                    message = messages[key] = table.state_message(client.seat, client.with_record, client.with_log)
            if not client.send(message):
                self.drop(client)
                continue
            client.seen = table.document(client.seat, client.with_record, client.with_log)
            client.seen_version = table.version
        self.seats.tell(table, changed_only=True)
        self.seats.watch(table)

    def send_state(self, client: Client) -> None:
        """All of the table's state to one client (joining, or asking after a gap)."""
        table = client.table
        if client.send(table.state_message(client.seat, client.with_record, client.with_log)):
            client.seen = table.document(client.seat, client.with_record, client.with_log)
            client.seen_version = table.version
            self.seats.tell(table, [client])
        else:
            self.drop(client)

    def seat_came_or_went(self, table: Table, seat: int) -> None:
        """A client of ``seat`` connected or left: told to this process's clients of the table
        and, through a shared store, to the other processes."""
        if self.store is not None and self.store.shared:
            try:
                self.store.set_presence(table.id, seat, table.clients_of(seat))
            except Exception:  # who is connected is not worth failing a connection for
                log.warning("could not tell the other processes who is at table %s", table.id[:6], exc_info=True)
        self.tell_presence(table)

    def tell_presence(self, table: Table) -> None:
        table.forget_cache()
        message = json.dumps({"type": "presence", "connected": table.connected()})
        for client in list(table.clients):
            if not client.send(message):
                self.drop(client)
        self.seats.presence_changed(table)
        self.seats.tell(table)

    def drop(self, client: Client) -> None:
        """A client too slow to keep up: closed; it reconnects and catches up."""
        client.table.clients.discard(client)
        self.spawn(client.websocket.close(code=1013))

    # ------------------------------------------------------------ bots

    def kick_bot(self, table: Table) -> None:
        if table.bot_task is None and table.bot_to_move() is not None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # a table loaded outside the event loop: the next kick starts it
                return
            table.bot_task = self.spawn(self.bot_turns(table))

    async def bot_turns(self, table: Table) -> None:
        """Let the table's bots move while one is to move. A failure (a bug, a bot that raised)
        is logged and the bots start again after a pause, doubling as for a move the store could
        not take: a task that died would leave the table waiting for a bot that never moves."""
        failures = 0
        try:
            while True:
                try:
                    await self._bot_moves(table)
                    return
                except asyncio.CancelledError:
                    raise
                except Exception:
                    failures += 1
                    delay = min(BOT_RETRY_FIRST * 2 ** (failures - 1), BOT_RETRY_MOST)
                    log.exception("a bot failed at table %s: its bots start again in %g s", table.id[:6], delay)
                    await asyncio.sleep(delay)
        finally:
            table.bot_task = None

    async def bot_pause(self, table: Table) -> None:
        """The wait before a bot's move, so people see each move (tests hold it)."""
        if self.config.bot_delay:
            await asyncio.sleep(self.config.bot_delay)

    async def _bot_moves(self, table: Table) -> None:
        failures = 0
        claimed = False
        try:
            while (seat := table.bot_to_move()) is not None and self.tables.get(table.id) is table:
                await self.bot_pause(table)
                if table.bot_to_move() != seat:  # its owner took the seat back (and moved) meanwhile
                    continue
                if self.store is None:
                    break
                if not claimed:
                    # With a shared store another process may be letting this bot move: wait for
                    # its move (or for it to die, which frees the claim), then look again.
                    claimed = self.store.claim_bot_turn(table.id)
                    if not claimed:
                        await asyncio.sleep(BOT_CLAIM_RETRY)
                        continue
                    self.catch_up(table)
                    if table.bot_to_move() != seat:
                        continue
                version = table.version
                name = table.seats[seat].bot
                if is_search_bot(name):
                    # In a worker process: the event loop only awaits the answer. The worker
                    # replays the record and gives the bot the game as this seat may know it.
                    ref = str(table.offered.path)
                    text = await self.bot_pool.choose(ref, table.record(seat).to_dict(), name,
                                                      f"{table.row.seed}:seat:{seat}:version:{version}",
                                                      table.sealed_choices(seat))
                else:
                    bot = table.bots.get(seat)
                    if bot is None:
                        bot = table.bots[seat] = make_bot(
                            name, table.offered.variant.rules,
                            seed=f"{table.row.seed}:seat:{seat}", think=self.config.think)
                    # The game as this seat may know it: a bot never sees another seat's secret.
                    snapshot = table.seen_by(seat).clone()
                    text = format_decision(await asyncio.to_thread(bot.choose, snapshot),
                                           snapshot.rules.colour_letters)
                # A chat message meanwhile leaves the decision good (``Table.moved_at``).
                if table.moved_at > version or self.store is None:
                    continue
                try:
                    table.decide(seat, version, text, self.store, by_bot=True)
                except Refused as exc:
                    if self.catch_up(table):  # another process moved first: look again
                        continue
                    log.warning("bot %s refused at table %s: %s", table.seats[seat].bot, table.id[:6], exc)
                    break
                except Exception as exc:  # the store failed (a full disk): the move was not taken
                    failures += 1
                    delay = min(BOT_RETRY_FIRST * 2 ** (failures - 1), BOT_RETRY_MOST)
                    log.error("table %s: a bot's move could not be stored (%s: %s); trying again in %g s",
                              table.id[:6], type(exc).__name__, exc, delay)
                    await asyncio.sleep(delay)
                    continue
                failures = 0
                self.broadcast(table)
        finally:
            if claimed and self.store is not None:
                with contextlib.suppress(Exception):
                    self.store.release_bot_turn(table.id)

    # ------------------------------------------------------------ other processes (shared store)

    def catch_up(self, table: Table) -> bool:
        """Apply the events other processes committed at this table since this copy's version
        and tell its clients; True if there were any."""
        if self.store is None or not self.store.shared:
            return False
        events = self.store.events_after(table.id, table.version)
        if not events:
            return False
        table.follow(events)
        self.seats.followed(table, events)
        self.broadcast(table)
        self.kick_bot(table)
        return True

    async def follow_other_processes(self) -> None:
        """Hear the moves committed by every process; those of tables held here are read and
        told to their clients. Listening again after a lost connection, every table held here
        is brought up to date (what was said meanwhile was not heard)."""
        while True:
            try:
                async for change in self.store.changes():
                    if change is None:  # listening (again): catch up on whatever was missed
                        self.catch_up_all()
                        continue
                    table_id, version = change
                    table = self.tables.get(table_id)
                    if table is None:
                        continue
                    if version is None:  # another process's clients of the table came or went
                        elsewhere = self.store.present_elsewhere(table_id)
                        if elsewhere != table.present_elsewhere:
                            table.present_elsewhere = elsewhere
                            self.tell_presence(table)
                    elif table.version < version:
                        self.catch_up(table)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lost the store's notifications (%s): listening again", exc)
            await asyncio.sleep(1)

    async def look_again_now_and_then(self) -> None:
        """Every half minute, what no notice says: the seats of a process that died (its
        clients' pages reconnect elsewhere and say so, but a closed page does not)."""
        while True:
            await asyncio.sleep(SHARED_REFRESH)
            try:
                self.catch_up_all()
            except Exception as exc:
                log.warning("could not look at the shared store (%s)", exc)

    def catch_up_all(self) -> None:
        stored = self.store.versions(list(self.tables))
        for table_id, table in list(self.tables.items()):
            if stored.get(table_id, table.version) > table.version:
                self.catch_up(table)
            elsewhere = self.store.present_elsewhere(table_id)
            if elsewhere != table.present_elsewhere:
                table.present_elsewhere = elsewhere
                self.tell_presence(table)


def clean_name(name: Any, seat: int) -> str:
    # The home page shows these to people, who count seats from 1 ("Seat 1"); ``seat`` is the index.
    if not isinstance(name, str):
        raise HTTPError(400, f"seat {seat + 1}: a name is text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise HTTPError(400, f"seat {seat + 1}: the name is empty")
    if len(cleaned) > MAX_NAME:
        raise HTTPError(400, f"seat {seat + 1}: a name has at most {MAX_NAME} characters")
    if not cleaned.isprintable():
        raise HTTPError(400, f"seat {seat + 1}: the name holds characters that can't be shown")
    return cleaned


def wants_hints(body: dict) -> bool:
    """The creation's ``hints``: true lets each seat ask the search bot for a hint (off unless asked)."""
    hints = body.get("hints", False)
    if not isinstance(hints, bool):
        raise HTTPError(400, "'hints' is true or false")
    return hints


def client_key(host: str | None) -> str:
    """The client a limit counts: an IPv4 address, an IPv6 address by its /64 (one home or one
    server holds a whole /64, so counting single addresses would give it billions), and every
    client that is not an address (a proxy's made-up header) together."""
    try:
        address = ipaddress.ip_address(host)  # an IPv6 scope (fe80::1%eth0) is read too
    except ValueError:  # None, a made-up name
        return "not an address"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)


_DEFAULT_PORTS = {"http": 80, "https": 443}
_HTTP_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://example.org:8443``; None if it is not one."""
    try:
        parts = urlsplit(url)
        scheme = _HTTP_SCHEME.get(parts.scheme.lower())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if scheme is None or not host:
        return None
    return scheme, host.lower(), port if port is not None else _DEFAULT_PORTS[scheme]


def origin_allowed(scheme: str, headers, allowed: tuple[str, ...], public_url: str | None = None) -> bool:
    """A browser's request comes from this server's own pages (or an operator-allowed origin):
    scheme, host and port all equal. No Origin header: not a browser (scripts, the terminal
    client), allowed. ``scheme``: the request's (``https`` behind a proxy with --proxy-headers).
    A page of ``public_url``'s host is the server's only at that URL's scheme and port."""
    origin = headers.get("origin")
    if origin is None:
        return True
    theirs = _origin_of(origin)
    if theirs is None:
        return False
    if theirs in {_origin_of(other) for other in allowed}:
        return True
    public = _origin_of(public_url) if public_url else None
    if public is not None and theirs[1] == public[1]:
        # Without --proxy-headers the request's scheme is http even when people use https: an
        # http:// page of the public host (a network attacker's) would match it.
        return theirs == public
    return theirs == _origin_of(f"{scheme}://{headers.get('host', '')}")


def host_allowed(host_header: str | None, allowed_hosts: tuple[str, ...]) -> bool:
    """The ``Host`` names this server: an IP address, or a name the operator serves under
    (DNS rebinding points a name of the attacker's at this server: that name is refused)."""
    if not allowed_hosts:
        return True
    try:
        host = urlsplit(f"//{host_header or ''}").hostname
    except ValueError:
        return False
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host.lower().rstrip(".") in {name.lower().rstrip(".") for name in allowed_hosts}


def public_origin(url: str) -> str:
    """The origin part of a ``--public-url`` (``https://azul.example.org``)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


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


class HostGuard:
    """Requests for a host name this server does not serve are refused (421; a WebSocket
    handshake: 403). ``/healthz`` answers whatever the name, for health checks."""

    def __init__(self, app, allowed_hosts: tuple[str, ...]):
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and scope["path"] != "/healthz":
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
            if not host_allowed(host, self.allowed_hosts):
                if scope["type"] == "http":
                    await _error(421, "this server does not answer to that host name")(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 4403})
                return
        await self.app(scope, receive, send)


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def _page(name: str, status_code: int = 200) -> Response:
    path = TEMPLATES / name
    if not path.is_file():
        return PlainTextResponse(f"the page {name} is not installed", status_code=500)
    return FileResponse(path, status_code=status_code, media_type="text/html; charset=utf-8")


def server_of(connection: Request | WebSocket) -> Server:
    """The server a request or a WebSocket came to (``create_app`` puts it in the app's state)."""
    return connection.app.state.server


async def home(request: Request) -> Response:
    return _page("home.html")


async def table_page(request: Request) -> Response:
    if server_of(request).table(request.path_params["table"]) is None:
        return _page("not-found.html", 404)  # styled, with a way home
    return _page("table.html")


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def variants(request: Request) -> Response:
    return JSONResponse(server_of(request).catalog.describe())


async def read_json(request: Request) -> Any:
    """A request's JSON body, from a page of this site and within the size limit."""
    config = server_of(request).config
    if not origin_allowed(request.url.scheme, request.headers, config.allowed_origins, config.public_url):
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
    except RecursionError:
        raise HTTPError(400, "the request's JSON is nested too deeply") from None


async def create(request: Request) -> Response:
    server = server_of(request)
    try:
        body = await read_json(request)
        client = request.client.host if request.client else "unknown"
        table, secrets, watch, admin = server.create_table(body, client)
    except HTTPError as exc:
        return _error(exc.status, exc.reason)
    root = server.config.public_url or str(request.base_url)
    base = f"{root.rstrip('/')}/t/{table.id}"
    seats = [{"seat": seat.seat, "name": seat.name, "bot": seat.bot,
              "url": f"{base}#seat={secrets[seat.seat]}" if seat.seat in secrets else None}
             for seat in table.seats]
    clocks = table.seating.clocks
    return JSONResponse({"table": table.id, "variant": table.offered.key, "seats": seats,
                         "watch_url": f"{base}#watch={watch}", "admin_secret": admin,
                         "admin_url": f"{base}#watch={watch}&admin={admin}",
                         "clock": clocks.public(server.config.now()) if clocks is not None else None,
                         "hints": table.row.hints, "chat": table.row.chat},
                        status_code=201)


async def record(request: Request) -> Response:
    server = server_of(request)
    table = server.table(request.path_params["table"])
    if table is None:
        return _error(404, "no such table")
    known, seat = table.seat_of(bearer(request.headers.get("authorization")))
    if not known:
        return _error(401, "send a seat's or the watch secret as 'Authorization: Bearer SECRET'")
    # Until the game is over, the other seats' secrets are sealed in this copy. It is taken
    # here, on the loop, where the table changes; its JSON is made in a worker thread.
    record = table.record(seat)
    text = await asyncio.to_thread(lambda: dumps_record(record.to_dict()))
    filename = f"azul-{table.offered.key}-{table.id[:8]}.json"
    return Response(text, media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="{filename}"'})


async def hand_to_bot(request: Request) -> Response:
    server = server_of(request)
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
        if is_search_bot(bot):
            client = client_key(request.client.host if request.client else None)
            server.check_search_bots(client, table.id)
        table.hand_to_bot(seat, bot, server.store)
    except HTTPError as exc:
        return _error(exc.status, exc.reason)
    except Stale as exc:
        server.catch_up(table)
        return _error(409, str(exc))
    except Refused as exc:
        return _error(409, str(exc))
    if is_search_bot(bot):
        server.search_tables[client].add(table.id)
    server.broadcast(table)
    server.kick_bot(table)
    return JSONResponse({"seat": seat, "bot": bot})


async def websocket_endpoint(websocket: WebSocket) -> None:
    server = server_of(websocket)
    config = server.config
    if not origin_allowed(websocket.url.scheme, websocket.headers, config.allowed_origins, config.public_url):
        await websocket.close(code=4403)
        return
    await websocket.accept()
    table = server.table(websocket.path_params["table"])
    if table is None:
        await close_with_reason(websocket, 4404, "no such table")
        return
    try:
        hello = await asyncio.wait_for(_receive(websocket, config.max_message), config.hello_seconds)
    except (asyncio.TimeoutError, _TooLarge, _TooDeep, WebSocketDisconnect, ValueError) as exc:
        code, reason = ((1009, "message too large") if isinstance(exc, _TooLarge) else
                        (4400, "the message is nested too deeply") if isinstance(exc, _TooDeep) else
                        (4400, "the first message must be a hello"))
        await close_with_reason(websocket, code, reason)  # a client already gone is no error there
        return
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        await close_with_reason(websocket, 4400, "the first message must be {\"type\": \"hello\", \"secret\": ...}")
        return
    secret = hello.get("secret")
    if not isinstance(secret, str) or not secret:
        secret = bearer(websocket.headers.get("authorization"))
    # The table may have been put away while the hello was awaited: take the current one.
    table = server.table(websocket.path_params["table"])
    if table is None:
        await close_with_reason(websocket, 4404, "no such table")
        return
    known, seat = table.seat_of(secret)
    if not known:
        await close_with_reason(websocket, 4401, "this link's secret is wrong: ask for the link again")
        return
    if seat is not None and not table.seats[seat].bot:
        server.joined(table)
    client = Client(websocket, table, seat, hello.get("record") is True, hello.get("changes") is True,
                    wants_seating=hello.get("seating") is True, with_log=hello.get("log") is True)
    if seat is not None:
        server.seats.arrive(table, seat)  # before the page is told the state: its clock may run
    table.clients.add(client)
    server.send_state(client)
    if seat is not None:
        server.seat_came_or_went(table, seat)
    writer = asyncio.create_task(_write(client))
    try:
        while True:
            try:
                message = await _receive(websocket, config.max_message)
            except _TooLarge:
                await close_with_reason(websocket, 1009, f"messages are at most {config.max_message} bytes")
                return
            except _TooDeep:
                await close_with_reason(websocket, 4400, "the message is nested too deeply")
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
            elif kind == "sync":
                server.send_state(client)
            elif kind == "hint":
                ask_for_hint(server, client, message)
            elif kind == "chat":
                chat.hear(server, client, message)
            elif kind == "move":
                move = message.get("move")
                try:
                    table.decide(seat, message.get("version"), move, server.store)
                except Refused as exc:
                    if isinstance(exc, Stale):
                        server.catch_up(table)
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
            elif kind in ("check", "help"):
                client.send(json.dumps(asking.reply(table, seat, message)))
    except WebSocketDisconnect:
        pass
    except Exception:  # a bug: logged, and the client told so (it reconnects)
        log.exception("the connection to table %s failed", table.id[:6])
        await close_with_reason(websocket, 1011, "the server failed: open the link again")
    finally:
        writer.cancel()
        if client in table.clients:
            table.clients.discard(client)
            if seat is not None:
                server.seat_came_or_went(table, seat)
        table.last_used = time.monotonic()


def create_app(config: Config, catalog: Catalog | None = None, store: TableStore | None = None) -> Starlette:
    """The ASGI application of one server (``catalog``: the variants, built from the config's
    folders when not given; ``store``: already opened, else the config's is opened at start)."""
    server = Server(config, catalog, store)
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
        Route("/api/tables/{table}/seats/{seat:index}/bot", hand_to_bot, methods=["POST"]),
        *server.seats.routes(read_json, client_key),
        WebSocketRoute("/ws/{table}", websocket_endpoint),
        *table_replay_routes(server),  # /t/{table}/replay, once the game is over
        *turn_status_routes(server),  # the home page's My tables: whose turn, for a seat's own link
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={Exception: _server_error, 404: _not_found})
    app.state.server = server  # what the handlers below serve from (``server_of``)
    wrapped = SecurityHeaders(HostGuard(app, config.allowed_hosts))
    wrapped.server = server
    return wrapped


class _TooLarge(Exception):
    pass


class _TooDeep(Exception):
    pass


async def _not_found(request: Request, exc: Exception) -> Response:
    """An unknown address: a page (styled, with a way home) for a person, JSON for the API."""
    if request.url.path.startswith(("/api/", "/static/")):
        return _error(404, "no such address")
    return _page("not-found.html", 404)


async def _server_error(request: Request, exc: Exception) -> Response:
    """A bug's answer: JSON like every other error (the traceback goes to the log)."""
    return _error(500, "the server failed on this request")


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
    try:
        return json.loads(data)
    except RecursionError:
        raise _TooDeep() from None


async def _write(client: Client) -> None:
    try:
        while True:
            message = await client.outbox.get()
            await client.websocket.send_text(message)
    except asyncio.CancelledError:
        raise
    except Exception:  # the socket closed under us: the reader sees it too
        return
