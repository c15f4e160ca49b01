"""The tables on disk: SQLite (stdlib ``sqlite3``) in WAL mode, one writer, append-only events.

A table is its seats and a list of events (the round deals, the decisions,
seats handed to bots) numbered by version. An event is committed before
anybody hears of it, in one transaction with an optimistic version check
(``UPDATE tables ... WHERE version = ?``), so a decision sent twice, or by
two clients at once, is applied once. Restarting the server replays each
table's events through the engine: every table continues where it was.

Only hashes of the secrets are stored, never a secret.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    seed TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished REAL,
    version INTEGER NOT NULL,
    watch_hash TEXT NOT NULL,
    admin_hash TEXT NOT NULL,
    joined REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    secret_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
);
CREATE INDEX IF NOT EXISTS tables_by_age ON tables (finished, updated);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, number INTEGER NOT NULL);
"""

#: Event kinds: the factories laid at a round's start ("BBYR KKWW ..."), a decision in
#: record notation, a seat handed to a bot (text: the bot's name).
DEAL, MOVE, BOT = "deal", "move", "bot"


@dataclass
class SeatRow:
    seat: int
    name: str
    bot: str | None
    secret_hash: str | None


@dataclass
class TableRow:
    id: str
    variant: str
    seed: str
    created: float
    updated: float
    finished: float | None
    version: int
    watch_hash: str
    admin_hash: str
    seats: list[SeatRow]
    #: when a person first opened a seat's link (None: never; such a table is kept only briefly)
    joined: float | None = None


@dataclass
class Event:
    kind: str
    text: str
    seat: int | None = None


class StoreError(Exception):
    """The database can't be opened or written."""


class Store:
    """The SQLite database of one server. Used from the event loop's thread only."""

    def __init__(self, path: Path | str, durable: bool = False):
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL: a commit survives the process being killed (kill -9); FULL also a power cut.
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
            self.db.executescript(SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
            if "joined" not in columns:  # a database of an older version: its tables count as joined
                self.db.executescript("ALTER TABLE tables ADD COLUMN joined REAL; "
                                      "UPDATE tables SET joined = created;")
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"can't open the database {path}: {exc}") from None

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ writing

    def create(self, row: TableRow, events: list[Event]) -> None:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (row.id, row.variant, row.seed, row.created, row.updated, row.finished,
                        len(events), row.watch_hash, row.admin_hash, row.joined))
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                           [(row.id, s.seat, s.name, s.bot, s.secret_hash) for s in row.seats])
            db.execute("INSERT INTO counters VALUES ('tables', 1) "
                       "ON CONFLICT(name) DO UPDATE SET number = number + 1")
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                           [(row.id, version, e.kind, e.seat, e.text)
                            for version, e in enumerate(events, 1)])
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise

    def append(self, table_id: str, version: int, events: list[Event], finished: bool) -> bool:
        """Add ``events`` after ``version``; False (nothing written) if the table is no longer
        at that version."""
        db = self.db
        now = time.time()
        db.execute("BEGIN IMMEDIATE")
        try:
            cursor = db.execute(
                "UPDATE tables SET version = ?, updated = ?, finished = ? WHERE id = ? AND version = ?",
                (version + len(events), now, now if finished else None, table_id, version))
            if cursor.rowcount != 1:
                db.execute("ROLLBACK")
                return False
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                           [(table_id, version + number, e.kind, e.seat, e.text)
                            for number, e in enumerate(events, 1)])
            for event in events:
                if event.kind == BOT:
                    db.execute("UPDATE seats SET bot = ? WHERE table_id = ? AND seat = ?",
                               (event.text, table_id, event.seat))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return True

    def mark_joined(self, table_id: str, when: float) -> None:
        """A person opened one of the table's seats (the first time counts)."""
        self.db.execute("UPDATE tables SET joined = ? WHERE id = ? AND joined IS NULL", (when, table_id))

    def purge(self, finished_before: float, idle_before: float, unjoined_before: float | None = None) -> int:
        """Delete finished tables untouched since ``finished_before``, unfinished ones
        untouched since ``idle_before``, and tables created before ``unjoined_before`` whose
        seats no person ever opened (all-bot tables too); how many."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            ids = [r[0] for r in db.execute(
                "SELECT id FROM tables WHERE (finished IS NOT NULL AND updated < ?) "
                "OR (finished IS NULL AND updated < ?) OR (joined IS NULL AND created < ?)",
                (finished_before, idle_before, -1.0 if unjoined_before is None else unjoined_before))]
            for table_id in ids:
                db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return len(ids)

    # ------------------------------------------------------------ reading

    def load(self, table_id: str) -> tuple[TableRow, list[Event]] | None:
        found = self.db.execute(
            "SELECT id, variant, seed, created, updated, finished, version, watch_hash, admin_hash, joined "
            "FROM tables WHERE id = ?", (table_id,)).fetchone()
        if found is None:
            return None
        seats = [SeatRow(*r) for r in self.db.execute(
            "SELECT seat, name, bot, secret_hash FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,))]
        events = [Event(kind, text, seat) for kind, text, seat in self.db.execute(
            "SELECT kind, text, seat FROM events WHERE table_id = ? ORDER BY version", (table_id,))]
        return TableRow(*found[:9], seats=seats, joined=found[9]), events

    def exists(self, table_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is not None

    def tables_created(self) -> int:
        """Tables ever created here (a counter kept across purges)."""
        return self.db.execute("SELECT COALESCE(MAX(number), 0) FROM counters WHERE name = 'tables'").fetchone()[0]

    def open_tables(self) -> int:
        """Unfinished tables, and tables no person joined (all-bot ones) until they are purged."""
        return self.db.execute("SELECT COUNT(*) FROM tables WHERE finished IS NULL OR joined IS NULL").fetchone()[0]

    def table_ids(self, unfinished_only: bool = False) -> list[str]:
        query = "SELECT id FROM tables" + (" WHERE finished IS NULL" if unfinished_only else "")
        return [r[0] for r in self.db.execute(query)]


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back the transaction if SQLite has not already (it does on a full disk, and a second
    ROLLBACK would raise "no transaction is active" in place of the error that matters)."""
    if db.in_transaction:
        db.execute("ROLLBACK")
