"""Taking a seat back from a bot: the banner on the player's page, one click with the seat's own
link, the bot stopping at once (even one already thinking), and the seat's owner kept across a
restart (the ``reclaim`` event, in SQLite and in PostgreSQL)."""

from __future__ import annotations

import logging
import threading
import time

import pytest

pytest.importorskip("starlette")

from seats_helpers import (  # noqa: E402
    HeldDelay,
    Page,
    bearer,
    call,
    create,
    post,
    screenshot,
    seats_config,
    secrets_of,
    serving,
)
from test_browser import DESKTOP, PHONE, Person, Server, _need_browser, browser, errors, server, shots  # noqa: E402

import azul_core.web.app as web_app  # noqa: E402
from azul_core.web.storage import open_store  # noqa: E402
from azul_core.web.store import RECLAIM  # noqa: E402

#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)


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


# ---------------------------------------------------------------- in a real browser


@pytest.mark.browser
def test_browser_the_banner_tells_the_player_and_one_click_takes_the_seat_back(browser, server, shots, errors):
    table = server.create("standard", [{"name": "Host"}, {"name": "Guest"}])
    host = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"] + "&admin=" + table["admin_secret"],
                  "Host", errors)
    guest = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Guest", errors)
    assert guest.page.locator("#seat-banner").is_hidden()
    host.play_one()
    status, _ = post(server, f"/api/tables/{table['table']}/seats/1/bot", {"bot": "greedy"}, table["admin_secret"])
    assert status == 200
    banner = guest.page.locator("#seat-banner")
    banner.wait_for(state="visible")
    assert "greedy bot is playing your seat" in banner.inner_text()
    assert "creator" in banner.inner_text()
    # The bot plays the guest's turn meanwhile.
    host.page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=15000)
    screenshot(guest.page, shots / "seats-reclaim-banner.png", DESKTOP)
    screenshot(guest.page, shots / "seats-reclaim-banner-phone.png", PHONE)
    guest.page.click("#reclaim")
    banner.wait_for(state="hidden")
    guest.page.wait_for_selector(".board[data-seat='1'] .badge.bot", state="detached")
    # The seat is the guest's again: after the host's move, the server waits for the guest.
    host.play_one()
    guest.page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=15000)
    guest.play_one()
    host.page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=15000)


@pytest.mark.browser
def test_browser_the_creator_is_offered_a_departed_seat_only_after_the_grace_period(browser, tmp_path, shots, errors):
    """The creator's panel of departed seats waits for --absent-grace (a page reloading is not a
    player leaving), then shows at the top of the page, not below the fold."""
    _need_browser()
    running = Server(tmp_path / "data", seed="browser-absent", extra=("--absent-grace", "4"))
    running.start()
    try:
        table = running.create("standard", [{"name": "Host"}, {"name": "Guest"}])
        host = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"] + "&admin=" + table["admin_secret"],
                      "Host", errors)
        guest = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Guest", errors)
        host.page.wait_for_selector(".board[data-seat='1'] .player-name")
        guest.page.close()
        host.page.wait_for_selector(".board[data-seat='1'] .badge.away")
        assert host.page.locator("#admin").is_hidden(), "offered at once: a reload would look like a departure"
        host.page.wait_for_selector("#admin:not([hidden]) [data-hand='1']", timeout=20000)
        box = host.page.locator("#admin").bounding_box()
        assert box is not None and box["y"] + box["height"] <= DESKTOP["height"] / 2, box
        screenshot(host.page, shots / "seats-absent-panel.png", DESKTOP)
        host.page.set_viewport_size(PHONE)
        box = host.page.locator("#admin").bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], "below the fold on a phone"
        screenshot(host.page, shots / "seats-absent-panel-phone.png", PHONE)
    finally:
        running.stop()


# ---------------------------------------------------------------- taken back within the bot delay


def test_a_seat_taken_back_and_played_within_the_bot_delay_leaves_the_next_bot_moving(tmp_path, catalog, caplog):
    """The attack "reclaim within the bot delay": the bots' task, having let West's bot move,
    chose East's seat (a bot's then) and waited; East took the seat back and moved meanwhile.
    The task wakes to a seat no bot plays: it looks again and lets South's bot move. (It used to
    fail on East's seat and die, and South's bot never moved, whoever reconnected.)"""
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        held = HeldDelay(client, server, held=(0, 1))
        created = create(client, seats=[{"bot": "greedy"}, {"name": "East"}, {"bot": "greedy"}]).json()
        secrets = secrets_of(created)
        east = Page(client, created["table"], secrets[1])
        table = server.tables[created["table"]]
        assert table.state.to_move == 0
        hand(client, created, 1)
        held.open(0)  # West's bot moves, and the same task goes on to East's seat
        held.wait_for([0, 1])
        assert table.bot_to_move() == 1 and table.bot_task is not None
        assert reclaim(client, created, 1, secrets[1]).status_code == 200
        east.wait(lambda p: p.state["legal"] is not None and p.state["view"]["seats"][1]["bot"] is None)
        moved = east.after_move()
        east.wait(lambda p: p.state["version"] > moved and p.state["view"]["to_move"] == 2)
        held.open(1)  # the task wakes, with East's seat in mind
        east.wait(lambda p: (p.state["last"] or {}).get("seat") == 2)
        assert held.waiting[:3] == [0, 1, 2]
    assert not [r.getMessage() for r in caplog.records if r.name == "azul.web" and r.levelno >= logging.WARNING]
