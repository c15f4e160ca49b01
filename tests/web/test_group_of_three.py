"""Issue 23's "Done when", in a real browser: a group of three plays a whole game at the online
table from the browser alone, and everything players expect happens on the way.

Ana (1280 px, clicks) creates the table on the home page with a turn clock and hints; Bob
(1280 px) plays by keyboard only; Cy plays on a phone (375 px). Cy closes the page and, at his
turn, the stand-in bot takes his seat after the clock's away time; Cy opens his link again, the
game log shows every move (from the server), the banner tells him and he takes the seat back.
Bob's clock runs out and the stand-in plays for him until he takes the seat back (by keys).
The game ends; every open page is offered the rematch, Ana takes it and the others follow; the
finished game's replay page is opened from its watch link and stepped through.

The server runs in this process (uvicorn in a thread), so its clock is the test's
(``Config.now``): a clock "runs out" when the test moves it, never by waiting, and the deals
come from a fixed ``seed``. Screenshots of the table in each state, at 1280 and 375 px, go to
``build/screenshots/<test>/``; ``AZUL_README_SCREENSHOT=1`` also refreshes docs/images/group-*.png.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
import time

import pytest
from seats_helpers import FakeClock
from test_browser import DESKTOP, GAME_SECONDS, PHONE, ROOT, Person, _need_browser, browser, errors, shots
from test_keyboard import MOST_KEYS, Keyboard

from azul_core.web.app import Config, create_app

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

#: the clock chosen on the home page: a minute a move; the stand-in after 30 s away
CLOCK_SECONDS, AWAY_SECONDS = 60, 30


class InProcessServer:
    """The online table's app under uvicorn in a thread of this process, on a free loopback
    port, with the test's clock; ``call`` runs a function in the server's event loop."""

    def __init__(self, data, clock: FakeClock, seed: str):
        import uvicorn

        config = Config(data=data, seed=seed, now=clock, bot_delay=0.05, think=0.05, absent_grace=1,
                        bot_workers=1)
        self.app = create_app(config)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.uvicorn = uvicorn.Server(uvicorn.Config(self.app, lifespan="on", log_level="warning"))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.uvicorn.serve(sockets=[self.sock]))

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        try:
            while not self.uvicorn.started:
                assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        except BaseException:  # the fixture's teardown does not run when its setup failed
            self.stop()
            raise

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(15)
        self.sock.close()

    @property
    def tables(self):
        return self.app.server

    def call(self, function):
        async def run():
            return function()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(15)

    def clocks_looked_at(self) -> int:
        """The server looks at every table's clock now (as its timers do when they wake)."""
        return self.call(self.app.server.seats.check_all)


@pytest.fixture
def served(tmp_path):
    _need_browser()
    clock = FakeClock(start=time.time())
    running = InProcessServer(tmp_path / "data", clock, seed="group-of-three")
    running.clock = clock
    running.start()
    yield running
    running.stop()


def keep(shot, name: str) -> None:
    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
        shutil.copy(shot, ROOT / "docs" / "images" / name)


def both_widths(page, folder, name: str, show: str | None = None) -> None:
    """The page's screenshot at 1280 and at 375 px (the viewport put back after), scrolled to
    the top, or to ``show`` (a selector) when given."""
    before = page.viewport_size
    for size, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)  # let the layout settle before the picture
        if show:
            page.locator(show).scroll_into_view_if_needed()
        else:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"{name}{suffix}.png"))
    page.set_viewport_size(before)


def create_with_clock_on_home_page(page, url: str) -> dict:
    """Ana fills the home page: three people, a clock of a minute a move, hints on."""
    page.goto(url + "/")
    page.wait_for_selector("#variant option[value='standard']", state="attached")
    page.select_option("#variant", "standard")
    page.select_option("#seat-count", "3")
    page.fill("input[name=your-name]", "Ana")
    for number, name in ((1, "Bob"), (2, "Cy")):
        page.select_option(f"select[name=seat-kind-{number}]", "person")
        page.fill(f"input[name=seat-name-{number}]", name)
    page.select_option("#clock-mode", "move")
    page.wait_for_selector(f"#clock-seconds option[value='{CLOCK_SECONDS}']", state="attached")
    page.select_option("#clock-seconds", str(CLOCK_SECONDS))
    page.wait_for_selector("#clock-bot option[value='greedy']", state="attached")
    page.select_option("#clock-bot", "greedy")
    page.select_option("#clock-away", str(AWAY_SECONDS))
    page.check("#hints")
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    links = {element.get_attribute("data-link"): element.input_value()
             for element in page.locator("input.link-url").all()}
    links["own"] = page.get_attribute("#open-own", "href")
    return links


class Group:
    """The three at the table: Ana and Cy click (``Person``), Bob presses keys (``Keyboard``)."""

    def __init__(self, ana: Person, bob: Keyboard, cy: Person):
        self.ana, self.bob, self.cy = ana, bob, cy
        self.cy_here = True
        self.bob_turns = 0

    def pages(self):
        return [self.ana.page, self.bob.page] + ([self.cy.page] if self.cy_here else [])

    def play(self, until, seconds: float = GAME_SECONDS) -> None:
        """Whoever's page says it is their turn moves, until ``until()``."""
        deadline = time.monotonic() + seconds
        while not until():
            assert time.monotonic() < deadline, "the game did not move on in time"
            moved = False
            if self.ana.my_turn():
                self.ana.play_one()
                moved = True
            elif self.bob.my_turn() and not until():
                self.bob.turn(self.bob_turns)
                self.bob_turns += 1
                moved = True
            elif self.cy_here and self.cy.my_turn() and not until():
                self.cy.play_one()
                moved = True
            if not moved:
                time.sleep(0.03)


def to_move(page) -> int | None:
    """The seat to move, as the page shows it."""
    seat = page.evaluate("document.querySelector('.board.to-move')?.dataset.seat ?? null")
    return None if seat is None else int(seat)


def moves_in_log(page) -> list[str]:
    return page.locator("#game-log .log-move").all_inner_texts()


def press_until_focused(keys: Keyboard, selector: str, most: int = 60) -> None:
    """Tab until ``selector`` has the focus (a keyboard player reaching a button)."""
    for _ in range(most):
        if keys.page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        keys.press("Tab")
    raise AssertionError(f"{selector} is never reached by Tab")


def test_a_group_of_three_plays_a_whole_game_with_a_leaver_a_clock_a_rematch_and_a_replay(
        browser, served, shots, errors):
    # ------------------------------------------------ Ana makes the table on the home page
    ana_context = browser.new_context(viewport=DESKTOP)
    home = ana_context.new_page()
    links = create_with_clock_on_home_page(home, served.url)
    old_table = links["seat-0"].split("/t/", 1)[1].split("#", 1)[0]
    ana = Person(ana_context, links["own"], "Ana", errors)
    bob_page = browser.new_context(viewport=DESKTOP).new_page()
    bob_page.on("console", lambda m: errors.append(f"Bob: {m.text}") if m.type == "error" else None)
    bob_page.goto(links["seat-1"])
    bob = Keyboard(bob_page, errors)
    cy = Person(browser.new_context(viewport=PHONE), links["seat-2"], "Cy", errors)
    group = Group(ana, bob, cy)

    # The clock is on every page; the rules box and the Hint button too.
    for page in group.pages():
        page.locator("#clock").wait_for(state="visible")
        assert "a move" in page.inner_text("#clock")
        page.wait_for_selector("#rules-box", state="attached")
    assert ana.page.inner_text(".board.mine .player-name") == "Ana"

    # ------------------------------------------------ a few turns; the screens as they are
    group.play(until=lambda: ana.moves >= 2 and cy.moves >= 1 and ana.my_turn())
    page = ana.page
    page.click("#hint-button")
    page.wait_for_selector("#hint-text:not([hidden])")
    assert page.inner_text("#hint-text").strip()
    page.locator("#supply button.tile.pickable").first.click()
    page.wait_for_selector(".board.mine .target")
    page.wait_for_selector(".board.mine .preview, .preview-list", state="attached")
    both_widths(page, shots, "group-your-turn")
    keep(shots / "group-your-turn.png", "group-your-turn.png")
    # On a phone, the colour picked: the board (its lines and floor) and the confirm bar are
    # on the screen together, the log and the other panels below them.
    page.set_viewport_size(PHONE)
    page.locator(".board.mine .target").first.click()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    page.wait_for_timeout(100)
    board = page.locator(".board.mine").bounding_box()
    bar = page.locator("#confirm-bar").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= bar["y"] + 1, (board, bar)
    assert bar["y"] + bar["height"] <= PHONE["height"] + 1
    page.screenshot(path=str(shots / "group-confirm-phone.png"))
    keep(shots / "group-confirm-phone.png", "group-confirm-phone.png")
    below = ("#game-log", "#rules-box", "#seat-link")
    tops = {name: page.evaluate(f"document.querySelector('{name}').getBoundingClientRect().top + scrollY")
            for name in (".board.mine", "#supply", "#play", *below)}
    assert all(tops[name] > tops["#play"] > tops[".board.mine"] for name in below), tops
    page.click("#cancel")
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("Escape")
    page.evaluate("document.getElementById('rules-box').open = true")
    both_widths(page, shots, "group-rules", show="#rules-box")
    page.evaluate("document.getElementById('rules-box').open = false")

    # ------------------------------------------------ Cy leaves; at his turn the stand-in plays
    cy.page.close()
    group.cy_here = False
    ana.page.wait_for_selector(".board[data-seat='2'] .badge.away")
    group.play(until=lambda: to_move(ana.page) == 2)
    assert served.clocks_looked_at() == 0, "away, but not for long yet"
    served.clock.advance(AWAY_SECONDS + 1)
    assert served.clocks_looked_at() == 1
    ana.page.wait_for_selector(".board[data-seat='2'] .badge.bot")
    # The stand-in moves for Cy; the others play on around it.
    before = ana.version()
    group.play(until=lambda: ana.version() > before + 4 and to_move(ana.page) == 0)

    # ------------------------------------------------ Cy comes back: log, banner, reclaim
    cy.open()
    group.cy_here = True
    banner = cy.page.locator("#seat-banner")
    banner.wait_for(state="visible")
    assert "greedy bot is playing your seat" in banner.inner_text()
    # The game log after the reconnection: every move so far (the stand-in's too), from the
    # server, and the stand-in's coming in words.
    cy.page.wait_for_selector("#game-log .log-move")
    ana_log = moves_in_log(ana.page)
    cy.page.wait_for_function("n => document.querySelectorAll('#game-log .log-move').length >= n", arg=len(ana_log))
    assert moves_in_log(cy.page)[:len(ana_log)] == ana_log
    assert any(text.startswith("Cy takes") for text in ana_log), "Cy's own moves before he left"
    left = cy.page.locator("#game-log .log-seat-event[data-event='standin']")
    assert left.inner_text() == "Cy left the table: the stand-in bot 'greedy' plays the seat until they take it back"
    assert left.evaluate("e => getComputedStyle(e).display") == "block", "not numbered as a move"
    both_widths(cy.page, shots, "group-reclaim-banner")
    keep(shots / "group-reclaim-banner-phone.png", "group-reclaim-banner-phone.png")
    both_widths(cy.page, shots, "group-log", show="#game-log")
    keep(shots / "group-log-phone.png", "group-log-phone.png")
    cy.page.click("#reclaim")
    banner.wait_for(state="hidden")
    cy.page.wait_for_selector(".board[data-seat='2'] .badge.bot", state="detached")
    ana.page.wait_for_function("() => document.querySelector('#game-log').textContent.includes('Cy takes the seat back')")

    # ------------------------------------------------ Bob's clock runs out
    group.play(until=lambda: bob.my_turn())
    assert bob.page.locator("#clock .running").count() == 1 or "you" in bob.page.inner_text("#clock")
    both_widths(bob.page, shots, "group-clock")
    served.clock.advance(CLOCK_SECONDS - 5)
    assert served.clocks_looked_at() == 0, "in time"
    served.clock.advance(6)
    assert served.clocks_looked_at() == 1
    banner = bob.page.locator("#seat-banner")
    banner.wait_for(state="visible")
    assert "clock ran out" in banner.inner_text()
    bob.page.wait_for_selector(".board[data-seat='1'] .badge.bot")
    # The stand-in plays Bob's turn; then Bob takes the seat back by keys.
    bob.page.wait_for_function("() => document.querySelector('.board.to-move')?.dataset.seat !== '1'", timeout=15000)
    press_until_focused(bob, "#reclaim")
    bob.press("Enter")
    banner.wait_for(state="hidden")
    bob.page.wait_for_selector(".board[data-seat='1'] .badge.bot", state="detached")
    assert "Bob's clock ran out" in ana.page.inner_text("#game-log")

    # ------------------------------------------------ to the end of the game
    group.play(until=lambda: ana.over())
    for page in group.pages():
        page.wait_for_selector("#final-panel")
    assert bob.turns and max(bob.turns) <= MOST_KEYS, bob.turns
    result = ana.page.inner_text("#winner").removeprefix("Game over.").strip()
    assert ana.page.inner_text("#final-panel").count(result) == 1, "the result (a tie-break's words too) is said once"
    assert cy.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "wider than a phone"

    # ------------------------------------------------ the rematch, offered on every open page
    for page in group.pages():
        page.wait_for_selector("#rematch-box:not([hidden]) #rematch")
    both_widths(cy.page, shots, "group-rematch-offer")
    keep(shots / "group-rematch-offer.png", "group-rematch-offer.png")
    old_url = ana.page.url
    ana.page.click("#rematch")
    ana.page.wait_for_url(lambda url: url != old_url and "/t/" in url, timeout=15000)
    new_table = ana.page.url.split("/t/", 1)[1].split("#", 1)[0]
    assert new_table != old_table
    ana.page.wait_for_selector("body[data-version]")
    assert ana.page.inner_text(".board.mine .player-name") == "Ana"
    for page in (bob.page, cy.page):
        page.wait_for_selector("#rematch-box:not([hidden]) #rematch-go", timeout=15000)
    press_until_focused(bob, "#rematch-go")
    bob.press("Enter")
    cy.page.click("#rematch-go")
    for page, name in ((bob.page, "Bob"), (cy.page, "Cy")):
        page.wait_for_url(f"**/t/{new_table}#*", timeout=15000)
        page.wait_for_selector("body[data-version]")
        assert page.inner_text(".board.mine .player-name") == name
    # The new table has the same clock.
    ana.page.locator("#clock").wait_for(state="visible")

    # ------------------------------------------------ the finished game's replay, and its log
    watcher = browser.new_context(viewport=DESKTOP).new_page()
    watcher.on("pageerror", lambda error: errors.append(f"watcher: {error}"))
    watcher.goto(links["watch"])
    watcher.wait_for_selector("#final-panel")
    watched_log = moves_in_log(watcher)
    assert len(watched_log) >= len(ana_log) + 10
    log_text = watcher.inner_text("#game-log")
    for words in ("Cy left the table", "Cy takes the seat back", "Bob's clock ran out", "Bob takes the seat back",
                  "Ana made a rematch"):
        assert words in log_text, words
    # At 1280 px the log follows the left column's panels, however tall the boards beside them.
    gap = watcher.evaluate("""() => document.getElementById('game-log').getBoundingClientRect().top
                              - document.getElementById('round-box').getBoundingClientRect().bottom""")
    assert 0 <= gap < 40, f"a gap of {gap} px above the log"
    watcher.click("#replay-link")
    watcher.wait_for_url(f"**/t/{old_table}/replay#watch=*")
    watcher.wait_for_selector("body[data-step='0']")
    steps = watcher.locator(".log-step").count()
    assert steps >= len(watched_log)
    watcher.click("#next")
    watcher.wait_for_selector("body[data-step='1']")
    assert watcher.inner_text("#step-text") == watched_log[0]
    watcher.keyboard.press("ArrowRight")
    watcher.wait_for_selector("body[data-step='2']")
    assert watcher.inner_text("#step-text") == watched_log[1]
    watcher.keyboard.press("End")
    watcher.wait_for_selector("body[data-phase='over']")
    assert "Game over." in watcher.inner_text("#winner")
    both_widths(watcher, shots, "group-replay")
