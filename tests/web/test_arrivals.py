"""Issue 42, "the clock runs before anyone sits down": at a table with a turn clock, a seat's
clock starts when its player has opened their link, or when the creator presses **Start now**;
a seat nobody opened is never logged as having left.

The issue's table: a 15-second clock, opened by its creator 25 seconds after it was made. The
stand-in had played the creator's first move already, a friend who never opened the link was
logged as "left the table", and 37 seconds after creation every seat was a bot.

The server's clock is the test's (``FakeClock``): time moves when the test moves it, then the
test asks the server to look at its clocks, so nothing here waits for time to pass."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from seats_helpers import FakeClock, Page, bearer, call, create, seats_config, secrets_of, serving, settle  # noqa: E402
from test_browser import DESKTOP, PHONE, Person, browser, errors, shots  # noqa: E402
from test_group_of_three import served  # noqa: E402

#: test_browser's and test_group_of_three's fixtures, used here under their names
FIXTURES = (browser, errors, shots, served)

CLOCK = {"mode": "move", "seconds": 15, "bot": "greedy"}


def look(client, server) -> int:
    return call(client, server.seats.check_all)


def log_texts(client, server, table: str) -> list[str]:
    """The game log's words, as the server keeps it."""
    return call(client, lambda: [entry.get("text", "") for entry in server.tables[table].progress.log])


def test_a_seats_clock_starts_when_its_player_arrives(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock=CLOCK).json()
        table, secrets = created["table"], secrets_of(created)
        clock.advance(25)
        assert look(client, server) == 0, "nobody has opened a link: no clock runs"
        north = Page(client, table, secrets[0])
        mover = north.state["view"]["to_move"]
        assert mover == 0, "the seed of these tests lets North start"
        assert north.seating["clock"]["running"] == 0 and north.seating["clock"]["turn_left"] == 15.0
        assert north.seating["seats"][0]["bot"] is None
        north.after_move()
        north.wait_synced(lambda p: p.state["view"]["to_move"] == 1)
        assert north.seating["clock"]["running"] is None, "East has not arrived: its clock waits"
        clock.advance(3600)
        assert look(client, server) == 0
        # East arrives an hour later: its clock starts now, with the whole 15 seconds.
        east = Page(client, table, secrets[1])
        assert east.seating["clock"]["running"] == 1 and east.seating["clock"]["turn_left"] == 15.0
        assert east.seating["clock"]["arrived"] == [True, True]
        clock.advance(16)
        assert look(client, server) == 1
        east.wait(lambda p: p.seating["seats"][1]["why"] == "clock")
    # The arrivals are events: a restarted server knows who arrived.
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        north = Page(client, table, secrets[0])
        assert north.seating["clock"]["arrived"] == [True, True]
        assert not any("left" in text for text in log_texts(client, server, table))


def test_start_now_starts_every_clock_and_a_seat_nobody_opened_has_not_arrived(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"name": "West"}], clock=CLOCK).json()
        table, secrets = created["table"], secrets_of(created)
        north = Page(client, table, secrets[0])
        assert north.state["view"]["to_move"] == 0
        # Only the creator starts the game; a seat's link does not.
        start = f"/api/tables/{table}/start"
        assert client.post(start, json={}, headers=bearer(secrets[0])).status_code == 401
        assert client.post(start, json={}, headers=bearer(created["admin_secret"])).status_code == 200
        assert client.post(start, json={}, headers=bearer(created["admin_secret"])).status_code == 409
        north.wait(lambda p: p.seating["clock"]["begun"])
        north.after_move()
        north.wait_synced(lambda p: p.state["view"]["to_move"] == 1)
        assert north.seating["clock"]["running"] == 1, "after Start now, East's clock runs unarrived"
        clock.advance(16)
        assert look(client, server) == 1
        north.wait(lambda p: p.seating["seats"][1]["why"] == "not-arrived")
        texts = log_texts(client, server, table)
        assert "The creator started the game: every seat's clock runs, arrived or not" in texts
        assert any(text.startswith("East has not arrived yet: the stand-in bot 'greedy'") for text in texts)
        assert not any("left" in text for text in texts), texts
        # West: its away time (60 s) counts from the start, not from the table's creation.
        north.wait_synced(lambda p: p.state["view"]["to_move"] == 2)
        clock.advance(14)
        assert look(client, server) == 0
        clock.advance(2)
        assert look(client, server) == 1
        north.wait(lambda p: p.seating["seats"][2]["why"] == "not-arrived")


def test_a_friend_arriving_does_not_refuse_the_move_another_chose(tmp_path, catalog):
    """An arrival moves the table's version on but changes no game: a move chosen before it is
    still taken."""
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock=CLOCK).json()
        table, secrets = created["table"], secrets_of(created)
        north = Page(client, table, secrets[0])
        chosen_at = north.state["version"]
        east = Page(client, table, secrets[1])
        assert east.state["version"] == chosen_at + 1
        north.ws.send_json({"type": "move", "version": chosen_at, "move": north.state["legal"]["drafts"][0]["move"]})
        east.wait(lambda p: (p.state["last"] or {}).get("seat") == 0)
        settle(north, east)
        assert not north.refusals


# ---------------------------------------------------------------- in a real browser


@pytest.mark.browser
def test_browser_the_clock_waits_for_each_player_and_the_creator_may_start_now(browser, served, shots, errors):
    clock = served.clock
    table = create_with_clock(served, [{"name": "Ana"}, {"name": "Bob"}])
    clock.advance(25)
    assert served.clocks_looked_at() == 0
    ana = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"] + "&admin=" + table["admin_secret"],
                 "Ana", errors)
    page = ana.page
    assert ana.my_turn(), "the stand-in has not played Ana's first move"
    page.wait_for_selector("#clock .running")
    assert "you: 0:15" in page.inner_text("#clock")
    assert page.locator(".board .badge.bot").count() == 0
    box = page.locator("#start-box")
    box.wait_for(state="visible")
    assert "Waiting for Bob" in box.inner_text() and page.locator("#start-now").is_visible()
    ana.play_one()
    page.wait_for_selector("#clock .waiting")
    assert "Bob: not arrived yet" in page.inner_text("#clock")
    clock.advance(12)  # 37 seconds after the table was made
    assert served.clocks_looked_at() == 0
    clock.advance(60)
    assert served.clocks_looked_at() == 0, "Bob has not arrived: nobody replaces him"
    assert page.locator(".board .badge.bot").count() == 0
    assert "left" not in page.inner_text("#game-log")
    assert page.inner_text(".board[data-seat='1'] .badge.away") == "not arrived yet"
    shot(page, shots, "arrivals-waiting")
    # Ana starts the game: Bob's clock runs, and when it is up the stand-in plays for him.
    page.click("#start-now")
    box.wait_for(state="hidden")
    page.wait_for_selector("#clock .running[data-seat='1']")
    page.wait_for_selector("#game-log [data-event='start']")
    clock.advance(16)
    assert served.clocks_looked_at() == 1
    page.wait_for_selector("#game-log [data-event='standin']")
    log = page.inner_text("#game-log")
    assert "Bob has not arrived yet: the stand-in bot 'greedy' plays the seat" in log
    assert "left" not in log
    # Bob opens his link at last: the banner says why a bot has his seat.
    bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
    banner = bob.page.locator("#seat-banner")
    banner.wait_for(state="visible")
    assert "the game was started before you opened your link" in banner.inner_text()
    assert bob.page.locator("#start-box").is_hidden()


@pytest.mark.browser
def test_browser_a_friend_who_never_opened_the_link_sees_whom_the_table_waits_for(browser, served, errors):
    table = create_with_clock(served, [{"name": "Ana"}, {"name": "Bob"}, {"name": "Cy"}])
    bob = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Bob", errors)
    box = bob.page.locator("#start-box")
    box.wait_for(state="visible")
    text = box.inner_text()
    assert "Waiting for Ana and Cy" in text and "when the table's creator starts the game" in text
    assert bob.page.locator("#start-now").count() == 0, "only the creator's page starts the game"
    Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ana", errors)
    bob.page.wait_for_function("() => document.getElementById('start-box').innerText.includes('Waiting for Cy:')")


def create_with_clock(served, seats: list[dict]) -> dict:
    import json
    import urllib.request
    request = urllib.request.Request(served.url + "/api/tables", method="POST",
                                     data=json.dumps({"variant": "standard", "seats": seats, "clock": CLOCK}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def shot(page, shots, name: str) -> None:
    for size, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)  # let the layout settle before the picture
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"{name}{suffix}.png"))
    page.set_viewport_size(DESKTOP)
