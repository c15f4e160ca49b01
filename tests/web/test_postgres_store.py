"""The store's contract, the same for SQLite and PostgreSQL, and what a shared store adds:
moves of two processes at once applied once, notices of each move, one claim of a bot's turn."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import pytest

from azul_core.web.storage import open_store
from azul_core.web.store import BOT, DEAL, MOVE, Event, SeatRow, SQLiteStore, TableRow


@pytest.fixture(params=["sqlite", "postgres"])
def where(request, tmp_path):
    """Where a store is opened: an SQLite file, or a PostgreSQL URL (a schema of its own)."""
    if request.param == "sqlite":
        return tmp_path / "tables.sqlite3"
    return request.getfixturevalue("postgres")


@pytest.fixture
def store(where):
    opened = open_store(where if isinstance(where, str) else where)
    yield opened
    opened.close()


def row(table_id="T", seats=2, **fields):
    values = {"variant": "standard", "seed": "s", "created": 100.0, "updated": 100.0, "finished": None,
              "version": 0, "watch_hash": "w", "admin_hash": "a", "joined": 100.0} | fields
    return TableRow(table_id, seats=[SeatRow(i, f"P{i}", None, f"h{i}") for i in range(seats)], **values)


def test_a_table_comes_back_as_it_was_stored(store):
    store.create(row(), [Event(DEAL, "BBYR KKWW"), Event(MOVE, "1B1", 0)])
    loaded, events = store.load("T")
    assert loaded == row(version=2)
    assert [(e.kind, e.text, e.seat) for e in events] == [(DEAL, "BBYR KKWW", None), (MOVE, "1B1", 0)]
    assert store.load("nope") is None
    assert store.exists("T") and not store.exists("nope")
    assert store.tables_created() == 1 and store.open_tables() == 1 and store.table_ids() == ["T"]


def test_a_version_is_applied_once(store):
    store.create(row(), [Event(DEAL, "BBBB")])
    assert store.append("T", 1, [Event(MOVE, "1B1", 0), Event(DEAL, "RRRR")], False)
    assert not store.append("T", 1, [Event(MOVE, "1B2", 0)], False)
    assert not store.append("T", 9, [Event(MOVE, "1B2", 0)], False)
    assert not store.append("nope", 0, [Event(MOVE, "1B2", 0)], False)
    _row, events = store.load("T")
    assert [e.text for e in events] == ["BBBB", "1B1", "RRRR"]
    assert [e.text for e in store.events_after("T", 1)] == ["1B1", "RRRR"]
    assert store.events_after("T", 3) == []
    assert store.versions(["T", "nope"]) == {"T": 3}


def test_a_seat_handed_to_a_bot_and_a_finished_table_are_kept(store):
    store.create(row(), [Event(DEAL, "BBBB")])
    assert store.append("T", 1, [Event(BOT, "greedy", 1)], False)
    loaded, events = store.load("T")
    assert [s.bot for s in loaded.seats] == [None, "greedy"]
    assert (events[-1].kind, events[-1].seat) == (BOT, 1)
    assert store.append("T", 2, [Event(MOVE, "1B1", 0)], True)
    loaded, _events = store.load("T")
    assert loaded.finished is not None and store.open_tables() == 0
    assert store.table_ids(unfinished_only=True) == []


def test_a_table_nobody_joined_counts_as_open_until_purged_and_joining_is_noted_once(store):
    store.create(row("bots", joined=None, finished=150.0), [Event(DEAL, "B")])
    store.create(row("people", joined=None), [Event(DEAL, "B")])
    assert store.open_tables() == 2                   # a finished all-bot table still counts
    store.mark_joined("people", 120.0)
    store.mark_joined("people", 130.0)                # the first time only
    assert store.load("people")[0].joined == 120.0
    assert store.purge(finished_before=0.0, idle_before=0.0, unjoined_before=200.0) == 1
    assert store.table_ids() == ["people"] and store.open_tables() == 1


def test_a_table_nobody_joined_is_purged_by_its_creation_however_busy_its_bots(store):
    """An all-bot table whose bots keep moving is deleted an hour after it was created, not an
    hour after its last move (it would be kept as long as its bots play); a younger one stays."""
    store.create(row("busy bots", joined=None), [Event(DEAL, "B")])
    assert store.append("busy bots", 1, [Event(MOVE, "1B1", 0)], False)  # moved now
    assert store.load("busy bots")[0].updated > 200.0
    store.create(row("young", joined=None, created=300.0, updated=300.0), [Event(DEAL, "B")])
    assert store.purge(finished_before=0.0, idle_before=0.0, unjoined_before=200.0) == 1
    assert store.table_ids() == ["young"]


def test_old_tables_are_purged_with_their_events_and_the_count_stays(store, where):
    now = time.time()
    store.create(row("old", finished=now - 100, updated=now - 100), [Event(DEAL, "B")])
    store.create(row("idle", updated=now - 100), [Event(DEAL, "B")])
    store.create(row("fresh", updated=now), [Event(DEAL, "B")])
    assert store.purge(finished_before=now - 50, idle_before=now - 200) == 1
    assert not store.exists("old") and store.exists("idle")
    assert store.purge(finished_before=now - 50, idle_before=now - 50) == 1
    assert store.table_ids() == ["fresh"] and store.tables_created() == 3
    assert store.events_after("old", 0) == []
    store.close()
    again = open_store(where)  # the count survives a restart
    assert again.tables_created() == 3 and again.exists("fresh")
    again.close()


def test_sqlite_is_in_wal_mode_and_one_process_s(tmp_path):
    store = SQLiteStore(tmp_path / "t.sqlite3")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert not store.shared
    store.close()


# ---------------------------------------------------------------- what a shared store adds


def test_two_processes_moving_at_once_apply_one_move(postgres):
    first, second = open_store(postgres), open_store(postgres)
    try:
        first.create(row(), [Event(DEAL, "BBBB")])
        results = []
        start = threading.Barrier(2)

        def move(store, text):
            start.wait()
            results.append(store.append("T", 1, [Event(MOVE, text, 0)], False))

        threads = [threading.Thread(target=move, args=(s, t)) for s, t in ((first, "1B1"), (second, "1B2"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [False, True]
        _row, events = second.load("T")
        assert len(events) == 2 and events[1].text in ("1B1", "1B2")
    finally:
        first.close()
        second.close()


def test_every_process_hears_of_each_move(postgres):
    mover, listener = open_store(postgres), open_store(postgres)

    async def listen():
        heard = []
        changes = listener.changes()
        assert await anext(changes) is None  # listening now
        mover.create(row(), [Event(DEAL, "BBBB")])
        assert mover.append("T", 1, [Event(MOVE, "1B1", 0), Event(DEAL, "RRRR")], False)
        assert not mover.append("T", 1, [Event(MOVE, "1B2", 0)], False)  # not made: not told
        assert mover.append("T", 3, [Event(BOT, "random", 1)], False)
        while len(heard) < 2:
            heard.append(await asyncio.wait_for(anext(changes), 10))
        await changes.aclose()
        return heard

    try:
        assert asyncio.run(listen()) == [("T", 3), ("T", 4)]
    finally:
        mover.close()
        listener.close()


def test_one_process_at_a_time_claims_a_bot_s_turn_and_a_dead_one_loses_it(postgres):
    # Table ids of this test's own: a claim is held by a connection to the whole database.
    t, u = f"T-{uuid.uuid4().hex}", f"U-{uuid.uuid4().hex}"
    first, second = open_store(postgres), open_store(postgres)
    try:
        assert first.claim_bot_turn(t)
        assert not second.claim_bot_turn(t)
        assert second.claim_bot_turn(u)  # another table is another claim
        first.release_bot_turn(t)
        assert second.claim_bot_turn(t)
        assert not first.claim_bot_turn(t)
        second.close()  # a process that dies loses its connection, and its claims with it
        # The server ends the closed session's backend a moment after the client has gone:
        # the claim is free within a few seconds, not at once.
        deadline = time.monotonic() + 10
        while not first.claim_bot_turn(t):
            assert time.monotonic() < deadline, "the closed connection's claim was never released"
            time.sleep(0.05)
    finally:
        first.close()
        second.close()


def test_a_lost_connection_is_made_again(postgres):
    store = open_store(postgres)
    try:
        store.create(row(), [Event(DEAL, "BBBB")])
        store.db.close()  # as when PostgreSQL restarts
        assert store.exists("T")
    finally:
        store.close()


def test_a_database_that_can_not_be_reached_is_one_line(postgres):
    from azul_core.web.store import StoreError
    with pytest.raises(StoreError, match="can't use the database PostgreSQL database 'nope'") as caught:
        open_store("postgresql://azul:secret-password@127.0.0.1:1/nope")
    assert "secret-password" not in str(caught.value) and "\n" not in str(caught.value)


def test_sqlite_s_log_is_checkpointed_beside_the_event_loop_and_stays_small(tmp_path):
    store = SQLiteStore(tmp_path / "t.sqlite3")
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # never in a commit
    store.create(row(), [Event(DEAL, "BBBB")])
    wal = tmp_path / "t.sqlite3-wal"
    version = 1
    for _batch in range(5):
        for _ in range(150):
            assert store.append("T", version, [Event(MOVE, "x" * 2000, 0)], False)
            version += 1
        time.sleep(1.5)  # the thread checkpoints every second: the log is written from its start again
    # Five batches went through the log (about 3 MB each, index pages included): it holds about
    # one, not all five.
    assert wal.stat().st_size < 7_000_000, wal.stat().st_size
    store.close()
    assert not wal.exists() or wal.stat().st_size == 0  # truncated when the store closes
