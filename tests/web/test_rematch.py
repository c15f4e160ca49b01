"""The rematch: one click at the end makes a new table with the same seats, bots, variant and
clock; every link of the finished table opens the same seat there (no secret is made or sent);
every page of the finished table is told; asking twice makes one table."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from seats_helpers import FakeClock, Page, bearer, call, create, post, screenshot, seats_config, secrets_of, serving  # noqa: E402
from test_browser import DESKTOP, PHONE, Person, browser, errors, server, shots  # noqa: E402
from test_server import secret_of  # noqa: E402

from azul_core.web.table import Table  # noqa: E402

#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)


def rematch(client, table, secret):
    return client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(secret))


def finish_by_bots(client, created, pages):
    """The creator hands every person's seat to a bot, which play the game to its end."""
    for entry in created["seats"]:
        if entry["url"]:
            answer = client.post(f"/api/tables/{created['table']}/seats/{entry['seat']}/bot",
                                 json={"bot": "random"}, headers=bearer(created["admin_secret"]))
            assert answer.status_code == 200
    for page in pages:
        page.wait(lambda p: p.state["view"]["phase"] == "over")


def test_a_rematch_keeps_the_seats_and_every_link_and_is_made_once(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data", FakeClock()), catalog) as (client, server):
        created = create(client, variant="grey-wall", seats=[{"name": "North"}, {"name": "East"}, {"bot": "greedy"}],
                         clock={"mode": "move", "seconds": 90, "bot": "random"}).json()
        table = created["table"]
        secrets = secrets_of(created)
        watch = secret_of(created["watch_url"])
        north = Page(client, table, secrets[0])
        east = Page(client, table, secrets[1])
        watcher = Page(client, table, watch)
        # Not before the end; never from a link that only watches.
        assert rematch(client, table, secrets[0]).status_code == 409
        finish_by_bots(client, created, [north, east, watcher])
        server.config.bot_delay = 3600  # the rematch's bots wait: its game stays at its start
        assert rematch(client, table, watch).status_code == 401
        assert rematch(client, table, "nonsense").status_code == 401
        assert client.post(f"/api/tables/{table}/rematch", json={},
                           headers=bearer(secrets[0]) | {"Origin": "http://evil.example"}).status_code == 403
        made_before = server.store.tables_created()
        answer = rematch(client, table, secrets[1])
        assert answer.status_code == 201
        new = answer.json()["table"]
        assert new != table and answer.json()["url"] == f"/t/{new}"
        # Asked again (a second click, another seat, the creator): the same table, made once.
        for secret in (secrets[1], secrets[0], created["admin_secret"]):
            again = rematch(client, table, secret)
            assert again.status_code == 200 and again.json()["table"] == new
        assert server.store.tables_created() == made_before + 1
        # Every page of the finished table is told, and so is a page opened later.
        for page in (north, east, watcher):
            page.wait(lambda p: p.seating["rematch"] == new)
        assert Page(client, table, watch).seating["rematch"] == new
        # The same links open the same seats at the new table: seats, bots, variant, clock.
        north2 = Page(client, new, secrets[0])
        east2 = Page(client, new, secrets[1])
        watcher2 = Page(client, new, watch)
        assert (north2.state["you"], east2.state["you"], watcher2.state["you"]) == (0, 1, None)
        view = north2.state["view"]
        assert view["variant"] == "grey-wall" and view["phase"] == "draft"
        assert [s["name"] for s in view["seats"]] == ["North", "East", "greedy"]
        # The seats the bots played at the end start with them; their owners may take them back.
        assert [s["bot"] for s in view["seats"]] == ["random", "random", "greedy"]
        assert [s["reclaimable"] for s in north2.seating["seats"]] == [True, True, False]
        assert north2.seating["clock"]["mode"] == "move" and north2.seating["clock"]["seconds"] == 90
        answer = client.post(f"/api/tables/{new}/seats/0/reclaim", json={}, headers=bearer(secrets[0]))
        assert answer.status_code == 200
        # The creator's link is the creator's there too.
        assert client.post(f"/api/tables/{new}/seats/0/bot", json={"bot": "greedy"},
                           headers=bearer(created["admin_secret"])).status_code == 200
        # No secret travels: nothing any page was told holds one.
        for page in (north, east, watcher):
            assert all(secret not in str(page.seating) for secret in (*secrets.values(), watch))


def test_the_rematch_survives_a_restart(tmp_path, catalog):
    config = seats_config(tmp_path / "data")
    with serving(config, catalog) as (client, _server):
        created = create(client).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        finish_by_bots(client, created, [north])
        new = rematch(client, created["table"], secrets[0]).json()["table"]
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        assert Page(client, created["table"], secrets[1]).seating["rematch"] == new
        assert rematch(client, created["table"], secrets[1]).json()["table"] == new
        assert Page(client, new, secrets[1]).state["you"] == 1


@pytest.fixture(params=["sqlite", "postgres"])
def where(request):
    """SQLite in a folder, or a PostgreSQL schema of its own (when AZUL_TEST_POSTGRES_URL is set)."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres")}


def test_a_seat_s_owner_alone_gets_a_new_link_and_the_old_one_stops_opening_the_table(tmp_path, catalog, where):
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, _server):
        created = create(client).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        finish_by_bots(client, created, [north])
        _server.config.bot_delay = 3600  # the rematch's bots wait
        new = rematch(client, created["table"], secrets[0]).json()["table"]
        east = Page(client, new, secrets[1])
        north = Page(client, new, secrets[0])
        path = f"/api/tables/{new}/seats/1/link"
        # Another seat's and the watch link can't; the creator's can (test_host_seat_list.py).
        for other in (secrets[0], secret_of(created["watch_url"])):
            assert client.post(path, json={}, headers=bearer(other)).status_code == 401
        answer = client.post(path, json={}, headers=bearer(secrets[1]))
        assert answer.status_code == 200 and answer.json()["seat"] == 1
        fresh = secret_of(answer.json()["url"])
        assert answer.json()["url"].startswith(f"http://testserver/t/{new}#seat=") and fresh != secrets[1]
        # East's open page (the old secret) is closed; the others hear the new version.
        while "error" not in east.kinds:
            east.receive()
        north.wait(lambda p: p.state["version"] >= _server.tables[new].version)
        assert fresh not in str(north.state) + str(north.seating)
        # At once, in the same server: the new link opens East's seat.
        assert Page(client, new, fresh).state["you"] == 1
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, _server):
        # Stored: after a restart, the new link opens East's seat, the old one only the old table.
        assert Page(client, new, fresh).state["you"] == 1
        assert Page(client, created["table"], secrets[1]).state["you"] == 1
        with client.websocket_connect(f"/ws/{new}") as ws:
            ws.send_json({"type": "hello", "secret": secrets[1], "version": None})
            assert "secret is wrong" in ws.receive_json()["reason"]


def test_a_new_link_closes_the_seat_s_pages_on_every_server_process(tmp_path, catalog, postgres):
    """Two server processes on one PostgreSQL (here two servers in this process, each with its own
    store and its own notifications): East makes a new link through the first; East's pages open
    with the old link are closed on both, a leaked link keeps playing on neither. North's page on
    the second stays and hears the new version."""
    from starlette.websockets import WebSocketDisconnect

    with serving(seats_config(tmp_path / "a", database_url=postgres), catalog) as (first, first_server), \
            serving(seats_config(tmp_path / "b", database_url=postgres), catalog) as (second, _second_server):
        created = create(first).json()
        table = created["table"]
        secrets = secrets_of(created)
        east_here = Page(first, table, secrets[1])
        east_there = Page(second, table, secrets[1])
        north_there = Page(second, table, secrets[0])
        answer = first.post(f"/api/tables/{table}/seats/1/link", json={}, headers=bearer(secrets[1]))
        assert answer.status_code == 200
        for page in (east_here, east_there):
            while (message := page.receive())["type"] != "error":
                pass
            assert message["reason"] == "this seat has a new link: open that one"
            with pytest.raises(WebSocketDisconnect) as closed:
                page.receive()
            assert closed.value.code == 4401
        north_there.wait(lambda p: p.state["version"] >= first_server.tables[table].version)
        for client in (first, second):
            with client.websocket_connect(f"/ws/{table}") as ws:
                ws.send_json({"type": "hello", "secret": secrets[1], "version": None})
                assert "secret is wrong" in ws.receive_json()["reason"]
        assert Page(second, table, secret_of(answer.json()["url"])).state["you"] == 1


def test_a_finished_table_changes_no_link(tmp_path, catalog):
    """A finished table's links stay as they are, said why (409): a link changed there would not
    be changed at a rematch made already, where the old one would go on opening the seat."""
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client).json()
        table = created["table"]
        secrets = secrets_of(created)
        north = Page(client, table, secrets[0])
        finish_by_bots(client, created, [north])
        version = server.tables[table].version
        answer = client.post(f"/api/tables/{table}/seats/1/link", json={}, headers=bearer(secrets[1]))
        assert answer.status_code == 409
        assert answer.json() == {"error": "the game is over: ask for a new link at the rematch's table"}
        assert server.tables[table].version == version  # nothing stored
        assert Page(client, table, secrets[1]).state["you"] == 1  # the link still opens the seat


def test_no_rematch_again_once_it_was_deleted_since_it_could_bring_back_a_replaced_link(tmp_path, catalog):
    """East's link leaked: East makes a new one at the rematch, which nobody opens within the hour,
    so it is deleted. Another rematch could only copy the finished table's hashes, the leaked
    link's among them: none is made (410, with the reason)."""
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client).json()
        table = created["table"]
        secrets = secrets_of(created)
        north = Page(client, table, secrets[0])
        finish_by_bots(client, created, [north])
        server.config.bot_delay = 3600  # the rematch's bots wait
        new = rematch(client, table, secrets[0]).json()["table"]
        assert client.post(f"/api/tables/{new}/seats/1/link", json={}, headers=bearer(secrets[1])).status_code == 200
        server.config.keep_unjoined_hours = 0
        assert call(client, server.purge) == 1
        assert server.table(new) is None and server.table(table) is not None
        made_before = server.store.tables_created()
        for secret in (secrets[1], secrets[0], created["admin_secret"]):
            again = rematch(client, table, secret)
            assert again.status_code == 410
            assert again.json() == {"error": "this table's rematch has been deleted: start a new table"}
        assert server.store.tables_created() == made_before


def test_a_rematch_deals_from_a_seed_of_its_own(tmp_path, catalog):
    """The rematch is a new game: not the finished table's seed (which would give the same first
    player, the same factories every round and the same secrets dealt)."""
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client, variant="secret-goal").json()
        table = created["table"]
        secrets = secrets_of(created)
        north = Page(client, table, secrets[0])
        finish_by_bots(client, created, [north])
        server.config.bot_delay = 3600  # the rematch stays at its first deal
        new = rematch(client, table, secrets[0]).json()["table"]
        finished, made = server.tables[table], server.tables[new]
        assert (finished.row.seed, made.row.seed) == ("seats-1", "seats-2")
        assert made.rounds[0].factories != finished.rounds[0].factories


def test_a_rematch_hands_to_a_bot_only_the_seats_of_people(tmp_path, catalog):
    """The seats the creator handed to a bot start the rematch with it, told in its log; the seat
    that was a bot from the start is simply a bot there too, nobody's seat handed over."""
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "greedy"}]).json()
        table = created["table"]
        secrets = secrets_of(created)
        north = Page(client, table, secrets[0])
        finish_by_bots(client, created, [north])
        server.config.bot_delay = 3600  # the rematch stays at its start
        new = rematch(client, table, secrets[0]).json()["table"]
        made = server.tables[new]
        assert [s.bot for s in made.seats] == ["random", "random", "greedy"]
        stored = Table.replay(*server.store.load(new), made.offered)  # as a restarted server reads it
        for log in (made.progress.log, stored.progress.log):
            assert [(entry["seat"], entry["text"]) for entry in log if entry.get("event") in ("bot", "standin")] == \
                [(0, "North's seat is played by the bot 'random' from now on"),
                 (1, "East's seat is played by the bot 'random' from now on")]


# ---------------------------------------------------------------- in a real browser


@pytest.mark.browser
def test_browser_every_open_page_is_offered_the_rematch(browser, server, shots, errors):
    """Bots finish the game; the host clicks Rematch (twice: one table is made) and lands at the
    new table in the same seat; the guest's page (a phone) and the watcher's are offered the new
    table with a button, and each lands there in its own seat."""
    table = server.create("standard", [{"name": "Host"}, {"name": "Guest"}, {"bot": "greedy"}])
    host = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"] + "&admin=" + table["admin_secret"],
                  "Host", errors)
    guest = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Guest", errors)
    watcher = Person(browser.new_context(viewport=DESKTOP), table["watch_url"], "watcher", errors)
    assert host.page.locator("#rematch-box").is_hidden()
    for seat in (0, 1):
        status, _ = post(server, f"/api/tables/{table['table']}/seats/{seat}/bot", {"bot": "random"},
                         table["admin_secret"])
        assert status == 200
    for person in (host, guest, watcher):
        person.page.wait_for_selector("#final-panel", timeout=120000)
    host.page.wait_for_selector("#rematch-box:not([hidden]) #rematch")
    guest.page.wait_for_selector("#rematch-box:not([hidden]) #rematch")
    assert watcher.page.locator("#rematch-box").is_hidden(), "a watch link can't ask for a rematch"
    # A finished table changes no link (the server refuses): the page does not offer it.
    assert host.page.locator("#seat-link").is_hidden() and guest.page.locator("#seat-link").is_hidden()
    screenshot(host.page, shots / "seats-rematch-offer.png", DESKTOP)
    old_url = host.page.url
    host.page.dblclick("#rematch")
    host.page.wait_for_url(lambda url: url != old_url and "/t/" in url, timeout=15000)
    new = host.page.url.split("/t/", 1)[1].split("#", 1)[0]
    assert new != table["table"] and host.page.url.endswith("#" + old_url.split("#", 1)[1]), \
        "the page moved over with its own fragment"
    host.page.wait_for_selector("body[data-version]")
    assert host.page.inner_text(".board.mine .player-name") == "Host"
    # The others are told, and offered the new table.
    for person in (guest, watcher):
        person.page.wait_for_selector("#rematch-box:not([hidden]) #rematch-go", timeout=15000)
    screenshot(guest.page, shots / "seats-rematch-ready-phone.png", PHONE)
    screenshot(guest.page, shots / "seats-rematch-ready.png", DESKTOP)
    for person, name in ((guest, "Guest"), (watcher, None)):
        person.page.click("#rematch-go")
        person.page.wait_for_url(f"**/t/{new}#*", timeout=15000)
        person.page.wait_for_selector("body[data-version]")
        if name:
            assert person.page.inner_text(".board.mine .player-name") == name
        else:
            assert person.page.evaluate("document.body.dataset.role") == "watcher"
    # At a table in play the guest makes a new link for the seat: the page opens the table with
    # it. (Not at the rematch: its seats are all bots', whose game may be over already.)
    playing = server.create("standard", [{"name": "Host"}, {"name": "Guest"}])
    guest = Person(browser.new_context(viewport=PHONE), playing["seats"][1]["url"], "Guest", errors)
    old_hash = guest.page.evaluate("location.hash")
    guest.page.click("#seat-link summary")
    guest.page.click("#new-link")
    guest.page.wait_for_function("h => location.hash !== h && location.hash.startsWith('#seat=')", arg=old_hash)
    guest.page.wait_for_selector("#connection[data-status='live']")
    assert guest.page.inner_text(".board.mine .player-name") == "Guest"
    # One table was made: asking again gives the same one.
    status, again = post(server, f"/api/tables/{table['table']}/rematch", {}, table["admin_secret"])
    assert status == 200 and again["table"] == new


def test_a_rematch_keeps_the_table_s_hints_setting(tmp_path, catalog):
    """The creator's choices go over with the seats: a table with hints gets a rematch with hints,
    kept in the store (seen again after a restart)."""
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        created = create(client, hints=True).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        finish_by_bots(client, created, [north])
        new = rematch(client, created["table"], secrets[0]).json()["table"]
        assert Page(client, new, secrets[0]).state["view"].get("hints") is True
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        assert Page(client, new, secrets[1]).state["view"].get("hints") is True
