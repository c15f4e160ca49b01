"""The tables in PostgreSQL (psycopg 3), shared by several ``azul serve`` processes.

The same rows as the SQLite store (a table, its seats, its events numbered
by version), in tables named ``azul_*``. What sharing adds:

- A move is one statement, so one round trip and one transaction: the
  table's version is moved on only if it is still the one the move was
  chosen at (``UPDATE ... WHERE version = %s``), the events are inserted
  only if it was, and ``pg_notify`` tells every listening process the
  table's id and new version (never a view: a payload is at most 8,000
  bytes). Two processes taking a move for the same table at once: the second
  waits for the first's row lock, finds the version moved on and writes
  nothing.
- ``changes()`` listens on its own connection (LISTEN needs one that is not
  busy with the moves); a process reads the events it lacks itself.
- A bot's turn is claimed with a session advisory lock per table: one
  process at a time lets a table's bot move; a process that dies (even by
  kill -9) loses its connection and so its claims.

Used from the event loop's thread only, like the SQLite store: each call is
short, and the loop waits for it (a few hundred microseconds on the same
machine).
"""

from __future__ import annotations

import time
from typing import AsyncIterator

from azul_core.web.store import (
    LINK,
    Event,
    SeatRow,
    StoreError,
    TableRow,
    TableStore,
    seat_bot_change,
    stored_options,
    with_options,
)

#: the channel of LISTEN/NOTIFY; a notice's payload is "TABLE_ID VERSION"
CHANNEL = "azul_tables"
#: the channel where a process says its clients of a table came or went; the payload: "TABLE_ID"
PRESENCE = "azul_presence"
#: first key of the advisory locks that claim bots' turns (the second is the table id's hash)
BOT_LOCKS = 0x417A756C  # "Azul"

SCHEMA = """
CREATE TABLE IF NOT EXISTS azul_tables (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    seed TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION,
    version INTEGER NOT NULL,
    watch_hash TEXT NOT NULL,
    admin_hash TEXT NOT NULL,
    joined DOUBLE PRECISION
);
-- A database made before tables knew when a person first joined them: those count as joined.
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                   WHERE table_name = 'azul_tables' AND column_name = 'joined') THEN
        ALTER TABLE azul_tables ADD COLUMN joined DOUBLE PRECISION;
        UPDATE azul_tables SET joined = created;
    END IF;
END $$;
CREATE TABLE IF NOT EXISTS azul_seats (
    table_id TEXT NOT NULL REFERENCES azul_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    secret_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS azul_events (
    table_id TEXT NOT NULL REFERENCES azul_tables(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL,
    at DOUBLE PRECISION,
    PRIMARY KEY (table_id, version)
);
-- Events stored before they had a time: the column is added (their time stays unknown).
ALTER TABLE azul_events ADD COLUMN IF NOT EXISTS at DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS azul_tables_by_age ON azul_tables (finished, updated);
CREATE TABLE IF NOT EXISTS azul_counters (name TEXT PRIMARY KEY, number BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS azul_options (
    table_id TEXT NOT NULL REFERENCES azul_tables(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (table_id, name)
);
CREATE TABLE IF NOT EXISTS azul_presence (
    backend INTEGER NOT NULL,
    backend_start TIMESTAMPTZ NOT NULL,
    table_id TEXT NOT NULL REFERENCES azul_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    clients INTEGER NOT NULL,
    PRIMARY KEY (backend, table_id, seat)
);
"""

# Who is at a table is kept per server process (its connection's backend, and when that started,
# as a process id may be used again): a process that dies takes its rows with it, as they are
# read only where the backend is still alive.
PRESENT_ELSEWHERE = """
SELECT DISTINCT p.seat FROM azul_presence p
JOIN pg_stat_activity a ON a.pid = p.backend AND a.backend_start = p.backend_start
WHERE p.table_id = %s AND p.clients > 0 AND p.backend <> pg_backend_pid()
"""

# One statement: the version check, the events, the seats handed to bots and the notice, all or
# nothing. Data-modifying CTEs always run; the notice's SELECT runs because the result reads it.
APPEND = """
WITH moved AS (
    UPDATE azul_tables SET version = %(new)s, updated = %(now)s, finished = %(finished)s
    WHERE id = %(id)s AND version = %(old)s
    RETURNING id
), added AS (
    INSERT INTO azul_events (table_id, version, kind, seat, text, at)
    SELECT moved.id, %(old)s + e.number, e.kind, e.seat, e.text, e.at
    FROM moved, unnest(%(kinds)s::text[], %(seats)s::integer[], %(texts)s::text[], %(ats)s::double precision[])
         WITH ORDINALITY AS e(kind, seat, text, at, number)
    RETURNING 1
), handed AS (
    UPDATE azul_seats SET bot = b.bot
    FROM moved, unnest(%(bot_seats)s::integer[], %(bot_names)s::text[]) AS b(seat, bot)
    WHERE azul_seats.table_id = moved.id AND azul_seats.seat = b.seat
    RETURNING 1
), linked AS (
    UPDATE azul_seats SET secret_hash = l.hash
    FROM moved, unnest(%(link_seats)s::integer[], %(link_hashes)s::text[]) AS l(seat, hash)
    WHERE azul_seats.table_id = moved.id AND azul_seats.seat = l.seat
    RETURNING 1
), told AS (
    SELECT pg_notify(%(channel)s::text, %(id)s::text || ' ' || %(new)s::text) FROM moved
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM added), (SELECT count(*) FROM handed),
       (SELECT count(*) FROM linked), (SELECT count(*) FROM told)
"""


def _psycopg():
    try:
        import psycopg
    except ImportError:
        raise StoreError("a PostgreSQL --database needs psycopg: pip install 'azul-variants[postgres]'") from None
    return psycopg


class PostgresStore(TableStore):
    """The tables of every server process that names this database."""

    shared = True

    def __init__(self, url: str, durable: bool = False):
        self.url = url
        self.durable = durable
        self.psycopg = _psycopg()
        self.db = None
        try:
            self.place = _place(url)
            self.db = self._connect()
            with self.db.transaction():
                # Two processes starting at once must not both create the tables.
                self.db.execute("SELECT pg_advisory_xact_lock(%s, 0)", (BOT_LOCKS,))
                self.db.execute(SCHEMA)
                self.db.execute("DELETE FROM azul_presence WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a "
                                "WHERE a.pid = backend AND a.backend_start = azul_presence.backend_start)")
        except self.psycopg.Error as exc:
            self.close()
            raise StoreError(f"can't use the database {self.describe()}: {_first_line(exc)}") from None

    def _connect(self):
        db = self.psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                                  application_name="azul serve")
        if not self.durable:
            # A commit returns before its WAL reaches the disk: a killed server process loses
            # nothing (PostgreSQL has the move), a crash of PostgreSQL or of the machine may lose
            # the last fraction of a second, as SQLite's synchronous=NORMAL may on a power cut.
            db.execute("SET synchronous_commit TO off")
        return db

    def _live(self):
        """The connection, made again if it was lost (the claims of bots' turns go with it)."""
        if self.db is None or self.db.closed or self.db.broken:
            if self.db is not None:
                self.db.close()
            self.db = self._connect()
        return self.db

    def describe(self) -> str:
        return self.place

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    # ------------------------------------------------------------ writing

    def create(self, row: TableRow, events: list[Event]) -> None:
        db = self._live()
        with db.transaction():
            db.execute("INSERT INTO azul_tables (id, variant, seed, created, updated, finished, version, "
                       "watch_hash, admin_hash, joined) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                       (row.id, row.variant, row.seed, row.created, row.updated, row.finished,
                        len(events), row.watch_hash, row.admin_hash, row.joined))
            with db.cursor() as cursor:
                cursor.executemany("INSERT INTO azul_seats VALUES (%s, %s, %s, %s, %s)",
                                   [(row.id, s.seat, s.name, s.bot, s.secret_hash) for s in row.seats])
                cursor.executemany("INSERT INTO azul_events VALUES (%s, %s, %s, %s, %s, %s)",
                                   [(row.id, version, e.kind, e.seat, e.text, e.at)
                                    for version, e in enumerate(events, 1)])
                options = stored_options(row)
                if options:
                    cursor.executemany("INSERT INTO azul_options VALUES (%s, %s, %s)",
                                       [(row.id, name, value) for name, value in options])
            db.execute("INSERT INTO azul_counters VALUES ('tables', 1) "
                       "ON CONFLICT (name) DO UPDATE SET number = azul_counters.number + 1")

    def append(self, table_id: str, version: int, events: list[Event], finished: bool) -> bool:
        now = time.time()
        # Seats handed to a bot, to a stand-in, or taken back (bot None): the seat rows follow.
        bots = [(e.seat, bot) for e in events for changes, bot in [seat_bot_change(e)] if changes]
        links = [e for e in events if e.kind == LINK]  # a seat's new secret (its hash)
        moved, *_ = self._live().execute(APPEND, {
            "id": table_id, "old": version, "new": version + len(events), "now": now,
            "finished": now if finished else None, "channel": CHANNEL,
            "kinds": [e.kind for e in events], "seats": [e.seat for e in events],
            "texts": [e.text for e in events], "ats": [e.at for e in events],
            "bot_seats": [seat for seat, _ in bots], "bot_names": [bot for _, bot in bots],
            "link_seats": [e.seat for e in links], "link_hashes": [e.text for e in links]}).fetchone()
        return moved == 1

    def purge(self, finished_before: float, idle_before: float, unjoined_before: float | None = None) -> int:
        cursor = self._live().execute(
            "DELETE FROM azul_tables WHERE (finished IS NOT NULL AND updated < %s) "
            "OR (finished IS NULL AND updated + COALESCE((SELECT (e.text::jsonb ->> 'seconds')::float8 "
            "FROM azul_events e WHERE e.table_id = azul_tables.id AND e.version = 1 AND e.kind = 'clock'), 0) < %s) "
            "OR (joined IS NULL AND created < %s)",
            (finished_before, idle_before, -1.0 if unjoined_before is None else unjoined_before))
        return cursor.rowcount

    def mark_joined(self, table_id: str, when: float) -> None:
        self._live().execute("UPDATE azul_tables SET joined = %s WHERE id = %s AND joined IS NULL",
                             (when, table_id))

    # ------------------------------------------------------------ reading

    def load(self, table_id: str) -> tuple[TableRow, list[Event]] | None:
        db = self._live()
        found = db.execute("SELECT id, variant, seed, created, updated, finished, version, watch_hash, "
                           "admin_hash, joined FROM azul_tables WHERE id = %s", (table_id,)).fetchone()
        if found is None:
            return None
        seats = [SeatRow(*r) for r in db.execute(
            "SELECT seat, name, bot, secret_hash FROM azul_seats WHERE table_id = %s ORDER BY seat",
            (table_id,))]
        # The events up to the version read: a move committed meanwhile is heard of and read then.
        events = [Event(*r) for r in db.execute(
            "SELECT kind, text, seat, at FROM azul_events WHERE table_id = %s AND version <= %s ORDER BY version",
            (table_id, found[6]))]
        options = db.execute("SELECT name, value FROM azul_options WHERE table_id = %s", (table_id,)).fetchall()
        return with_options(TableRow(*found[:9], seats=seats, joined=found[9]), options), events

    def events_after(self, table_id: str, version: int) -> list[Event]:
        return [Event(*r) for r in self._live().execute(
            "SELECT kind, text, seat, at FROM azul_events WHERE table_id = %s AND version > %s ORDER BY version",
            (table_id, version))]

    def exists(self, table_id: str) -> bool:
        return self._live().execute("SELECT 1 FROM azul_tables WHERE id = %s", (table_id,)).fetchone() is not None

    def tables_created(self) -> int:
        return self._live().execute(
            "SELECT COALESCE(MAX(number), 0) FROM azul_counters WHERE name = 'tables'").fetchone()[0]

    def open_tables(self) -> int:
        # Unfinished tables, and tables no person joined (all-bot ones) until they are purged.
        return self._live().execute(
            "SELECT COUNT(*) FROM azul_tables WHERE finished IS NULL OR joined IS NULL").fetchone()[0]

    def table_ids(self, unfinished_only: bool = False) -> list[str]:
        query = "SELECT id FROM azul_tables" + (" WHERE finished IS NULL" if unfinished_only else "")
        return [r[0] for r in self._live().execute(query)]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        if not table_ids:
            return {}
        return dict(self._live().execute("SELECT id, version FROM azul_tables WHERE id = ANY(%s)",
                                         (table_ids,)).fetchall())

    # ------------------------------------------------------------ sharing

    def claim_bot_turn(self, table_id: str) -> bool:
        return bool(self._live().execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                         (BOT_LOCKS, table_id)).fetchone()[0])

    def release_bot_turn(self, table_id: str) -> None:
        if self.db is not None and not self.db.closed and not self.db.broken:
            self.db.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (BOT_LOCKS, table_id))

    def set_presence(self, table_id: str, seat: int, clients: int) -> None:
        db = self._live()
        with db.transaction():
            if clients:
                db.execute("INSERT INTO azul_presence SELECT pg_backend_pid(), backend_start, %s, %s, %s "
                           "FROM pg_stat_activity WHERE pid = pg_backend_pid() "
                           "ON CONFLICT (backend, table_id, seat) DO UPDATE SET clients = excluded.clients",
                           (table_id, seat, clients))
            else:
                db.execute("DELETE FROM azul_presence WHERE backend = pg_backend_pid() AND table_id = %s "
                           "AND seat = %s", (table_id, seat))
            db.execute("SELECT pg_notify(%s, %s)", (PRESENCE, table_id))

    def present_elsewhere(self, table_id: str) -> set[int]:
        return {seat for (seat,) in self._live().execute(PRESENT_ELSEWHERE, (table_id,))}

    async def changes(self) -> AsyncIterator[tuple[str, int | None] | None]:
        """None once listening (what was committed before was not heard: catch up then), then
        (table id, version) for each move any process commits, and (table id, None) when a
        process's clients of the table come or go. Ends with an error when the connection is
        lost."""
        connection = await self.psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=10, application_name="azul serve (listening)")
        async with connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            await connection.execute(f"LISTEN {PRESENCE}")
            yield None
            async for notice in connection.notifies():
                if notice.channel == PRESENCE:
                    yield notice.payload, None
                    continue
                table_id, _, version = notice.payload.rpartition(" ")
                if table_id and version.isdigit():
                    yield table_id, int(version)


def _place(url: str) -> str:
    """The database's name and server, without the password."""
    from psycopg.conninfo import conninfo_to_dict
    try:
        info = conninfo_to_dict(url)
    except Exception:
        return "PostgreSQL (a URL that can't be read)"
    host = info.get("host") or "localhost"
    port = info.get("port") or "5432"
    return f"PostgreSQL database '{info.get('dbname') or info.get('user') or '?'}' on {host}:{port}"


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
