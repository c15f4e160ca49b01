"""Hints: off unless the table's creator turned them on; then the seat to move may ask the search
bot for a suggestion, computed in the bot worker pool from what that seat may know, one at a
time, and never played for it. Through the protocol (in process), the stores (SQLite and
PostgreSQL) and a real browser.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

import pytest
from test_browser import DESKTOP, PHONE, Server, _need_browser, browser, errors, shots
from test_server import TIMEOUT, Seat, create, make_config, secret_of, serving

from azul_core.web.bots import BotPool
from azul_core.web.hints import MOVED_ON
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
    seat's secret sealed. A second question while one is thought about waits for the same
    search's answer."""
    app_config = make_config(tmp_path)
    with serving(app_config, catalog) as client:
        server = client.app.server
        asked: list[tuple] = []
        release = asyncio.Event()

        async def choose(ref, record, bot, seed, sealed=((), None, None)):
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
        north.ws.send_json({"type": "hint", "version": north.state["version"]})
        still_the_same(north, north.state["version"])  # both questions heard, neither answered yet
        client.portal.call(release.set)
        answer = next_hint(north)
        assert answer["move"] == legal_now[0]
        assert next_hint(north) == answer, "each question is answered"
        assert len(asked) == 1
        ref, record, bot, seed = asked[0]
        assert bot == "mcts" and ref.endswith("secret-goal.yaml")
        (values,) = record["secrets"].values()
        assert values[0] != {"sealed": True}, "the seat's own secret is known to its hint"
        assert values[1] == {"sealed": True}, "another seat's secret must not reach the hint"


# ---------------------------------------------------------------- the hint flood (issue 41)


def hints_table(client, people: int = 2):
    return client.post("/api/tables", json={"variant": "standard", "hints": True,
                                            "seats": [{"name": f"P{n}"} for n in range(people)]})


def test_a_table_with_hints_counts_in_its_address_s_search_bot_budget(tmp_path, catalog):
    """Hints are searches on the bot workers: a table with hints counts as one with a search
    bot (it used to count as nothing: twelve tables of people asking for hints were taken from
    one address where the fourth table with a search bot was refused)."""
    with serving(make_config(tmp_path, search_tables_per_address=2), catalog) as client:
        assert hints_table(client).status_code == 201
        assert create(client, seats=[{"name": "Ana"}, {"bot": "mcts"}]).status_code == 201
        refused = hints_table(client)
        assert refused.status_code == 429
        assert refused.json()["error"] == ("2 tables with a search bot or hints at once from one address: "
                                           "finish one first, or make this one without hints")
        assert create(client, seats=[{"name": "Ana"}, {"bot": "mcts"}]).status_code == 429
        assert create(client).status_code == 201, "a table without hints nor search bot is not counted"


def test_a_second_question_of_the_same_seat_is_answered_by_the_same_search(tmp_path, catalog):
    """The seat's two pages (a phone and a laptop) ask at the same version, one of them twice:
    one search, and every question gets its answer."""
    with serving(make_config(tmp_path), catalog) as client:
        server = client.app.server
        asked, release = [], asyncio.Event()

        async def choose(ref, record, bot, seed, sealed=((), None, None)):
            asked.append(seed)
            await release.wait()
            return legal_now[0]

        server.bot_pool.choose = choose
        created = hints_table(client).json()
        phone = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        laptop = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        legal_now = [d["move"] for d in phone.state["legal"]["drafts"]]
        version = phone.state["version"]
        for page in (phone, laptop, phone):
            page.ws.send_json({"type": "hint", "version": version})
        still_the_same(phone, version)
        still_the_same(laptop, version)
        client.portal.call(release.set)
        answers = [next_hint(phone), next_hint(laptop), next_hint(phone)]
        assert answers[0]["move"] == legal_now[0] and answers[0]["reason"] is None
        assert answers == [answers[0]] * 3
        assert asked == [f"test-1:hint:0:version:{version}"]


def test_a_hint_whose_table_moved_on_is_cancelled_and_never_told(tmp_path, catalog):
    """North asks, then moves at once: the search stops there (it used to run to its end, on a
    worker others wait for), and North is told the table moved on, never the hint."""
    with serving(make_config(tmp_path), catalog) as client:
        server = client.app.server
        started, stopped = [], []

        async def choose(ref, record, bot, seed, sealed=((), None, None)):
            started.append(seed)
            try:
                await asyncio.Event().wait()  # a search that ends only when stopped
            except asyncio.CancelledError:
                stopped.append(seed)
                raise

        server.bot_pool.choose = choose
        created = hints_table(client).json()
        north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        table = server.table(created["table"])
        version = north.state["version"]
        north.ws.send_json({"type": "hint", "version": version})
        north.move(north.state["legal"]["drafts"][0]["move"])
        told = next_hint(north)
        assert told["move"] is None and told["reason"] == MOVED_ON and told["version"] > version
        assert started == stopped == [f"test-1:hint:0:version:{version}"]
        assert client.portal.call(lambda: dict(table.hinting)) == {}
        still_the_same(north, table.version)


class HeldWorkers:
    """A process pool's stand-in whose jobs end when the test says (``finish``): the order in
    which searches reach a worker, with nothing run."""

    def __init__(self):
        self.seeds: list[str] = []
        self.futures: list[concurrent.futures.Future] = []

    def submit(self, function, variant_ref, record, bot, seed, think, sealed=((), None, None)):
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_running_or_notify_cancel()  # in a worker: cancelling it can't stop it
        self.seeds.append(seed)
        self.futures.append(future)
        return future

    def finish(self, index: int, answer: str = "1B1") -> None:
        self.futures[index].set_result(answer)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_search_nobody_waits_for_never_runs_and_one_running_keeps_its_worker():
    async def scenario():
        pool, workers = BotPool(1, None), HeldWorkers()
        pool._pool = lambda: workers
        first = asyncio.ensure_future(pool.choose("v", {}, "mcts", "first"))
        await settle()
        queued = asyncio.ensure_future(pool.choose("v", {}, "mcts", "queued"))
        await settle()
        queued.cancel()  # its table moved on while it waited for the worker
        first.cancel()  # its table moved on while a worker thinks: it goes on there
        third = asyncio.ensure_future(pool.choose("v", {}, "mcts", "third"))
        await settle()
        assert workers.seeds == ["first"], "the cancelled search never runs; the next waits for the busy worker"
        workers.finish(0)
        await settle()
        assert workers.seeds == ["first", "third"]
        workers.finish(1, "2R2")
        assert await third == "2R2"
        assert queued.cancelled() and first.cancelled()

    asyncio.run(scenario())


def test_the_hint_flood_holds_no_other_table_s_search_bot_up(tmp_path, catalog):
    """The attack of issue 41, step by step with the workers held: one address makes twelve
    tables of four people with hints, and at each turn the player asks for a hint and moves at
    once. It used to pile up a search per question ahead of everybody's (another table's
    search bot waited 47.7 s for its 1 s). Now three tables are taken, each question's search
    stops when its table moves on, and a search asked for afterwards is the next to run."""
    with serving(make_config(tmp_path, bot_workers=1), catalog) as client:
        server = client.app.server
        workers = HeldWorkers()
        server.bot_pool._pool = lambda: workers
        made = [hints_table(client, people=4) for _ in range(12)]
        assert [answer.status_code for answer in made] == [201] * 3 + [429] * 9
        tables = [answer.json() for answer in made[:3]]
        pages = [[Seat(client, t["table"], secret_of(seat["url"])) for seat in t["seats"]] for t in tables]
        for _turn in range(8):
            for seats in pages:
                state = seats[0].state
                mover = seats[state["view"]["to_move"]]
                mover.wait_version(state["version"])
                mover.ws.send_json({"type": "hint", "version": state["version"]})
                mover.move(mover.state["legal"]["drafts"][0]["move"])
                for seat in seats:
                    seat.wait_version(state["version"] + 1)
        hinting = client.portal.call(lambda: [dict(server.tables[t["table"]].hinting) for t in tables])
        assert hinting == [{}, {}, {}], "no hint search is left for a version that has passed"
        assert len(workers.seeds) == 1, "one search reached the worker; the others stopped before"

        async def victim():  # another table's search bot asks for the worker now
            return await server.bot_pool.choose("v", {}, "mcts", "victim")

        answer = client.portal.start_task_soon(victim)
        workers.finish(0)  # the one search that reached the worker ends
        for _ in range(2000):
            if len(workers.seeds) > 1:
                break
            time.sleep(0.01)
        assert workers.seeds[1:] == ["victim"], "the victim's search is the next to run"
        client.portal.call(workers.finish, 1)
        assert answer.result(TIMEOUT) == "1B1"


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

