"""The replay page in a real browser (Playwright, Debian's Chromium), at 1280 and 375 px: a record
served by ``azul replay --web``, stepped forward and back with the buttons, the arrow keys, the
slider and the move list; a round's end and its scoring; the last position and the result. And a
finished online table: its page links to its replay, which opens with the same link.

Screenshots go to ``build/screenshots/<test name>/`` (or ``$AZUL_SCREENSHOTS``);
``AZUL_README_SCREENSHOT=1`` also refreshes ``docs/images/replay-desktop.png`` and
``replay-phone.png`` (docs/serve.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from test_browser import DESKTOP, PHONE, ROOT, Server, _need_browser, browser, errors, shots
from test_replay_page import ReplayProcess

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """A three-player game of greedy bots (fixed seed), its seats named as people."""
    folder = tmp_path_factory.mktemp("replay")
    subprocess.run([sys.executable, "-m", "azul_core.cli", "simulate", "-p", "3", "-n", "1", "-s", "7",
                    "-b", "greedy", "--record-dir", str(folder), "-q"], check=True, capture_output=True)
    path = next(folder.glob("game-*.json"))
    data = json.loads(path.read_text())
    data["players"] = ["Ana", "Bo", "Cy"]
    named = folder / "ana-bo-cy.json"
    named.write_text(json.dumps(data))
    return named


@pytest.fixture(scope="module")
def served(record):
    _need_browser()
    process = ReplayProcess(str(record))
    yield process
    process.stop()


def open_page(browser, url: str, viewport: dict, errors: list[str]):
    page = browser.new_page(viewport=viewport)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("body[data-step='0']")
    return page


def at(page, step: int) -> None:
    page.wait_for_selector(f"body[data-step='{step}']", timeout=10000)


def keep(shot: Path, name: str) -> None:
    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
        shutil.copy(shot, ROOT / "docs" / "images" / name)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_step_through_a_record_and_see_a_rounds_scoring(browser, served, shots, errors, size):
    viewport = DESKTOP if size == "desktop" else PHONE
    index = served.get("api/replay")
    steps = index["steps"]
    page = open_page(browser, served.url, viewport, errors)
    assert page.locator("#replay-title").text_content() == "ana-bo-cy.json"
    assert page.locator("#step-text").text_content() == "Round 1: the factories are filled"
    assert page.locator("#prev").is_disabled() and page.locator("#first").is_disabled()
    # The board is the table page's: a board per seat, factories full after the deal.
    assert page.locator(".board").count() == 3
    assert page.locator(".factory .tile").count() == 7 * 4
    # Forward with the button, the keyboard; back again.
    page.click("#next")
    at(page, 1)
    assert page.locator("#step-text").text_content() == steps[1]["text"]
    assert steps[1]["text"].startswith("Ana takes ")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 3)
    page.keyboard.press("ArrowLeft")
    at(page, 2)
    page.click("#prev")
    at(page, 1)
    # The move list: the current step is marked, and a click jumps.
    assert page.locator(".log-step[data-step='1']").first.get_attribute("aria-current") == "step"
    page.locator(".log-step[data-step='6']").first.click()
    at(page, 6)
    assert page.locator("#step-text").text_content() == steps[6]["text"]
    # A round's end: its scoring, highlighted, with each tile's points; the scores agree with
    # the boards'.
    end = next(i for i, s in enumerate(steps) if s["round_end"] and s["round"] == 2)
    page.click("[data-round-end='2']")
    at(page, end)
    summary = page.locator(".round-summary.just-scored")
    assert summary.get_attribute("data-round") == "2"
    assert "Round 2 is over" in summary.locator("summary").text_content()
    view = served.get(f"api/replay/{end}")["view"]
    for seat in range(3):
        account = page.locator(f".round-seat[data-seat='{seat}'] .round-score").text_content()
        assert account == f"score after the round: {view['seats'][seat]['score']}"
        assert page.locator(f".board[data-seat='{seat}'] .score").text_content() == str(view["seats"][seat]["score"])
    assert page.locator(".round-seat .scored").count() >= 3
    page.screenshot(path=str(shots / f"replay-{size}-round-end.png"), full_page=True)
    keep(shots / f"replay-{size}-round-end.png", f"replay-{size}.png")
    # Inside the next round, the round before is still told, not highlighted.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, end + 2)
    assert page.locator(".round-summary").get_attribute("data-round") == "2"
    assert page.locator(".round-summary.just-scored").count() == 0
    # Page Down: the next round's end; End: the result.
    page.keyboard.press("PageDown")
    next_end = next(i for i, s in enumerate(steps) if s["round_end"] and s["round"] == 3)
    at(page, next_end)
    page.keyboard.press("End")
    at(page, len(steps) - 1)
    assert page.locator("body").get_attribute("data-phase") == "over"
    assert "Game over." in page.locator("#winner").text_content()
    assert page.locator("#download").count() == 0
    # The move list follows: the current move is scrolled into its view.
    assert page.evaluate("""() => {
        const list = document.getElementById("log-list");
        const item = list.querySelector("[aria-current='step']");
        const outer = list.getBoundingClientRect(), inner = item.getBoundingClientRect();
        return inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
    }""")
    assert page.locator("#next").is_disabled()
    page.screenshot(path=str(shots / f"replay-{size}-end.png"), full_page=True)
    # The slider jumps anywhere; Home goes back to the start.
    page.locator("#slider").fill("10")
    at(page, 10)
    page.keyboard.press("Home")
    at(page, 0)
    # Nothing is wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide at {viewport['width']}"
    page.close()


def wait_for_the_end(server, table: str, watch: str) -> None:
    """Until the table's bots have played its game to the end (its record has a result)."""
    deadline = time.monotonic() + 120
    while True:
        request = urllib.request.Request(f"{server.url}/api/tables/{table}/record",
                                         headers={"Authorization": f"Bearer {watch}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            if json.load(answer).get("result") is not None:
                return
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)


def test_a_finished_table_links_to_its_replay(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="replay-link")
    server.start()
    try:
        created = server.create("standard", [{"bot": "random"}, {"bot": "random"}])
        watch = created["watch_url"].split("#", 1)[1].split("=", 1)[1]
        wait_for_the_end(server, created["table"], watch)
        page = browser.new_page(viewport=DESKTOP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(created["watch_url"])
        page.wait_for_selector("#replay-link")
        page.click("#replay-link")
        page.wait_for_selector("body[data-step='0']")
        assert page.url.startswith(f"{server.url}/t/{created['table']}/replay#watch=")
        page.keyboard.press("End")
        page.wait_for_selector("body[data-phase='over']")
        assert "Game over." in page.locator("#winner").text_content()
        page.screenshot(path=str(shots / "replay-table-end.png"), full_page=True)
        # The same page without the link's secret says what is missing, and shows nothing.
        page.goto(f"{server.url}/t/{created['table']}/replay")
        page.wait_for_selector("#message:not([hidden])")
        assert "no seat or watch secret" in page.locator("#message").text_content()
        page.close()
    finally:
        server.stop()


def test_the_replay_link_is_not_there_while_the_game_goes_on(browser, tmp_path, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="replay-link-open")
    server.start()
    try:
        created = server.create("standard", [{"name": "Ana"}, {"bot": "greedy"}])
        page = browser.new_page(viewport=DESKTOP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(created["seats"][0]["url"])
        page.wait_for_selector("body[data-version]")
        assert page.locator("#replay-link").count() == 0
        # Typed by hand, the replay's address sends back to the table.
        page.goto(f"{server.url}/t/{created['table']}/replay")
        page.wait_for_selector("body.table-page")
        assert page.url == f"{server.url}/t/{created['table']}"
        page.close()
    finally:
        server.stop()


def test_the_replay_of_a_table_tells_a_seat_handed_to_a_bot_in_its_move_list(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="replay-seat-event")
    server.start()
    try:
        created = server.create("standard", [{"name": "Ana"}, {"bot": "random"}])
        hand = urllib.request.Request(f"{server.url}/api/tables/{created['table']}/seats/0/bot", method="POST",
                                      data=json.dumps({"bot": "random"}).encode(),
                                      headers={"Content-Type": "application/json",
                                               "Authorization": f"Bearer {created['admin_secret']}"})
        with urllib.request.urlopen(hand, timeout=10) as answer:
            assert answer.status == 200
        watch = created["watch_url"].split("#", 1)[1].split("=", 1)[1]
        wait_for_the_end(server, created["table"], watch)
        page = open_page(browser, f"{server.url}/t/{created['table']}/replay#watch={watch}", DESKTOP, errors)
        told = page.locator("#log-list li.log-seat-event")
        assert told.count() == 1
        assert told.text_content() == "Ana's seat is played by the bot 'random' from now on"
        assert told.get_attribute("data-event") == "bot" and told.get_attribute("data-seat") == "0"
        # Told right under the step it followed (the deal, unless the bot moved first); it is no step.
        request = urllib.request.Request(f"{server.url}/api/tables/{created['table']}/replay",
                                         headers={"Authorization": f"Bearer {watch}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            (event,) = json.load(answer)["seat_events"]
        assert event["step"] in (0, 1)
        before = told.evaluate("item => item.previousElementSibling.querySelector('[data-step]').dataset.step")
        assert before == str(event["step"])
        assert told.locator("button").count() == 0
        page.screenshot(path=str(shots / "replay-seat-event.png"))
        page.close()
    finally:
        server.stop()
