"""The table server against hostile clients (issue 21), in process: who a limit counts, tables
nobody joined, storage errors, deeply nested JSON, Unicode digits, Origin and Host."""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3
import sys
import time
import warnings

import pytest

starlette = pytest.importorskip("starlette")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from test_server import Seat, create, join_all, make_config, play_to_end, secret_of, serving  # noqa: E402

from azul_core.web import app as web_app  # noqa: E402
from azul_core.web.app import client_key, create_app  # noqa: E402
from azul_core.web.store import Event, SeatRow, SQLiteStore, TableRow  # noqa: E402

HUMANS = [{"name": "Ana"}, {"name": "Bo"}]
BOTS = [{"bot": "random"}, {"bot": "greedy"}]


@pytest.fixture
def client(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as test_client:
        yield test_client


def wait_until(predicate, seconds: float = 20.0) -> bool:
    """Poll ``predicate`` (the server runs in another thread) until it holds or time is up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


# ---------------------------------------------------------------- who a limit counts


def test_client_key_counts_ipv6_by_64_and_anything_else_together():
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.7") == client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("192.0.2.7") != client_key("192.0.2.8")
    assert client_key("made-up") == client_key("other") == client_key(None)
    assert client_key("fe80::1%eth0") == "fe80::/64"


def test_tables_per_hour_count_an_ipv6_64_as_one_client(tmp_path, catalog):
    config = make_config(tmp_path, tables_per_hour=3)
    application = create_app(config, catalog)
    with TestClient(application, client=("2001:db8:1:2::1", 5000)):
        answers = [create(TestClient(application, client=(f"2001:db8:1:2::{n:x}", 5000))).status_code
                   for n in range(1, 6)]
        assert answers == [201, 201, 201, 429, 429]
        assert create(TestClient(application, client=("2001:db8:1:3::1", 5000))).status_code == 201


# ---------------------------------------------------------------- tables nobody joined


def age_tables(config, hours: float) -> None:
    """Make every table look created ``hours`` ago (the purge compares times)."""
    with sqlite3.connect(config.database) as db:
        db.execute("UPDATE tables SET created = created - ?, updated = updated - ?", (hours * 3600, hours * 3600))


def test_a_table_nobody_joined_expires_after_an_hour_and_a_joined_one_stays(tmp_path, catalog):
    config = make_config(tmp_path)
    with serving(config, catalog) as client:
        server = client.app.server
        create(client, seats=HUMANS)  # nobody opens it
        joined = create(client, seats=HUMANS).json()
        watched = create(client, seats=HUMANS).json()
        Seat(client, joined["table"], secret_of(joined["seats"][1]["url"])).close()
        Seat(client, watched["table"], secret_of(watched["watch_url"])).close()  # watching is no joining
        age_tables(config, 0.9)
        assert server.purge() == 0
        age_tables(config, 0.2)
        assert server.purge() == 2
        assert server.store.table_ids() == [joined["table"]]
    config.keep_unjoined_hours = 24
    with serving(config, catalog) as client:  # the joined mark was stored: it survives a restart
        client.app.server.purge()
        assert client.app.server.store.table_ids() == [joined["table"]]


def test_tables_of_an_older_database_count_as_joined(tmp_path):
    """A database written before tables noted who joined: its tables are kept as before."""
    path = tmp_path / "tables.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE tables (id TEXT PRIMARY KEY, variant TEXT NOT NULL, seed TEXT NOT NULL,
                created REAL NOT NULL, updated REAL NOT NULL, finished REAL, version INTEGER NOT NULL,
                watch_hash TEXT NOT NULL, admin_hash TEXT NOT NULL);
            INSERT INTO tables VALUES ('old', 'standard', 's', 1.0, 1.0, NULL, 0, 'w', 'a');
        """)
    store = SQLiteStore(path)
    assert store.load("old")[0].joined == 1.0
    assert store.purge(0.0, 0.0, time.time()) == 0 and store.table_ids() == ["old"]


def test_all_bot_tables_count_as_open_until_they_expire(tmp_path, catalog):
    config = make_config(tmp_path, max_open_tables=2)
    with serving(config, catalog) as client:
        server = client.app.server
        for _ in range(2):
            table = server.table(create(client, seats=BOTS).json()["table"])
            assert wait_until(lambda table=table: table.over)
        answer = create(client, seats=BOTS)
        assert answer.status_code == 503 and "open tables" in answer.json()["error"]
        age_tables(config, 1.1)
        server.purged_at = float("-inf")  # a full server purges at most every 10 s
        assert create(client, seats=BOTS).status_code == 201  # the expired ones were purged
        assert len(server.store.table_ids()) == 1


# ---------------------------------------------------------------- storage errors


def fill_the_disk(store: SQLiteStore) -> None:
    """The database may not grow and its free room is filled: writes fail as on a full disk."""
    store.db.execute("CREATE TABLE IF NOT EXISTS ballast (x)")
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count={pages}")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for _ in range(100_000):
            store.db.execute("INSERT INTO ballast VALUES (?)", ("x" * 50,))


def test_a_failed_commit_raises_its_own_error_not_the_rollbacks(tmp_path):
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    row = TableRow("t1", "standard", "seed", 0.0, 0.0, None, 0, "w", "a", [SeatRow(0, "Ana", None, "h")])
    store.create(row, [])
    fill_the_disk(store)
    with pytest.raises(sqlite3.OperationalError, match="full"):
        store.append("t1", 0, [Event("move", "x" * 1000)] * 30, False)


def test_creating_a_table_on_a_full_disk_answers_json(tmp_path, catalog, caplog):
    config = make_config(tmp_path)
    with serving(config, catalog) as client:
        store = client.app.server.store

        def create_on_a_full_disk(row, events):
            raise sqlite3.OperationalError("database or disk is full")

        store.create = create_on_a_full_disk
        with caplog.at_level(logging.ERROR, logger="azul.web"):
            answer = create(client, seats=HUMANS)
        assert answer.status_code == 503
        assert answer.json() == {"error": "the server could not store the new table: try again later"}
        assert [r.getMessage() for r in caplog.records if "could not be stored" in r.getMessage()] == [
            "a new table could not be stored: OperationalError: database or disk is full"]


def failing_calls(store, method: str, error: Exception, failing: tuple[int, ...] = (1,)) -> list:
    """Make ``store.<method>`` raise ``error`` on the calls numbered ``failing`` (from 1), as a
    full or locked disk would; the list of its calls, which grows with each."""
    real, calls = getattr(store, method), []

    def method_that_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) in failing:
            raise error
        return real(*args, **kwargs)

    setattr(store, method, method_that_fails)
    return calls


def test_a_seat_opened_while_the_store_fails_is_noted_at_the_next_opening(tmp_path, catalog, caplog):
    """The store fails to note that a person opened a seat (the table then counts as joined, kept
    like a table in play): the person plays on, the log says why, and the next opening notes it."""
    with serving(make_config(tmp_path), catalog) as client:
        server = client.app.server
        created = create(client, seats=HUMANS).json()
        calls = failing_calls(server.store, "mark_joined", sqlite3.OperationalError("database is locked"))
        with caplog.at_level(logging.ERROR, logger="azul.web"):
            first = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        assert first.state["legal"] is not None  # North plays on
        assert caplog.messages == [f"table {created['table'][:6]}: could not note that a seat was opened: "
                                   "OperationalError: database is locked"]
        assert server.store.load(created["table"])[0].joined is None
        Seat(client, created["table"], secret_of(created["seats"][1]["url"]))
        assert len(calls) == 2 and server.store.load(created["table"])[0].joined is not None


def test_a_bot_whose_move_could_not_be_stored_tries_again(tmp_path, catalog, caplog, monkeypatch):
    """The store refuses the first bot's move three times, then takes it; it refuses the second
    bot's move once: each failure waits twice as long as the one before, and a move stored starts
    the count again."""
    monkeypatch.setattr(web_app, "BOT_RETRY_FIRST", 0.01)
    config = make_config(tmp_path)
    with serving(config, catalog) as client:
        with caplog.at_level(logging.ERROR, logger="azul.web"):
            created = create(client, seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "greedy"}]).json()
            table = client.app.server.table(created["table"])
            # Ana's move is stored; the first bot's fails three times, the second's once.
            calls = failing_calls(client.app.server.store, "append",
                                  sqlite3.OperationalError("database or disk is full"), (2, 3, 4, 6))
            ana = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
            start = ana.state["version"]
            ana.ws.send_json({"type": "move", "move": ana.state["legal"]["drafts"][0]["move"], "version": start})
            assert wait_until(lambda: table.version >= start + 3 and table.bot_task is None)
        assert len(calls) == 7  # Ana's move, the first bot's (three failures), the second's (one)
        told = [message for message in caplog.messages if "could not be stored" in message]
        assert told == [f"table {created['table'][:6]}: a bot's move could not be stored "
                        f"(OperationalError: database or disk is full); trying again in {wait} s"
                        for wait in ("0.01", "0.02", "0.04", "0.01")]
        assert ana.wait_for(lambda state: state["version"] >= start + 3)["legal"] is not None  # Ana's turn


# ---------------------------------------------------------------- deeply nested JSON


def test_deeply_nested_json_is_a_400(client):
    deep = "[" * 5000 + "]" * 5000
    answer = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
    assert (answer.status_code, answer.json()) == (400, {"error": "the request's JSON is nested too deeply"})


def test_a_deeply_nested_websocket_message_closes_with_a_reason(client):
    created = create(client, seats=HUMANS).json()
    deep = "[" * 1900 + "]" * 1900
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_text(deep)
        assert ws.receive_json() == {"type": "error", "reason": "the message is nested too deeply"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    seat = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
    seat.ws.send_text(deep)
    message = seat.next_message()
    while message["type"] == "presence":
        message = seat.next_message()
    assert message == {"type": "error", "reason": "the message is nested too deeply"}
    with pytest.raises(WebSocketDisconnect) as closed:
        seat.next_message()
    assert closed.value.code == 4400


@pytest.mark.parametrize("clock, reason", [
    ({"mode": "move", "seconds": 10 ** 400}, "clock seconds: from 1 to 1209600 seconds (14 days) a move"),
    ({"mode": "game", "seconds": -10 ** 400}, "clock seconds: from 1 to 5184000 seconds (60 days) a game"),
    ({"mode": "move", "seconds": 30, "away": 10 ** 400}, 'clock away: from 1 to 1209600 seconds (14 days), or "off"'),
    ({"mode": "move", "seconds": 1e400}, "clock seconds: a number of seconds"),  # JSON's 1e400 is inf
])
def test_a_number_no_float_holds_is_a_400_with_a_reason(client, clock, reason):
    """An integer of 400 digits has no float: comparing it must not convert it (OverflowError, a 500)."""
    body = json.dumps({"variant": "standard", "seats": HUMANS, "clock": clock}).replace("Infinity", "1e400")
    answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert (answer.status_code, answer.json()) == (400, {"error": reason})


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/tables/{table}/seats/{number}/bot"),
    ("POST", "/api/tables/{table}/seats/{number}/reclaim"),
    ("POST", "/api/tables/{table}/seats/{number}/link"),
    ("GET", "/api/tables/{table}/replay/{number}"),
])
def test_a_seat_or_step_of_thousands_of_digits_in_a_path_is_a_404(client, method, path):
    """Python reads no integer of more than 4,300 digits (ValueError): such a path was a 500."""
    table = create(client, seats=HUMANS).json()["table"]
    answer = client.request(method, path.format(table=table, number="9" * 5000), json={})
    assert (answer.status_code, answer.json()) == (404, {"error": "no such address"})
    assert client.request(method, path.format(table=table, number="9" * 9), json={}).status_code in (401, 404, 409)


# ---------------------------------------------------------------- a Unicode digit as a column


def test_a_unicode_digit_as_a_wall_column_is_refused_as_a_move(client):
    created = create(client, "grey-wall", HUMANS).json()
    seats = join_all(client, created)
    answers = []

    def choose(legal, state):
        if legal["columns"] and not answers:
            seat = seats[state["you"]]
            for text in ("²", "٣"):
                seat.move(text)
                answer = seat.next_message()
                while answer["type"] == "presence":
                    answer = seat.next_message()
                answers.append(answer)
                assert answer["type"] == "refused", answer  # not taken as column 3
        return None

    play_to_end(seats, random.Random(2), choose)
    assert len(answers) == 2
    for answer in answers:
        assert "is not a move" in answer["reason"] and "could not store" not in answer["reason"]


# ---------------------------------------------------------------- Origin and Host


@pytest.mark.parametrize("origin,allowed", [
    ("http://testserver", True),
    ("http://TESTSERVER:80", True),
    ("https://testserver", False),  # an https page may not drive a plain-http server
    ("http://testserver:8080", False),
    ("http://testserver.evil.example", False),
    ("null", False),
    ("http://[::1", False),
    ("ftp://testserver", False),  # a scheme that is not the web's, with no port to default to
    ("http://", False),  # no host
])
def test_the_origin_check_compares_scheme_host_and_port(client, origin, allowed):
    answer = create(client, seats=HUMANS, origin=origin)
    assert answer.status_code == (201 if allowed else 403), answer.text
    try:
        with client.websocket_connect("/ws/nothing", headers={"origin": origin}) as ws:
            assert allowed
            assert ws.receive_json()["type"] == "error"  # no such table: the handshake went through
    except WebSocketDisconnect as closed:
        assert not allowed and closed.code == 4403


def test_an_allowed_origin_and_the_public_url_origin_are_compared_whole(tmp_path, catalog):
    config = make_config(tmp_path, allowed_origins=("https://friends.example",))
    with serving(config, catalog) as client:
        assert create(client, seats=HUMANS, origin="https://friends.example").status_code == 201
        assert create(client, seats=HUMANS, origin="https://friends.example:443").status_code == 201
        assert create(client, seats=HUMANS, origin="http://friends.example").status_code == 403


def test_an_origin_of_the_public_host_must_have_the_public_urls_scheme_and_port(tmp_path, catalog):
    """--public-url https://X without --proxy-headers: the request's own scheme is http, so an
    ``http://X`` page matched the server's origin (Host X). A page of X is the site's only at
    the public URL's scheme and port; the server reached by another name keeps its own origin."""
    config = make_config(tmp_path, public_url="https://azul.example.org/", allowed_origins=("https://azul.example.org",))
    with serving(config, catalog) as client:
        public = {"host": "azul.example.org"}
        assert create(client, seats=HUMANS, origin="https://azul.example.org", **public).status_code == 201
        for origin in ("http://azul.example.org", "https://azul.example.org:8443"):
            answer = create(client, seats=HUMANS, origin=origin, **public)
            assert (answer.status_code, answer.json()) == (403, {"error": "this request comes from another site's page"})
            with pytest.raises(WebSocketDisconnect) as refused:
                with client.websocket_connect("/ws/nothing", headers={"origin": origin, **public}):
                    pass
            assert refused.value.code == 4403
        assert create(client, seats=HUMANS, origin="http://localhost:8000", host="localhost:8000").status_code == 201


def test_a_host_name_the_server_does_not_serve_is_refused(tmp_path, catalog):
    """DNS rebinding: the attacker's name resolves to this server; Host and Origin are both it."""
    config = make_config(tmp_path, allowed_hosts=("localhost", "azul.example.org"))
    with serving(config, catalog) as client:
        rebinding = {"host": "evil.example", "origin": "http://evil.example"}
        answer = create(client, seats=HUMANS, **rebinding)
        assert (answer.status_code, answer.json()) == (421, {"error": "this server does not answer to that host name"})
        assert client.get("/", headers={"host": "evil.example"}).status_code == 421
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect("/ws/nothing", headers=rebinding):
                pass
        assert refused.value.code == 4403  # not the 4404 of a missing table: refused first
        assert client.get("/healthz", headers={"host": "evil.example"}).json() == {"ok": True}
        for host in ("localhost:8000", "azul.example.org", "AZUL.example.org.", "127.0.0.1:8000", "[::1]:8000"):
            origin = f"http://{host}"
            assert create(client, seats=HUMANS, host=host, origin=origin).status_code == 201, host


def test_a_second_store_on_the_same_tables_is_refused_naming_the_first_process(tmp_path):
    """One server per folder: the second store on the same SQLite file is refused, with the pid
    the first one wrote; once the first is closed, the folder is free again (and the lock file
    names the new holder alone)."""
    from azul_core.web.store import StoreInUse

    path = tmp_path / "data" / "tables.sqlite3"
    path.parent.mkdir()
    first = SQLiteStore(path)
    with pytest.raises(StoreInUse) as refused:
        SQLiteStore(path)
    assert str(refused.value) == (
        f"another azul serve (pid {os.getpid()}) is using the tables in {path.parent}: stop it first, "
        "or give this one another --data (several servers can share the tables of a PostgreSQL --database)")
    first.close()
    second = SQLiteStore(path)  # the folder is free again; its lock file names this process anew
    with pytest.raises(StoreInUse) as refused:
        SQLiteStore(path)
    assert f"another azul serve (pid {os.getpid()}) is using" in str(refused.value)
    second.close()


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX's flock")
def test_a_lock_held_by_something_that_wrote_no_pid_is_refused_without_one(tmp_path):
    """The lock file's holder may not have written a pid (another program, a file left empty):
    the refusal then names no process rather than a pid it can't vouch for."""
    import fcntl

    from azul_core.web.store import StoreInUse

    path = tmp_path / "tables.sqlite3"
    with open(tmp_path / "tables.sqlite3.lock", "w") as holder:
        holder.write("not a pid\n")
        holder.flush()
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(StoreInUse) as refused:
            SQLiteStore(path)
    assert str(refused.value).startswith(f"another azul serve is using the tables in {tmp_path}: stop it first")


def test_the_store_keeps_moves_through_a_kill_or_with_durable_a_power_cut(tmp_path):
    """WAL, and a commit synced as far as --durable asks (NORMAL: a killed process loses
    nothing; FULL: a power cut neither); other connections wait for a lock rather than fail."""
    for durable, synchronous in ((False, 1), (True, 2)):
        store = SQLiteStore(tmp_path / f"durable-{durable}" / "tables.sqlite3", durable=durable)
        pragmas = {name: store.db.execute(f"PRAGMA {name}").fetchone()[0]
                   for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")}
        assert pragmas == {"journal_mode": "wal", "synchronous": synchronous, "busy_timeout": 5000,
                           "foreign_keys": 1}
        store.close()


def test_a_purged_table_takes_its_seats_events_and_options_with_it(tmp_path):
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    row = TableRow("t1", "standard", "seed", 0.0, 0.0, None, 0, "w", "a", [SeatRow(0, "Ana", None, "h")],
                   hints=True)
    store.create(row, [Event("deal", "BBYR")])
    assert store.purge(finished_before=1.0, idle_before=1.0) == 1
    left = {name: store.db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            for name in ("tables", "seats", "events", "options")}
    assert left == {"tables": 0, "seats": 0, "events": 0, "options": 0}
    store.close()


def test_a_database_of_an_older_version_is_brought_up_to_date(tmp_path):
    """Written before tables knew when a seat was first opened and events when they were
    committed: its tables count as joined when they were created, its events have no time."""
    path = tmp_path / "tables.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, variant TEXT NOT NULL, seed TEXT NOT NULL,
            created REAL NOT NULL, updated REAL NOT NULL, finished REAL, version INTEGER NOT NULL,
            watch_hash TEXT NOT NULL, admin_hash TEXT NOT NULL);
        CREATE TABLE events (table_id TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL,
            seat INTEGER, text TEXT NOT NULL, PRIMARY KEY (table_id, version));
        INSERT INTO tables VALUES ('t1', 'standard', 'seed', 100.0, 150.0, NULL, 1, 'w', 'a');
        INSERT INTO events VALUES ('t1', 1, 'deal', NULL, 'BBYR');
    """)
    old.commit()
    old.close()
    store = SQLiteStore(path)
    row, events = store.load("t1")
    assert row.joined == 100.0 and events == [Event("deal", "BBYR", None, None)]
    store.close()


def test_a_database_that_can_t_be_opened_says_which_and_why(tmp_path):
    from azul_core.web.store import StoreError

    path = tmp_path / "tables.sqlite3"
    path.mkdir()  # a folder where the database would be
    with pytest.raises(StoreError) as refused:
        SQLiteStore(path)
    assert str(refused.value) == f"can't open the database {path}: unable to open database file"
    path.rmdir()
    SQLiteStore(path).close()  # the lock on it was let go


def test_tidying_forgets_tables_nobody_uses_and_purges_now_and_then(tmp_path, catalog, caplog):
    """Every minute the server forgets the tables no client, bot or request used for five
    minutes (the store keeps them: read again when asked for); every PURGE_EVERY seconds it
    purges old tables, and a store that fails then is logged and tried again next time."""
    with serving(make_config(tmp_path), catalog) as client:
        server = client.app.server
        quiet, watched, thinking, recent = (create(client, seats=HUMANS).json() for _ in range(4))
        Seat(client, watched["table"], secret_of(watched["watch_url"]))
        server.table(thinking["table"]).bot_task = object()  # a bot thinking there
        for created in (quiet, watched, thinking):
            server.table(created["table"]).last_used = time.monotonic() - 301
        now = time.monotonic()
        assert client.portal.call(server.tidy, now) == now  # no purge due
        assert set(server.tables) == {watched["table"], thinking["table"], recent["table"]}
        server.table(thinking["table"]).bot_task = None
        assert server.table(quiet["table"]) is not None  # read again from the store
        purged = failing_calls(server.store, "purge", sqlite3.OperationalError("disk I/O error"))
        due = time.monotonic() - web_app.PURGE_EVERY - 1
        with caplog.at_level(logging.ERROR, logger="azul.web"):
            assert client.portal.call(server.tidy, due) > due
        assert caplog.messages == ["purging old tables failed: OperationalError: disk I/O error"]
        assert client.portal.call(server.tidy, due) > due and len(purged) == 2
        assert client.portal.call(server.tidy, time.monotonic() - web_app.PURGE_EVERY + 5) < time.monotonic()
        assert len(purged) == 2  # not due yet
