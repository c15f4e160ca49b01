"""Taking a seat back from a bot: the banner on the player's page, one click with the seat's own
link, the bot stopping at once (even one already thinking), and the seat's owner kept across a
restart (the ``reclaim`` event, in SQLite and in PostgreSQL)."""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("starlette")

from seats_helpers import Page, bearer, call, create, seats_config, secrets_of, serving  # noqa: E402
from test_server import EXAMPLES  # noqa: E402

import azul_core.web.app as web_app  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402
from azul_core.web.storage import open_store  # noqa: E402
from azul_core.web.store import RECLAIM  # noqa: E402


@pytest.fixture(scope="module")
def catalog():
    return build_catalog([EXAMPLES])


def hand(client, created, seat, bot="greedy"):
    answer = client.post(f"/api/tables/{created['table']}/seats/{seat}/bot", json={"bot": bot},
                         headers=bearer(created["admin_secret"]))
    assert answer.status_code == 200, answer.text


def reclaim(client, created, seat, secret):
    return client.post(f"/api/tables/{created['table']}/seats/{seat}/reclaim", json={}, headers=bearer(secret))


@pytest.fixture(params=["sqlite", "postgres"])
def where(request, tmp_path):
    """SQLite in a folder, or a PostgreSQL schema of its own (when AZUL_TEST_POSTGRES_URL is set)."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres")}


def test_a_player_takes_back_a_seat_the_creator_handed_to_a_bot(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "random"}]).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        east = Page(client, created["table"], secrets[1])
        east.wait(lambda p: p.seating["seats"][1]["away"] is None)
        assert east.seating["seats"][1] == {"bot": None, "why": None, "reclaimable": False, "away": None}
        # Nothing to take back yet; a bot's own seat is nobody's to take.
        assert reclaim(client, created, 1, secrets[1]).status_code == 409
        assert reclaim(client, created, 2, secrets[0]).status_code == 401
        hand(client, created, 1)
        for page in (north, east):
            page.wait(lambda p: p.seating["seats"][1]["bot"] == "greedy" and p.state["view"]["seats"][1]["bot"])
        assert east.seating["seats"][1] == {"bot": "greedy", "why": "creator", "reclaimable": True, "away": None}
        # Only the seat's own link takes it back: not another seat's, not the watch or admin link.
        for other in (secrets[0], created["admin_secret"], created["watch_url"].split("=", 1)[1], "nonsense"):
            assert reclaim(client, created, 1, other).status_code == 401
        assert client.post(f"/api/tables/{created['table']}/seats/1/reclaim", json={},
                           headers=bearer(secrets[1]) | {"Origin": "http://evil.example"}).status_code == 403
        # The bot plays the seat meanwhile; then its owner takes it back, once.
        north.move()
        north.wait(lambda p: p.state["view"]["to_move"] == 0 and (p.state["last"] or {}).get("seat") == 2)
        answer = reclaim(client, created, 1, secrets[1])
        assert answer.status_code == 200 and answer.json() == {"seat": 1, "bot": None}
        assert reclaim(client, created, 1, secrets[1]).status_code == 409
        for page in (north, east):
            page.wait(lambda p: p.seating["seats"][1]["bot"] is None and p.state["view"]["seats"][1]["bot"] is None)
        assert east.seating["seats"][1]["why"] is None
        # The seat is a person's again: when its turn comes, the server waits for East.
        north.move()
        east.wait(lambda p: p.state["view"]["to_move"] == 1 and p.state["legal"] is not None)
        assert server.tables[created["table"]].bot_to_move() is None


def test_a_bot_already_thinking_does_not_move_after_the_owner_takes_the_seat_back(tmp_path, catalog, monkeypatch):
    thinking, answer = threading.Event(), threading.Event()
    real_make_bot = web_app.make_bot

    class Slow:
        """The greedy bot, holding its answer until the test lets it go."""

        def __init__(self, bot):
            self.bot = bot

        def choose(self, state):
            thinking.set()
            assert answer.wait(30)
            return self.bot.choose(state)

    monkeypatch.setattr(web_app, "make_bot", lambda *a, **k: Slow(real_make_bot(*a, **k)))
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        east = Page(client, created["table"], secrets[1])
        north.move()
        east.wait(lambda p: p.state["view"]["to_move"] == 1)
        hand(client, created, 1)
        assert thinking.wait(30), "the bot never started thinking"
        table = server.tables[created["table"]]
        version = table.version
        assert reclaim(client, created, 1, secrets[1]).status_code == 200
        answer.set()
        # The bot's answer comes back after the reclaim: it is dropped, and its task ends.
        for _ in range(3000):
            if call(client, lambda: table.bot_task is None):
                break
            time.sleep(0.01)
        assert table.bot_task is None, "the bot's task never ended"
        assert table.version == version + 1  # the reclaim only
        assert table.state.to_move == 1 and table.seats[1].bot is None
        east.wait(lambda p: p.state["version"] == version + 1)
        assert east.state["legal"] is not None, "East is asked to move again"
        east.move()
        north.wait(lambda p: p.state["version"] >= version + 2)
        assert north.state["last"]["seat"] == 1


def test_a_seat_taken_back_stays_its_owner_s_after_a_restart(tmp_path, catalog, where):
    config = seats_config(tmp_path / "data", **where)
    with serving(config, catalog) as (client, _server):
        created = create(client).json()
        secrets = secrets_of(created)
        hand(client, created, 1)
        assert reclaim(client, created, 1, secrets[1]).status_code == 200
        hand(client, created, 0, "random")
    stored = open_store(config.database_url or config.database)
    try:
        row, events = stored.load(created["table"])
    finally:
        stored.close()
    assert [s.bot for s in row.seats] == ["random", None]
    assert [(e.kind, e.seat) for e in events if e.kind in ("bot", RECLAIM)] == \
        [("bot", 1), (RECLAIM, 1), ("bot", 0)]
    assert all(e.at is not None for e in events), "every event has its time"
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, server):
        east = Page(client, created["table"], secrets[1])
        assert east.state["view"]["seats"][1]["bot"] is None
        assert east.seating["seats"][0] == {"bot": "random", "why": "creator", "reclaimable": True, "away": 0.0}
        assert east.seating["seats"][1]["bot"] is None
        assert reclaim(client, created, 0, secrets[0]).status_code == 200
