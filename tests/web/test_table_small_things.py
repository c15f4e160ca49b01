"""Small things of the online table's page, in Chromium (Playwright, as test_browser.py): "?" and
"help" in the move box, a "not connected" message that goes once the page is live again, a
warning about one tile that says so, the final table's legend about a score held at 0, and a
styled page with a way home for an unknown table (404) or a link with a wrong secret.
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest
from test_browser import DESKTOP, PHONE, Person, browser, play, server, shots  # noqa: F401  (fixtures)


@pytest.fixture
def errors():
    found: list[str] = []
    yield found
    assert not found, "errors on the pages:\n" + "\n".join(found)


def test_the_move_box_answers_question_mark_and_help(browser, server, shots, errors):  # noqa: F811
    table = server.create("standard", [{"name": "Ana"}, {"name": "Bob"}])
    ana = Person(browser.new_context(viewport=PHONE), table["seats"][0]["url"], "Ana", errors)
    page = ana.page
    page.fill("input[name=move]", "?")
    page.press("input[name=move]", "Enter")
    page.wait_for_selector("#move-answer pre")
    listing = page.inner_text("#move-answer pre")
    assert listing.startswith("Type e.g. ") and "5 " not in listing.split("\n")[0]
    # The terminal's filter: only factory 1's tiles.
    page.fill("input[name=move]", "? 1")
    page.press("input[name=move]", "Enter")
    page.wait_for_function("t => document.querySelector('#move-answer pre').textContent !== t", arg=listing)
    assert all(line.strip().startswith(("Type e.g.", "1", "The first")) or not line.strip()
               for line in page.inner_text("#move-answer pre").splitlines())
    page.fill("input[name=move]", "help")
    page.press("input[name=move]", "Enter")
    page.wait_for_function("() => document.querySelector('#move-answer pre').textContent.startsWith('Type a move')")
    text = page.inner_text("#move-answer pre")
    assert "2R4" in text and "? C" in text and "help" in text
    page.screenshot(path=str(shots / "log-help-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Nothing was sent as a move: no refusal, and it is still Ana's turn at version 1.
    assert page.locator("#message").is_hidden() and ana.my_turn()


def test_not_connected_goes_away_when_the_page_is_live_again(browser, server, errors):  # noqa: F811
    table = server.create("standard", [{"name": "Ana"}, {"name": "Bob"}])
    seen: list[str] = []  # a file still loading when the server is killed fails: expected here
    ana = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ana", seen)
    page = ana.page
    page.wait_for_load_state("load")
    server.kill()
    page.wait_for_selector("#connection:not([data-status='live'])", timeout=10000)
    page.locator("#supply button.tile.pickable").first.click()
    page.locator(".board.mine .target").first.click()
    page.click("#confirm")
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message").startswith("Not connected")
    server.start(port=server.port)
    page.wait_for_selector("#connection[data-status='live']", timeout=20000)
    page.wait_for_selector("#message", state="hidden", timeout=5000)
    errors.extend(error for error in seen if "Failed to load resource" not in error)


def test_a_misplaced_single_tile_is_called_the_tile(browser, server, errors):  # noqa: F811
    """Duel: a draft of one tile onto a line that can't take it warns that "the tile" falls to
    the floor (not "all 1 tile")."""
    table = server.create("duel", [{"name": "Ann"}, {"name": "Bob"}])
    ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
    bob = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Bob", errors)
    warned = None
    deadline = time.monotonic() + 120
    while warned is None and time.monotonic() < deadline and not ann.over():
        for person in (ann, bob):
            if not person.my_turn():
                continue
            page = person.page
            for tile in page.locator("#supply button.tile.pickable").all():
                source, colour = tile.get_attribute("data-source"), tile.get_attribute("data-colour")
                same = page.locator(f"#supply [data-source='{source}'] button.tile[data-colour='{colour}']").count()
                if same != 1:
                    continue
                tile.click()
                misplaced = page.locator(".board.mine .target.misplaced")
                if misplaced.count():
                    misplaced.first.click()
                    page.wait_for_selector("#pending-warning:not([hidden])")
                    warned = page.inner_text("#pending-warning")
                    page.click("#cancel")
                    break
                page.keyboard.press("Escape")
            if warned is None:
                person.play_one()
        time.sleep(0.02)
    assert warned is not None, "no single tile was ever offered onto a line that can't take it"
    assert "The tile would fall to the floor" in warned and "All 1" not in warned, warned
    # Why, in a player's words (the server's, as for a refusal): "Careful: Line 1 was tiled this round..."
    assert re.match(r"Careful: (Line \d|The wall's row \d)", warned) and "pattern line" not in warned, warned


def test_the_final_table_explains_a_score_held_at_zero(browser, server, shots, errors):  # noqa: F811
    table = server.create("standard", [{"bot": "random"}, {"bot": "random"}])
    watcher = Person(browser.new_context(viewport=DESKTOP), table["watch_url"], "watcher", errors)
    watcher.page.wait_for_selector("#final-panel", timeout=120000)
    legend = watcher.page.inner_text("#final-panel .legend")
    assert "A score never goes below 0" in legend
    # Random bots fill their floors: some score was held at 0, and its row says so.
    held = watcher.page.locator("#final-panel .final-score .held")
    assert held.count() >= 1 and "never goes below 0" in held.first.get_attribute("title")
    assert "*" in legend
    watcher.page.locator("#final-panel").screenshot(path=str(shots / "log-final-legend.png"))


def test_an_unknown_table_or_a_wrong_secret_shows_a_page_with_a_way_home(browser, server, shots, errors):  # noqa: F811
    with pytest.raises(urllib.error.HTTPError) as unknown:
        urllib.request.urlopen(server.url + "/t/no-such-table", timeout=10)
    assert unknown.value.code == 404
    assert unknown.value.headers["content-type"].startswith("text/html")
    page = browser.new_context(viewport=PHONE).new_page()
    for path in ("/t/no-such-table", "/no/such/page"):
        answer = page.goto(server.url + path)
        assert answer.status == 404
        assert page.locator("link[href='/static/azul.css']").count() == 1
        assert "no table" in page.inner_text("h2").lower()
        page.click("a.button[href='/']")
        page.wait_for_selector("#create")
    page.goto(server.url + "/t/no-such-table")
    page.screenshot(path=str(shots / "log-not-found-phone.png"), full_page=True)
    # The API still answers in JSON.
    with pytest.raises(urllib.error.HTTPError) as api:
        urllib.request.urlopen(server.url + "/api/no-such-thing", timeout=10)
    assert api.value.code == 404 and api.value.headers["content-type"].startswith("application/json")
    # A wrong secret (the server never sees it: it is told over the socket) gets the same look.
    table = server.create("standard", [{"name": "Ana"}, {"name": "Bob"}])
    page.goto(table["seats"][0]["url"].split("#")[0] + "#seat=not-the-secret")
    page.wait_for_selector("#link-problem")
    assert page.locator("#link-problem a[href='/']").count() == 1
    assert page.locator("#boards").is_hidden() and page.locator("#message").is_visible()
    page.screenshot(path=str(shots / "log-wrong-link-phone.png"), full_page=True)
