"""The table server's promises that a plausible slip would break unnoticed (issue 24).

Moves only for the current version; only the creator's secret hands seats to bots, and only
seats that exist; a move the store did not commit is neither applied nor told; a bot that was
to move when the server stopped moves again once its table is opened after a restart; the
Origin must be the server's own host and port; secrets are compared in constant time; the
variant's rules choose who starts (``azul_first_player``).

Every wait for the server has a timeout (``receive``): a broken server fails these tests in
seconds instead of hanging the suite.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import queue
import random
import time
import warnings
from pathlib import Path

import pytest

starlette = pytest.importorskip("starlette")
import anyio  # noqa: E402  (installed with starlette)

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from azul_core.records.game_record import parse_record  # noqa: E402
from azul_core.web import app as app_module  # noqa: E402
from azul_core.web import capabilities  # noqa: E402
from azul_core.web import store as store_module  # noqa: E402
from azul_core.web.app import Config, create_app  # noqa: E402
from azul_core.web.store import SQLiteStore  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The longest a test waits for one message from the server.
TIMEOUT = 20.0


def make_config(tmp_path, **options):
    seeds = itertools.count(1)
    options.setdefault("bot_delay", 0)
    options.setdefault("think", 0.05)
    return Config(data=tmp_path / "data", variant_dirs=(EXAMPLES,),
                  seed_factory=lambda: f"guard-{next(seeds)}", **options)


@contextlib.contextmanager
def serving(config, catalog, store=None, **client_options):
    """A server in process and its ``Server`` object; sockets left open are closed first
    (``store``: one already opened, as ``azul serve`` gives it)."""
    app = create_app(config, catalog, store)
    seats: list[Seat] = []
    with TestClient(app, **client_options) as client:
        client.open_seats = seats
        try:
            yield client, app.server
        finally:
            for seat in seats:
                seat.close()


def create(client, variant="standard", seats=None, **headers):
    seats = seats if seats is not None else [{"name": "North"}, {"name": "East"}]
    return client.post("/api/tables", json={"variant": variant, "seats": seats}, headers=headers)


def secret_of(url: str) -> str:
    return url.split("#", 1)[1].split("&")[0].split("=", 1)[1]


async def _within(seconds: float, receive):
    with anyio.fail_after(seconds):
        return await receive()


def receive(ws, seconds: float = TIMEOUT) -> dict:
    """The next JSON message of a test WebSocket, or a failure after ``seconds``."""
    try:
        message = ws.portal.call(_within, seconds, ws._send_rx.receive)
    except TimeoutError:
        raise AssertionError(f"the server sent nothing for {seconds} s") from None
    ws._raise_on_close(message)
    return json.loads(message["text"])


class Seat:
    """One open WebSocket of a table and the last state it received; every wait times out."""

    def __init__(self, client, table, secret):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        client.open_seats.append(self)
        self.ws.send_json({"type": "hello", "secret": secret})
        self.state = None
        self.refusals: list[dict] = []
        self.wait_for(lambda state: state is not None)

    def next_message(self, seconds: float = TIMEOUT) -> dict:
        message = receive(self.ws, seconds)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "refused":
            self.refusals.append(message)
        return message

    def wait_for(self, predicate) -> dict:
        while not predicate(self.state):
            self.next_message()
        return self.state

    def refused(self) -> dict:
        while self.next_message()["type"] != "refused":
            pass
        return self.refusals[-1]

    def quiet(self) -> None:
        """The server has nothing more to tell this seat (a ping's pong comes first)."""
        self.ws.send_json({"type": "ping"})
        while (message := self.next_message())["type"] == "presence":
            pass
        assert message == {"type": "pong"}, message

    def move(self, move, version=None):
        self.ws.send_json({"type": "move", "move": move,
                           "version": self.state["version"] if version is None else version})

    def close(self):
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.context.__exit__(None, None, None)


def join(client, created, index):
    return Seat(client, created["table"], secret_of(created["seats"][index]["url"]))


def a_draft(state) -> str:
    return state["legal"]["drafts"][0]["move"]


# ---------------------------------------------------------------- versions


@pytest.mark.parametrize("offset", [-1, 1, 2])
def test_a_move_for_another_version_than_the_current_one_is_refused(tmp_path, catalog, offset):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        version = north.state["version"]
        north.move(a_draft(north.state), version + offset)
        refusal = north.refused()
        assert refusal["reason"] == (f"the table has moved on (version {version}, you sent {version + offset}): "
                                     "look again")
        east.quiet()
        assert east.state["version"] == version
        north.move(a_draft(north.state), version)  # the current version: taken
        assert east.wait_for(lambda s: s["version"] > version)["last"]["seat"] == 0


# ---------------------------------------------------------------- handing seats to bots


def test_only_the_creators_secret_hands_a_seat_to_a_bot(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        path = f"/api/tables/{created['table']}/seats/1/bot"
        for secret in (secret_of(created["watch_url"]), secret_of(created["seats"][1]["url"]), "nonsense"):
            answer = client.post(path, json={"bot": "greedy"}, headers={"Authorization": f"Bearer {secret}"})
            assert answer.status_code == 401, secret
            assert answer.json()["error"] == "only the table's creator (the admin secret) may hand a seat to a bot"
        assert client.post(path, json={"bot": "greedy"}).status_code == 401
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        assert client.post(path, json={"bot": "greedy"}, headers=admin).status_code == 200


@pytest.mark.parametrize("players", [2, 4])
def test_the_last_seat_may_go_to_a_bot_and_one_past_it_is_not_found(tmp_path, catalog, players):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client, seats=[{"name": f"P{n}"} for n in range(players)]).json()
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        base = f"/api/tables/{created['table']}/seats"
        past = client.post(f"{base}/{players}/bot", json={"bot": "random"}, headers=admin)
        assert past.status_code == 404 and past.json()["error"] == f"no seat {players} at this table"
        last = client.post(f"{base}/{players - 1}/bot", json={"bot": "random"}, headers=admin)
        assert last.status_code == 200 and last.json() == {"seat": players - 1, "bot": "random"}


# ---------------------------------------------------------------- the store commits first


@pytest.mark.parametrize("failure", ["raises", "refuses"])
def test_a_move_the_store_did_not_commit_is_neither_applied_nor_told(tmp_path, catalog, monkeypatch, failure,
                                                                     caplog):
    config = make_config(tmp_path)
    with serving(config, catalog) as (client, server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        version = north.state["version"]

        def failing_append(*args, **kwargs):
            if failure == "raises":
                raise OSError("disk full")
            return False  # another writer got there first

        with monkeypatch.context() as patch, caplog.at_level(logging.ERROR, logger="azul.web"):
            patch.setattr(server.store, "append", failing_append)
            move = a_draft(north.state)
            north.move(move)
            refused = north.refused()
        assert refused == {"type": "refused", "move": None if failure == "raises" else move, "version": version,
                           "reason": "the server could not store the move: try again" if failure == "raises"
                           else "the table has moved on: look again"}
        # the operator's log names the table and keeps the store's error
        stored = [r for r in caplog.records if "could not be stored" in r.getMessage()]
        if failure == "raises":
            assert [r.getMessage() for r in stored] == [f"a move at table {created['table'][:6]} could not be stored"]
            assert stored[0].exc_info[0] is OSError
        else:
            assert stored == []
        east.quiet()  # nobody was told of a move
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        assert watcher.state["version"] == version and watcher.state["view"]["to_move"] == 0
        assert watcher.state["last"] is None
        north.quiet()
        north.move(a_draft(north.state))  # the store works again: the same move is taken
        assert east.wait_for(lambda s: s["version"] > version)["last"]["seat"] == 0
    with serving(config, catalog) as (client, _server):  # and it is the one on disk
        assert join(client, created, 1).state["version"] == version + 1


# ---------------------------------------------------------------- restarts


def test_a_bot_that_was_to_move_when_the_server_stopped_moves_after_the_restart(tmp_path, catalog):
    created = None
    with serving(make_config(tmp_path, bot_delay=3600), catalog) as (client, _server):
        created = create(client, seats=[{"bot": "greedy"}, {"name": "East"}]).json()
        east = join(client, created, 1)
        assert east.state["view"]["to_move"] == 0  # the bot's turn; it waits an hour to move
        stopped_at = east.state["version"]
    with serving(make_config(tmp_path), catalog) as (client, _server):
        east = join(client, created, 1)
        east.wait_for(lambda s: s["version"] > stopped_at)
        assert east.state["last"]["seat"] == 0 and east.state["view"]["to_move"] == 1


# ---------------------------------------------------------------- origins and secrets


@pytest.mark.parametrize("origin, status", [
    ("http://testserver", 201),            # the server's own pages
    ("http://testserver:8001", 403),       # the same host, another port: another origin
    ("https://testserver:443", 403),
    ("http://testserver.evil.example", 403),
    ("http://evil.example", 403),
])
def test_only_the_servers_own_origin_may_create_a_table(tmp_path, catalog, origin, status):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        assert create(client, Origin=origin).status_code == status


def test_a_websocket_from_another_port_of_the_same_host_is_refused(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        with pytest.raises(Exception) as caught:
            with client.websocket_connect(f"/ws/{created['table']}",
                                          headers={"Origin": "http://testserver:8001"}) as ws:
                ws.send_json({"type": "hello", "secret": secret_of(created["seats"][0]["url"])})
                receive(ws)
        assert getattr(caught.value, "code", None) == 4403


def test_secrets_are_compared_in_constant_time(tmp_path, catalog, monkeypatch):
    compared = []
    constant_time = capabilities.hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return constant_time(a, b)

    monkeypatch.setattr(capabilities.hmac, "compare_digest", spy)
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        secret = secret_of(created["seats"][1]["url"])
        assert join(client, created, 1).state["you"] == 1
        table = server.tables[created["table"]]
        assert (capabilities.digest(secret), table.seats[1].secret_hash) in compared
        compared.clear()
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        assert client.post(f"/api/tables/{created['table']}/seats/0/bot", json={"bot": "random"},
                           headers=admin).status_code == 200
        assert (capabilities.digest(created["admin_secret"]), table.row.admin_hash) in compared


# ---------------------------------------------------------------- who starts: azul_first_player


def first_players(tmp_path, catalog, tables: int) -> list[int]:
    starts = []
    with serving(make_config(tmp_path, bot_delay=3600), catalog) as (client, _server):
        for _ in range(tables):
            created = create(client, variant="seeded-start",
                             seats=[{"name": "North"}, {"name": "East"}, {"name": "South"}]).json()
            watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
            starts.append(watcher.state["view"]["to_move"])
            record = client.get(f"/api/tables/{created['table']}/record",
                                headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"})
            assert parse_record(record.text).first_player == starts[-1]
            watcher.close()
    return starts


def test_the_variants_rules_choose_who_starts_a_table(tmp_path, catalog):
    starts = first_players(tmp_path, catalog, 6)
    assert set(starts) == {0, 1, 2}, starts  # the seeded-start example draws it from the seed
    # The same table seeds give the same first players (a restarted server replays them).
    assert first_players(tmp_path / "again", catalog, 6) == starts


def test_a_restarted_server_keeps_who_started(tmp_path, catalog):
    config = make_config(tmp_path)
    rng = random.Random(5)
    with serving(config, catalog) as (client, _server):
        for _ in range(3):
            created = create(client, variant="seeded-start").json()
            north = join(client, created, 0)
            if north.state["view"]["to_move"] == 1:
                break
        assert north.state["view"]["to_move"] == 1, "no table seed of these gives seat 1 the start"
        east = join(client, created, 1)
        east.move(rng.choice(east.state["legal"]["drafts"])["move"])
        north.wait_for(lambda s: s["view"]["to_move"] == 0)
        version = north.state["version"]
    with serving(config, catalog) as (client, _server):
        north = join(client, created, 0)
        assert north.state["version"] == version and north.state["view"]["to_move"] == 0
        assert north.state["last"]["seat"] == 1


# ---------------------------------------------------------------- documented limits, at the limit and one past


def test_a_name_of_32_characters_is_taken_and_one_of_33_is_not(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        taken = create(client, seats=[{"name": "n" * 32}, {"name": "East"}])
        assert taken.status_code == 201 and taken.json()["seats"][0]["name"] == "n" * 32
        refused = create(client, seats=[{"name": "n" * 33}, {"name": "East"}])
        assert refused.status_code == 400 and refused.json()["error"] == "seat 1: a name has at most 32 characters"


def test_a_request_of_16_kib_is_read_and_one_byte_more_is_not(tmp_path, catalog):
    body = json.dumps({"variant": "standard", "seats": [{"name": "North"}, {"name": "East"}]}).encode()
    with serving(make_config(tmp_path), catalog) as (client, _server):
        headers = {"content-type": "application/json"}
        at_limit = body + b" " * (16 * 1024 - len(body))
        assert client.post("/api/tables", content=at_limit, headers=headers).status_code == 201
        past = client.post("/api/tables", content=at_limit + b" ", headers=headers)
        assert past.status_code == 413 and past.json()["error"] == "the request is larger than 16384 bytes"


def test_a_message_of_4_kib_is_read_and_one_byte_more_closes_the_socket(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        seat = join(client, created, 0)
        ping = '{"type":"ping"}'
        seat.ws.send_text(ping + " " * (4096 - len(ping)))
        while (message := seat.next_message())["type"] == "presence":
            pass
        assert message == {"type": "pong"}
        seat.ws.send_text(ping + " " * (4097 - len(ping)))
        with pytest.raises(Exception) as caught:
            while True:
                seat.next_message()
        assert getattr(caught.value, "code", None) == 1009


# ---------------------------------------------------------------- survivors of bench/mutation.py, scope web


def test_a_seat_handed_to_a_bot_stays_a_bot_after_a_restart_and_the_table_stays_open(tmp_path, catalog):
    config = make_config(tmp_path, bot_delay=3600)
    with serving(config, catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"name": "East"}]).json()
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        path = f"/api/tables/{created['table']}/seats/1/bot"
        assert client.post(path, json={"bot": "random"}, headers=admin).status_code == 200
        again = client.post(path, json={"bot": "greedy"}, headers=admin)
        assert again.status_code == 409 and again.json()["error"] == "seat 1 is played by the bot 'random' already"
        assert server.store.open_tables() == 1 and server.store.table_ids(unfinished_only=True) == [created["table"]]
    with serving(config, catalog) as (client, server):
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        assert [seat["bot"] for seat in watcher.state["view"]["seats"]] == [None, "random"]
        assert server.store.exists(created["table"]) and not server.store.exists("no-such-table")


def test_the_last_move_is_told_the_same_after_a_restart(tmp_path, catalog):
    config = make_config(tmp_path)
    with serving(config, catalog) as (client, _server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        north.move(a_draft(north.state))
        last = east.wait_for(lambda s: s["last"] is not None)["last"]
        assert set(last) == {"seat", "move", "text"} and last["text"]
    with serving(config, catalog) as (client, _server):
        assert join(client, created, 1).state["last"] == last


def test_a_bot_with_a_delay_still_moves(tmp_path, catalog):
    with serving(make_config(tmp_path, bot_delay=0.01), catalog) as (client, _server):
        created = create(client, seats=[{"bot": "random"}, {"name": "East"}]).json()
        east = join(client, created, 1)
        east.wait_for(lambda s: s["view"]["to_move"] == 1)
        assert east.state["last"]["seat"] == 0


def test_a_finished_game_takes_no_bot(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, seats=[{"bot": "random"}, {"bot": "random"}]).json()
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        watcher.wait_for(lambda s: s["view"]["phase"] == "over")
        answer = client.post(f"/api/tables/{created['table']}/seats/0/bot", json={"bot": "greedy"},
                             headers={"Authorization": f"Bearer {created['admin_secret']}"})
        assert answer.status_code == 409 and answer.json()["error"] == "the game is over"
        assert server.store.table_ids(unfinished_only=True) == []
        assert server.store.table_ids() == [created["table"]]
        # Nobody ever joined this all-bot table: it counts as open until it expires (issue 21).
        assert server.store.open_tables() == 1


def test_the_pages_are_html_in_utf_8(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        for page in ("/", f"/t/{created['table']}"):
            answer = client.get(page)
            assert answer.status_code == 200 and answer.headers["content-type"] == "text/html; charset=utf-8"


def test_the_summary_of_a_round_adds_up_to_its_scores(tmp_path, catalog):
    config = make_config(tmp_path, bot_delay=0)
    with serving(config, catalog) as (client, _server):
        created = create(client, seats=[{"bot": "greedy"}, {"bot": "greedy"}]).json()  # scores above 0
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        # Round 3 or later: earlier penalties and tiles on the wall count by then.
        state = watcher.wait_for(lambda s: (s["view"]["last_round"] or {}).get("round", 0) >= 3)
        summary = state["view"]["last_round"]
        number = summary["round"]          # the bots may have played on before the watcher came
        record = parse_record(client.get(f"/api/tables/{created['table']}/record",
                                         headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"}).text)
        assert record.rounds[number - 1].scores == [seat["score"] for seat in summary["seats"]]
        before = record.rounds[number - 2].scores if number > 1 else [0, 0]
        for index, seat in enumerate(summary["seats"]):
            assert all(set(tile) == {"row", "column", "colour", "points"} for tile in seat["placed"])
            assert all(tile["points"] >= 1 for tile in seat["placed"]) and seat["floor"] <= 0
            assert seat["score"] == max(0, before[index] + sum(tile["points"] for tile in seat["placed"])
                                        + seat["floor"])
        if state["view"]["phase"] != "over":  # the summary stays on the table until the next round ends
            following = watcher.wait_for(lambda s: s["version"] > state["version"])["view"]["last_round"]
            assert following is not None and following["round"] >= number


def test_a_client_that_asked_for_the_record_gets_it_with_every_state(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north = join(client, created, 0)
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "secret": secret_of(created["watch_url"]), "record": True})
            first = receive(ws)
            assert first["type"] == "state" and first["record"]["rounds"][0]["actions"] == []
            north.move(a_draft(north.state))
            while (message := receive(ws))["type"] != "state":
                pass
            assert message["record"]["rounds"][0]["actions"] == [message["last"]["move"]]
        assert "record" not in north.wait_for(lambda s: s["version"] > first["version"])


def test_while_a_wall_column_is_asked_a_draft_is_refused_and_a_bare_number_places(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client, "grey-wall").json()
        seats = {0: join(client, created, 0), 1: join(client, created, 1)}
        rng = random.Random(4)
        while True:   # draft at random until somebody has a wall column to choose
            state = seats[0].state
            view = state["view"]
            if view["phase"] == "place":
                break
            mover = seats[view["to_move"]]
            mover.wait_for(lambda s, v=state["version"]: s["version"] >= v)
            mover.move(rng.choice(mover.state["legal"]["drafts"])["move"])
            seats[0].wait_for(lambda s, v=state["version"]: s["version"] > v)
        placing = view["placing"]
        chooser = seats[placing["seat"]]
        chooser.wait_for(lambda s: s["version"] >= state["version"])
        chooser.move("1B1")
        columns = ", ".join(str(c + 1) for c in placing["columns"])
        assert chooser.refused()["reason"].startswith(
            f"a wall column is asked for now: the {placing['colour']} tile of line {placing['row'] + 1} "
            f"goes to column {columns} (e.g. w{placing['row'] + 1}:{placing['columns'][0] + 1})")
        column = placing["columns"][-1]
        chooser.move(str(column + 1))   # the column alone: the terminal client sends that
        after = chooser.wait_for(lambda s: s["version"] > state["version"])
        assert after["last"]["move"] == f"w{placing['row'] + 1}:{column + 1}"


# ---------------------------------------------------------------- several server processes on one store


class SharedStore(SQLiteStore):
    """One server's connection to a store other servers share, the way PostgreSQL is shared
    (``store_postgres``): the tables in one SQLite file; the notices of moves and of who is
    connected where pass through a ``Hub`` between the servers of a test."""

    shared = True

    def __init__(self, path, hub: Hub):
        super().__init__(path)
        self.hub = hub
        self.notices: queue.Queue = queue.Queue()
        #: True while this server's listening connection is lost: it hears nothing
        self.deaf = False
        #: the server listens (``changes``)
        self.listening = False
        hub.stores.append(self)

    def lose_notices(self) -> None:
        """The listening connection is lost (until ``deaf`` is false again)."""
        self.deaf = True
        wait_until(lambda: not self.listening)

    def append(self, table_id, version, events, finished):
        taken = super().append(table_id, version, events, finished)
        if taken:
            self.hub.tell(self, (table_id, version + len(events)))
        return taken

    def set_presence(self, table_id, seat, clients):
        self.hub.presence[(id(self), table_id, seat)] = clients
        self.hub.tell(self, (table_id, None))

    def present_elsewhere(self, table_id):
        return {seat for (owner, table, seat), clients in list(self.hub.presence.items())
                if owner != id(self) and table == table_id and clients}

    async def changes(self):
        if self.deaf:
            raise ConnectionError("the store is out of reach")
        while not self.notices.empty():  # a new connection hears nothing said before it
            self.notices.get_nowait()
        self.listening = True
        try:
            yield None
            while not self.deaf:
                try:
                    notice = self.notices.get_nowait()
                except queue.Empty:
                    await asyncio.sleep(0.01)
                    continue
                yield notice
        finally:
            self.listening = False
        raise ConnectionError("lost the store's notices")


class Hub:
    """What the servers of one shared store tell each other."""

    def __init__(self):
        self.stores: list[SharedStore] = []
        #: (store, table, seat) -> that server's clients of the seat
        self.presence: dict[tuple, int] = {}
        #: table -> the store whose server holds its bot's turn (for stores that claim it)
        self.claims: dict[str, SharedStore] = {}

    def tell(self, sender: SharedStore, notice) -> None:
        for store in self.stores:
            if store is not sender and not store.deaf:
                store.notices.put(notice)


@pytest.fixture
def shared(tmp_path, catalog, monkeypatch):
    """``start(deaf=False, **options)``: a server on the test's shared store (deaf: it hears no
    notices), as a context manager."""
    monkeypatch.setattr(store_module, "_hold_lock", lambda path: None)  # one file, several servers
    hub = Hub()

    @contextlib.contextmanager
    def start(deaf=False, **options):
        store = SharedStore(tmp_path / "data" / "tables.sqlite3", hub)
        store.deaf = deaf
        with serving(make_config(tmp_path, **options), catalog, store) as served:
            yield served
    start.hub = hub
    return start


def presence_of(seat: Seat, expected: list[bool]) -> None:
    """Wait until ``seat`` is told that the seats connected are ``expected``."""
    while not ((message := seat.next_message())["type"] == "presence" and message["connected"] == expected):
        pass


def wait_until(condition, seconds: float = TIMEOUT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.01)


def test_a_move_through_one_server_is_told_to_the_clients_of_another(shared, caplog):
    with shared() as (a, _server_a), shared(bot_delay=3600) as (b, _server_b):
        created = create(a).json()
        north = join(a, created, 0)
        Seat(a, created["table"], secret_of(created["watch_url"]))  # a watcher there: at no seat
        east = join(b, created, 1)
        assert [seat["connected"] for seat in east.state["view"]["seats"]] == [True, True]
        presence_of(north, [True, True])  # East came to the other server
        version = north.state["version"]
        north.move(a_draft(north.state))
        after = north.wait_for(lambda s: s["version"] > version)
        told = east.wait_for(lambda s: s["version"] >= after["version"])
        assert told["version"] == after["version"]
        assert told["view"] == after["view"] and told["last"] == after["last"] and told["legal"]
        east.move(a_draft(told))  # and back
        answered = east.wait_for(lambda s: s["version"] > told["version"])
        heard = north.wait_for(lambda s: s["version"] >= answered["version"])
        assert heard["view"] == answered["view"] and heard["last"]["seat"] == 1
        north.close()  # North leaves the first server; its watcher stays
        presence_of(east, [False, True])
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        assert a.post(f"/api/tables/{created['table']}/seats/0/bot", json={"bot": "random"},
                      headers=admin).status_code == 200
        # the seat handed to the bot, and the bot's move (told at once or one after the other)
        east.wait_for(lambda s: s["view"]["seats"][0]["bot"] == "random" and s["last"]["seat"] == 0)
    # Every notice was heard as it came: the server never had to listen again.
    assert "lost the store's notifications" not in caplog.text


def test_a_server_that_lost_the_stores_notices_catches_up_when_it_hears_again(shared, caplog):
    with shared() as (a, _server_a), shared() as (b, server_b):
        created = a.post("/api/tables", json={"variant": "standard", "seats": [{"name": "North"}, {"name": "East"}],
                                              "clock": {"mode": "game", "seconds": 3600}}).json()
        north = join(a, created, 0)
        east = join(b, created, 1)
        north.wait_for(lambda s: s["version"] >= east.state["version"])  # East's arrival (a clocked table)
        server_b.store.lose_notices()
        version = north.state["version"]
        north.move(a_draft(north.state))
        after = north.wait_for(lambda s: s["version"] > version)
        north.close()
        wait_until(lambda: shared.hub.presence[(id(_server_a.store), created["table"], 0)] == 0)
        east.quiet()  # nothing heard meanwhile
        assert east.state["version"] == version
        server_b.store.deaf = False
        told = east.wait_for(lambda s: s["version"] >= after["version"])
        assert told["version"] == after["version"] and told["last"] == after["last"]
        presence_of(east, [False, True])
    assert "lost the store's notifications (lost the store's notices): listening again" in caplog.messages


def test_a_server_deaf_to_the_stores_notices_still_looks_at_it_now_and_then(shared, monkeypatch, caplog):
    monkeypatch.setattr(app_module, "SHARED_REFRESH", 0.05)
    with shared() as (a, server_a), shared(deaf=True) as (b, server_b):
        gone = create(a).json()
        join(b, gone, 1).close()  # a table the second server holds, then deleted (another server purged it)
        server_a.store.db.execute("DELETE FROM tables WHERE id = ?", (gone["table"],))
        looks = []
        versions = server_b.store.versions

        def failing_once(table_ids):  # the store fails once: the server looks again later
            looks.append(table_ids)
            if len(looks) == 1:
                raise OSError("the database went away")
            return versions(table_ids)

        monkeypatch.setattr(server_b.store, "versions", failing_once)
        created = create(a).json()
        east = join(b, created, 1)
        north = join(a, created, 0)
        presence_of(east, [True, True])
        version = north.state["version"]
        north.move(a_draft(north.state))
        after = north.wait_for(lambda s: s["version"] > version)
        told = east.wait_for(lambda s: s["version"] >= after["version"])
        assert told["version"] == after["version"] and told["last"] == after["last"]
    assert "could not look at the shared store (the database went away)" in caplog.messages


def test_a_move_another_server_took_first_is_refused_and_the_table_caught_up(shared):
    with shared() as (a, _server_a), shared() as (b, server_b):
        created = create(a).json()
        north = join(a, created, 0)
        north_there, east_there = join(b, created, 0), join(b, created, 1)  # North's seat open on both
        server_b.store.lose_notices()
        version = north.state["version"]
        north.move(a_draft(north.state))
        after = north.wait_for(lambda s: s["version"] > version)
        north_there.move(a_draft(north_there.state), version)  # its copy is still at that version
        assert north_there.refused()["reason"] == "the table has moved on: look again"
        caught_up = north_there.wait_for(lambda s: s["version"] >= after["version"])
        assert caught_up["version"] == after["version"] and caught_up["last"] == after["last"]
        # The second server's store still takes writes after the one it refused.
        east_there.wait_for(lambda s: s["version"] >= after["version"])
        east_there.move(a_draft(east_there.state))
        assert north.wait_for(lambda s: s["version"] > after["version"])["last"]["seat"] == 1


def test_a_seat_handed_to_a_bot_after_another_servers_move_is_refused_and_can_be_asked_again(shared):
    with shared() as (a, _server_a), shared(bot_delay=3600) as (b, server_b):
        created = create(a).json()
        north, east_there = join(a, created, 0), join(b, created, 1)
        server_b.store.lose_notices()
        version = north.state["version"]
        north.move(a_draft(north.state))
        after = north.wait_for(lambda s: s["version"] > version)
        path = f"/api/tables/{created['table']}/seats/1/bot"
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        refused = b.post(path, json={"bot": "random"}, headers=admin)
        assert refused.status_code == 409 and refused.json()["error"] == "the table has moved on: try again"
        assert east_there.wait_for(lambda s: s["version"] >= after["version"])["last"] == after["last"]
        assert b.post(path, json={"bot": "random"}, headers=admin).status_code == 200
        assert north.wait_for(lambda s: s["view"]["seats"][1]["bot"] == "random")["version"] == after["version"] + 1


# ---------------------------------------------------------------- slow clients, unknown addresses, bugs


def stuck_for_watchers(monkeypatch) -> None:
    """Watchers' sockets take nothing more from now on: their messages pile up in their queues."""
    writing = app_module._write

    async def stuck(client):
        if client.seat is None:
            await asyncio.Event().wait()
        await writing(client)

    monkeypatch.setattr(app_module, "_write", stuck)


def full_watcher(table):
    """The table's watcher, once its socket has said hello, with its queue filled (here, not by
    answers to pings that may still be coming)."""
    wait_until(lambda: any(c.seat is None for c in list(table.clients)))
    watcher = next(c for c in list(table.clients) if c.seat is None)
    while not watcher.outbox.full():
        watcher.outbox.put_nowait('{"type":"pong"}')
    return watcher


@pytest.mark.parametrize("overflow", ["a move", "a seat coming"])
def test_a_client_that_does_not_keep_up_is_closed_and_the_others_play_on(tmp_path, catalog, monkeypatch, overflow):
    stuck_for_watchers(monkeypatch)
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "secret": secret_of(created["watch_url"])})
            for _ in range(300):  # each answered with a pong that waits in its queue
                ws.send_json({"type": "ping"})
            table = server.tables[created["table"]]
            wait_until(lambda: any(c.seat is None and c.outbox.full() for c in list(table.clients)))
            if overflow == "a move":  # told to every client (``broadcast``)
                version = north.state["version"]
                north.move(a_draft(north.state))
                assert east.wait_for(lambda s: s["version"] > version)["last"]["seat"] == 0
            else:  # who is connected, told to every client (``tell_presence``)
                join(client, created, 1)
            with pytest.raises(Exception) as caught:
                receive(ws, 5)
            assert getattr(caught.value, "code", None) == 1013
            assert None not in {c.seat for c in table.clients}  # let go of; the seats are still served


def test_an_unknown_address_is_a_page_for_a_person_and_json_for_the_api(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        page = client.get("/no/such/page")
        assert page.status_code == 404 and page.headers["content-type"] == "text/html; charset=utf-8"
        assert page.text == (app_module.TEMPLATES / "not-found.html").read_text(encoding="utf-8")
        for path in ("/api/no/such/thing", "/static/no-such-file.css"):
            answer = client.get(path)
            assert answer.status_code == 404 and answer.json() == {"error": "no such address"}, path


def test_a_bug_answers_500_in_json(tmp_path, catalog, monkeypatch):
    with serving(make_config(tmp_path), catalog, raise_server_exceptions=False) as (client, server):
        def broken():
            raise RuntimeError("a bug")
        monkeypatch.setattr(server.catalog, "describe", broken)
        answer = client.get("/api/variants")
        assert answer.status_code == 500 and answer.json() == {"error": "the server failed on this request"}


def test_a_write_the_store_failed_halfway_leaves_nothing_behind_and_the_next_one_is_taken(tmp_path, catalog):
    config = make_config(tmp_path)
    with serving(config, catalog) as (client, server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        version = north.state["version"]
        # The table's version is updated, then writing its events fails (a full disk, say).
        server.store.db.execute("CREATE TEMP TRIGGER full_disk BEFORE INSERT ON events "
                                "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        north.move(a_draft(north.state))
        assert north.refused()["reason"] == "the server could not store the move: try again"
        server.store.db.execute("DROP TRIGGER full_disk")
        east.quiet()
        assert east.state["version"] == version
        north.quiet()
        north.move(a_draft(north.state))  # the disk has room again: taken
        assert east.wait_for(lambda s: s["version"] > version)["version"] == version + 1
    with serving(config, catalog) as (client, _server):  # and what is stored is the same
        assert join(client, created, 1).state["version"] == version + 1


def test_azul_serve_names_where_it_keeps_the_tables_and_takes_requests_from_its_public_url(
        tmp_path, monkeypatch, capsys):
    import uvicorn

    from azul_core.web import serving as serving_module
    answers = []

    def run(self, sockets=None):  # in place of serving: requests as a proxy passes them on
        with TestClient(self.config.app, base_url="http://127.0.0.1:8000") as client:
            for origin in ("https://azul.example.org", "https://azul.example.org:8443"):
                answers.append(create(client, Origin=origin).status_code)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(serving_module, "_tune_garbage_collector", lambda: None)  # not in a test process
    monkeypatch.setattr(serving_module.socket, "getfqdn", lambda: "localhost")  # no name lookup
    options = serving_module.ServeOptions(make_config(tmp_path), port=0, public_url="https://azul.example.org/azul/")
    assert serving_module.serve(options) == 0
    assert answers == [201, 403]  # the public address's pages, and not another port of it
    assert f"tables kept in {tmp_path / 'data' / 'tables.sqlite3'}. Ctrl-C stops." in capsys.readouterr().out


def test_a_missing_page_file_is_a_500_that_names_it(tmp_path, catalog, monkeypatch):
    monkeypatch.setattr(app_module, "TEMPLATES", tmp_path / "no-templates")  # an installation without its pages
    with serving(make_config(tmp_path), catalog) as (client, _server):
        answer = client.get("/")
        assert answer.status_code == 500 and answer.text == "the page home.html is not installed"
