"""Tests for mutants of the table server that survived the web scope's mutation run
(bench/mutation.py): a request without a Host header, a move at a finished table, the
search-bot limit of each address, the hourly table limit when many addresses are
remembered, and a purge the store failed halfway; then the tenth run's: the last move told
after a seat event, a plugin move with no label, a bot seat's name, the hour and the
10,000 addresses at their bounds, the search bots' think time, an Origin with no Host, and
a late catch-up after the server closed."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

pytest.importorskip("starlette")

from test_guard_server import (  # noqa: E402  (pytest puts this folder on sys.path)
    TestClient,
    a_draft,
    create,
    join,
    make_config,
    serving,
)
from test_guard_server_mutants import SEARCH_LIMIT, hand  # noqa: E402

from azul_core.web import app as app_module  # noqa: E402
from azul_core.web.app import create_app  # noqa: E402


def call_asgi(app, scope: dict, incoming: list[dict]) -> list[dict]:
    """What ``app`` sends for ``scope`` when the client sends ``incoming`` (then disconnects)."""
    sent: list[dict] = []
    pending = list(incoming)

    async def receive():
        if pending:
            return pending.pop(0)
        return {"type": "http.disconnect" if scope["type"] == "http" else "websocket.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def scope_of(kind: str, path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    scope = {"type": kind, "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "http" if kind == "http" else "ws",
             "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "headers": headers, "client": ("192.0.2.1", 50000), "server": ("192.0.2.9", 80)}
    if kind == "http":
        scope["method"] = "GET"
    else:
        scope["subprotocols"] = []
    return scope


# ---------------------------------------------------------------- HostGuard


def test_a_request_without_a_host_header_is_refused_and_is_no_server_error(tmp_path, catalog):
    app = create_app(make_config(tmp_path, allowed_hosts=("azul.example",)), catalog)
    http_request = [{"type": "http.request", "body": b"", "more_body": False}]
    # The same request naming an allowed host is served: the scope itself is sound.
    named = call_asgi(app, scope_of("http", "/api/variants", [(b"host", b"azul.example")]), http_request)
    assert named[0]["type"] == "http.response.start" and named[0]["status"] == 200

    sent = call_asgi(app, scope_of("http", "/api/variants", [(b"accept", b"*/*")]), http_request)
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 421
    body = b"".join(m.get("body", b"") for m in sent[1:] if m["type"] == "http.response.body")
    assert body == b'{"error":"this server does not answer to that host name"}'

    handshake = call_asgi(app, scope_of("websocket", "/ws/some-table", [(b"origin", b"http://azul.example")]),
                          [{"type": "websocket.connect"}])
    assert handshake == [{"type": "websocket.close", "code": 4403}]


# ---------------------------------------------------------------- a finished game


def test_a_move_at_a_finished_table_is_refused_because_the_game_is_over(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client, seats=[{"name": "North"}, {"bot": "random"}]).json()
        north = join(client, created, 0)
        # North hands its own seat to a bot too: the bots play the game to its end.
        assert hand(client, created, 0, {"bot": "random"}).status_code == 200
        north.wait_for(lambda state: state["view"]["phase"] == "over")
        north.move("2R4")
        refusal = north.refused()
        assert refusal == {"type": "refused", "move": "2R4", "version": north.state["version"],
                           "reason": "the game is over"}


# ---------------------------------------------------------------- limits per address


def test_an_address_at_its_search_bot_limit_leaves_other_addresses_free_to_hand_seats_to_one(tmp_path, catalog):
    people = [{"name": "Ana"}, {"name": "Bo"}]  # seat 0, a person, moves first: no search bot thinks
    config = make_config(tmp_path, search_tables_per_address=1)
    with serving(config, catalog, client=("192.0.2.1", 50000)) as (client, server):
        first = create(client, seats=people).json()
        assert hand(client, first, 1, {"bot": "mcts"}).status_code == 200
        second = create(client, seats=people).json()
        refused = hand(client, second, 1, {"bot": "mcts"})
        assert (refused.status_code, refused.json()) == (429, {"error": SEARCH_LIMIT})

        other = TestClient(client.app, client=("192.0.2.2", 50000))
        theirs = create(other, seats=people).json()
        answer = hand(other, theirs, 1, {"bot": "mcts"})
        assert (answer.status_code, answer.json()) == (200, {"seat": 1, "bot": "mcts"})
        assert server.table(theirs["table"]).seats[1].bot == "mcts"
        # ... and the first address is held at its limit all the same.
        assert hand(client, second, 1, {"bot": "mcts"}).status_code == 429


def test_an_address_at_its_hourly_limit_stays_refused_when_idle_addresses_are_forgotten(tmp_path, catalog):
    config = make_config(tmp_path, tables_per_hour=2)
    with serving(config, catalog, client=("192.0.2.1", 50000)) as (client, server):
        assert [create(client).status_code for _ in range(2)] == [201, 201]
        # More than 10000 addresses remembered, none of them with a recent table.
        for n in range(10001):
            assert not server.created_by[f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"]
        # A table from another address: the server forgets the idle addresses on the way.
        other = TestClient(client.app, client=("192.0.2.2", 50000))
        assert create(other).status_code == 201
        answer = create(client)
        assert (answer.status_code, answer.json()) == (429, {"error": "2 tables an hour from one address: "
                                                                      "try again later"})
        assert set(server.created_by) == {"192.0.2.1", "192.0.2.2"}


# ---------------------------------------------------------------- a purge that fails


def test_a_purge_the_store_failed_halfway_deletes_nothing_and_the_next_writes_are_taken(tmp_path, catalog, caplog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        idle = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        version = north.state["version"]
        db = server.store.db
        db.execute("UPDATE tables SET updated = updated - ?", (31 * 86400,))  # both idle past 30 days
        # The first table is deleted, then the second one's delete fails (a full disk, say).
        db.execute("CREATE TEMP TRIGGER full_disk BEFORE DELETE ON tables "
                   "WHEN (SELECT COUNT(*) FROM tables) < 2 "
                   "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        with caplog.at_level(logging.ERROR, logger="azul.web"):
            server.tidy(time.monotonic() - app_module.PURGE_EVERY - 1)  # housekeeping's purge is due
        assert "purging old tables failed: IntegrityError: database or disk is full" in caplog.messages
        db.execute("DROP TRIGGER full_disk")
        assert sorted(server.store.table_ids()) == sorted([created["table"], idle["table"]])

        north.move(north.state["legal"]["drafts"][0]["move"])
        assert east.wait_for(lambda state: state["version"] > version)["version"] == version + 1
        assert create(client).status_code == 201
        assert len(server.store.table_ids()) == 3


# ---------------------------------------------------------------- the tenth run's survivors


def test_the_last_move_is_still_told_after_a_seat_is_handed_to_a_bot(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        north.move(a_draft(north.state))
        moved = east.wait_for(lambda state: state["last"] is not None)
        # North's seat (not the one to move) goes to a bot: a seat event, not a move.
        assert hand(client, created, 0, {"bot": "random"}).status_code == 200
        after = east.wait_for(lambda state: state["version"] > moved["version"])
        assert after["last"] == moved["last"] and after["last"]["seat"] == 0


HUSH = '''"""A move with no label: the table tells it in its own words."""
from azul_core import hookimpl
from azul_core.rules import Move, Outcome

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_declare_moves():
    return [Move("hush")]


@hookimpl
def azul_offer_moves(stage):
    return [Move("hush")] if stage == "turn" else None


@hookimpl
def azul_apply_move():
    return Outcome()
'''


def test_a_plugin_move_declared_without_a_label_is_told_as_plays_with_its_notation(tmp_path):
    from azul_core.web.catalog import build_catalog

    folder = tmp_path / "hush"
    folder.mkdir()
    (folder / "hush.py").write_text(HUSH)
    (folder / "hush.yaml").write_text("name: hush\ndescription: Standard Azul with a move that does nothing.\n"
                                      "extends: standard\nplugins: [standard, colour_wall, hush.py]\n")
    catalog = build_catalog([folder])
    assert "hush" in catalog.variants, catalog.problems
    config = make_config(tmp_path)
    config.variant_dirs = (folder,)
    with serving(config, catalog) as (client, _server):
        created = create(client, variant="hush").json()
        north = join(client, created, 0)
        north.move("+hush")
        told = north.wait_for(lambda state: state["last"] is not None)["last"]
        assert told == {"seat": 0, "move": "+hush", "text": "North: plays (+hush)"}


def test_a_bot_seats_name_is_checked_and_the_error_names_its_seat(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        answer = create(client, seats=[{"name": "North"}, {"bot": "random", "name": "r" * 33}])
        assert (answer.status_code, answer.json()) == (400, {"error": "seat 2: a name has at most 32 characters"})
        named = create(client, seats=[{"name": "North"}, {"bot": "random", "name": "r" * 32}])
        assert named.status_code == 201 and named.json()["seats"][1]["name"] == "r" * 32


@pytest.mark.parametrize(("age", "counts"), [(3599.5, True), (3600.5, False)])
def test_a_table_counts_toward_the_hourly_limit_for_one_hour(tmp_path, catalog, age, counts):
    config = make_config(tmp_path, tables_per_hour=1)
    with serving(config, catalog, client=("192.0.2.1", 50000)) as (client, server):
        assert create(client).status_code == 201
        server.created_by["192.0.2.1"][0] = time.monotonic() - age  # created that long ago
        answer = create(client)
        assert answer.status_code == (429 if counts else 201), answer.json()


@pytest.mark.parametrize(("remembered", "forgotten"), [(10000, False), (10001, True)])
def test_idle_addresses_are_forgotten_once_more_than_ten_thousand_are_remembered(tmp_path, catalog,
                                                                                 remembered, forgotten):
    config = make_config(tmp_path, tables_per_hour=5)
    with serving(config, catalog, client=("192.0.2.1", 50000)) as (client, server):
        assert create(client).status_code == 201
        for n in range(remembered - 1):  # with 192.0.2.1 itself, ``remembered`` addresses
            assert not server.created_by[f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"]
        assert create(client).status_code == 201
        assert len(server.created_by) == (1 if forgotten else remembered)
        assert len(server.created_by["192.0.2.1"]) == 2


def test_search_bots_think_as_long_as_the_server_was_told(tmp_path, catalog, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from azul_core.web import bots

    asked: list = []
    real_think = bots.think

    def think(variant_ref, record, bot, seed, think_time, *sealed):
        asked.append((bot, think_time))
        return real_think(variant_ref, record, bot, seed, think_time, *sealed)

    pool = ThreadPoolExecutor(1)  # in this process, so that ``think`` above is the one called
    monkeypatch.setattr(bots, "think", think)
    monkeypatch.setattr(bots.BotPool, "_pool", lambda self: pool)
    try:
        with serving(make_config(tmp_path, think=0.02), catalog) as (client, _server):
            created = create(client, seats=[{"bot": "mcts"}, {"name": "East"}]).json()
            east = join(client, created, 1)
            east.wait_for(lambda state: state["last"] is not None and state["last"]["seat"] == 0)
    finally:
        pool.shutdown()
    assert asked and set(asked) == {("mcts", 0.02)}


def test_an_origin_is_refused_when_the_request_names_no_host(tmp_path, catalog):
    body = b'{"variant": "standard", "seats": [{"name": "North"}, {"name": "East"}]}'
    with serving(make_config(tmp_path), catalog) as (client, server):
        def post(headers):
            scope = scope_of("http", "/api/tables", [(b"content-type", b"application/json"), *headers])
            scope["method"] = "POST"
            sent = call_asgi(client.app, scope, [{"type": "http.request", "body": body, "more_body": False}])
            return sent[0]["status"]

        assert post([(b"host", b"azul.example"), (b"origin", b"http://azul.example")]) == 201
        assert post([(b"origin", b"http://none")]) == 403
        assert post([(b"origin", b"http://")]) == 403
        assert post([(b"origin", b"http://xxxx")]) == 403
        assert server.store.open_tables() == 1


def test_a_server_that_has_closed_catches_up_with_nothing(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        table = server.table(create(client).json()["table"])
    assert server.store is None
    assert server.catch_up(table) is False
