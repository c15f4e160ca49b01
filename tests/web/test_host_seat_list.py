"""The creator's new link for any seat (issue 42): a friend lost their link, so the creator's
page makes a new one for that seat with the admin secret. The old link stops opening the table
and its open pages close, on every server process; another seat's link and the watch link may
not ask for it, and the new secret goes to the asker alone. The page's list is tested in
Chromium in test_browser_host_seats.py."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from seats_helpers import Page, bearer, create, seats_config, secrets_of, serving  # noqa: E402
from test_rematch import finish_by_bots  # noqa: E402
from test_server import secret_of  # noqa: E402


def new_link(client, table: str, seat: int, secret: str):
    return client.post(f"/api/tables/{table}/seats/{seat}/link", json={}, headers=bearer(secret))


def refused_with(client, table: str, secret: str) -> str:
    """The reason the server gives a page opened with ``secret``."""
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "secret": secret, "version": None})
        return ws.receive_json()["reason"]


def test_the_creator_makes_a_new_link_for_a_friend_s_seat(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client).json()
        table = created["table"]
        secrets = secrets_of(created)
        east = Page(client, table, secrets[1])
        north = Page(client, table, secrets[0])
        answer = new_link(client, table, 1, created["admin_secret"])
        assert answer.status_code == 200 and answer.json()["seat"] == 1
        fresh = secret_of(answer.json()["url"])
        assert answer.json()["url"] == f"http://testserver/t/{table}#seat={fresh}" and fresh != secrets[1]
        # East's page opened with the old link is closed, saying why; North's hears the new
        # version and never the new secret.
        while (message := east.receive())["type"] != "error":
            pass
        assert message["reason"] == "this seat has a new link: open that one"
        north.wait(lambda p: p.state["version"] >= server.tables[table].version)
        assert fresh not in str(north.state) + str(north.seating)
        assert "secret is wrong" in refused_with(client, table, secrets[1])
        assert Page(client, table, fresh).state["you"] == 1
        # The creator's own link is untouched.
        assert Page(client, table, secrets[0]).state["you"] == 0


def test_only_the_creator_or_the_seat_itself_asks_for_a_seat_s_new_link(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"name": "South"}]).json()
        table = created["table"]
        secrets = secrets_of(created)
        version = server.tables[table].version
        for other in (secrets[0], secrets[2], secret_of(created["watch_url"]), "a-guess", ""):
            answer = new_link(client, table, 1, other)
            assert answer.status_code == 401
            assert answer.json() == {"error": "only the seat's own link or the creator's asks for a new one: "
                                              "send its secret as 'Authorization: Bearer SECRET'"}
        assert server.tables[table].version == version  # nothing stored
        assert Page(client, table, secrets[1]).state["you"] == 1  # East's link still opens the seat
        assert new_link(client, table, 1, secrets[1]).status_code == 200


def test_a_seat_made_for_a_bot_gets_no_link(tmp_path, catalog):
    """A link to a seat made for a bot would let a person take the bot's seat over."""
    with serving(seats_config(tmp_path / "data", bot_delay=3600), catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"bot": "greedy"}]).json()
        table = created["table"]
        version = server.tables[table].version
        answer = new_link(client, table, 1, created["admin_secret"])
        assert answer.status_code == 409
        assert answer.json() == {"error": "seat 2 was made for a bot: it has no link"}
        assert server.tables[table].version == version


def test_the_new_link_of_a_seat_a_bot_plays_takes_the_seat_back(tmp_path, catalog):
    """The creator handed a friend's seat to a bot after the friend lost the link: the new link
    takes it back, the old one no longer can."""
    with serving(seats_config(tmp_path / "data", bot_delay=3600), catalog) as (client, _server):
        created = create(client).json()
        table = created["table"]
        secrets = secrets_of(created)
        admin = bearer(created["admin_secret"])
        assert client.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "greedy"}, headers=admin).status_code == 200
        fresh = secret_of(new_link(client, table, 1, created["admin_secret"]).json()["url"])
        reclaim = f"/api/tables/{table}/seats/1/reclaim"
        assert client.post(reclaim, json={}, headers=bearer(secrets[1])).status_code == 401
        assert client.post(reclaim, json={}, headers=bearer(fresh)).json() == {"seat": 1, "bot": None}


def test_no_new_link_from_the_creator_at_a_finished_table(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        created = create(client).json()
        secrets = secrets_of(created)
        finish_by_bots(client, created, [Page(client, created["table"], secrets[0])])
        answer = new_link(client, created["table"], 1, created["admin_secret"])
        assert answer.status_code == 409
        assert answer.json() == {"error": "the game is over: ask for a new link at the rematch's table"}
        assert Page(client, created["table"], secrets[1]).state["you"] == 1


def test_the_creator_s_new_link_closes_the_old_one_on_every_server_process(tmp_path, catalog, postgres):
    """Two server processes on one PostgreSQL (two servers in this process, each with its own
    store and notifications): the creator makes East's new link through the first; East's pages
    opened with the old link are closed on both, and the old link opens the table on neither."""
    from starlette.websockets import WebSocketDisconnect

    with serving(seats_config(tmp_path / "a", database_url=postgres), catalog) as (first, _first_server), \
            serving(seats_config(tmp_path / "b", database_url=postgres), catalog) as (second, _second_server):
        created = create(first).json()
        table = created["table"]
        secrets = secrets_of(created)
        east_here = Page(first, table, secrets[1])
        east_there = Page(second, table, secrets[1])
        answer = new_link(first, table, 1, created["admin_secret"])
        assert answer.status_code == 200
        for page in (east_here, east_there):
            while (message := page.receive())["type"] != "error":
                pass
            assert message["reason"] == "this seat has a new link: open that one"
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(20):  # an update sent before the close may still come first
                    page.receive()
            assert closed.value.code == 4401
        for client in (first, second):
            assert "secret is wrong" in refused_with(client, table, secrets[1])
        assert Page(second, table, secret_of(answer.json()["url"])).state["you"] == 1
