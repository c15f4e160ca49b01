"""Where the tables are kept: the ``TableStore`` interface and its SQLite implementation.

A table is its seats and a list of events (the round deals, the decisions,
seats handed to bots) numbered by version. An event is committed before
anybody hears of it, in one transaction with an optimistic version check
(``UPDATE tables ... WHERE version = ?``), so a decision sent twice, or by
two clients (or two server processes) at once, is applied once. Restarting
the server replays each table's events through the engine: every table
continues where it was.

``SQLiteStore`` (stdlib ``sqlite3``, WAL mode) is the default and belongs to
one server process: it holds a lock on its folder, and a second server on the
same folder refuses to start. ``store_postgres.PostgresStore`` is shared by
design: several processes serve the same tables and hear each other's moves.

Only hashes of the secrets are stored, never a secret.
"""

from __future__ import annotations

import abc
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncIterator

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
    at REAL,
    PRIMARY KEY (table_id, version)
);
CREATE INDEX IF NOT EXISTS tables_by_age ON tables (finished, updated);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, number INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS options (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (table_id, name)
);
"""

log = logging.getLogger("azul.web")

#: Event kinds: the factories laid at a round's start ("BBYR KKWW ..."), a decision in
#: record notation, a seat handed to a bot (text: the bot's name).
DEAL, MOVE, BOT = "deal", "move", "bot"
#: More kinds (``web.seats``, ``web.clocks``, ``web.rematch``): a seat's stand-in bot taking over
#: by itself (text: "BOT WHY", WHY "clock" or "away"), a seat taken back by its owner, the
#: table's turn clock (text: JSON, the first event of a table with a clock), the table made
#: for a rematch (text: its id), a seat's new link (text: the SHA-256 of its new secret).
STANDIN, RECLAIM, CLOCK, REMATCH, LINK = "standin", "reclaim", "clock", "rematch", "link"
#: At a table with a clock (``web.clocks``): a seat's player opened their link for the first time
#: (no text), and the creator started the game for every seat, arrived or not (no text, no seat).
#: A seat's clock runs only from one of these on.
ARRIVE, START = "arrive", "start"
#: A seat's chat message to the whole table (text: the message, cleaned; ``web.chat``). It
#: changes no game state and no seat: a move chosen before it is still taken.
CHAT = "chat"
#: The tiles a rule drew from the bag after a move (text: ``~RRB``, as a record writes them; seat:
#: the seat whose move drew). A chance event as the deal is: the server draws it, no client sends it.
DRAWN = "drawn"


def seat_bot_change(event: "Event") -> tuple[bool, str | None]:
    """(changes, bot): whether the event changes who plays its seat, and the bot that plays it
    from then on (None: its person again)."""
    if event.kind == BOT:
        return True, event.text
    if event.kind == STANDIN:
        return True, event.text.split(" ", 1)[0]
    if event.kind == RECLAIM:
        return True, None
    return False, None


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
    #: the creator let each seat ask the search bot for a hint (kept in the ``options`` table)
    hints: bool = False
    #: who plays first at this table's rematch: "rotate" (one seat earlier than here) or "draw"
    #: (``web.rematch_first``; kept in the ``options`` table, as the two below)
    rematch_first: str = "rotate"
    #: the seat that starts round 1, as a rematch chose it (None: the variant's rules choose)
    first_seat: int | None = None
    #: the seats may chat (``web.chat``); the creator may turn it off (kept as ``chat: off``)
    chat: bool = True


def stored_options(row: TableRow) -> list[tuple[str, str]]:
    """A table's options as (name, value) rows: only those that differ from the default."""
    options = [("hints", "on")] if row.hints else []
    if not row.chat:
        options.append(("chat", "off"))
    if row.rematch_first != "rotate":
        options.append(("rematch_first", row.rematch_first))
    if row.first_seat is not None:
        options.append(("first_seat", str(row.first_seat)))
    return options


def with_options(row: TableRow, options) -> TableRow:
    """``row`` with the options read back from (name, value) rows."""
    options = dict(options)
    row.hints = options.get("hints") == "on"
    row.chat = options.get("chat") != "off"
    row.rematch_first = "draw" if options.get("rematch_first") == "draw" else "rotate"
    first_seat = options.get("first_seat")
    row.first_seat = int(first_seat) if first_seat is not None and first_seat.isdigit() else None
    return row


@dataclass
class Event:
    kind: str
    text: str
    seat: int | None = None
    #: when it was committed (seconds since the epoch, the server's clock; None in a database
    #: older than event times): turn clocks are counted from it
    at: float | None = None


class StoreError(Exception):
    """The database can't be opened or written."""


class StoreInUse(StoreError):
    """Another server process holds this store, and it is not one to share."""


class TableStore(abc.ABC):
    """The tables of a server, used from its event loop's thread only (each call is short and
    synchronous, so that a decision is judged, committed and applied with no ``await`` between)."""

    #: several server processes may serve the same tables from this store at once
    shared = False

    @abc.abstractmethod
    def describe(self) -> str:
        """Where the tables are, for the start-up line (no password)."""

    @abc.abstractmethod
    def close(self) -> None: ...

    @abc.abstractmethod
    def create(self, row: TableRow, events: list[Event]) -> None: ...

    @abc.abstractmethod
    def append(self, table_id: str, version: int, events: list[Event], finished: bool) -> bool:
        """Add ``events`` after ``version``; False (nothing written) if the table is no longer
        at that version."""

    @abc.abstractmethod
    def purge(self, finished_before: float, idle_before: float, unjoined_before: float | None = None) -> int:
        """Delete finished tables untouched since ``finished_before``, unfinished ones
        untouched since ``idle_before``, and tables created before ``unjoined_before`` that no
        person ever joined; how many. A game in play with a clock is kept for its clock's seconds
        longer: the longest one turn may take (a move clock's turn, a game clock's bank), so a
        slow game is not deleted while a player still has time to think."""

    @abc.abstractmethod
    def mark_joined(self, table_id: str, when: float) -> None:
        """Note that a person first opened a seat of the table (the first time only)."""

    @abc.abstractmethod
    def load(self, table_id: str) -> tuple[TableRow, list[Event]] | None: ...

    @abc.abstractmethod
    def events_after(self, table_id: str, version: int) -> list[Event]:
        """The events of a table after ``version``, in order (another process's moves)."""

    @abc.abstractmethod
    def exists(self, table_id: str) -> bool: ...

    @abc.abstractmethod
    def tables_created(self) -> int:
        """Tables ever created here (a counter kept across purges)."""

    @abc.abstractmethod
    def open_tables(self) -> int: ...

    @abc.abstractmethod
    def table_ids(self, unfinished_only: bool = False) -> list[str]: ...

    # A shared store's extra duties; a store of one process has nothing to share.

    def claim_bot_turn(self, table_id: str) -> bool:
        """True if this process may let a bot move at this table now (no other process is)."""
        return True

    def release_bot_turn(self, table_id: str) -> None:  # noqa: B027 (nothing to release by default)
        """The bot of this process has moved (or given up)."""

    @abc.abstractmethod
    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version of each table (those that still exist)."""

    def changes(self) -> AsyncIterator[tuple[str, int | None] | None]:
        """Shared stores only: None once listening (what was committed before was not heard),
        then (table id, version) of each move any process commits, as it is committed, and
        (table id, None) when another process's clients of a seat come or go."""
        raise NotImplementedError

    def set_presence(self, table_id: str, seat: int, clients: int) -> None:  # noqa: B027 (one process: nobody to tell)
        """This process holds ``clients`` connections of that seat (told to the other processes)."""

    def present_elsewhere(self, table_id: str) -> set[int]:
        """The seats of a table that other live processes have clients of."""
        return set()


class SQLiteStore(TableStore):
    """The SQLite database of one server process, which holds a lock on it."""

    def __init__(self, path: Path | str, durable: bool = False):
        self.path = Path(path)
        self.lock = None
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.lock = _hold_lock(self.path.with_name(self.path.name + ".lock"))
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
            if "at" not in {r[1] for r in self.db.execute("PRAGMA table_info(events)")}:
                self.db.execute("ALTER TABLE events ADD COLUMN at REAL")  # older events have no time
        except (sqlite3.Error, OSError) as exc:
            self._unlock()
            raise StoreError(f"can't open the database {path}: {exc}") from None
        self.checkpoints = None
        if str(path) != ":memory:":
            # A checkpoint copies the log into the database and waits for the disk (fsync): made
            # by a commit, it would hold the event loop, every table's moves with it, for as long
            # as a busy disk takes (up to 0.3 s measured). Made in a thread of its own instead.
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            self.checkpoints = _Checkpoints(self.path)

    def describe(self) -> str:
        return str(self.path)

    def close(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.stop()
            self.checkpoints = None
        self.db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self.lock is not None:
            self.lock.close()  # closing the file releases its lock
            self.lock = None

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
            db.executemany("INSERT INTO options VALUES (?, ?, ?)",
                           [(row.id, name, value) for name, value in stored_options(row)])
            db.execute("INSERT INTO counters VALUES ('tables', 1) "
                       "ON CONFLICT(name) DO UPDATE SET number = number + 1")
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                           [(row.id, version, e.kind, e.seat, e.text, e.at)
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
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                           [(table_id, version + number, e.kind, e.seat, e.text, e.at)
                            for number, e in enumerate(events, 1)])
            for event in events:
                changes, bot = seat_bot_change(event)
                if changes:
                    db.execute("UPDATE seats SET bot = ? WHERE table_id = ? AND seat = ?",
                               (bot, table_id, event.seat))
                elif event.kind == LINK:
                    db.execute("UPDATE seats SET secret_hash = ? WHERE table_id = ? AND seat = ?",
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
        untouched since ``idle_before`` (a game in play with a clock: for its seconds longer),
        and tables created before ``unjoined_before`` whose seats no person ever opened
        (all-bot tables too); how many."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            ids = [r[0] for r in db.execute(
                "SELECT id FROM tables WHERE (finished IS NOT NULL AND updated < ?) "
                "OR (finished IS NULL AND updated + COALESCE((SELECT json_extract(text, '$.seconds') "
                "FROM events WHERE table_id = tables.id AND version = 1 AND kind = 'clock'), 0) < ?) "
                "OR (joined IS NULL AND created < ?)",
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
        events = [Event(*r) for r in self.db.execute(
            "SELECT kind, text, seat, at FROM events WHERE table_id = ? ORDER BY version", (table_id,))]
        options = self.db.execute("SELECT name, value FROM options WHERE table_id = ?", (table_id,))
        return with_options(TableRow(*found[:9], seats=seats, joined=found[9]), options), events

    def events_after(self, table_id: str, version: int) -> list[Event]:
        return [Event(*r) for r in self.db.execute(
            "SELECT kind, text, seat, at FROM events WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, version))]

    def exists(self, table_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is not None

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        found = {}
        for table_id in table_ids:
            row = self.db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is not None:
                found[table_id] = row[0]
        return found

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


class _Checkpoints:
    """A thread that checkpoints the write-ahead log every second (PASSIVE: it never makes the
    writer wait), on a connection of its own; sqlite3 lets go of the interpreter lock meanwhile."""

    EVERY = 1.0

    def __init__(self, path: Path):
        self.path = path
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="azul-sqlite-checkpoints", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout=5000")
            while not self.stopping.wait(self.EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # e.g. a full disk: the log grows meanwhile
                    log.warning("could not checkpoint %s: %s", self.path, exc)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as exc:
            log.warning("could not checkpoint %s: %s", self.path, exc)
        finally:
            db.close()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)


def _hold_lock(path: Path):
    """An open file holding an exclusive lock on ``path`` (released when closed, or when the
    process dies, even by kill -9); ``StoreInUse`` if another process holds it."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no lock (one server per folder is then on trust)
        return None
    stream = open(path, "a+")
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        stream.seek(0)
        holder = stream.read().strip()
        stream.close()
        raise StoreInUse(
            f"another azul serve{f' (pid {holder})' if holder.isdigit() else ''} is using the tables in "
            f"{path.parent}: stop it first, or give this one another --data (several servers can share "
            "the tables of a PostgreSQL --database)") from None
    stream.seek(0)
    stream.truncate()
    stream.write(f"{os.getpid()}\n")
    stream.flush()
    return stream
