"""The online table in a real browser: Playwright driving Debian's Chromium against a real
`azul serve` process.

Friends are browser contexts (one per person, as separate browsers would be); every move is
made on the page by clicking (a colour, then a highlighted line, then Confirm) or typed in the
move box. The test's policy for choosing among the highlighted targets is simple and fixed
(the first one), the server is started with a fixed seed, so a run is repeatable.

Screenshots of the table in play are saved to ``build/screenshots/<test name>/`` (or under
``$AZUL_SCREENSHOTS``). ``AZUL_README_SCREENSHOT=1`` also refreshes the README's picture
``docs/images/table.png``.

Chromium: ``.ci/run`` installs Debian's (``apt-get install -y chromium``); Playwright's own
browser download does not work on these machines. Without a Chromium the tests are skipped,
unless ``AZUL_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 375, "height": 812}
#: the longest a whole game may take in these tests (it takes well under a minute)
GAME_SECONDS = 240


def _need_browser():
    reason = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "the playwright package is not installed (pip install '.[test]')"
    if reason is None and CHROMIUM is None:
        reason = "no Chromium: apt-get install -y chromium (.ci/run does it)"
    if reason:
        if os.environ.get("AZUL_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required but {reason}")
        pytest.skip(reason)


# ---------------------------------------------------------------------------- the server


class Server:
    """`azul serve` in a subprocess on loopback, with its own data folder; restartable on the
    same port (so the links stay the same) and killable with SIGKILL."""

    def __init__(self, data: Path, seed: str, extra: tuple[str, ...] = ()):
        self.data = data
        self.seed = seed
        self.extra = list(extra)
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.port = 0
        self.output: list[str] = []
        self.options = self._options()

    @staticmethod
    def _command() -> list[str]:
        return [sys.executable, "-m", "azul_core.cli", "serve"]

    def _options(self) -> list[str]:
        """The options that make a test run quick and repeatable, where this `azul serve` has them."""
        help_text = subprocess.run(self._command() + ["--help"], capture_output=True, text=True,
                                   env={**os.environ, "TERMINAL_WIDTH": "200"}).stdout
        options = []
        if "--seed" in help_text:
            options += ["--seed", self.seed]
        if "--bot-delay" in help_text:
            options += ["--bot-delay", "0.05"]
        if "--absent-grace" in help_text:  # the creator's panel of departed seats waits this long
            options += ["--absent-grace", "1"]
        return options

    def start(self, port: int = 0) -> None:
        command = self._command() + ["--host", "127.0.0.1", "--port", str(port), "--data", str(self.data),
                                     *self.options, *self.extra]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        found = threading.Event()

        def drain(stream):
            for line in stream:
                self.output.append(line.rstrip())
                match = re.search(r"Serving on (http://[\w.\-]+:(\d+))", line)
                if match and not found.is_set():
                    self.url, self.port = match.group(1), int(match.group(2))
                    found.set()

        threading.Thread(target=drain, args=(self.proc.stdout,), daemon=True).start()
        try:
            self._wait_until_it_answers(found)
        except BaseException:  # not started: the test's finally or teardown never holds it
            self.stop()
            raise

    def _wait_until_it_answers(self, found: threading.Event) -> None:
        deadline = time.monotonic() + 30
        while not found.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("azul serve did not start:\n" + "\n".join(self.output[-30:]))
        # The line is printed just before uvicorn binds: wait until it answers.
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2):
                    return
            except OSError as exc:
                if time.monotonic() > deadline:
                    raise AssertionError("azul serve never answered:\n" + "\n".join(self.output[-30:])) from exc
                time.sleep(0.1)

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL: nothing is flushed or closed cleanly)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it is still running 10 s later (or if waiting failed)."""
        if not self.proc:
            return
        try:
            if self.proc.poll() is None:
                self.proc.terminate()
                self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(10)

    def create(self, variant: str, seats: list[dict]) -> dict:
        request = urllib.request.Request(self.url + "/api/tables", method="POST",
                                         data=json.dumps({"variant": variant, "seats": seats}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
            return json.load(response)


@pytest.fixture
def server(tmp_path, request):
    _need_browser()
    running = Server(tmp_path / "data", seed=f"browser-{request.node.name}")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def shots(request) -> Path:
    """The folder this test saves its screenshots in."""
    base = Path(os.environ.get("AZUL_SCREENSHOTS") or ROOT / "build" / "screenshots")
    folder = base / re.sub(r"[^\w\-]+", "_", request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ---------------------------------------------------------------------------- a person at the table


class Person:
    """One person's page. Plays by clicking, choosing among what the page highlights."""

    def __init__(self, context, url: str, label: str, errors: list[str]):
        self.context = context
        self.url = url
        self.label = label
        self.errors = errors
        self.moves = 0
        self.typed = 0
        self.warnings_seen = 0
        self.page = None
        self.open()

    def open(self) -> None:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{self.label}: {error}"))
        page.on("console", self._console)
        page.goto(self.url)
        page.wait_for_selector("body[data-version]")
        self.page = page

    def _console(self, message) -> None:
        # While the server is down the browser logs each refused reconnection: expected.
        if message.type == "error" and "WebSocket connection to" not in message.text:
            self.errors.append(f"{self.label}: console: {message.text}")

    def reopen(self) -> None:
        """Close the page (as a person closing the tab would) and open the link again."""
        self.page.close()
        self.open()

    def body(self, key: str) -> str | None:
        return self.page.evaluate(f"document.body.dataset.{key} ?? null")

    def version(self) -> int:
        return int(self.body("version") or -1)

    def my_turn(self) -> bool:
        return self.body("myTurn") == "yes"

    def over(self) -> bool:
        return self.body("phase") == "over"

    def wait_version_after(self, version: int, timeout: float = 15) -> None:
        self.page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version,
                                    timeout=timeout * 1000)

    def play_one(self, typed: bool = False, try_misplaced: bool = False) -> None:
        """Make one move: a wall space when asked for one, else a colour and a line."""
        page = self.page
        before = self.version()
        cells = page.locator(".board.mine .cell.target")
        if cells.count():
            cells.first.click()
            page.wait_for_selector("#confirm-bar:not([hidden])")
            assert "wall column" in page.inner_text("#pending-text")
            page.click("#confirm")
        else:
            tile = page.locator("#supply button.tile.pickable").first
            source, colour = tile.get_attribute("data-source"), tile.get_attribute("data-colour")
            tile.click()
            if try_misplaced and page.locator(".board.mine .target.misplaced").count():
                # A draft that sends the tiles to the floor asks first; the player changes it.
                page.locator(".board.mine .target.misplaced").first.click()
                page.wait_for_selector("#pending-warning:not([hidden])")
                assert "floor" in page.inner_text("#pending-warning")
                self.warnings_seen += 1
                page.click("#cancel")
                assert page.locator("#confirm-bar").is_hidden()
            if page.locator("#confirm-bar").is_visible():
                page.click("#confirm")  # the colour had one place to go: chosen already
            else:
                targets = page.locator(".board.mine .target:not(.misplaced)")
                target = targets.first if targets.count() else page.locator(".board.mine .target").first
                if typed:
                    line = target.get_attribute("data-line")
                    move = f"{'C' if source == '0' else source}{LETTERS[colour]}{'-' if line == 'floor' else int(line) + 1}"
                    page.fill("input[name=move]", move)
                    page.press("input[name=move]", "Enter")
                    self.typed += 1
                else:
                    target.click()
                    page.wait_for_selector("#confirm-bar:not([hidden])")
                    page.click("#confirm")
        self.wait_version_after(before)
        self.moves += 1


LETTERS = {"blue": "B", "yellow": "Y", "red": "R", "black": "K", "white": "W"}


def play(people: list[Person], until, seconds: float = GAME_SECONDS, **options) -> None:
    """Whoever's page says it is their turn moves, until ``until()`` is true."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the game did not move on in time"
        moved = False
        for person in people:
            if person.my_turn():
                typed = options.get("type_every") and (person.moves + 1) % options["type_every"] == 0
                person.play_one(typed=bool(typed), try_misplaced=options.get("try_misplaced", False))
                moved = True
                if until():
                    return
        if not moved:
            time.sleep(0.03)


def game_over(people: list[Person]):
    return lambda: all(person.over() for person in people)


def check_final(person: Person, shots: Path, server: Server, variant_folder: Path | None = None) -> dict:
    """The end of the game on a page: winners, bonuses, and a record that `azul validate` accepts."""
    page = person.page
    page.wait_for_selector("#final-panel")
    winner = page.inner_text("#winner")
    assert "Game over" in winner and ("wins" in winner or "share" in winner or "win" in winner), winner
    assert page.locator(".final-table tbody tr").count() == len(page.locator(".board").all())
    assert page.locator(".final-table tr.winner").count() >= 1
    with page.expect_download() as download:
        page.click("#download")
    saved = shots / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record.get("format", "").startswith("azul-record/1")
    env = {**os.environ}
    consent: list[str] = []
    if variant_folder:
        env["AZUL_VARIANTS_PATH"] = str(variant_folder)
        # A record runs no code alone: naming the house rule's file lets its plugin run.
        for variant_file in sorted(variant_folder.glob("*.yaml")):
            consent += ["--variant", str(variant_file)]
    result = subprocess.run([sys.executable, "-m", "azul_core.cli", "validate", *consent, str(saved)],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return record


def create_on_home_page(page, server: Server, variant: str, seats: list[str], your_name: str) -> dict:
    """Fill the home page's form; seats[1:] are 'person:NAME' or 'bot:NAME'. Returns the links."""
    page.goto(server.url + "/")
    page.wait_for_selector("#variant option[value='standard']", state="attached")
    page.select_option("#variant", variant)
    assert page.inner_text("#variant-description").strip()
    page.select_option("#seat-count", str(len(seats)))
    page.fill("input[name=your-name]", your_name)
    for number, seat in enumerate(seats[1:], start=1):
        kind, _, name = seat.partition(":")
        if kind == "person":
            page.select_option(f"select[name=seat-kind-{number}]", "person")
            page.fill(f"input[name=seat-name-{number}]", name)
        else:
            page.select_option(f"select[name=seat-kind-{number}]", f"bot:{name}")
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    links = {element.get_attribute("data-link"): element.input_value()
             for element in page.locator("input.link-url").all()}
    links["own"] = page.get_attribute("#open-own", "href")
    return links


@pytest.fixture
def errors():
    """Script errors on any page fail the test."""
    found: list[str] = []
    yield found
    assert not found, "errors on the pages:\n" + "\n".join(found)


# ---------------------------------------------------------------------------- the games


def test_standard_game_two_friends_and_a_bot(browser, server, shots, errors):
    """A whole standard game from the home page: two friends (one on a phone) and a greedy bot,
    a watcher following along, one page closed and reopened mid-game, the server killed and
    restarted mid-game, refusals in words, and the final record validated."""
    host = browser.new_context(viewport=DESKTOP)
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    home = host.new_page()
    links = create_on_home_page(home, server, "standard", ["you", "person:East", "bot:greedy"],
                                your_name="North")
    home.screenshot(path=str(shots / "links.png"), full_page=True)
    home.click("[data-copy='seat-1']")
    home.wait_for_selector(".copied:text('copied')")
    assert home.evaluate("navigator.clipboard.readText()") == links["seat-1"]
    assert "#seat=" in links["seat-0"] and "#seat=" in links["seat-1"] and "#watch=" in links["watch"]
    assert "?" not in links["seat-1"], "a secret must never travel in a query string"
    assert links["own"].startswith(links["seat-0"]) and "&admin=" in links["own"]

    north = Person(host, links["own"], "North", errors)
    friend = Person(browser.new_context(viewport=PHONE), links["seat-1"], "friend", errors)
    watcher = Person(browser.new_context(viewport=DESKTOP), links["watch"], "watcher", errors)
    people = [north, friend]

    assert watcher.body("role") == "watcher" and watcher.page.locator("#play").is_hidden()

    # Seat 0 starts: the page highlights only what North may take, and the friend may not move.
    assert north.my_turn() and not friend.my_turn()
    assert north.page.locator("#supply button.tile.pickable").count() > 0
    assert friend.page.locator("#supply button.tile.pickable").count() == 0
    # Every colour carries its letter, on tiles and on the printed wall.
    assert set(north.page.locator(".board.mine .cell.printed .print").all_inner_texts()) == set("BYRKW")

    # Not your turn: the friend's typed move is refused, with the reason in words.
    friend.page.fill("input[name=move]", "1B1")
    friend.page.press("input[name=move]", "Enter")
    friend.page.wait_for_selector("#message:not([hidden])")
    assert "turn" in friend.page.inner_text("#message")
    # Not legal: a colour the factory lacks (which the rules forbid, said as such).
    factory_one = set(north.page.locator("#factories [data-source='1'] .tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.colour)"))
    missing = next(c for c in LETTERS if c not in factory_one)
    north.page.fill("input[name=move]", f"1{LETTERS[missing]}1")
    north.page.press("input[name=move]", "Enter")
    north.page.wait_for_selector("#message:not([hidden])")
    assert f"no {missing}" in north.page.inner_text("#message")
    # A choice can be changed until it is confirmed.
    tiles = north.page.locator("#supply button.tile.pickable")
    tiles.first.click()
    north.page.locator(".board.mine .target").first.click()
    first_choice = north.page.inner_text("#pending-text")
    tiles.last.click()
    assert north.page.locator("#confirm-bar").is_hidden()
    north.page.locator(".board.mine .target").last.click()
    assert north.page.inner_text("#pending-text") != first_choice
    north.page.click("#cancel")

    # Round 1 by clicking (every fourth of North's moves typed in the move box).
    play(people, until=lambda: north.over() or int(north.body("round")) >= 2, type_every=4)
    assert north.typed >= 1
    # The round's summary: what each placed tile scored and what the floor cost.
    north.page.wait_for_selector(".round-summary")
    assert "floor" in north.page.inner_text(".round-summary")

    # A few moves into round 2, the friend's page is closed and opened again: it catches up.
    play(people, until=lambda: north.moves + friend.moves >= 20 and north.my_turn())
    north.page.locator("#supply button.tile.pickable").first.click()  # its legal lines light up
    assert north.page.locator(".board.mine .target").count() >= 1
    north.page.screenshot(path=str(shots / "table-in-play.png"))
    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
        shutil.copy(shots / "table-in-play.png", ROOT / "docs" / "images" / "table.png")
    friend.page.screenshot(path=str(shots / "phone-375.png"), full_page=True)
    assert friend.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], \
        "the page is wider than a phone"
    watcher.page.screenshot(path=str(shots / "watcher.png"), full_page=True)
    if north.page.locator("#confirm-bar").is_visible() or north.page.locator(".tile.selected").count():
        north.page.keyboard.press("Escape")

    before = north.version()
    friend.reopen()
    assert friend.version() >= before
    assert friend.page.inner_text(".board.mine .player-name") == "East"

    # The friend's network drops for a while (a phone asleep, a tunnel): the others play on, and
    # when it is back the page catches up by itself.
    play(people, until=lambda: north.my_turn())
    friend.context.set_offline(True)
    north.play_one()
    time.sleep(0.5)
    assert friend.version() < north.version(), "offline, the friend's page can't have the news"
    friend.context.set_offline(False)
    friend.page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=north.version(),
                                  timeout=20000)

    # The server is killed mid-game and started again on the same port: nothing is lost.
    play(people, until=lambda: north.moves + friend.moves >= 30)
    version = north.version()
    scores = north.page.locator(".score").all_inner_texts()
    server.kill()
    north.page.wait_for_selector("#connection:not([data-status='live'])", timeout=10000)
    server.start(port=server.port)
    for person in (north, friend, watcher):
        person.page.wait_for_selector("#connection[data-status='live']", timeout=20000)
        assert person.version() >= version
    assert north.page.locator(".score").all_inner_texts() == scores or north.version() > version

    # ... and the game goes on to its end.
    play(people, until=game_over(people + [watcher]))
    north.page.screenshot(path=str(shots / "game-over.png"), full_page=True)
    friend.page.screenshot(path=str(shots / "game-over-phone.png"), full_page=True)
    record = check_final(north, shots, server)
    assert len(record.get("players", record.get("seats", [1, 2, 3]))) == 3
    assert watcher.page.locator("#final-panel").count() == 1


def test_grey_wall_game_columns_chosen_on_the_page(browser, server, shots, errors):
    """Grey wall: two friends and a bot; when a full line's tile has several legal spaces, the
    page asks for the column, highlighting the legal spaces of that wall row."""
    links = create_on_home_page(browser.new_context(viewport=DESKTOP).new_page(), server, "grey-wall",
                                ["you", "person:East", "bot:greedy"], your_name="West")
    west = Person(browser.new_context(viewport=DESKTOP), links["own"], "West", errors)
    east = Person(browser.new_context(viewport=DESKTOP), links["seat-1"], "East", errors)
    people = [west, east]
    # No colour is printed on a grey wall.
    assert west.page.locator(".board .cell.printed").count() == 0

    columns_chosen = 0

    def until():
        nonlocal columns_chosen
        for person in people:
            page = person.page
            if person.my_turn() and page.locator(".board.mine .cell.target").count():
                if columns_chosen == 0:
                    assert person.body("phase") == "place"
                    assert "wall" in page.inner_text("#prompt")
                    page.screenshot(path=str(shots / "choose-column.png"))
                columns_chosen += 1
        return all(person.over() for person in people)

    play(people, until=until)
    assert columns_chosen >= 1, "no wall column was ever chosen on the page"
    west.page.screenshot(path=str(shots / "game-over.png"), full_page=True)
    check_final(west, shots, server)


def test_duel_game_misplaced_draft_asks_first(browser, server, shots, errors):
    """Duel: two friends play the whole game; a draft onto a line that can't take the colour is
    offered only with a warning, and can be changed before it is sent."""
    hostile = "<img src=x onerror=alert(1)>"
    table = server.create("duel", [{"name": "Ann"}, {"name": hostile}])
    ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
    bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
    people = [ann, bob]
    # Names are text, never markup.
    assert ann.page.locator(".player-name", has_text=hostile).count() == 1
    assert ann.page.locator("main img").count() == 0
    assert ann.page.locator(".board.mine .floor-space").count() == 8
    play(people, until=game_over(people), try_misplaced=True, type_every=5)
    assert ann.warnings_seen + bob.warnings_seen >= 1, "no misplaced draft was ever offered"
    bob.page.wait_for_selector("#final-panel")
    bob.page.screenshot(path=str(shots / "game-over-phone.png"), full_page=True)
    assert bob.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert bob.page.evaluate("(t => t.scrollWidth <= t.clientWidth)(document.querySelector('.table-scroll'))"), \
        "the final table does not fit a phone"
    check_final(bob, shots, server)


def test_house_rule_from_a_variants_folder(browser, tmp_path, shots, errors):
    """A house rule from examples/ is offered when its folder is given with --variants, and a
    whole game of it is played on the page (one person against a bot)."""
    _need_browser()
    examples = ROOT / "examples" / "five-rounds"
    running = Server(tmp_path / "data", seed="browser-house-rule", extra=("--variants", str(examples)))
    running.start()
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        links = create_on_home_page(page, running, "five-rounds", ["you", "bot:greedy"], your_name="Solo")
        assert "round 5" in page.evaluate("document.querySelector('#variant-description').textContent")
        solo = Person(page.context, links["own"], "Solo", errors)
        play([solo], until=game_over([solo]))
        assert int(solo.body("round")) <= 5
        check_final(solo, shots, running, variant_folder=examples)
    finally:
        running.stop()


def test_creator_hands_a_departed_seat_to_a_bot(browser, server, errors):
    """The friend leaves; the creator's page (with the admin secret) offers to hand the seat to
    a bot, and the bot then plays it."""
    table = server.create("standard", [{"name": "Host"}, {"name": "Guest"}])
    host_url = table["seats"][0]["url"] + "&admin=" + table["admin_secret"]
    host = Person(browser.new_context(viewport=DESKTOP), host_url, "Host", errors)
    guest = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Guest", errors)
    host.play_one()
    # The guest's page hears of the move when the server tells it: wait for it, don't race.
    guest.page.wait_for_function("document.body.dataset.myTurn === 'yes'", timeout=15000)
    assert host.page.locator("#admin").is_hidden()
    guest.page.close()
    host.page.wait_for_selector("#admin:not([hidden]) [data-hand='1']")
    assert "Guest" in host.page.inner_text("#admin")
    before = host.version()
    host.page.select_option("#admin select", "greedy")
    host.page.click("[data-hand='1']")
    host.page.wait_for_selector(".board[data-seat='1'] .badge.bot")
    # The bot moves for the guest's seat: the table goes on and it is the host's turn again.
    host.page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.myTurn === 'yes'",
                                arg=before, timeout=15000)
    assert host.page.locator("#admin").is_hidden()


def test_a_link_without_its_secret_can_not_open_the_table(browser, server, errors):
    table = server.create("standard", [{"name": "A"}, {"bot": "random"}])
    page = browser.new_context().new_page()
    page.goto(table["seats"][0]["url"].split("#")[0] + "#seat=not-the-secret")
    page.wait_for_selector("#message:not([hidden])")
    # The status follows the message once the server has closed the socket: wait, don't race.
    page.wait_for_selector("#connection[data-status='refused']", timeout=10_000)
    assert page.locator("#supply button.tile.pickable").count() == 0
