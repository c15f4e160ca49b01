"""Hints: off unless the table's creator turned them on; then the seat to move may ask the search
bot for a suggestion, computed in the bot worker pool from what that seat may know, one at a
time, and never played for it. Through the protocol (in process), the stores (SQLite and
PostgreSQL) and a real browser.
"""

from __future__ import annotations

import asyncio

import pytest
from test_browser import DESKTOP, PHONE, Server, _need_browser, browser, errors, shots
from test_server import Seat, create, make_config, secret_of, serving

from azul_core.web.storage import open_store
from azul_core.web.store import Event, SeatRow, TableRow

#: fixtures of the modules imported, used here under their names
FIXTURES = (browser, errors, shots)


def next_hint(seat: Seat) -> dict:
    """The next ``hint`` message (states and presence on the way are kept or skipped)."""
    while True:
        message = seat.next_message()
        if message["type"] == "hint":
            return message
        if message["type"] == "state":
            seat.state = message


def ask(seat: Seat, version: int | None = None) -> dict:
    seat.ws.send_json({"type": "hint", "version": seat.state["version"] if version is None else version})
    return next_hint(seat)


def still_the_same(seat: Seat, version: int) -> None:
    """Nothing was played: the whole state, asked again, is the version it was."""
    seat.ws.send_json({"type": "sync"})
    while True:
        message = seat.next_message()
        if message["type"] == "state":
            assert message["version"] == version
            seat.state = message
            return


def test_hints_are_off_by_default(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client).json()
        assert created["hints"] is False
        north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        assert "hints" not in north.state["view"]
        answer = ask(north)
        assert answer["move"] is None and "hints are off" in answer["reason"]
        still_the_same(north, answer["version"])
        # Only true or false.
        assert client.post("/api/tables", json={"variant": "standard", "seats": [{"name": "A"}, {"name": "B"}],
                                                "hints": "yes"}).status_code == 400


def test_a_hint_is_suggested_to_the_seat_to_move_and_never_played(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as client:
        response = client.post("/api/tables", json={"variant": "standard", "hints": True,
                                                    "seats": [{"name": "North"}, {"name": "East"}]})
        assert response.status_code == 201 and response.json()["hints"] is True
        created = response.json()
        north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        east = Seat(client, created["table"], secret_of(created["seats"][1]["url"]))
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        assert north.state["view"]["hints"] is True
        version = north.state["version"]
        legal = {d["move"] for d in north.state["legal"]["drafts"]}

        answer = ask(north)
        assert answer["version"] == version and answer["reason"] is None
        assert answer["move"] in legal
        assert answer["text"].startswith("Hint: take ") and " from " in answer["text"]
        still_the_same(north, version)
        # Asked again at the same version: the same answer, without another search.
        assert ask(north) == answer

        # Not your turn, a watcher, a version that has passed: refused in words.
        assert "wait for your turn" in ask(east)["reason"]
        assert "watch" in ask(watcher)["reason"]
        assert "moved on" in ask(north, version - 1)["reason"]
        still_the_same(east, version)

        # The player plays something else: the table takes their move, not the hint's.
        other = next(move for move in sorted(legal) if move != answer["move"])
        north.move(other)
        north.wait_version(version + 1)
        assert north.state["last"]["move"] == other


def test_hints_think_in_the_worker_pool_from_what_the_seat_may_know_one_at_a_time(tmp_path, catalog):
    """secret-goal deals each seat a secret: the hint's search gets the record with the other
    seat's secret sealed. A second question while one is thought about is refused."""
    app_config = make_config(tmp_path)
    with serving(app_config, catalog) as client:
        server = client.app.server
        asked: list[tuple] = []
        release = asyncio.Event()

        async def choose(ref, record, bot, seed):
            asked.append((ref, record, bot, seed))
            await release.wait()
            return legal_now[0]

        server.bot_pool.choose = choose
        response = client.post("/api/tables", json={"variant": "secret-goal", "hints": True,
                                                    "seats": [{"name": "North"}, {"name": "East"}]})
        created = response.json()
        north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        legal_now = [d["move"] for d in north.state["legal"]["drafts"]]
        north.ws.send_json({"type": "hint", "version": north.state["version"]})
        second = ask(north)
        assert "one at a time" in second["reason"]
        client.portal.call(release.set)
        answer = next_hint(north)
        assert answer["move"] == legal_now[0]
        assert len(asked) == 1
        ref, record, bot, seed = asked[0]
        assert bot == "mcts" and ref.endswith("secret-goal.yaml")
        (values,) = record["secrets"].values()
        assert values[0] != {"sealed": True}, "the seat's own secret is known to its hint"
        assert values[1] == {"sealed": True}, "another seat's secret must not reach the hint"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        opened = open_store(tmp_path / "tables.sqlite3")
    else:
        opened = open_store(request.getfixturevalue("postgres"))
    yield opened
    opened.close()


def test_the_hints_option_is_stored_with_the_table(store):
    seats = [SeatRow(0, "A", None, "h0"), SeatRow(1, "B", None, "h1")]
    for table_id, hints in (("on", True), ("off", False)):
        row = TableRow(table_id, "standard", "s", 1.0, 1.0, None, 0, "w", "a", seats, joined=1.0, hints=hints)
        store.create(row, [Event("deal", "BBBB")])
        loaded, _events = store.load(table_id)
        assert loaded.hints is hints
    # Deleted with its table.
    assert store.purge(finished_before=0.0, idle_before=10.0) == 2
    assert store.load("on") is None


def test_a_restarted_server_keeps_the_tables_hints(tmp_path, catalog):
    config = make_config(tmp_path)
    with serving(config, catalog) as client:
        created = client.post("/api/tables", json={"variant": "standard", "hints": True,
                                                   "seats": [{"name": "A"}, {"name": "B"}]}).json()
    with serving(config, catalog) as client:
        seat = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        assert seat.state["view"]["hints"] is True
        assert ask(seat)["move"]


# ---------------------------------------------------------------- in a browser


def test_hints_in_the_browser(browser, tmp_path, shots, errors):
    """The home page's checkbox turns hints on; the player's Hint button shows a suggestion and
    marks it on the page, and nothing is played until the player confirms a move. A table made
    without the checkbox has no Hint button."""
    _need_browser()
    running = Server(tmp_path / "data", seed="hints", extra=("--think", "0.2", "--bot-workers", "1"))
    running.start()
    try:
        context = browser.new_context(viewport=DESKTOP)
        home = context.new_page()
        home.goto(running.url + "/")
        home.wait_for_selector("#variant option[value='standard']", state="attached")
        assert not home.is_checked("#hints"), "hints are off unless the creator turns them on"
        home.check("#hints")
        links = create_on_home_page_keeping(home, running)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(links["own"])
        page.wait_for_selector("body[data-my-turn='yes']")
        version = page.evaluate("document.body.dataset.version")
        page.click("#hint-button")
        page.wait_for_selector("#hint-text:not([hidden])", timeout=30000)
        text = page.inner_text("#hint-text")
        assert text.startswith("Hint: take "), text
        # Marked on the page: the tiles to take and the line (or floor) they go to.
        assert page.locator("#supply button.tile.hinted").count() >= 1
        assert page.locator(".board.mine .hinted").count() == 1
        page.screenshot(path=str(shots / "keys-hint.png"))
        # Not played: same version, still this player's turn.
        page.wait_for_timeout(500)
        assert page.evaluate("document.body.dataset.version") == version
        assert page.evaluate("document.body.dataset.myTurn") == "yes"
        # By keyboard the hint is one step away: Shift+Tab from the Hint button lands on the
        # hinted colour, and Enter, Enter, Enter play it (the player's choice: nothing is sent
        # until they confirm). The hint then goes.
        move = page.get_attribute("#hint-text", "data-move")
        page.focus("#hint-button")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.classList.contains('hinted')")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.matches('.board.mine .target, #confirm')")
        if page.evaluate("document.activeElement.id") != "confirm":
            assert page.evaluate("document.activeElement.classList.contains('hinted')")
            page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.id === 'confirm'")
        assert move in page.inner_text("#pending-text")
        page.keyboard.press("Enter")
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        assert page.locator("#hint-text").is_hidden() and page.locator(".hinted").count() == 0

        # The same seat on a phone: the hint sits by the prompt, the marks on the board above.
        mobile = browser.new_context(viewport=PHONE).new_page()
        mobile.goto(links["own"])
        mobile.wait_for_selector("body[data-my-turn='yes']", timeout=15000)
        mobile.click("#hint-button")
        mobile.wait_for_selector("#hint-text:not([hidden])", timeout=30000)
        assert mobile.inner_text("#hint-text").startswith("Hint: ")
        mobile.locator("#hint-text").scroll_into_view_if_needed()
        mobile.screenshot(path=str(shots / "keys-hint-phone.png"))
        assert mobile.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        phone = browser.new_context(viewport=PHONE).new_page()
        table = running.create("standard", [{"name": "Plain"}, {"bot": "greedy"}])
        phone.goto(table["seats"][0]["url"])
        phone.wait_for_selector("body[data-my-turn='yes']")
        assert phone.locator("#hint-button").count() == 0 or phone.locator("#hint-button").is_hidden()
    finally:
        running.stop()


def create_on_home_page_keeping(page, server) -> dict:
    """The home page's form, already open (the hints box ticked), filled for a person and a bot."""
    page.fill("input[name=your-name]", "Ann")
    page.select_option("#seat-count", "2")
    page.select_option("select[name=seat-kind-1]", "bot:greedy")
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    return {"own": page.get_attribute("#open-own", "href")}

