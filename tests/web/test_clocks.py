"""Turn clocks: off by default; a time per move or per game chosen at creation; the stand-in bot
taking a seat whose clock ran out, or whose owner left during their turn; the owner taking it
back; the clocks counted again after a restart. The server's clock is the test's (``FakeClock``):
time moves only when the test moves it, and the test then asks the server to look at its
clocks (``SeatService.check_all``), so nothing here waits for time to pass."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from seats_helpers import (  # noqa: E402
    FakeClock,
    HeldDelay,
    Page,
    bearer,
    call,
    create,
    create_with,
    screenshot,
    seats_config,
    secrets_of,
    serving,
    settle,
)
from test_browser import DESKTOP, PHONE, Person, browser, errors, server, shots  # noqa: E402

from azul_core.web.clocks import OVERTIME, RECLAIM_GRACE, RESTART_GRACE, ClockRule, parse_clock  # noqa: E402

#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)


def look(client, server) -> int:
    """The server looks at every clock now (as its timers do when they wake)."""
    return call(client, server.seats.check_all)


def test_a_table_has_no_clock_unless_asked(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client).json()
        assert created["clock"] is None
        north = Page(client, created["table"], secrets_of(created)[0])
        assert north.seating["clock"] is None
        clock.advance(7 * 86400)
        assert look(client, server) == 0
        assert server.tables[created["table"]].seats[0].bot is None
        assert all(e.kind != "clock" for e in server.store.load(created["table"])[1])


@pytest.mark.parametrize("clock, words", [
    ("fast", "'clock' is"), ({"mode": "blitz", "seconds": 5}, "clock mode"),
    ({"mode": "move"}, "seconds"), ({"mode": "move", "seconds": 0}, "from 1"),
    ({"mode": "game", "seconds": 10**9}, "from 1"), ({"mode": "move", "seconds": True}, "number"),
    ({"mode": "move", "seconds": 30, "bot": "skynet"}, "unknown stand-in bot"),
    ({"mode": "move", "seconds": 30, "away": -1}, "clock away"),
])
def test_a_clock_that_makes_no_sense_is_refused_with_a_reason(tmp_path, catalog, clock, words):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        answer = create(client, clock=clock)
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def test_the_clock_rule_reads_the_creation_body():
    bots = ["greedy", "mcts", "random"]
    assert parse_clock(None, bots) is None and parse_clock("off", bots) is None
    assert parse_clock({"mode": "off"}, bots) is None
    assert parse_clock({"mode": "move", "seconds": 30}, bots) == ClockRule("move", 30.0, "greedy", 60.0)
    rule = parse_clock({"mode": "game", "seconds": 600, "bot": "mcts", "away": 20}, bots)
    assert ClockRule.from_text(rule.to_text()) == rule == ClockRule("game", 600.0, "mcts", 20.0)


def test_a_move_clock_runs_out_and_the_stand_in_plays_until_the_owner_takes_the_seat_back(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock={"mode": "move", "seconds": 60, "bot": "greedy"}).json()
        # Nobody has opened a link yet: no clock runs.
        assert created["clock"]["mode"] == "move" and created["clock"]["running"] is None
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        east = Page(client, created["table"], secrets[1])
        settle(north, east)
        assert north.seating["clock"] == {"mode": "move", "seconds": 60.0, "bot": "greedy", "away": 60.0,
                                          "running": 0, "turn_left": 60.0, "left": [None, None],
                                          "arrived": [True, True], "begun": False}
        # North thinks 59 seconds: in time. Each move starts the next seat's clock afresh.
        clock.advance(59)
        assert look(client, server) == 0
        moved = north.after_move()
        east.wait_synced(lambda p: p.state["version"] > moved)
        assert east.seating["clock"]["running"] == 1 and east.seating["clock"]["turn_left"] == 60.0
        clock.advance(59.5)
        assert look(client, server) == 0
        clock.advance(1)
        assert look(client, server) == 1
        # The stand-in takes East's seat and moves for it; East's page says why.
        east.wait(lambda p: p.seating["seats"][1]["bot"] == "greedy")
        assert east.seating["seats"][1] == {"bot": "greedy", "why": "clock", "reclaimable": True, "away": None}
        north.wait(lambda p: p.state["view"]["to_move"] == 0 and (p.state["last"] or {}).get("seat") == 1
                   and p.seating["version"] == p.state["version"])
        assert north.seating["clock"]["running"] == 0, "North's clock runs again"
        # East takes the seat back with its own link; its next turn has a whole minute again.
        answer = client.post(f"/api/tables/{created['table']}/seats/1/reclaim", json={}, headers=bearer(secrets[1]))
        assert answer.status_code == 200
        reclaimed = server.tables[created["table"]].version
        north.wait_synced(lambda p: p.state["version"] >= reclaimed)
        assert north.seating["seats"][1]["bot"] is None
        moved = north.after_move()
        east.wait_synced(lambda p: p.state["version"] > moved)
        assert east.seating["clock"]["running"] == 1 and east.state["legal"] is not None
        assert east.seating["clock"]["turn_left"] == 60.0
        clock.advance(30)
        assert look(client, server) == 0


def test_a_new_tables_first_turn_has_the_clocks_time_and_not_a_restarts_grace(tmp_path, catalog):
    clock = FakeClock()
    seconds = RESTART_GRACE / 3  # a clock shorter than the grace a restarted table gives
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock={"mode": "move", "seconds": seconds, "bot": "greedy"}).json()
        north = Page(client, created["table"], secrets_of(created)[0])
        assert north.seating["clock"]["running"] == 0 and north.seating["clock"]["turn_left"] == seconds
        clock.advance(seconds - 0.5)
        assert look(client, server) == 0
        clock.advance(1)
        assert look(client, server) == 1


def test_handing_another_seat_over_does_not_give_the_seat_to_move_more_time(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"name": "West"}],
                         clock={"mode": "move", "seconds": 60, "bot": "greedy"}).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        Page(client, created["table"], secrets[1])
        clock.advance(50)
        answer = client.post(f"/api/tables/{created['table']}/seats/2/bot", json={"bot": "random"},
                             headers=bearer(created["admin_secret"]))
        assert answer.status_code == 200
        north.wait_synced(lambda p: p.seating["seats"][2]["bot"] == "random")
        assert north.seating["clock"]["running"] == 0 and north.seating["clock"]["turn_left"] == 10.0
        clock.advance(11)
        assert look(client, server) == 1
        north.wait(lambda p: p.seating["seats"][0]["why"] == "clock")


def test_a_game_clock_is_spent_over_the_turns_and_then_gives_overtime(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock={"mode": "game", "seconds": 100, "bot": "random"}).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        east = Page(client, created["table"], secrets[1])
        clock.advance(40)
        moved = north.after_move()
        east.wait_synced(lambda p: p.state["version"] > moved)
        assert east.seating["clock"]["running"] == 1
        assert east.seating["clock"]["left"] == [60.0, 100.0] and east.seating["clock"]["turn_left"] == 100.0
        clock.advance(10)
        moved = east.after_move()
        north.wait_synced(lambda p: p.state["version"] > moved)
        assert north.seating["clock"]["running"] == 0
        assert north.seating["clock"]["left"] == [60.0, 90.0] and north.seating["clock"]["turn_left"] == 60.0
        # North's 60 seconds left run out during this turn.
        clock.advance(59)
        assert look(client, server) == 0
        clock.advance(1)
        assert look(client, server) == 1
        north.wait_synced(lambda p: p.seating["seats"][0]["why"] == "clock" and p.state["view"]["to_move"] == 1)
        assert north.seating["clock"]["left"][0] == 0.0
        # Taken back, each of North's turns has the overtime.
        assert client.post(f"/api/tables/{created['table']}/seats/0/reclaim", json={},
                           headers=bearer(secrets[0])).status_code == 200
        reclaimed = server.tables[created["table"]].version
        east.wait_synced(lambda p: p.state["version"] >= reclaimed)
        assert east.state["legal"] is not None and east.seating["seats"][0]["bot"] is None
        moved = east.after_move()
        north.wait_synced(lambda p: p.state["version"] > moved)
        assert north.seating["clock"]["running"] == 0 and north.state["legal"] is not None
        assert north.seating["clock"]["turn_left"] == OVERTIME


def test_a_player_away_at_their_turn_is_replaced_after_the_grace_period(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock={"mode": "move", "seconds": 600, "bot": "greedy", "away": 30}).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        east = Page(client, created["table"], secrets[1])
        north.wait(lambda p: p.seating["seats"][1]["away"] is None)
        # Present, a player keeps the whole clock: being slow is not being away.
        clock.advance(45)
        assert look(client, server) == 0
        east.close()
        north.wait(lambda p: p.seating["seats"][1]["away"] is not None)
        moved = north.after_move()
        north.wait_synced(lambda p: p.state["version"] > moved)
        assert north.seating["clock"]["running"] == 1
        clock.advance(29)
        assert look(client, server) == 0
        clock.advance(2)
        assert look(client, server) == 1
        north.wait(lambda p: p.seating["seats"][1]["why"] == "away" and p.state["view"]["to_move"] == 0)
        # Coming back does not take the seat back by itself: the owner clicks.
        east = Page(client, created["table"], secrets[1])
        assert east.seating["seats"][1]["bot"] == "greedy" and east.seating["seats"][1]["reclaimable"]


def test_clocks_are_counted_again_after_a_restart_without_the_time_the_server_was_down(tmp_path, catalog):
    clock = FakeClock()
    rule = {"mode": "game", "seconds": 300, "bot": "greedy"}
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock=rule).json()
        secrets = secrets_of(created)
        north = Page(client, created["table"], secrets[0])
        Page(client, created["table"], secrets[1])  # East is at the table: it is slow, not away
        clock.advance(100)
        moved = north.after_move()
        north.wait_synced(lambda p: p.state["version"] > moved)
        assert north.seating["clock"]["running"] == 1
        clock.advance(250)  # East thinks 250 of its 300 seconds, then the server stops
    clock.advance(3600)  # down for an hour
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        north = Page(client, created["table"], secrets[0])
        seating = north.seating["clock"]
        assert seating["running"] == 1 and seating["left"][0] == 200.0
        # East's 50 seconds ran out while the server was down: it keeps the restart's grace.
        assert seating["turn_left"] == RESTART_GRACE
        clock.advance(RESTART_GRACE - 1)
        assert look(client, server) == 0
        clock.advance(2)
        assert look(client, server) == 1
        north.wait(lambda p: p.seating["seats"][1]["why"] == "clock")
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        east = Page(client, created["table"], secrets[1])
        assert east.seating["seats"][1] == {"bot": "greedy", "why": "clock", "reclaimable": True, "away": None}


def test_a_seat_taken_back_after_its_clock_ran_out_has_a_short_grace_then_the_stand_in_moves(tmp_path, catalog):
    """The attack: North takes the seat back within the bot delay each time the clock hands it to
    the stand-in. It used to get a whole clock afresh each time (9 hand-overs and no move in
    20 s at a 2 s clock). Now the turn goes on with the grace only; when that runs out the
    stand-in takes the seat again and makes the move, North's reclaim refused until it has."""
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        held = HeldDelay(client, server, held=(0,))
        created = create(client, clock={"mode": "move", "seconds": 60, "bot": "greedy"}).json()
        table, secrets = created["table"], secrets_of(created)
        north = Page(client, table, secrets[0])
        east = Page(client, table, secrets[1])
        assert north.seating["clock"]["running"] == 0
        clock.advance(61)
        assert look(client, server) == 1
        held.wait_for([0])  # the stand-in waits out the bot delay, and North takes the seat back
        assert client.post(f"/api/tables/{table}/seats/0/reclaim", json={}, headers=bearer(secrets[0])).status_code == 200
        reclaimed = server.tables[table].version
        north.wait_synced(lambda p: p.state["version"] >= reclaimed)
        assert north.seating["seats"][0]["bot"] is None
        assert north.seating["clock"]["running"] == 0 and north.seating["clock"]["turn_left"] == RECLAIM_GRACE
        clock.advance(RECLAIM_GRACE - 1)
        assert look(client, server) == 0
        clock.advance(2)
        assert look(client, server) == 1
        north.wait_synced(lambda p: p.state["version"] > reclaimed and p.seating["seats"][0]["bot"] == "greedy")
        answer = client.post(f"/api/tables/{table}/seats/0/reclaim", json={}, headers=bearer(secrets[0]))
        assert answer.status_code == 409 and "the stand-in makes this move" in answer.json()["error"]
        held.open(0)
        east.wait_synced(lambda p: (p.state["last"] or {}).get("seat") == 0 and p.state["view"]["to_move"] == 1)
        # The move made, the seat is North's for the asking, and its next turn has the whole clock.
        assert client.post(f"/api/tables/{table}/seats/0/reclaim", json={}, headers=bearer(secrets[0])).status_code == 200
        reclaimed = server.tables[table].version
        east.wait_synced(lambda p: p.state["version"] >= reclaimed)
        moved = east.after_move()
        north.wait_synced(lambda p: p.state["version"] > moved and p.seating["seats"][0]["bot"] is None)
        assert north.seating["clock"]["running"] == 0 and north.seating["clock"]["turn_left"] == 60.0


def test_a_seat_deciding_twice_in_a_row_has_a_whole_clock_for_the_second_decision(tmp_path, catalog):
    """A draft from factory 1 onto a line, then the same seat's choice that factory one's gift
    offers (factory-one-shift). The ``move`` event is a decision for the clocks though the seat
    to move stays the same: the choice has 60 seconds again, not what the draft left."""
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, variant="factory-one-shift",
                         clock={"mode": "move", "seconds": 60, "bot": "greedy"}).json()
        secrets = secrets_of(created)
        pages = [Page(client, created["table"], secrets[seat]) for seat in (0, 1)]
        settle(*pages)
        mover = pages[0].seating["clock"]["running"]
        page = pages[mover]
        drafts = [d["move"] for d in page.state["legal"]["drafts"]]
        draft = next(move for move in drafts if move.startswith("1") and not move.endswith("-"))
        clock.advance(50)
        version = page.state["version"]
        page.move(draft)
        page.wait_synced(lambda p: p.state["version"] > version)
        assert page.state["view"]["to_move"] == mover and page.state["legal"]["moves"], "the gift is offered"
        assert page.seating["clock"]["running"] == mover and page.seating["clock"]["turn_left"] == 60.0
        clock.advance(59)
        assert look(client, server) == 0


def test_a_seat_placing_after_its_own_draft_has_a_whole_clock_for_each_column(tmp_path, catalog):
    """The grey wall: the round's last draft, then the wall columns of the lines it filled,
    seat 0 first. Whenever a seat decides again right after its own decision (a draft then a
    column, a column then a column), that decision has the whole 60 seconds."""
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, variant="grey-wall", clock={"mode": "move", "seconds": 60, "bot": "greedy"}).json()
        secrets = secrets_of(created)
        pages = [Page(client, created["table"], secrets[seat]) for seat in (0, 1)]
        twice: list[tuple[str, str]] = []
        while ("draft", "column") not in twice:
            assert pages[0].state["view"]["round"] <= 3, f"no seat drafted then placed: {twice}"
            mover = pages[0].state["view"]["to_move"]
            page = pages[mover]
            legal = page.state["legal"]
            if legal["columns"]:
                kind, move = "column", legal["columns"][0]["move"]
            else:  # onto the first line that can take the tiles: lines fill, and columns are asked
                kind = "draft"
                move = min((d["move"] for d in legal["drafts"]), key=lambda m: "9" if m.endswith("-") else m[-1])
            clock.advance(50)
            version = page.state["version"]
            page.move(move)
            for other in pages:
                other.wait_synced(lambda p, version=version: p.state["version"] > version)
            if pages[0].state["view"]["to_move"] == mover and page.state["legal"] is not None:
                twice.append((kind, "column" if page.state["legal"]["columns"] else "draft"))
                assert page.seating["clock"]["running"] == mover
                assert page.seating["clock"]["turn_left"] == 60.0, twice


# ---------------------------------------------------------------- in a real browser


@pytest.mark.browser
def test_browser_a_clock_chosen_on_the_home_page_counts_down_and_runs_out(browser, server, shots, errors):
    """The home page's clock fieldset makes a clocked table whose page shows the seat to move's
    clock counting down; a (short) clock that runs out hands the seat to the stand-in bot, which
    moves for it, and the page says why."""
    home = browser.new_context(viewport=DESKTOP).new_page()
    home.goto(server.url + "/")
    home.wait_for_selector("#variant option[value='standard']", state="attached")
    assert home.locator("#clock-mode").input_value() == "off", "no clock unless asked"
    assert home.locator("#clock-details").is_hidden()
    home.select_option("#seat-count", "2")
    home.fill("input[name=your-name]", "Ann")
    home.select_option("select[name=seat-kind-1]", "person")
    home.fill("input[name=seat-name-1]", "Bob")
    home.select_option("#clock-mode", "move")
    home.wait_for_selector("#clock-details:not([hidden]) #clock-seconds option[value='30']", state="attached")
    home.select_option("#clock-seconds", "30")
    home.wait_for_selector("#clock-bot option[value='random']", state="attached")
    home.select_option("#clock-bot", "random")
    home.locator("#clock-fieldset").scroll_into_view_if_needed()
    screenshot(home, shots / "seats-clock-form.png", DESKTOP)
    screenshot(home, shots / "seats-clock-form-phone.png", PHONE)
    home.set_viewport_size(PHONE)
    assert home.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the form is wider than a phone"
    home.set_viewport_size(DESKTOP)
    home.click("#create-button")
    home.wait_for_selector("#links:not([hidden])")
    ann = Person(home.context, home.get_attribute("#open-own", "href"), "Ann", errors)
    clock = ann.page.locator("#clock")
    clock.wait_for(state="visible")
    assert "a move" in clock.inner_text() and "you: 0:" in clock.inner_text()
    assert clock.get_attribute("data-running") == "0"
    ann.page.wait_for_function("() => Number(document.getElementById('clock').dataset.left) <= 29", timeout=10000)
    screenshot(ann.page, shots / "seats-clock.png", DESKTOP)

    # A clock of two seconds a move: Cid does not move in time, the stand-in plays for him.
    table = create_with(server, "standard", [{"name": "Cid"}, {"bot": "random"}],
                        clock={"mode": "move", "seconds": 2, "bot": "greedy"})
    cid = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Cid", errors)
    banner = cid.page.locator("#seat-banner")
    banner.wait_for(state="visible", timeout=20000)
    assert "greedy bot is playing your seat" in banner.inner_text() and "clock ran out" in banner.inner_text()
    cid.page.wait_for_selector(".board[data-seat='0'] .badge.bot")
    cid.page.wait_for_function("() => Number(document.body.dataset.version) > 2", timeout=15000)
    assert "Cid" in cid.page.inner_text("#last-move") or cid.body("round") != "1" or cid.version() > 2
    screenshot(cid.page, shots / "seats-clock-ran-out.png", DESKTOP)
    screenshot(cid.page, shots / "seats-clock-ran-out-phone.png", PHONE)
